//! Online entries (`Action::Entry`): registration, check-in and withdrawal by players' accounts,
//! the start of a round's online games, and the forfeits of players who never arrive (NASPA
//! III.C, V.K.1; WESPA 2.3.5, 2.3.6). The types are `../entries.rs`.

use crate::entries::{
    Entrant, EntryChange, NoShow, OnlineEntries, MAX_ENTRANTS, MAX_USERNAME, NO_SHOW_MINUTES,
};
use crate::error::{Result, TournamentError};
use crate::model::{Division, Format, GameResult, PlayerId};

/// Whether `name` can be a lexicon's name: 1 to 64 letters, digits, `-` and `_`.
fn is_lexicon_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Division {
    fn entry_refused(&self, reason: impl Into<String>) -> TournamentError {
        TournamentError::BadSetting {
            division: self.name.clone(),
            reason: reason.into(),
        }
    }

    /// The division's entries, or why there are none.
    fn entries_mut(&mut self) -> Result<&mut OnlineEntries> {
        if self.entries.is_none() {
            return Err(self.entry_refused("the division is not open to online entries"));
        }
        Ok(self.entries.as_mut().expect("checked"))
    }

    /// Whether the event has started for this division (a round is paired).
    fn started(&self) -> bool {
        !self.rounds.is_empty()
    }

    /// `Entry`: one change to the division's online entries; refused as a whole or made.
    pub(super) fn entry(&mut self, change: &EntryChange) -> Result<()> {
        match change {
            EntryChange::Open {
                check_in_from_ms,
                no_show_minutes,
                lexicon,
            } => self.open_entries(*check_in_from_ms, *no_show_minutes, lexicon.as_deref()),
            EntryChange::Close => self.close_entries(),
            EntryChange::Register {
                account_id,
                username,
                ..
            } => self.register(*account_id, username),
            EntryChange::CheckIn { account_id, at_ms } => self.check_in(*account_id, *at_ms),
            EntryChange::Withdraw { account_id } => self.withdraw_entry(*account_id),
            EntryChange::RoundStarted { round, at_ms } => {
                self.check_round(*round)?;
                self.entries_mut()?.rounds_started.push((*round, *at_ms));
                Ok(())
            }
            EntryChange::NoShow {
                round,
                game_id,
                absent,
            } => self.no_show(*round, game_id, absent),
        }
    }

    fn open_entries(&mut self, from_ms: i64, minutes: u32, lexicon: Option<&str>) -> Result<()> {
        if self.config.format != Format::Individual {
            return Err(self.entry_refused(
                "online entries are for divisions of individual players, not teams",
            ));
        }
        if !NO_SHOW_MINUTES.contains(&minutes) {
            return Err(self.entry_refused(format!(
                "the time to arrive must be {} to {} minutes, not {minutes}",
                NO_SHOW_MINUTES.start(),
                NO_SHOW_MINUTES.end()
            )));
        }
        if from_ms < 0 {
            return Err(self.entry_refused("check-in cannot open before 1970"));
        }
        if let Some(l) = lexicon {
            if !is_lexicon_name(l) {
                return Err(self.entry_refused(format!("{l:?} is not a lexicon's name")));
            }
        }
        let lexicon = lexicon.map(str::to_string);
        match &mut self.entries {
            Some(e) => {
                e.open = true;
                e.check_in_from_ms = from_ms;
                e.no_show_minutes = minutes;
                e.lexicon = lexicon;
            }
            None => {
                self.entries = Some(OnlineEntries {
                    open: true,
                    check_in_from_ms: from_ms,
                    no_show_minutes: minutes,
                    lexicon,
                    entrants: Vec::new(),
                    rounds_started: Vec::new(),
                    no_shows: Vec::new(),
                })
            }
        }
        Ok(())
    }

    fn close_entries(&mut self) -> Result<()> {
        let started = self.started();
        let e = self.entries_mut()?;
        if !e.open {
            return Err(self.entry_refused("registration is already closed"));
        }
        let e = self.entries.as_mut().expect("checked");
        e.open = false;
        if started {
            return Ok(());
        }
        // Nobody is paired yet: whoever did not check in does not play.
        let absent: Vec<PlayerId> = e
            .entrants
            .iter_mut()
            .filter(|x| !x.withdrawn && !x.checked_in)
            .map(|x| {
                x.withdrawn = true;
                x.player
            })
            .collect();
        for p in absent {
            self.withdraw(p, 1)?;
        }
        Ok(())
    }

    fn register(&mut self, account_id: i64, username: &str) -> Result<()> {
        let name = username.trim();
        if account_id <= 0 {
            return Err(self.entry_refused(format!("{account_id} is not an account")));
        }
        if name.is_empty()
            || name.chars().count() > MAX_USERNAME
            || name.chars().any(char::is_control)
        {
            return Err(self.entry_refused(format!(
                "an entrant's name must be 1 to {MAX_USERNAME} printable characters"
            )));
        }
        let started = self.started();
        let e = self.entries_mut()?;
        let (open, known) = (
            e.open,
            e.entrants.iter().position(|x| x.account_id == account_id),
        );
        if !open {
            return Err(self.entry_refused("registration is closed"));
        }
        if started {
            return Err(self.entry_refused("registration is closed: round 1 has been paired"));
        }
        if let Some(i) = known {
            let x = &self.entries.as_ref().expect("checked").entrants[i];
            let p = x.player;
            if !x.withdrawn {
                return Err(
                    self.entry_refused(format!("{name} is already registered (player #{p})"))
                );
            }
            // Back again: the same player, reinstated (refused, changing nothing, if ejected).
            self.reinstate(p)?;
            self.players[p as usize - 1].name = name.to_string();
            let x = &mut self.entries.as_mut().expect("checked").entrants[i];
            x.withdrawn = false;
            x.checked_in = false;
            x.username = name.to_string();
            return Ok(());
        }
        let e = self.entries.as_ref().expect("checked");
        if e.entrants.len() >= MAX_ENTRANTS {
            return Err(
                self.entry_refused(format!("the division is full ({MAX_ENTRANTS} entrants)"))
            );
        }
        self.add_player(name, 0, &None, None, &[])?;
        let player = self.players.len() as u32;
        self.entries
            .as_mut()
            .expect("checked")
            .entrants
            .push(Entrant {
                account_id,
                username: name.to_string(),
                player,
                checked_in: false,
                withdrawn: false,
            });
        Ok(())
    }

    /// The index of an account's entry that has not withdrawn, or why not.
    fn active_entrant(&self, account_id: i64) -> Result<usize> {
        let e = self
            .entries
            .as_ref()
            .ok_or_else(|| self.entry_refused("the division is not open to online entries"))?;
        e.entrants
            .iter()
            .position(|x| x.account_id == account_id && !x.withdrawn)
            .ok_or_else(|| self.entry_refused("you are not registered in this division"))
    }

    fn check_in(&mut self, account_id: i64, at_ms: i64) -> Result<()> {
        let i = self.active_entrant(account_id)?;
        let started = self.started();
        let e = self.entries.as_ref().expect("checked");
        if !e.open {
            return Err(self.entry_refused("check-in is closed"));
        }
        if started {
            return Err(self.entry_refused("check-in is closed: round 1 has been paired"));
        }
        if !e.check_in_open(at_ms) {
            return Err(self.entry_refused("check-in has not opened yet"));
        }
        if e.entrants[i].checked_in {
            return Err(self.entry_refused("you have already checked in"));
        }
        self.entries.as_mut().expect("checked").entrants[i].checked_in = true;
        Ok(())
    }

    fn withdraw_entry(&mut self, account_id: i64) -> Result<()> {
        let i = self.active_entrant(account_id)?;
        if self.started() {
            return Err(self.entry_refused(
                "the event has started (round 1 is paired): only the director can withdraw you now",
            ));
        }
        let x = &mut self.entries.as_mut().expect("checked").entrants[i];
        x.withdrawn = true;
        x.checked_in = false;
        let p = x.player;
        self.withdraw(p, 1)
    }

    /// NASPA III.C: a player who has not arrived when the time runs out forfeits, and if neither
    /// arrives the game is double-forfeited; WESPA 2.3.5: a player who fails to arrive before
    /// their game time expires forfeits. The margin is the division's forfeit spread (NASPA
    /// V.K.1: 50; WESPA 2.3.6(a): 75). The online game is unlinked: it reports nothing more.
    fn no_show(&mut self, round: u32, game_id: &str, absent: &[PlayerId]) -> Result<()> {
        let refused = |d: &Division, reason: String| TournamentError::Refused {
            division: d.name.clone(),
            round,
            reason,
        };
        if self.entries.is_none() {
            return Err(self.entry_refused("the division is not open to online entries"));
        }
        let Some(link) = self
            .online
            .iter()
            .position(|o| o.round == round && o.game_id == game_id)
        else {
            return Err(refused(
                self,
                format!("game {game_id} is not an online game of this round"),
            ));
        };
        let (first, second) = (self.online[link].first, self.online[link].second);
        let i = self.game_index(round, first)?;
        let g = self.game_at(round, i);
        if g.opponent_of(first) != Some(second) {
            return Err(refused(
                self,
                format!("game {game_id} is no longer this pairing's game"),
            ));
        }
        if g.result.is_some() {
            return Err(TournamentError::ResultFinal {
                division: self.name.clone(),
                round,
                player: self.who(first),
            });
        }
        let mut who = absent.to_vec();
        who.sort_unstable();
        who.dedup();
        if who.is_empty() || who.len() != absent.len() || !who.iter().all(|p| g.involves(*p)) {
            return Err(refused(
                self,
                format!("{absent:?} are not the players of game {game_id}"),
            ));
        }
        let spread = self.config.forfeit_spread;
        let result = match who.as_slice() {
            [loser] => GameResult::Forfeit {
                loser: *loser,
                spread,
            },
            _ => GameResult::DoubleForfeit { spread },
        };
        let g = self.game_mut(round, i);
        g.slip = None;
        g.result = Some(result);
        self.online.remove(link);
        self.entries
            .as_mut()
            .expect("checked")
            .no_shows
            .push(NoShow {
                round,
                game_id: game_id.to_string(),
                absent: who,
            });
        Ok(())
    }
}

impl EntryChange {
    /// What the change did, in the director's words (for the undo page).
    pub fn words(&self, d: Option<&Division>) -> String {
        let who = |p: u32| match d.and_then(|d| d.player(p)) {
            Some(x) => format!("#{p} {}", x.name),
            None => format!("#{p}"),
        };
        let account = |id: i64| match d
            .and_then(|d| d.entries.as_ref())
            .and_then(|e| e.entrant(id))
        {
            Some(x) => format!("{} (#{})", x.username, x.player),
            None => format!("account {id}"),
        };
        match self {
            EntryChange::Open {
                no_show_minutes, ..
            } => format!(
                "opening online registration (forfeit after {no_show_minutes} minutes absent)"
            ),
            EntryChange::Close => "closing online registration and check-in".into(),
            EntryChange::Register { username, .. } => format!("the registration of {username}"),
            EntryChange::CheckIn { account_id, .. } => {
                format!("the check-in of {}", account(*account_id))
            }
            EntryChange::Withdraw { account_id } => {
                format!("the withdrawal of {}", account(*account_id))
            }
            EntryChange::RoundStarted { round, .. } => {
                format!("the start of round {round}'s online games")
            }
            EntryChange::NoShow {
                round,
                game_id,
                absent,
            } => format!(
                "the no-show forfeit of {} in round {round} (game {game_id})",
                absent
                    .iter()
                    .map(|p| who(*p))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        }
    }
}
