//! Pairings played on the server: linking a pairing to its online game, and the result that game
//! reports (WESPA 6.2.1(d)).

use super::OnlineEnding;
use crate::error::{Result, TournamentError};
use crate::model::{Division, GameResult, OnlineGame, PlayerId, ResultSource};

/// Whether an online game is between these two players (in either seat).
fn same_players(o: &OnlineGame, a: PlayerId, b: PlayerId) -> bool {
    (o.first == a && o.second == b) || (o.first == b && o.second == a)
}

/// Whether `id` can be a server game's id: 1 to 64 ASCII letters, digits and dashes.
fn is_game_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

impl Division {
    /// `StartOnline`: links `player`'s unfinished game in `round` to a server game, replacing any
    /// earlier link of the same pairing.
    pub(super) fn start_online(
        &mut self,
        round: u32,
        player: PlayerId,
        game_id: &str,
    ) -> Result<()> {
        let i = self.game_index(round, player)?;
        let online_err = |reason: String| TournamentError::Refused {
            division: self.name.clone(),
            round,
            reason,
        };
        if !is_game_id(game_id) {
            return Err(online_err(format!("{game_id:?} is not a game id")));
        }
        if self.online.iter().any(|o| o.game_id == game_id) {
            return Err(online_err(format!("game {game_id} is already linked")));
        }
        let g = self.game_at(round, i);
        if g.result.is_some() {
            return Err(TournamentError::ResultFinal {
                division: self.name.clone(),
                round,
                player: self.who(player),
            });
        }
        let (first, second) = (g.first, g.second);
        self.online
            .retain(|o| !(o.round == round && same_players(o, first, second)));
        self.online.push(OnlineGame {
            round,
            first,
            second,
            game_id: game_id.to_string(),
        });
        Ok(())
    }

    /// `ReportOnline`: the final scores of a server game, from `player`'s side (`scores` is the
    /// player's and the opponent's), and whether someone resigned or left (NASPA I.B, V.K.2).
    pub(super) fn report_online(
        &mut self,
        round: u32,
        game_id: &str,
        player: PlayerId,
        (score, opponent_score): (i32, i32),
        ending: Option<OnlineEnding>,
    ) -> Result<()> {
        // A pairing started online takes its result from that game only.
        let i = self.game_index(round, player)?;
        let g = self.game_at(round, i);
        let (first, second) = (g.first, g.second);
        if let Some(o) = self
            .online
            .iter()
            .find(|o| o.round == round && same_players(o, first, second))
        {
            if o.game_id != game_id {
                return Err(TournamentError::Refused {
                    division: self.name.clone(),
                    round,
                    reason: format!(
                        "game {game_id} is not this pairing's online game ({} is)",
                        o.game_id
                    ),
                });
            }
        }
        let (g, f, s) = self.game_awaiting_result(round, player, score, opponent_score)?;
        // Only a player of this game can have resigned or left it.
        let of_game = |p: PlayerId| p == first || p == second;
        let (left_by, resigned_by) = match ending {
            Some(OnlineEnding::Left { player }) if of_game(player) => (Some(player), None),
            Some(OnlineEnding::Resigned { player }) if of_game(player) => (None, Some(player)),
            _ => (None, None),
        };
        g.slip = None;
        g.result = Some(GameResult::Played {
            first_score: f,
            second_score: s,
            source: ResultSource::Online {
                game_id: game_id.to_string(),
            },
            left_by,
            resigned_by,
        });
        Ok(())
    }
}
