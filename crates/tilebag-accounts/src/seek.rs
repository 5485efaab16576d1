//! Seeks and rematches: who may accept a seek, who may start a game, and a rematch offer's
//! life (offer, accept, decline, withdraw, expire).
//!
//! # A seek
//!
//! A [`Seek`] says what the seeker wants: the rules preset (`naspa-2013` …), the lexicon, the
//! time control, rated or casual, a rating range for the opponent, and who may take it: anyone,
//! one invited account, or the computer (the server starts such a game itself; no person may
//! accept it, and it is never rated: a bot's rating would be a number with nothing behind it).
//!
//! # One game at a time (NASPA I.G)
//!
//! NASPA I.G: playing more than one game at the same time is prohibited. Online we apply it to
//! games that count: a player in a rated or event game cannot start another game, and a player
//! in any game cannot start a rated or event one. Casual games may run side by side, and
//! correspondence games (days per turn) are exempt both ways, since their players are expected
//! to have many going ([`may_start`]). The check runs at acceptance for both players: the
//! acceptor and the seeker, who may have sat down elsewhere since seeking.

use crate::glicko2::{Rating, RatingCategory, TimeControl, TimeControlClass};
use crate::AccountId;
use serde::{Deserialize, Serialize};

/// Who may take a seek.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Opponent {
    /// Anyone in range.
    Anyone,
    /// Only this account (a challenge to a friend).
    Invited(AccountId),
    /// The computer at a level (`beginner`, `static`, `simulating`).
    Computer { level: String },
}

/// The acceptor's rating must lie in `min..=max` (either end open).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingRange {
    pub min: Option<u32>,
    pub max: Option<u32>,
}

impl RatingRange {
    /// A range around a rating: `rating − below ..= rating + above`.
    pub fn around(rating: f64, below: u32, above: u32) -> RatingRange {
        let r = rating.round().max(0.0) as u32;
        RatingRange {
            min: Some(r.saturating_sub(below)),
            max: Some(r.saturating_add(above)),
        }
    }

    /// Whether a rating (rounded to whole points, as shown) lies in the range.
    pub fn contains(&self, rating: f64) -> bool {
        let r = rating.round();
        self.min.is_none_or(|m| r >= f64::from(m)) && self.max.is_none_or(|m| r <= f64::from(m))
    }
}

/// A seek in the lobby.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seek {
    pub id: u64,
    pub seeker: AccountId,
    /// The rules preset's name.
    pub preset: String,
    /// The lexicon's name.
    pub lexicon: String,
    pub time_control: TimeControl,
    pub rated: bool,
    pub rating_range: Option<RatingRange>,
    pub opponent: Opponent,
    pub created_ms: u64,
}

/// A game a player is in now, as far as starting another is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurrentGame {
    pub rated: bool,
    /// A game of a tournament event.
    pub event: bool,
    /// Played by correspondence (days per turn).
    pub correspondence: bool,
}

/// Which player a refusal is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Who {
    /// The one asking (acceptor, or the player answering a rematch).
    You,
    /// The other player (the seeker, or the one who offered the rematch).
    Opponent,
}

/// Why a seek is malformed or cannot be accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum SeekError {
    #[error("games against the computer are not rated")]
    RatedComputerGame,
    #[error("the rating range's minimum {min} is above its maximum {max}")]
    EmptyRange { min: u32, max: u32 },
    #[error("you cannot accept your own seek")]
    OwnSeek,
    #[error("this seek is for another player")]
    NotInvited,
    #[error("this seek is for the computer")]
    ComputerSeek,
    #[error("your rating {rating} is outside the seek's range ({range})")]
    RatingOutOfRange { rating: i64, range: String },
    #[error("NASPA I.G: {} already playing a rated or event game, or cannot start one beside another game", match .0 { Who::You => "you are", Who::Opponent => "your opponent is" })]
    SimultaneousGame(Who),
}

impl Seek {
    /// The rating category the game would count in.
    pub fn category(&self) -> RatingCategory {
        RatingCategory::of(&self.lexicon, &self.time_control)
    }

    /// Whether the seek itself makes sense (rated games against the computer are not; a
    /// range must not be empty).
    pub fn validate(&self) -> Result<(), SeekError> {
        if self.rated && matches!(self.opponent, Opponent::Computer { .. }) {
            return Err(SeekError::RatedComputerGame);
        }
        if let Some(RatingRange {
            min: Some(min),
            max: Some(max),
        }) = self.rating_range
        {
            if min > max {
                return Err(SeekError::EmptyRange { min, max });
            }
        }
        Ok(())
    }

    /// Whether this seek's game is played by correspondence.
    pub fn is_correspondence(&self) -> bool {
        self.time_control.class() == TimeControlClass::Correspondence
    }

    /// Whether `acceptor` may accept: not their own seek, invited if the seek names someone,
    /// not a computer seek, their rating in the seek's category (aged to now; a newcomer's
    /// 1500 if they have none) within the range, and NASPA I.G for both players given the
    /// games each is in now.
    pub fn can_accept(
        &self,
        acceptor: AccountId,
        acceptor_rating: &Rating,
        acceptor_games: &[CurrentGame],
        seeker_games: &[CurrentGame],
    ) -> Result<(), SeekError> {
        if acceptor == self.seeker {
            return Err(SeekError::OwnSeek);
        }
        match &self.opponent {
            Opponent::Anyone => {}
            Opponent::Invited(id) if *id == acceptor => {}
            Opponent::Invited(_) => return Err(SeekError::NotInvited),
            Opponent::Computer { .. } => return Err(SeekError::ComputerSeek),
        }
        if let Some(range) = self.rating_range {
            // An invitation names the opponent: no range applies to them.
            if matches!(self.opponent, Opponent::Anyone) && !range.contains(acceptor_rating.rating)
            {
                return Err(SeekError::RatingOutOfRange {
                    rating: acceptor_rating.rating.round() as i64,
                    range: format!(
                        "{}–{}",
                        range.min.map_or("any".to_string(), |m| m.to_string()),
                        range.max.map_or("any".to_string(), |m| m.to_string())
                    ),
                });
            }
        }
        let new_game = CurrentGame {
            rated: self.rated,
            event: false,
            correspondence: self.is_correspondence(),
        };
        may_start(acceptor_games, &new_game).map_err(|_| SeekError::SimultaneousGame(Who::You))?;
        may_start(seeker_games, &new_game)
            .map_err(|_| SeekError::SimultaneousGame(Who::Opponent))?;
        Ok(())
    }
}

/// The game in `current` that keeps a player from starting `new` (NASPA I.G: no two games at
/// once where either counts — rated or event; correspondence games are exempt both ways).
pub fn may_start(current: &[CurrentGame], new: &CurrentGame) -> Result<(), CurrentGame> {
    if new.correspondence {
        return Ok(());
    }
    let new_counts = new.rated || new.event;
    match current
        .iter()
        .filter(|g| !g.correspondence)
        .find(|g| new_counts || g.rated || g.event)
    {
        Some(g) => Err(*g),
        None => Ok(()),
    }
}

/// A finished game, as a rematch sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinishedGame {
    pub game_id: u64,
    /// The players in seat order: `players[0]` went first.
    pub players: [AccountId; 2],
    pub rated: bool,
    pub event: bool,
    pub correspondence: bool,
}

/// Where a rematch offer stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RematchState {
    Pending,
    Accepted,
    Declined,
    Withdrawn,
    Expired,
}

/// How long a rematch offer stands by default: two minutes.
pub const REMATCH_TTL_MS: u64 = 2 * 60_000;

/// Why a rematch offer or answer is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum RematchError {
    #[error("only the players of a game may offer a rematch")]
    NotAPlayer,
    #[error("an event game's next game comes from the director's pairings, not a rematch")]
    EventGame,
    #[error("only the player offered the rematch may accept or decline it")]
    NotTheRecipient,
    #[error("only the player who offered the rematch may withdraw it")]
    NotTheOfferer,
    #[error("the rematch offer is no longer open ({0:?})")]
    NotPending(RematchState),
    #[error(transparent)]
    Seek(#[from] SeekError),
}

/// A rematch offer after a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RematchOffer {
    pub game: FinishedGame,
    pub from: AccountId,
    pub to: AccountId,
    pub made_ms: u64,
    pub expires_ms: u64,
    state: RematchState,
}

impl RematchOffer {
    /// `from` offers the other player of a finished game a rematch, open for `ttl_ms`. (When
    /// the other player has an offer pending already, the server accepts that instead.)
    pub fn offer(
        game: &FinishedGame,
        from: AccountId,
        now_ms: u64,
        ttl_ms: u64,
    ) -> Result<RematchOffer, RematchError> {
        let to = match game.players {
            [a, b] if a == from => b,
            [a, b] if b == from => a,
            _ => return Err(RematchError::NotAPlayer),
        };
        if game.event {
            return Err(RematchError::EventGame);
        }
        Ok(RematchOffer {
            game: *game,
            from,
            to,
            made_ms: now_ms,
            expires_ms: now_ms.saturating_add(ttl_ms),
            state: RematchState::Pending,
        })
    }

    /// The state at `now_ms` (a pending offer past its time is expired).
    pub fn state(&self, now_ms: u64) -> RematchState {
        if self.state == RematchState::Pending && now_ms >= self.expires_ms {
            RematchState::Expired
        } else {
            self.state
        }
    }

    fn pending(&self, now_ms: u64) -> Result<(), RematchError> {
        match self.state(now_ms) {
            RematchState::Pending => Ok(()),
            other => Err(RematchError::NotPending(other)),
        }
    }

    /// The recipient accepts; NASPA I.G is checked for both (`by_games`: the recipient's
    /// current games, `from_games`: the offerer's). On success the new game's seats are
    /// [`next_seats`](Self::next_seats).
    pub fn accept(
        &mut self,
        by: AccountId,
        now_ms: u64,
        by_games: &[CurrentGame],
        from_games: &[CurrentGame],
    ) -> Result<[AccountId; 2], RematchError> {
        if by != self.to {
            return Err(RematchError::NotTheRecipient);
        }
        self.pending(now_ms)?;
        let new_game = CurrentGame {
            rated: self.game.rated,
            event: false,
            correspondence: self.game.correspondence,
        };
        may_start(by_games, &new_game).map_err(|_| SeekError::SimultaneousGame(Who::You))?;
        may_start(from_games, &new_game).map_err(|_| SeekError::SimultaneousGame(Who::Opponent))?;
        self.state = RematchState::Accepted;
        Ok(self.next_seats())
    }

    /// The recipient declines.
    pub fn decline(&mut self, by: AccountId, now_ms: u64) -> Result<(), RematchError> {
        if by != self.to {
            return Err(RematchError::NotTheRecipient);
        }
        self.pending(now_ms)?;
        self.state = RematchState::Declined;
        Ok(())
    }

    /// The offerer takes the offer back.
    pub fn withdraw(&mut self, by: AccountId, now_ms: u64) -> Result<(), RematchError> {
        if by != self.from {
            return Err(RematchError::NotTheOfferer);
        }
        self.pending(now_ms)?;
        self.state = RematchState::Withdrawn;
        Ok(())
    }

    /// The rematch's seats: swapped, so the player who went second goes first.
    pub fn next_seats(&self) -> [AccountId; 2] {
        [self.game.players[1], self.game.players[0]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEEKER: AccountId = 10;
    const ACCEPTOR: AccountId = 20;
    const THIRD: AccountId = 30;

    fn seek(rated: bool, range: Option<RatingRange>, opponent: Opponent) -> Seek {
        Seek {
            id: 1,
            seeker: SEEKER,
            preset: "naspa-2013".to_string(),
            lexicon: "NWL2023".to_string(),
            time_control: TimeControl::minutes(10),
            rated,
            rating_range: range,
            opponent,
            created_ms: 0,
        }
    }

    fn rating(r: f64) -> Rating {
        Rating::new(r, 60.0, 0.06)
    }

    const CASUAL: CurrentGame = CurrentGame {
        rated: false,
        event: false,
        correspondence: false,
    };
    const RATED: CurrentGame = CurrentGame {
        rated: true,
        event: false,
        correspondence: false,
    };
    const EVENT: CurrentGame = CurrentGame {
        rated: false,
        event: true,
        correspondence: false,
    };
    const CORRESPONDENCE_RATED: CurrentGame = CurrentGame {
        rated: true,
        event: false,
        correspondence: true,
    };

    #[test]
    fn a_seek_knows_its_category_and_refuses_nonsense() {
        let s = seek(true, None, Opponent::Anyone);
        assert_eq!(s.category().key(), "NWL2023.rapid");
        assert_eq!(s.validate(), Ok(()));
        let bot = seek(
            true,
            None,
            Opponent::Computer {
                level: "static".into(),
            },
        );
        assert_eq!(bot.validate(), Err(SeekError::RatedComputerGame));
        let empty = seek(
            false,
            Some(RatingRange {
                min: Some(1600),
                max: Some(1500),
            }),
            Opponent::Anyone,
        );
        assert_eq!(
            empty.validate(),
            Err(SeekError::EmptyRange {
                min: 1600,
                max: 1500
            })
        );
    }

    #[test]
    fn who_may_accept() {
        let s = seek(false, None, Opponent::Anyone);
        assert_eq!(
            s.can_accept(SEEKER, &rating(1500.0), &[], &[]),
            Err(SeekError::OwnSeek)
        );
        assert_eq!(s.can_accept(ACCEPTOR, &rating(1500.0), &[], &[]), Ok(()));
        let invite = seek(false, None, Opponent::Invited(ACCEPTOR));
        assert_eq!(
            invite.can_accept(ACCEPTOR, &rating(1500.0), &[], &[]),
            Ok(())
        );
        assert_eq!(
            invite.can_accept(THIRD, &rating(1500.0), &[], &[]),
            Err(SeekError::NotInvited)
        );
        let bot = seek(
            false,
            None,
            Opponent::Computer {
                level: "beginner".into(),
            },
        );
        assert_eq!(
            bot.can_accept(ACCEPTOR, &rating(1500.0), &[], &[]),
            Err(SeekError::ComputerSeek)
        );
    }

    #[test]
    fn the_rating_range_is_inclusive_and_rounded_as_shown() {
        // 1500 ± 200: 1300..=1700.
        let range = RatingRange::around(1500.0, 200, 200);
        assert_eq!(
            range,
            RatingRange {
                min: Some(1300),
                max: Some(1700)
            }
        );
        let s = seek(true, Some(range), Opponent::Anyone);
        assert_eq!(s.can_accept(ACCEPTOR, &rating(1300.0), &[], &[]), Ok(()));
        // 1700.4 shows as 1700: in.
        assert_eq!(s.can_accept(ACCEPTOR, &rating(1700.4), &[], &[]), Ok(()));
        let err = s
            .can_accept(ACCEPTOR, &rating(1700.5), &[], &[])
            .unwrap_err();
        assert_eq!(
            err,
            SeekError::RatingOutOfRange {
                rating: 1701,
                range: "1300–1700".to_string()
            }
        );
        assert_eq!(
            err.to_string(),
            "your rating 1701 is outside the seek's range (1300–1700)"
        );
        let open_top = seek(
            true,
            Some(RatingRange {
                min: Some(1800),
                max: None,
            }),
            Opponent::Anyone,
        );
        assert!(open_top
            .can_accept(ACCEPTOR, &rating(2400.0), &[], &[])
            .is_ok());
        assert!(open_top
            .can_accept(ACCEPTOR, &Rating::default(), &[], &[])
            .is_err());
        // Near zero the range does not wrap.
        assert_eq!(RatingRange::around(100.0, 200, 50).min, Some(0));
    }

    #[test]
    fn naspa_i_g_one_counting_game_at_a_time() {
        let rated = seek(true, None, Opponent::Anyone);
        let casual = seek(false, None, Opponent::Anyone);
        let r = rating(1500.0);
        // In a rated or an event game: no other game at all.
        for busy in [RATED, EVENT] {
            let err = casual.can_accept(ACCEPTOR, &r, &[busy], &[]).unwrap_err();
            assert_eq!(err, SeekError::SimultaneousGame(Who::You));
            assert!(err.to_string().starts_with("NASPA I.G: you are"));
            assert_eq!(
                rated.can_accept(ACCEPTOR, &r, &[], &[busy]),
                Err(SeekError::SimultaneousGame(Who::Opponent))
            );
        }
        // In a casual game: another casual game is fine, a rated one is not.
        assert_eq!(
            casual.can_accept(ACCEPTOR, &r, &[CASUAL], &[CASUAL]),
            Ok(())
        );
        assert_eq!(
            rated.can_accept(ACCEPTOR, &r, &[CASUAL], &[]),
            Err(SeekError::SimultaneousGame(Who::You))
        );
        // Correspondence games are exempt both ways.
        assert_eq!(
            rated.can_accept(ACCEPTOR, &r, &[CORRESPONDENCE_RATED; 3], &[]),
            Ok(())
        );
        let mut by_post = seek(true, None, Opponent::Anyone);
        by_post.time_control = TimeControl::Correspondence {
            per_turn_ms: 86_400_000,
        };
        assert_eq!(by_post.can_accept(ACCEPTOR, &r, &[RATED], &[EVENT]), Ok(()));
        assert_eq!(may_start(&[CASUAL, RATED], &CASUAL), Err(RATED));
    }

    fn finished(event: bool) -> FinishedGame {
        FinishedGame {
            game_id: 77,
            players: [SEEKER, ACCEPTOR],
            rated: true,
            event,
            correspondence: false,
        }
    }

    #[test]
    fn a_rematch_offer_is_accepted_with_the_seats_swapped() {
        let mut offer =
            RematchOffer::offer(&finished(false), ACCEPTOR, 1_000, REMATCH_TTL_MS).unwrap();
        assert_eq!(offer.to, SEEKER);
        assert_eq!(offer.expires_ms, 121_000);
        assert_eq!(offer.state(120_999), RematchState::Pending);
        // The offerer cannot accept their own offer.
        assert_eq!(
            offer.accept(ACCEPTOR, 2_000, &[], &[]),
            Err(RematchError::NotTheRecipient)
        );
        assert_eq!(
            offer.accept(SEEKER, 2_000, &[], &[]),
            Ok([ACCEPTOR, SEEKER])
        );
        assert_eq!(offer.state(2_000), RematchState::Accepted);
        // Settled: later answers are refused, and it never "expires" after acceptance.
        assert_eq!(offer.state(1_000_000), RematchState::Accepted);
        assert_eq!(
            offer.decline(SEEKER, 3_000),
            Err(RematchError::NotPending(RematchState::Accepted))
        );
    }

    #[test]
    fn a_rematch_offer_expires_or_is_declined_or_withdrawn() {
        let g = finished(false);
        let mut late = RematchOffer::offer(&g, SEEKER, 0, 60_000).unwrap();
        assert_eq!(late.state(60_000), RematchState::Expired);
        assert_eq!(
            late.accept(ACCEPTOR, 60_000, &[], &[]),
            Err(RematchError::NotPending(RematchState::Expired))
        );
        let mut declined = RematchOffer::offer(&g, SEEKER, 0, 60_000).unwrap();
        assert_eq!(
            declined.withdraw(ACCEPTOR, 1),
            Err(RematchError::NotTheOfferer)
        );
        assert_eq!(declined.decline(ACCEPTOR, 1), Ok(()));
        assert_eq!(declined.state(2), RematchState::Declined);
        let mut withdrawn = RematchOffer::offer(&g, SEEKER, 0, 60_000).unwrap();
        assert_eq!(
            withdrawn.decline(SEEKER, 1),
            Err(RematchError::NotTheRecipient)
        );
        assert_eq!(withdrawn.withdraw(SEEKER, 1), Ok(()));
        assert_eq!(withdrawn.state(2), RematchState::Withdrawn);
    }

    #[test]
    fn rematches_are_for_the_players_of_casual_or_rated_games_and_obey_naspa_i_g() {
        assert_eq!(
            RematchOffer::offer(&finished(false), THIRD, 0, 1).unwrap_err(),
            RematchError::NotAPlayer
        );
        assert_eq!(
            RematchOffer::offer(&finished(true), SEEKER, 0, 1).unwrap_err(),
            RematchError::EventGame
        );
        // The offerer sat down to a rated game meanwhile: the rated rematch cannot start.
        let mut offer = RematchOffer::offer(&finished(false), SEEKER, 0, 60_000).unwrap();
        assert_eq!(
            offer.accept(ACCEPTOR, 10, &[], &[RATED]),
            Err(RematchError::Seek(SeekError::SimultaneousGame(
                Who::Opponent
            )))
        );
        // The refusal leaves it pending.
        assert_eq!(offer.state(10), RematchState::Pending);
        assert_eq!(
            offer.accept(ACCEPTOR, 20, &[CORRESPONDENCE_RATED], &[]),
            Ok([ACCEPTOR, SEEKER])
        );
    }
}
