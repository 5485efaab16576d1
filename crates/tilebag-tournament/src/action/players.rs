//! Entering and editing players, withdrawing and reinstating them, and ejecting them.

use super::Action;
use crate::error::{Result, TournamentError};
use crate::model::{Correction, Division, Game, GameResult, Pairing, Player, PlayerId};
use crate::schedule::Method;

/// The margin of the loss an ejected player is given for each earlier game outside a round robin
/// (WESPA 6.2.4(a)(ii)).
const EJECTION_MARGIN: i32 = 150;

impl Division {
    /// `AddPlayer`: the next player number, with a name that is not blank.
    pub(super) fn add_player(
        &mut self,
        name: &str,
        rating: i32,
        member_id: &Option<String>,
        career_games: Option<u32>,
        members: &[String],
    ) -> Result<()> {
        if name.trim().is_empty() {
            return Err(TournamentError::EmptyName {
                division: self.name.clone(),
            });
        }
        self.players.push(Player {
            id: self.players.len() as u32 + 1,
            name: name.trim().to_string(),
            rating,
            member_id: member_id.clone(),
            career_games,
            members: members.to_vec(),
            withdrawn_from: None,
            ejected: false,
            tsh_fields: Vec::new(),
            tsh_p12: Vec::new(),
            tsh_lines_before: Vec::new(),
            tsh_lines_after: Vec::new(),
            tsh_one_sided: Vec::new(),
        });
        Ok(())
    }

    /// `EditPlayer`: changes what is given of the name, rating and member id (an empty id removes
    /// it).
    pub(super) fn edit_player(
        &mut self,
        player: PlayerId,
        name: Option<&str>,
        rating: Option<i32>,
        member_id: Option<&str>,
    ) -> Result<()> {
        self.check_player(player)?;
        if name.is_some_and(|n| n.trim().is_empty()) {
            return Err(TournamentError::EmptyName {
                division: self.name.clone(),
            });
        }
        let p = &mut self.players[player as usize - 1];
        if let Some(n) = name {
            p.name = n.trim().to_string();
        }
        if let Some(r) = rating {
            p.rating = r;
        }
        if let Some(m) = member_id {
            p.member_id = if m.is_empty() {
                None
            } else {
                Some(m.to_string())
            };
        }
        Ok(())
    }

    /// `Withdraw`: from `from_round` on the player's unplayed games are forfeits (NASPA V.K.1),
    /// their byes automatic results, and rounds without them give them one.
    pub(super) fn withdraw(&mut self, player: PlayerId, from_round: u32) -> Result<()> {
        self.check_player(player)?;
        let from = from_round.max(1);
        self.players[player as usize - 1].withdrawn_from = Some(from);
        let spread = self.config.forfeit_spread;
        let absent = self.absent_entry(player);
        for r in self.rounds.iter_mut().filter(|r| r.number >= from) {
            match r.pairings.iter().position(|x| x.involves(player)) {
                Some(i) => match &mut r.pairings[i] {
                    // NASPA V.K.1: a no-show forfeits; the opponent wins by the spread.
                    Pairing::Game(g) if g.result.is_none() => {
                        g.slip = None;
                        g.result = Some(GameResult::Forfeit {
                            loser: player,
                            spread,
                        });
                    }
                    Pairing::Bye { .. } => r.pairings[i] = absent.clone(),
                    _ => {}
                },
                None => r.pairings.push(absent.clone()),
            }
        }
        Ok(())
    }

    /// `Reinstate`: a withdrawn player may be paired again; an ejected one may not (WESPA 6.2.4).
    pub(super) fn reinstate(&mut self, player: PlayerId) -> Result<()> {
        self.check_player(player)?;
        if self.players[player as usize - 1].ejected {
            return Err(TournamentError::BadSetting {
                division: self.name.clone(),
                reason: format!("{} was ejected (WESPA 6.2.4) and cannot be reinstated; undo the ejection instead", self.who(player)),
            });
        }
        self.players[player as usize - 1].withdrawn_from = None;
        Ok(())
    }

    /// `KeepTshFields`: what an imported `.t` line had that tilebag does not read, for export:
    /// its unknown fields, its `p12` codes, the comment lines before and after it, and its
    /// one-sided scores.
    pub(super) fn keep_tsh_fields(
        &mut self,
        player: PlayerId,
        fields: &[String],
        p12: &[u8],
        [before, after]: [&[String]; 2],
        one_sided: &[(u32, i32)],
    ) -> Result<()> {
        self.check_player(player)?;
        let p = &mut self.players[player as usize - 1];
        p.tsh_fields = fields.to_vec();
        p.tsh_p12 = p12.to_vec();
        p.tsh_lines_before = before.to_vec();
        p.tsh_lines_after = after.to_vec();
        p.tsh_one_sided = one_sided.to_vec();
        Ok(())
    }

    /// The action that gives player `player` the tsh `class` (`; class B`, what class prizes by
    /// class read), or takes their class away (`None`), keeping everything else an imported line
    /// had. A class is one word, as tsh reads it.
    pub fn class_action(&self, player: PlayerId, class: Option<&str>) -> Result<Action> {
        self.check_player(player)?;
        let class = class.map(str::trim).filter(|c| !c.is_empty());
        if let Some(c) = class {
            if c.contains(|ch: char| ch.is_whitespace() || ch == ';' || ch.is_control()) {
                return Err(TournamentError::BadSetting {
                    division: self.name.clone(),
                    reason: format!(
                        "a class is one word, as tsh reads its `class` field, not {c:?}"
                    ),
                });
            }
        }
        let p = &self.players[player as usize - 1];
        let is_class = |f: &String| {
            let f = f.trim().trim_start_matches(';').trim();
            f.split_whitespace().next() == Some("class")
        };
        let mut fields: Vec<String> = p.tsh_fields.clone();
        let at = fields.iter().position(is_class);
        fields.retain(|f| !is_class(f));
        if let Some(c) = class {
            let field = format!("class {c}");
            match at {
                Some(i) => fields.insert(i.min(fields.len()), field),
                None => fields.push(field),
            }
        }
        Ok(Action::KeepTshFields {
            division: self.name.clone(),
            player,
            fields,
            p12: p.tsh_p12.clone(),
            lines_before: p.tsh_lines_before.clone(),
            lines_after: p.tsh_lines_after.clone(),
            one_sided: p.tsh_one_sided.clone(),
        })
    }

    /// `Eject` (WESPA 6.2.4(a)): withdraws the player from `from_round` on, changes their earlier
    /// results to the ejection's, and ranks them last.
    pub(super) fn eject(&mut self, player: PlayerId, from_round: u32) -> Result<()> {
        self.check_player(player)?;
        if self.players[player as usize - 1].ejected {
            return Err(TournamentError::BadSetting {
                division: self.name.clone(),
                reason: format!("{} is already ejected", self.who(player)),
            });
        }
        let from = from_round.max(1);
        // Later rounds as for a withdrawal (unplayed games are forfeited).
        self.withdraw(player, from)?;
        // A round robin: every block of the schedule and every round posted.
        let round_robin = self
            .schedule
            .blocks
            .iter()
            .all(|b| b.method == Method::RoundRobin)
            && self.rounds.iter().all(|r| r.method == Method::RoundRobin);
        for r in self.rounds.iter_mut().filter(|r| r.number < from) {
            for pairing in &mut r.pairings {
                let Pairing::Game(g) = pairing else { continue };
                let Some((old, new)) = ejection_result(g, player, round_robin) else {
                    continue;
                };
                g.corrections.push(Correction {
                    previous: Some(old),
                    note: format!(
                        "WESPA 6.2.4(a)({}): #{player} ejected",
                        if round_robin { "i" } else { "ii" }
                    ),
                });
                g.result = Some(new);
            }
        }
        self.players[player as usize - 1].ejected = true;
        Ok(())
    }
}

/// The result an ejection gives one of the player's earlier games (WESPA 6.2.4(a)), with the
/// result it replaces; `None` when the game is not theirs, has no result, or keeps it.
fn ejection_result(
    g: &Game,
    player: PlayerId,
    round_robin: bool,
) -> Option<(GameResult, GameResult)> {
    let opponent = g.opponent_of(player)?;
    let old = g.result.clone()?;
    let new = if round_robin {
        GameResult::Void
    } else {
        // The opponent keeps a better result: a win by more than 150.
        let kept = old.outcome_for(g, opponent);
        if kept.wins2 == 2 && kept.spread > EJECTION_MARGIN {
            return None;
        }
        GameResult::Forfeit {
            loser: player,
            spread: EJECTION_MARGIN,
        }
    };
    if old == new {
        // Already the ejection's result (an event read back from a file that records the
        // ejection): nothing changes, nothing to correct.
        return None;
    }
    Some((old, new))
}
