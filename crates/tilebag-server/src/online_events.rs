//! Online events that run themselves (issue 30 item 6). A director opens a division to online
//! entries (the Players tab; the `Entry` actions of `tilebag_tournament::entries`); signed-in
//! players register, check in, or withdraw before the start on their own page of the division
//! (`/events/{event}/{division}/entry`); when the director posts a round, [`start_round`] starts
//! each pairing's game online at once with the two accounts' seats (recorded in the store as an
//! event's seats: not rated online, kept apart from the NASPA/WESPA estimates of the event); and
//! [`Entries::check_no_shows`], run every [`SWEEP_EVERY`] and by the tests with the time given,
//! forfeits the games of players who never opened their seat in time (NASPA III.C, V.K.1; WESPA
//! 2.3.5, 2.3.6). Results flow into the event as every online game's do (`online_results`).
//!
//! The seat link is shown only to its player, on the page only their session opens. Every form
//! is checked as the account pages' are (same origin, the session's CSRF token), and each account
//! may change its entries only so often ([`CHANGES_PER_WINDOW`]).

use crate::accounts::{signed_in, Accounts};
use crate::online_results::Reporter;
use crate::origin::same_origin;
use crate::respond::{back, html_response, public_error};
use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Form, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tilebag_accounts::glicko2::{RatingCategory, TimeControl};
use tilebag_core::ruleset::ClockRule;
use tilebag_events::EventsDir;
use tilebag_live::live::{Hub, NewGame};
use tilebag_pages::online_events::{self as tpl, EntryPage, MyGame};
use tilebag_pages::{enc, Flash};
use tilebag_store::{SeatLink, Store as _};
use tilebag_tournament::entries::EntryChange;
use tilebag_tournament::{Action, Division, Pairing, PlayerId, ResultEntry, Tournament};

/// The CSRF purpose of the entry forms.
const CSRF_PURPOSE: &str = "event-entry";

/// How often the server looks for players who have not arrived.
pub(crate) const SWEEP_EVERY: Duration = Duration::from_secs(15);

/// Entry changes (register, check in, withdraw) one account may make per [`CHANGE_WINDOW`].
pub(crate) const CHANGES_PER_WINDOW: usize = 12;
const CHANGE_WINDOW: Duration = Duration::from_secs(600);
/// Accounts remembered by the limit (a full table is emptied: the limit is a brake, not a
/// ledger).
const MAX_REMEMBERED: usize = 10_000;

/// The online entries' side of the server.
pub(crate) struct Entries {
    pub(crate) events: EventsDir,
    pub(crate) hub: Arc<Hub>,
    pub(crate) accounts: Arc<Accounts>,
    /// The online results' reporter: a game forfeited for a no-show is unlinked from it.
    pub(crate) reporter: Arc<Reporter>,
    /// The connections' idle timeout (the entry page's live stream keeps alive within it).
    pub(crate) idle: Duration,
    /// Recent entry changes per account.
    recent: Mutex<HashMap<i64, VecDeque<Instant>>>,
}

type EntriesState = Arc<Entries>;

/// Wall-clock time, Unix milliseconds.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Runs blocking event-file work off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> anyhow::Result<T> + Send + 'static,
) -> Result<T, String> {
    match tokio::task::spawn_blocking(f).await {
        Ok(r) => r.map_err(|e| format!("{e:#}")),
        Err(_) => Err("the request failed inside the server".into()),
    }
}

impl Entries {
    pub(crate) fn new(
        events: EventsDir,
        hub: Arc<Hub>,
        accounts: Arc<Accounts>,
        reporter: Arc<Reporter>,
        idle: Duration,
    ) -> Entries {
        Entries {
            events,
            hub,
            accounts,
            reporter,
            idle,
            recent: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `account` may make another entry change now (and counts it).
    fn allowed(&self, account: i64) -> bool {
        let now = Instant::now();
        let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        if recent.len() >= MAX_REMEMBERED && !recent.contains_key(&account) {
            recent.clear();
        }
        let q = recent.entry(account).or_default();
        while q
            .front()
            .is_some_and(|t| now.duration_since(*t) > CHANGE_WINDOW)
        {
            q.pop_front();
        }
        if q.len() >= CHANGES_PER_WINDOW {
            return false;
        }
        q.push_back(now);
        true
    }

    /// Forfeits the online games of every division with online entries whose players have not
    /// arrived by the deadline, as of `now_ms` (Unix milliseconds). Arrival is per seat
    /// ([`arrivals`]): a player who opened their seat or acted in the game has arrived; the one
    /// who did neither has not, even if the opponent came and moved (their clock ran for the
    /// latecomer, NASPA III.C, WESPA 2.3.3, and the latecomer still forfeits at the deadline,
    /// WESPA 2.3.5). One player absent: a forfeit win for the other; both: a double forfeit.
    /// Returns the games forfeited.
    pub(crate) async fn check_no_shows(&self, now_ms: i64) -> Vec<String> {
        let mut done = Vec::new();
        let events = self.events.clone();
        let Ok(list) = blocking(move || events.list()).await else {
            return done;
        };
        for e in list {
            let (events, id) = (self.events.clone(), e.id.clone());
            let Ok(t) = blocking(move || events.open_read(&id)?.load()).await else {
                continue;
            };
            for d in &t.divisions {
                for (round, game_id, absent) in self.due(d, now_ms).await {
                    match self.forfeit(&e.id, &d.name, round, &game_id, absent).await {
                        Ok(true) => done.push(game_id),
                        Ok(false) => {}
                        Err(err) => eprintln!(
                            "tilebag-server: event {}, division {}: no-show of game {game_id}: {err}",
                            e.id, d.name
                        ),
                    }
                }
            }
        }
        done
    }

    /// The division's online games past their no-show deadline with a player missing: (round,
    /// game, the players who have not arrived).
    async fn due(&self, d: &Division, now_ms: i64) -> Vec<(u32, String, Vec<PlayerId>)> {
        let mut out = Vec::new();
        let Some(entries) = &d.entries else {
            return out;
        };
        for o in &d.online {
            let Some(deadline) = entries.no_show_deadline_ms(o.round) else {
                continue;
            };
            if now_ms < deadline {
                continue;
            }
            let open = d
                .player_round(o.round, o.first)
                .and_then(|pr| pr.pairing.game().cloned())
                .is_some_and(|g| g.result.is_none() && g.opponent_of(o.first) == Some(o.second));
            if !open {
                continue;
            }
            // Of several processes, only the one running the game knows which seats have been
            // opened (`arrivals`): the others leave the game to it.
            if let Some(c) = self.hub.cluster() {
                if c.fences.generation(&o.game_id).is_none() {
                    continue;
                }
            }
            let Ok(h) = self.hub.get(&o.game_id).await else {
                continue;
            };
            if h.is_ended() {
                continue;
            }
            let Some(here) = arrivals(&self.hub, &h).await else {
                continue;
            };
            let absent: Vec<PlayerId> = [(0, o.first), (1, o.second)]
                .into_iter()
                .filter(|(seat, _)| !here[*seat])
                .map(|(_, p)| p)
                .collect();
            if !absent.is_empty() {
                out.push((o.round, o.game_id.clone(), absent));
            }
        }
        out
    }

    /// Records the forfeit, then ends the online game. The game is unlinked from the reporter
    /// first (the forfeit is its pairing's result: the game's own end reports nothing), and
    /// linked again should the forfeit not be recorded. `Ok(false)`: the game was no longer
    /// linked when the event was read (another process recorded the forfeit first).
    async fn forfeit(
        &self,
        event: &str,
        division: &str,
        round: u32,
        game_id: &str,
        absent: Vec<PlayerId>,
    ) -> Result<bool, String> {
        let (events, ev) = (self.events.clone(), event.to_string());
        let action = Action::Entry {
            division: division.to_string(),
            change: EntryChange::NoShow {
                round,
                game_id: game_id.to_string(),
                absent,
            },
        };
        self.reporter.unlink(game_id);
        let (id, div) = (game_id.to_string(), division.to_string());
        let recorded = blocking(move || {
            let mut recorded = false;
            events.open(&ev)?.append(|t| {
                // Of several processes, each sweeps: the first to record the forfeit unlinks
                // the game, and the others find nothing left to do.
                let linked = t
                    .division(&div)
                    .is_ok_and(|d| d.online.iter().any(|o| o.game_id == id));
                if !linked {
                    return Ok(vec![]);
                }
                recorded = true;
                Ok(vec![action])
            })?;
            Ok(recorded)
        })
        .await;
        match recorded {
            Err(e) => {
                self.reporter.link(event, division, [game_id.to_string()]);
                return Err(e);
            }
            Ok(false) => return Ok(false),
            Ok(true) => {}
        }
        if let Ok(h) = self.hub.get(game_id).await {
            // NASPA III.C: "the game is over and is forfeited".
            let _ = h.director(tilebag_core::Action::DirectorEnd).await;
        }
        Ok(true)
    }

    /// Looks for no-shows every [`SWEEP_EVERY`] until the server stops. Of several processes
    /// (issue 31), the online results' reporter also hears the others' links from now on, and
    /// each sweep first reads again the event files that changed, so that a link whose message
    /// was lost is known within a sweep (`online_results`). Every process sweeps the games it
    /// runs; a forfeit is recorded once all the same ([`Entries::forfeit`]: a game taken over
    /// meanwhile may be swept by its old and its new owner).
    pub(crate) fn spawn_sweep(
        self: &Arc<Self>,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) -> tokio::task::JoinHandle<()> {
        let me = self.clone();
        let several = self.hub.cluster().is_some();
        if several {
            self.reporter.hear_the_others(&self.hub, stop.clone());
        }
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(SWEEP_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = tilebag_live::shutdown::stopped(&mut stop) => return,
                }
                if several {
                    let reporter = me.reporter.clone();
                    let _ = tokio::task::spawn_blocking(move || reporter.reread_changed()).await;
                }
                me.check_no_shows(now_ms()).await;
            }
        })
    }
}

/// Which seats of an event's game have arrived (NASPA III.C, WESPA 2.3.1(b): a player has
/// arrived when seated, ready to play): `None` if that cannot be told now (the database cannot be
/// read; the next sweep asks again).
///
/// A seat has arrived when, since the game was loaded, it has been opened with its token
/// (`GameHandle::seat_opened`, in memory), or when the game's stored log shows it (durable,
/// so a restart forgets neither):
/// - the seat made an action (an event whose actor is the seat);
/// - both seats were there when the game's clock started: the clock starts when both seats have
///   connected (written at once as the game's first clock checkpoint) or with a first action
///   (made at game time 0, the clock standing until then), so a stored checkpoint with no event,
///   or a first event after game time 0, means both had arrived.
///
/// What no store keeps is a seat opened and left while the clock still waited for the other:
/// after a restart that player counts as arrived only when their page opens the seat again (the
/// game page reconnects by itself while it is open) or once they act.
async fn arrivals(hub: &Hub, h: &tilebag_live::game_handle::GameHandle) -> Option<[bool; 2]> {
    let mut here = [h.seat_opened(0), h.seat_opened(1)];
    if here == [true, true] {
        return Some(here);
    }
    let (rec, events) = hub.database().load_game(&h.meta.id).await.ok()??;
    let both = match events.first() {
        None => rec.checkpoint_ms > tilebag_store::NOT_STARTED,
        Some(first) => first.event.at_ms > 0,
    };
    if both {
        return Some([true, true]);
    }
    for e in &events {
        if let tilebag_core::game::Actor::Seat(seat) = e.event.actor {
            if let Some(x) = here.get_mut(seat) {
                *x = true;
            }
        }
    }
    Some(here)
}

/// Starts round `round`'s online games in a division with online entries, at once: each pairing
/// of two registered accounts without a result, a slip or a game gets a game whose seats are the
/// two accounts' (first player in seat 0), linked to the pairing (`StartOnline`, reported as
/// every online game is) and recorded in the store as an event's seats. A bye stays a bye, and a
/// pairing with a player who has no account is left to the director. Returns how many games
/// started.
///
/// An account banned since it registered is given no seat: it cannot sign in, so it could never
/// arrive. Its player is withdrawn from this round on (the director's `Withdraw`, as for a
/// player who leaves the event): the game of this round is a forfeit loss by the division's
/// forfeit spread and the opponent's forfeit win (NASPA V.K.1, III.C; WESPA 2.3.5, 2.3.6), at
/// once rather than at the no-show deadline, and later rounds leave the player out. Both players
/// banned: a double forfeit. Whether an account is banned is asked of the store; should it not
/// answer, the game starts and the no-show deadline settles it.
pub(crate) async fn start_round(
    hub: &Arc<Hub>,
    events: &EventsDir,
    reporter: &Arc<Reporter>,
    event: &str,
    division: &str,
    round: u32,
) -> Result<usize, String> {
    let (ev, ed) = (event.to_string(), events.clone());
    let t: Tournament = blocking(move || ed.open_read(&ev)?.load()).await?;
    let Ok(d) = t.division(division) else {
        return Err(format!("no division {division:?}"));
    };
    let Some(entries) = &d.entries else {
        return Ok(0);
    };
    let Some(r) = d.round(round) else {
        return Err(format!("round {round} has not been paired"));
    };
    let initial_ms = match d.ruleset().clock {
        ClockRule::PerPlayer { initial_ms } => initial_ms,
        ClockRule::SharedGame { total_ms, .. } => total_ms / 2,
    };
    let mut actions = Vec::new();
    let mut seats = Vec::new();
    let now = now_ms();
    for g in r.pairings.iter().filter_map(Pairing::game) {
        let linked = d
            .online
            .iter()
            .any(|o| o.round == round && g.opponent_of(o.first) == Some(o.second));
        if g.result.is_some() || g.slip.is_some() || linked {
            continue;
        }
        let (Some(a), Some(b)) = (entries.of_player(g.first), entries.of_player(g.second)) else {
            continue;
        };
        let banned = [
            is_banned(hub, a.account_id).await,
            is_banned(hub, b.account_id).await,
        ];
        if banned.contains(&true) {
            if banned == [true, true] {
                actions.push(Action::SetResult {
                    division: division.to_string(),
                    round,
                    player: g.first,
                    result: ResultEntry::DoubleForfeit { spread: None },
                    note: "both players' accounts are banned".into(),
                });
            }
            for (player, _) in [(g.first, banned[0]), (g.second, banned[1])]
                .into_iter()
                .filter(|(_, b)| *b)
            {
                actions.push(Action::Withdraw {
                    division: division.to_string(),
                    player,
                    from_round: round,
                });
            }
            continue;
        }
        let made = hub
            .create(NewGame {
                preset: Some(d.preset.clone()),
                rules: d.config.rules.clone(),
                lexicon: entries.lexicon.clone(),
                initial_ms: None,
                names: [a.username.clone(), b.username.clone()],
                seed: None,
                public: false,
                creator: None,
                bot: None,
            })
            .await
            .map_err(|e| format!("could not start a game: {e}"))?;
        let category = RatingCategory::of(
            &made.meta.lexicon,
            &TimeControl::Clock {
                initial_ms: initial_ms.max(0) as u64,
                increment_ms: 0,
                max_overtime_ms: 0,
            },
        )
        .key();
        for (seat, account_id) in [(0u8, a.account_id), (1u8, b.account_id)] {
            seats.push(SeatLink {
                game_id: made.meta.id.clone(),
                seat,
                account_id,
                // An event's game: rated by the rating body's estimates, not online.
                rated: false,
                event: true,
                correspondence: false,
                category: category.clone(),
                created_ms: now,
            });
        }
        actions.push(Action::StartOnline {
            division: division.to_string(),
            round,
            player: g.first,
            game_id: made.meta.id.clone(),
        });
    }
    let n = actions
        .iter()
        .filter(|a| matches!(a, Action::StartOnline { .. }))
        .count();
    if actions.is_empty() {
        return Ok(0);
    }
    let ids: Vec<String> = actions
        .iter()
        .filter_map(|a| match a {
            Action::StartOnline { game_id, .. } => Some(game_id.clone()),
            _ => None,
        })
        .collect();
    actions.push(Action::Entry {
        division: division.to_string(),
        change: EntryChange::RoundStarted { round, at_ms: now },
    });
    let (ev, ed) = (event.to_string(), events.clone());
    blocking(move || ed.open(&ev)?.append(|_| Ok(actions))).await?;
    reporter.link(event, division, ids);
    for pair in seats.chunks(2) {
        if let Err(e) = hub.database().seats().link_seats(pair).await {
            // The game is the event's all the same; only the players' lists of games miss it.
            eprintln!(
                "tilebag-server: could not record the seats of game {}: {e}",
                pair[0].game_id
            );
        }
    }
    Ok(n)
}

/// Whether an account is banned (`false` if the store cannot say: see [`start_round`]).
async fn is_banned(hub: &Hub, account_id: i64) -> bool {
    match hub.database().accounts().account_by_id(account_id).await {
        Ok(Some(a)) => a.banned,
        Ok(None) => false,
        Err(e) => {
            tracing::warn!(account = account_id, error = %e, "cannot tell whether an entrant is banned");
            false
        }
    }
}

/// The routes of the players' entry pages.
pub(crate) fn router(state: Arc<Entries>) -> Router {
    Router::new()
        .route(
            "/events/{event}/{division}/entry",
            get(entry_page).post(entry_post),
        )
        .route("/live/events/{event}/{division}/entry", get(entry_live))
        .with_state(state)
}

fn here(event: &str, division: &str) -> String {
    format!("/events/{}/{}/entry", enc(event), enc(division))
}

fn to_sign_in(event: &str, division: &str) -> Response {
    Redirect::to(&format!("/signin?next={}", enc(&here(event, division)))).into_response()
}

/// The event, or "not found" in the visitor's terms.
async fn load(s: &Entries, event: &str, division: &str) -> Result<Tournament, Response> {
    let (events, ev) = (s.events.clone(), event.to_string());
    let not_found = || {
        public_error(
            StatusCode::NOT_FOUND,
            &format!("There is no event {event:?} with a division {division:?} here."),
        )
    };
    if EventsDir::check_id(event).is_err() {
        return Err(not_found());
    }
    match blocking(move || events.open_read(&ev)?.load()).await {
        Ok(t) if t.division(division).is_ok() => Ok(t),
        _ => Err(not_found()),
    }
}

/// The player's game in the division's latest round they are paired in.
async fn my_game(s: &Entries, d: &Division, me: PlayerId) -> MyGame {
    let Some(round) = d
        .rounds
        .iter()
        .rev()
        .find(|r| r.pairings.iter().any(|x| x.involves(me)))
        .map(|r| r.number)
    else {
        return MyGame::NotPaired;
    };
    match d.player_round(round, me).map(|pr| pr.pairing) {
        Some(Pairing::Bye { spread, .. }) => MyGame::Bye {
            round,
            spread: *spread,
        },
        Some(Pairing::Game(g)) => {
            let online = d
                .online
                .iter()
                .rev()
                .find(|o| o.round == round && g.opponent_of(o.first) == Some(o.second));
            let mut seat_link = None;
            if let (Some(o), None) = (online, &g.result) {
                if let Ok(h) = s.hub.get(&o.game_id).await {
                    let seat = usize::from(o.first != me);
                    seat_link = Some(format!(
                        "/games/{}?token={}",
                        enc(&o.game_id),
                        enc(&h.meta.tokens[seat])
                    ));
                }
            }
            MyGame::Game {
                round,
                board: g.board,
                opponent: g.opponent_of(me).unwrap_or(me),
                first: g.first == me,
                seat_link,
                deadline_ms: d
                    .entries
                    .as_ref()
                    .and_then(|e| e.no_show_deadline_ms(round)),
                result: tpl::result_for(d, g, me),
            }
        }
        _ => MyGame::Absent { round },
    }
}

async fn entry_page(
    State(s): State<EntriesState>,
    headers: HeaderMap,
    Path((event, division)): Path<(String, String)>,
    flash: Result<Query<Flash>, QueryRejection>,
) -> Response {
    let Some(me) = signed_in(&s.accounts, &headers).await else {
        return to_sign_in(&event, &division);
    };
    let t = match load(&s, &event, &division).await {
        Ok(t) => t,
        Err(r) => return r,
    };
    let f = flash.map(|q| q.0).unwrap_or_default();
    let csrf = me.token.csrf_token(CSRF_PURPOSE);
    let page = entry_of(&s, &event, &division, &t, &me.account, &csrf, &f).await;
    html_response(StatusCode::OK, tpl::entry_page(&page))
}

/// The entry page of `account` as it is now.
async fn entry_of<'a>(
    s: &Entries,
    event: &'a str,
    division: &str,
    t: &'a Tournament,
    account: &'a tilebag_store::Account,
    csrf: &'a str,
    flash: &'a Flash,
) -> EntryPage<'a> {
    let d = t.division(division).expect("checked by load");
    let player = d
        .entries
        .as_ref()
        .and_then(|e| e.entrant(account.id))
        .filter(|x| !x.withdrawn)
        .map(|x| x.player);
    let game = match player {
        Some(p) => my_game(s, d, p).await,
        None => MyGame::NotPaired,
    };
    EntryPage {
        event,
        event_name: &t.name,
        d,
        username: &account.username,
        account_id: account.id,
        csrf,
        flash,
        now_ms: now_ms(),
        game,
    }
}

/// How often a player's live entry page looks at its event file (its game's start, its result,
/// check-in opening; any game's change wakes it too).
const LIVE_TICK: Duration = Duration::from_secs(2);

/// `GET /live/events/{event}/{division}/entry`: the signed-in player's entry page's updates, a
/// Server-Sent Events stream of `page` events (`{version, html}`, as the event pages' streams:
/// `td.js` puts the body in place). One is sent when the stream opens and whenever the body
/// changes, e.g. when the director posts the round and the player's seat link appears. The body
/// carries the player's own seat link and form token: the stream is the session's alone (a
/// visitor not signed in is refused, `401`).
async fn entry_live(
    State(s): State<EntriesState>,
    headers: HeaderMap,
    Path((event, division)): Path<(String, String)>,
) -> Response {
    let Some(me) = signed_in(&s.accounts, &headers).await else {
        return public_error(
            StatusCode::UNAUTHORIZED,
            "Sign in to follow your entry live.",
        );
    };
    if let Err(r) = load(&s, &event, &division).await {
        return r;
    }
    let csrf = me.token.csrf_token(CSRF_PURPOSE);
    let account = Arc::new(me.account);
    let feed = crate::push::PageFeed::new(s.events.path(&event).ok());
    let (hub, idle) = (s.hub.clone(), s.idle);
    let ask: crate::push::Ask = Arc::new(move || {
        let (s, event, division, account, csrf, feed) = (
            s.clone(),
            event.clone(),
            division.clone(),
            account.clone(),
            csrf.clone(),
            feed.clone(),
        );
        Box::pin(async move {
            let stamp = feed.stamp().await.ok()?;
            let t = load(&s, &event, &division).await.ok()?;
            let flash = Flash::default();
            let page = entry_of(&s, &event, &division, &t, &account, &csrf, &flash).await;
            feed.page(stamp, tpl::entry_body(&page))
        })
    });
    crate::push::stream_ticking(
        &hub,
        idle,
        Duration::from_secs(1),
        Some(LIVE_TICK),
        true,
        ask,
    )
    .into_response()
}

#[derive(Deserialize)]
struct EntryForm {
    #[serde(default)]
    csrf: String,
    #[serde(rename = "do", default)]
    what: String,
}

async fn entry_post(
    State(s): State<EntriesState>,
    headers: HeaderMap,
    Path((event, division)): Path<(String, String)>,
    form: Result<Form<EntryForm>, FormRejection>,
) -> Response {
    if !same_origin(&headers) {
        return public_error(
            StatusCode::FORBIDDEN,
            "This form was posted from another site.",
        );
    }
    // A banned account has no session (`signed_in`): it is sent to sign in, and refused there.
    let Some(me) = signed_in(&s.accounts, &headers).await else {
        return to_sign_in(&event, &division);
    };
    let here = here(&event, &division);
    let Ok(Form(f)) = form else {
        return back(&here, Err("the form was incomplete".into()));
    };
    if !me.token.check_csrf(CSRF_PURPOSE, &f.csrf) {
        return public_error(
            StatusCode::FORBIDDEN,
            "This form is out of date or did not come from your entry page; please try again.",
        );
    }
    let account_id = me.account.id;
    let at_ms = now_ms();
    let (change, said) = match f.what.as_str() {
        "register" => (
            EntryChange::Register {
                account_id,
                username: me.account.username.clone(),
                at_ms,
            },
            "You are registered.",
        ),
        "check-in" => (
            EntryChange::CheckIn { account_id, at_ms },
            "You have checked in: you will be paired.",
        ),
        "withdraw" => (EntryChange::Withdraw { account_id }, "You have withdrawn."),
        other => {
            return back(
                &here,
                Err(format!(
                    "{:?} is not something an entry page does (register, check-in, withdraw)",
                    other.chars().take(40).collect::<String>()
                )),
            )
        }
    };
    if load(&s, &event, &division).await.is_err() {
        return public_error(
            StatusCode::NOT_FOUND,
            &format!("There is no event {event:?} with a division {division:?} here."),
        );
    }
    if !s.allowed(account_id) {
        return back(
            &here,
            Err(format!(
                "too many changes to your entries: at most {CHANGES_PER_WINDOW} in {} minutes",
                CHANGE_WINDOW.as_secs() / 60
            )),
        );
    }
    let (events, ev, div) = (s.events.clone(), event.clone(), division.clone());
    let done = blocking(move || {
        events.open(&ev)?.append(|_| {
            Ok(vec![Action::Entry {
                division: div,
                change,
            }])
        })
    })
    .await;
    // The tournament's refusal, without the log's wording around it.
    let done = done
        .map(|_| said.to_string())
        .map_err(|e| e.trim_start_matches("refused: ").to_string());
    back(&here, done)
}

/// What the director's form on the Players tab asks for.
#[derive(Deserialize)]
pub(crate) struct DirectorEntriesForm {
    #[serde(rename = "do", default)]
    pub what: String,
    /// `YYYY-MM-DDTHH:MM` (UTC), as a `datetime-local` field sends it; empty: now.
    #[serde(default)]
    pub check_in_from: String,
    #[serde(default)]
    pub no_show_minutes: String,
    #[serde(default)]
    pub lexicon: String,
}

/// Reads `YYYY-MM-DDTHH:MM[:SS]` as UTC, in Unix milliseconds.
fn parse_utc(text: &str) -> Option<i64> {
    let t = text.trim();
    let (date, time) = t.split_once(['T', ' '])?;
    let mut d = date.split('-').map(|x| x.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let mut hm = time.split(':').map(|x| x.parse::<i64>().ok());
    let (h, min) = (hm.next()??, hm.next()??);
    let s = hm.next().flatten().unwrap_or(0);
    if !(1970..=9999).contains(&y)
        || !(1..=12).contains(&m)
        || !(1..=31).contains(&day)
        || !(0..24).contains(&h)
        || !(0..60).contains(&min)
        || !(0..60).contains(&s)
    {
        return None;
    }
    // Howard Hinnant's days-from-civil.
    let y2 = if m <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 86_400) + h * 3600 + min * 60 + s) * 1000)
}

/// The change a director's form asks for, or what is wrong with it.
pub(crate) fn director_change(f: &DirectorEntriesForm, hub: &Hub) -> Result<EntryChange, String> {
    match f.what.as_str() {
        "open" => {
            let check_in_from_ms = if f.check_in_from.trim().is_empty() {
                now_ms()
            } else {
                parse_utc(&f.check_in_from).ok_or_else(|| {
                    format!(
                        "the check-in time must be a date and time (YYYY-MM-DD HH:MM, UTC), not {:?}",
                        f.check_in_from.chars().take(40).collect::<String>()
                    )
                })?
            };
            let no_show_minutes = f.no_show_minutes.trim().parse::<u32>().map_err(|_| {
                "the minutes a player has to arrive must be a whole number".to_string()
            })?;
            let lexicon = Some(f.lexicon.trim().to_string()).filter(|l| !l.is_empty());
            if let Some(l) = &lexicon {
                if !hub.lexicon_names().contains(l) {
                    return Err(format!("the server has no lexicon {l:?}"));
                }
            }
            Ok(EntryChange::Open {
                check_in_from_ms,
                no_show_minutes,
                lexicon,
            })
        }
        "close" => Ok(EntryChange::Close),
        other => Err(format!(
            "{:?} is not an entries action (open, close)",
            other.chars().take(40).collect::<String>()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_utc;

    #[test]
    fn utc_times_read_and_write_back() {
        for ms in [0, 1_795_773_900_000, 951_782_400_000, 4_102_444_800_000] {
            let text = tilebag_pages::online_events::utc(ms);
            let input = format!("{}T{}", &text[..10], &text[11..16]);
            assert_eq!(parse_utc(&input), Some(ms), "{text}");
        }
        assert_eq!(parse_utc("2026-11-27T10:05"), Some(1_795_773_900_000));
        for bad in [
            "",
            "2026-13-01T00:00",
            "2026-11-27",
            "tomorrow",
            "2026-11-27T24:00",
        ] {
            assert_eq!(parse_utc(bad), None, "{bad}");
        }
    }
}
