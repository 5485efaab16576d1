//! Test helpers: an event that applies actions and keeps the log.
#![allow(dead_code)]

use tilebag_tournament::*;

pub struct Event {
    pub t: Tournament,
    pub log: Vec<Action>,
    pub div: String,
}

impl Event {
    pub fn new(preset: &str, schedule: &str, seed: u64) -> Event {
        let mut e = Event {
            t: Tournament::default(),
            log: Vec::new(),
            div: "A".into(),
        };
        e.act(Action::CreateTournament {
            name: "Test Open".into(),
            date: Some("2024-05-04".into()),
        });
        e.act(Action::AddDivision {
            division: "A".into(),
            preset: preset.into(),
            schedule: schedule.into(),
            seed,
        });
        e
    }

    /// Applies an action that must succeed.
    pub fn act(&mut self, a: Action) {
        if let Err(e) = self.t.apply(&a) {
            panic!("{a:?} refused: {e}");
        }
        self.log.push(a);
    }

    /// Applies an action, keeping it only if accepted.
    pub fn try_act(&mut self, a: Action) -> Result<(), TournamentError> {
        self.t.apply(&a)?;
        self.log.push(a);
        Ok(())
    }

    pub fn set(&mut self, setting: Setting) {
        self.act(Action::Configure {
            division: self.div.clone(),
            setting,
        });
    }

    /// Adds `n` players named `SeedNN, Player` rated 2000 − 10·NN.
    pub fn add_seeded(&mut self, n: u32) {
        for i in 1..=n {
            self.add(&format!("Seed{i:02}, Player"), 2000 - 10 * i as i32);
        }
    }

    pub fn add(&mut self, name: &str, rating: i32) {
        self.act(Action::AddPlayer {
            division: self.div.clone(),
            name: name.into(),
            rating,
            member_id: None,
            career_games: None,
            members: Vec::new(),
        });
    }

    pub fn d(&self) -> &Division {
        self.t.division(&self.div).unwrap()
    }

    /// Pairs a round by the schedule; returns the notes.
    pub fn pair(&mut self, round: u32) -> Vec<String> {
        self.pair_with(round, None, None)
    }

    pub fn pair_with(
        &mut self,
        round: u32,
        method: Option<Method>,
        based_on: Option<u32>,
    ) -> Vec<String> {
        let (a, notes) = self
            .t
            .pair(&self.div, round, method, based_on)
            .unwrap_or_else(|e| panic!("pairing round {round}: {e}"));
        self.act(a);
        notes
    }

    pub fn games(&self, round: u32) -> Vec<Game> {
        self.d()
            .round(round)
            .unwrap()
            .pairings
            .iter()
            .filter_map(|p| p.game().cloned())
            .collect()
    }

    /// The games of a round as (lower id, higher id), sorted.
    pub fn pairs(&self, round: u32) -> Vec<(u32, u32)> {
        let mut v: Vec<(u32, u32)> = self
            .games(round)
            .iter()
            .map(|g| (g.first.min(g.second), g.first.max(g.second)))
            .collect();
        v.sort();
        v
    }

    pub fn byes(&self, round: u32) -> Vec<u32> {
        self.d()
            .round(round)
            .unwrap()
            .pairings
            .iter()
            .filter_map(|p| match p {
                Pairing::Bye { player, .. } => Some(*player),
                _ => None,
            })
            .collect()
    }

    pub fn score(&mut self, round: u32, player: u32, score: i32, opp: i32) {
        self.act(Action::SetResult {
            division: self.div.clone(),
            round,
            player,
            result: ResultEntry::Scores {
                score,
                opponent_score: opp,
            },
            note: String::new(),
        });
    }

    /// Enters every open game of a round: the better seed (lower number) wins 400–300.
    pub fn better_seed_wins(&mut self, round: u32) {
        for g in self.games(round) {
            if g.result.is_none() {
                self.score(round, g.first.min(g.second), 400, 300);
            }
        }
    }

    pub fn standing(&self, through: u32, p: u32) -> Standing {
        self.d()
            .standings(through)
            .into_iter()
            .find(|s| s.player == p)
            .unwrap()
    }

    pub fn order(&self, through: u32) -> Vec<u32> {
        self.d()
            .standings(through)
            .iter()
            .map(|s| s.player)
            .collect()
    }
}

/// Serialises a tournament the way a store would.
pub fn json(t: &Tournament) -> String {
    serde_json::to_string(t).unwrap()
}
