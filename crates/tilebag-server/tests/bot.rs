//! Games against the computer over the real HTTP API and WebSocket: the computer's seat actor
//! answers every move through the game's own events, challenges only phonies, plays on after a
//! restart, and the record of the game verifies. And the analysis of ended games: refused while
//! a game is on, right once it is over.

mod common;

use common::*;
use serde_json::{json, Value};
use std::net::SocketAddr;
use tilebag_core::Ruleset;
use tilebag_engine::{Engine, LeaveTable, Move, MoveKind};
use tilebag_lexicon::{Lexicon, WordSource};
use tilebag_server::client::{http, post_json};
use tilebag_server::ServeConfig;

fn bot_config(db: &str) -> ServeConfig {
    let mut c = config(db, &["CAT", "DOG"]);
    c.add_word_source("enable1", WordSource::builtin());
    c
}

fn action_for(m: &Move) -> Value {
    match m.kind {
        MoveKind::Place => {
            json!({"type": "play", "position": m.coordinate(), "word": m.gcg_word()})
        }
        MoveKind::Exchange => json!({"type": "exchange", "tiles": m.used().to_string()}),
        MoveKind::Pass => json!({"type": "pass"}),
    }
}

struct Human {
    conn: Conn,
    seat: usize,
    next: u64,
}

impl Human {
    async fn join(addr: SocketAddr, created: &Value) -> Human {
        let seats = created["seats"].as_array().unwrap();
        assert_eq!(
            seats.len(),
            1,
            "only the human's seat is handed out: {created}"
        );
        let seat = seats[0]["seat"].as_u64().unwrap() as usize;
        assert_eq!(created["bot"]["seat"].as_u64().unwrap() as usize, 1 - seat);
        assert!(seats[0]["token"].is_string());
        let mut conn = Conn::open(addr, seats[0]["ws"].as_str().unwrap()).await;
        // The computer is already seated: the human's arrival starts the game.
        conn.wait_started().await;
        Human {
            conn,
            seat,
            next: 0,
        }
    }

    /// Sends an action; returns its ack or error.
    async fn act(&mut self, mut action: Value) -> Value {
        self.next += 1;
        let id = format!("h{}", self.next);
        action["id"] = json!(id);
        self.conn.ws.send_json(&action).await.unwrap();
        loop {
            let m = self.conn.next().await;
            if (m["type"] == "ack" || m["type"] == "error") && m["id"] == json!(id) {
                return m;
            }
        }
    }

    /// Waits until it is the human's turn (or the game is over); true if it is over.
    async fn wait_turn(&mut self) -> bool {
        loop {
            self.conn.drain().await;
            let v = self.conn.view();
            if v["phase"]["type"] == "ended" {
                return true;
            }
            if v["to_move"].as_u64().unwrap() as usize == self.seat && v["paused"].is_null() {
                return false;
            }
            self.conn.next().await;
        }
    }
}

fn engine_parts() -> (&'static Lexicon, tilebag_engine::Tables) {
    let ruleset = Ruleset::preset("naspa-2013").unwrap();
    (
        Lexicon::builtin_enable(),
        Engine::tables_for(&ruleset).unwrap(),
    )
}

/// The human plays the engine's own best move every turn (accepting the computer's out play),
/// until the game is over. Returns the number of the human's moves.
async fn play_out(h: &mut Human) -> usize {
    let (lex, tables) = engine_parts();
    let engine = Engine::new(lex, &tables, LeaveTable::enable(), 7);
    let mut moves = 0;
    for _ in 0..200 {
        if h.wait_turn().await {
            return moves;
        }
        let v = h.conn.view().clone();
        let action = if v["phase"]["type"] == "play-pending" && v["phase"]["out"] == true {
            json!({"type": "accept"})
        } else {
            moves += 1;
            action_for(&engine.best(&situation_of_view(&v)))
        };
        let r = h.act(action.clone()).await;
        assert_eq!(r["type"], "ack", "{action} refused: {r}");
    }
    panic!("the game did not end: {}", h.conn.view());
}

async fn get_json(addr: SocketAddr, path: &str) -> (u16, Value) {
    let r = http(addr, "GET", path, None).await.unwrap();
    (r.status, r.json().unwrap_or(Value::Null))
}

/// A whole game against the strong computer: it answers every move through the game's events,
/// never challenges a good play, the game ends, the GCG verifies with the lexicon; the game is
/// listed with its computer seat. Then the analysis: refused during the game, and once it is
/// over every turn's alternatives are real moves of that turn's board and rack.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_the_computer_to_the_end_and_analyses_the_game() {
    let served = Served::start("bot-game", bot_config).await;
    let addr = served.addr;
    let created = create(
        addr,
        json!({"players": ["Ann"], "lexicon": "enable1", "seed": 12345,
               "bot": {"level": "static", "seat": 0}}),
    )
    .await;
    assert_eq!(created["bot"]["level"], "static");
    assert_eq!(created["bot"]["name"], "Computer (strong)");
    let id = created["id"].as_str().unwrap().to_string();
    let mut h = Human::join(addr, &created).await;
    assert_eq!(h.seat, 1);

    // The computer moves first: its play is on the board without the human doing anything.
    assert!(!h.wait_turn().await);
    let v = h.conn.view().clone();
    assert_eq!(v["history"][0]["seat"], 0, "{v}");
    assert!(v["players"][0]["score"].as_i64().unwrap() > 0);
    assert!(v["board"].as_array().unwrap().iter().any(|r| r
        .as_str()
        .unwrap()
        .chars()
        .any(|c| c != '.')));

    // Analysing a live game would help a player: refused.
    let (status, body) = get_json(addr, &format!("/api/games/{id}/analysis")).await;
    assert_eq!(status, 409, "{body}");
    assert!(body["message"].as_str().unwrap().contains("over"), "{body}");

    // Listed like any other game, with its computer seat.
    let (_, list) = get_json(addr, "/api/games").await;
    let entry = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id.as_str())
        .unwrap()
        .clone();
    assert_eq!(entry["bot"], json!({"seat": 0, "level": "static"}));
    assert_eq!(entry["players"][0], "Computer (strong)");

    let human_moves = play_out(&mut h).await;
    assert!(human_moves >= 5, "{human_moves}");
    let v = h.conn.view().clone();
    let history = v["history"].as_array().unwrap();
    let bot_plays = history
        .iter()
        .filter(|l| l["seat"] == 0 && l["type"] == "play")
        .count();
    assert!(bot_plays >= 5, "the computer played {bot_plays} times");
    // Every play was good, so the computer never challenged one.
    assert!(!history
        .iter()
        .any(|l| l["type"] == "withdrawal" || l["type"] == "lost-challenge"));
    assert!(v["result"].is_object(), "{v}");

    // The record verifies (as `tilebag gcg verify` does) with the scores of the result, and
    // every word either seat formed is in the lexicon.
    let r = http(addr, "GET", &format!("/api/games/{id}/gcg"), None)
        .await
        .unwrap();
    verify_gcg(&r.text(), final_scores(&v));
    for l in history.iter().filter(|l| l["type"] == "play") {
        for w in l["words"].as_array().unwrap() {
            assert!(
                Lexicon::builtin_enable().contains(w.as_str().unwrap()),
                "{l}"
            );
        }
    }

    // The analysis of the ended game.
    let t0 = std::time::Instant::now();
    let (status, a) = get_json(addr, &format!("/api/games/{id}/analysis")).await;
    let took = t0.elapsed();
    assert_eq!(status, 200, "{a}");
    let turns = a["turns"].as_array().unwrap();
    let plays_and_exchanges = history
        .iter()
        .filter(|l| l["type"] == "play" || l["type"] == "exchange" || l["type"] == "pass")
        .count();
    assert_eq!(turns.len(), plays_and_exchanges, "{a}");
    let (lex, tables) = engine_parts();
    let engine = Engine::new(lex, &tables, LeaveTable::enable(), 7);
    for t in turns {
        let best = t["best"].as_array().unwrap();
        assert!(!best.is_empty() && best.len() <= 5, "{t}");
        let lost = t["equity_lost"].as_f64().unwrap();
        assert!(lost >= 0.0, "{t}");
        // Both seats played the static engine's best move: nothing lost but rounding (the
        // endgame's values are the same search).
        assert!(lost < 0.11, "turn {} lost {lost}: {t}", t["n"]);
        assert!(t["valid"] == true);
        // Each alternative is a move of that board and rack, with that score.
        let rows: Vec<String> = t["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().to_string())
            .collect();
        let s = situation_of_view(&json!({
            "board": rows, "seat": 0, "players": [{"score": 0}, {"score": 0}],
            "rack": t["rack"], "unseen": "", "bag_count": 50, "zero_run": 0,
        }));
        let all = engine.moves(&s);
        for b in best {
            if b["kind"] != "play" {
                continue;
            }
            let found = all
                .iter()
                .find(|m| m.notation() == b["text"].as_str().unwrap());
            let m = found.unwrap_or_else(|| panic!("{b} is not a move of turn {}", t["n"]));
            assert_eq!(i64::from(m.score), b["score"].as_i64().unwrap());
            for tile in b["tiles"].as_array().unwrap() {
                let (r, c) = (tile[0].as_u64().unwrap(), tile[1].as_u64().unwrap());
                assert_eq!(&rows[r as usize][c as usize..=c as usize], ".");
            }
        }
    }
    let totals = a["totals"].as_array().unwrap();
    assert_eq!(
        totals[0]["moves"].as_u64().unwrap() + totals[1]["moves"].as_u64().unwrap(),
        turns.len() as u64
    );
    // Cached: the second answer is the same, at once.
    let t1 = std::time::Instant::now();
    let (_, again) = get_json(addr, &format!("/api/games/{id}/analysis")).await;
    assert_eq!(again, a);
    assert!(t1.elapsed() <= took + std::time::Duration::from_millis(50));
    println!(
        "analysis of {} turns: {took:?} (then {:?} cached)",
        turns.len(),
        t1.elapsed()
    );

    served.stop().await;
}

/// The states the human receives until `done` says the last one is the end of what the test
/// waits for; each as (effects, view).
async fn states_until(h: &mut Human, done: impl Fn(&Value, &Value) -> bool) -> Vec<(Value, Value)> {
    let mut out = Vec::new();
    loop {
        let m = h.conn.next().await;
        if m["type"] != "state" {
            continue;
        }
        let (fx, v) = (m["effects"].clone(), m["view"].clone());
        let stop = done(&fx, &v);
        out.push((fx, v));
        if stop {
            return out;
        }
    }
}

fn has_effect(fx: &Value, kind: &str, seat: Option<u64>) -> bool {
    fx.as_array().is_some_and(|a| {
        a.iter()
            .any(|e| e["type"] == kind && seat.is_none_or(|s| e["seat"] == s))
    })
}

/// Where in `states` the computer (seat 1) held the human's pending play: the state whose
/// effects say so, and whose view shows the play pending and held.
fn hold_index(states: &[(Value, Value)]) -> usize {
    let i = states
        .iter()
        .position(|(fx, _)| has_effect(fx, "held", Some(1)))
        .unwrap_or_else(|| panic!("the computer did not hold: {states:?}"));
    let phase = &states[i].1["phase"];
    assert_eq!(phase["type"], "play-pending", "{phase}");
    assert_eq!(phase["player"], 0, "{phase}");
    assert_eq!(phase["held"], true, "{phase}");
    i
}

/// Under double challenge (NASPA IV.I.3) the computer holds the human's phony (NASPA IV.I.2:
/// the human's view shows the hold first), then challenges it off the board (it knows the
/// lexicon), and plays on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_challenges_a_phony_off() {
    let served = Served::start("bot-phony", bot_config).await;
    let addr = served.addr;
    let created = create(
        addr,
        json!({"players": ["Ann"], "lexicon": "enable1", "preset": "naspa-2013",
               "bot": {"level": "beginner", "seat": 1}}),
    )
    .await;
    let mut h = Human::join(addr, &created).await;
    assert_eq!(h.seat, 0);
    assert!(!h.wait_turn().await);
    // Two tiles of the rack that make no word, played from the centre.
    let rack: Vec<char> = h.conn.view()["rack"]
        .as_str()
        .unwrap()
        .chars()
        .filter(|&c| c != '?')
        .collect();
    let lex = Lexicon::builtin_enable();
    let mut phony = None;
    'outer: for i in 0..rack.len() {
        for j in 0..rack.len() {
            let w: String = [rack[i], rack[j]].iter().collect();
            if i != j && !lex.contains(&w) {
                phony = Some(w);
                break 'outer;
            }
        }
    }
    let phony = phony.expect("two letters that make no word");
    let r = h
        .act(json!({"type": "play", "position": "8H", "word": phony}))
        .await;
    assert_eq!(r["type"], "ack", "{r}");
    // The computer holds, then challenges: the play is withdrawn, the turn is the computer's,
    // and it plays.
    let states = states_until(&mut h, |_, v| {
        v["history"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["seat"] == 1 && l["type"] == "play")
    })
    .await;
    let held = hold_index(&states);
    let verdict = states
        .iter()
        .position(|(fx, _)| has_effect(fx, "verdict", None))
        .expect("a challenge verdict");
    assert!(held < verdict, "the hold comes before the verdict");
    let fx = &states[verdict].0;
    assert!(
        fx.as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "verdict" && e["acceptable"] == false),
        "{fx}"
    );
    assert!(has_effect(fx, "withdrawn", Some(0)), "{fx}");
    let v = &states.last().unwrap().1;
    assert_eq!(v["history"][1]["type"], "withdrawal", "{v}");
    assert_eq!(v["players"][0]["score"], 0);
    served.stop().await;
}

/// The computer holds a good play too while it checks it (NASPA IV.I.2, as a tournament
/// player does), then accepts it by making its own move: no challenge, and the human keeps the
/// score. Under WESPA rules (3.10.5(a)) and SANSPA's limited hold (13.1) alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_holds_a_good_play_then_accepts_it() {
    let served = Served::start("bot-hold", bot_config).await;
    let addr = served.addr;
    let (lex, tables) = engine_parts();
    let engine = Engine::new(lex, &tables, LeaveTable::enable(), 7);
    for preset in ["naspa-2013", "wespa-2010", "sanspa-1999"] {
        // The human's rack is random, and a rare one makes no word at all (such a game cannot
        // show a hold of the human's play): then another game is started.
        let mut tries = 0;
        let (mut h, m) = loop {
            tries += 1;
            assert!(tries <= 20, "{preset}: 20 opening racks without a play");
            let created = create(
                addr,
                json!({"players": ["Ann"], "lexicon": "enable1", "preset": preset,
                       "bot": {"level": "static", "seat": 1}}),
            )
            .await;
            let mut h = Human::join(addr, &created).await;
            assert_eq!(h.seat, 0);
            assert!(!h.wait_turn().await);
            // The best-scoring placement (the rack may be one the engine would rather
            // exchange).
            let best = engine
                .moves(&situation_of_view(h.conn.view()))
                .into_iter()
                .filter(|m| m.kind == MoveKind::Place)
                .max_by_key(|m| m.score);
            if let Some(m) = best {
                break (h, m);
            }
        };
        let r = h.act(action_for(&m)).await;
        assert_eq!(r["type"], "ack", "{preset}: {r}");
        let states = states_until(&mut h, |_, v| {
            v["history"]
                .as_array()
                .unwrap()
                .iter()
                .any(|l| l["seat"] == 1)
        })
        .await;
        let held = hold_index(&states);
        let reply = states.len() - 1;
        assert!(
            held < reply,
            "{preset}: the hold comes before the computer's move"
        );
        for (fx, _) in &states {
            assert!(
                !has_effect(fx, "verdict", None),
                "{preset}: no challenge: {fx}"
            );
            assert!(!has_effect(fx, "withdrawn", None), "{preset}: {fx}");
        }
        let v = &states[reply].1;
        assert_eq!(v["history"][0]["seat"], 0, "{preset}: {v}");
        assert_eq!(v["history"][0]["type"], "play", "{preset}: {v}");
        assert_eq!(v["players"][0]["score"], m.score, "{preset}: {v}");
        assert!(v["history"][1]["seat"] == 1, "{preset}: {v}");
        assert_ne!(v["phase"]["held"], true, "{preset}: the hold is over");
    }
    served.stop().await;
}

/// The computer's seat is part of the stored game: after a crash and a restart on the same
/// database, it answers the human's next move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_plays_on_after_a_restart() {
    let mut served = Served::start("bot-restart", bot_config).await;
    let addr = served.addr;
    let created = create(
        addr,
        json!({"players": ["Ann"], "lexicon": "enable1", "bot": {"level": "sim", "seat": 1}}),
    )
    .await;
    let (lex, tables) = engine_parts();
    let engine = Engine::new(lex, &tables, LeaveTable::enable(), 7);
    let mut h = Human::join(addr, &created).await;
    assert!(!h.wait_turn().await);
    let m = engine.best(&situation_of_view(h.conn.view()));
    assert_eq!(h.act(action_for(&m)).await["type"], "ack");
    assert!(!h.wait_turn().await);
    let before = h.conn.view()["history"].as_array().unwrap().len();
    assert!(before >= 2);
    served.server.kill();

    served.server = tilebag_server::start(bot_config(&served.db)).await.unwrap();
    served.addr = served.server.addr();
    let addr = served.addr;
    let mut conn = Conn::open(addr, created["seats"][0]["ws"].as_str().unwrap()).await;
    conn.wait_started().await;
    let mut h = Human {
        conn,
        seat: 0,
        next: 100,
    };
    assert!(!h.wait_turn().await);
    assert_eq!(h.conn.view()["history"].as_array().unwrap().len(), before);
    let m = engine.best(&situation_of_view(h.conn.view()));
    assert_eq!(h.act(action_for(&m)).await["type"], "ack");
    // The computer answers after the restart.
    assert!(!h.wait_turn().await);
    let hist = h.conn.view()["history"].as_array().unwrap().clone();
    assert!(hist.len() >= before + 2, "{hist:?}");
    assert_eq!(hist.last().unwrap()["seat"], 1);
    served.stop().await;
}

/// Bad requests get clear errors: an unknown level, a seat that does not exist, two names, an
/// unknown lexicon, a lexicon the computer cannot generate with; and a game whose lexicon is no
/// word list cannot be analysed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_computer_requests_are_refused_clearly() {
    let served = Served::start("bot-bad", bot_config).await;
    let addr = served.addr;
    let cases = [
        (
            json!({"players": ["A"], "lexicon": "enable1", "bot": {"level": "grandmaster"}}),
            "unknown level",
        ),
        (
            json!({"players": ["A"], "lexicon": "enable1", "bot": {"level": "static", "seat": 2}}),
            "bot.seat",
        ),
        (
            json!({"players": ["A", "B"], "lexicon": "enable1", "bot": {"level": "static"}}),
            "name one player",
        ),
        (
            json!({"players": ["A"], "lexicon": "nope", "bot": {"level": "static"}}),
            "unknown lexicon",
        ),
        (
            json!({"players": ["A"], "lexicon": "test", "bot": {"level": "static"}}),
            "cannot play with the lexicon",
        ),
        (
            json!({"players": ["A"], "bot": {"level": "static", "colour": "red"}}),
            "colour",
        ),
    ];
    for (body, want) in cases {
        let r = post_json(addr, "/api/games", &body).await.unwrap();
        assert!(r.status == 422 || r.status == 400, "{body}: {}", r.text());
        let j = r.json().unwrap();
        assert!(j["message"].as_str().unwrap().contains(want), "{body}: {j}");
    }
    // A people's game with the test lexicon (a plain set of words), ended by a resignation.
    let created = create(addr, json!({"players": ["A", "B"]})).await;
    let mut t = Table::open(addr, &created, false).await;
    t.ok(0, json!({"type": "resign"})).await;
    let (status, body) = get_json(addr, &format!("/api/games/{}/analysis", t.id)).await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("word list"),
        "{body}"
    );
    let (status, _) = get_json(addr, "/api/games/zzzzzzzzzz/analysis").await;
    assert_eq!(status, 404);
    served.stop().await;
}
