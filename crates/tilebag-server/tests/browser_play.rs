//! The game page, second pass (issue 29), in headless Chromium, each at a 360 x 740 phone's
//! viewport and a 1400 x 900 desktop's:
//!
//! 1. the board, the rack, the live score and the buttons of the decision at hand all on one
//!    screen, without scrolling, in every state of a turn (one's own move, the opponent's
//!    pending play, an exchange, the blank's letter, the end);
//! 2. the analysis's preview of a move in view, with the scores, racks and unseen tiles of that
//!    moment, and the moves written as words (no dot for a tile already on the board);
//! 7. Resign and Leave apart from the move buttons and told apart, no Resign against an out
//!    play, and the keys a Woogles player expects;
//! 8. a dark theme and a high-contrast board, alphabetising the rack, a sound when the opponent
//!    moves, a notepad, stepping through a finished game, the equity of every alternative.
//!
//! axe-core (with its best-practice rules) is run in every state measured, and nothing may
//! scroll sideways at 360 px. Without Chromium and chromedriver the tests print "skipping" and
//! pass. Screenshots go to `target/browser-screenshots/` (names `p29-*`).

mod browser_support;
mod common;

use browser_support::{keys, Browser, Driver, Session, TestServer};
use serde_json::{json, Value};
use std::time::Duration;

/// The two sizes every test is run at: a phone's viewport and a desktop's.
const SIZES: [(&str, u32, u32); 2] = [("phone", 360, 740), ("desktop", 1400, 900)];

/// A seed whose first rack (seat 0's, Alice's) holds a blank, so that the blank's prompt can be
/// shown. Games are made (and left unplayed) until one does.
fn seed_with_a_blank_for_alice(server: &TestServer) -> u64 {
    for seed in 1..400u64 {
        let g = server.create_game(json!({"players": ["Zed", "Yan"], "seed": seed}));
        let d = Driver::open(server, &g);
        let rack = d.views[0]["rack"].as_str().unwrap_or("").to_string();
        d.close(server);
        if rack.contains('?') {
            return seed;
        }
    }
    panic!("no seed below 400 gives the first rack a blank");
}

/// Where the parts matching each selector are (every match of each), as the window shows them
/// now: `{h, w, y, parts: {selector: [{top, bottom, left, right, shown}]}}`. With `top`, the
/// page is scrolled to its top first (a page just opened, or a person who has not scrolled).
fn measure(s: &Session<'_>, sels: &[&str], top: bool) -> Value {
    s.js(
        "if (arguments[1]) window.scrollTo(0, 0);
         const out = {h: window.innerHeight, w: document.documentElement.clientWidth, y: Math.round(window.scrollY), parts: {}};
         for (const sel of arguments[0]) {
           out.parts[sel] = [...document.querySelectorAll(sel)].map((e) => {
             const r = e.getBoundingClientRect();
             const st = getComputedStyle(e);
             return {top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left),
                     right: Math.round(r.right),
                     shown: e.getClientRects().length > 0 && r.width > 0 && r.height > 0
                       && st.visibility !== 'hidden' && !e.closest('[hidden]')};
           });
         }
         return out;",
        json!([sels, top]),
    )
}

/// Fails unless every part named is shown and wholly inside the window as it is now (after
/// scrolling to the top when `top`); prints the figures either way.
fn assert_on_screen(s: &Session<'_>, what: &str, sels: &[&str], top: bool) -> Value {
    let m = measure(s, sels, top);
    let (h, w) = (m["h"].as_i64().unwrap(), m["w"].as_i64().unwrap());
    let mut lines = Vec::new();
    let mut bad = Vec::new();
    for sel in sels {
        let parts = m["parts"][sel].as_array().unwrap();
        if parts.is_empty() {
            bad.push(format!("{sel}: not on the page"));
            continue;
        }
        let top_px = parts
            .iter()
            .map(|p| p["top"].as_i64().unwrap())
            .min()
            .unwrap();
        let bottom_px = parts
            .iter()
            .map(|p| p["bottom"].as_i64().unwrap())
            .max()
            .unwrap();
        lines.push(format!("{sel} {top_px}–{bottom_px}"));
        for p in parts {
            let (t, b) = (p["top"].as_i64().unwrap(), p["bottom"].as_i64().unwrap());
            let (l, r) = (p["left"].as_i64().unwrap(), p["right"].as_i64().unwrap());
            if p["shown"] != true {
                bad.push(format!("{sel}: not shown"));
            } else if t < 0 || b > h || l < 0 || r > w {
                bad.push(format!(
                    "{sel}: at {t}–{b} px (x {l}–{r}), outside the {w} x {h} window"
                ));
            }
        }
    }
    println!(
        "{what} (scrollY {}, {w} x {h}): {}",
        m["y"],
        lines.join(", ")
    );
    if top {
        assert_eq!(m["y"], 0, "{what}: scrolled to the top");
    }
    assert!(bad.is_empty(), "{what}: {bad:#?}\n{m}");
    m
}

/// The checks of every state: on screen, nothing sideways on a phone, a screenshot, axe clean.
fn check_state(s: &Session<'_>, size: &str, name: &str, sels: &[&str]) {
    std::thread::sleep(Duration::from_millis(150));
    let what = format!("{name} ({size})");
    if size == "phone" {
        s.assert_fits(&what);
    }
    let m = measure(s, sels, true);
    s.screenshot(&format!("p29-{name}-{size}"));
    let _ = m;
    assert_on_screen(s, &what, sels, true);
    s.assert_accessible(&what);
}

/// What every seat's turn shows: the board, the rack, the live score and the move buttons.
const TURN: &[&str] = &[
    "#board",
    "#rack",
    "#play-preview",
    "#btn-play",
    "#btn-recall",
    "#btn-shuffle",
    "#btn-exchange",
    "#btn-pass",
];

/// Item 1: at 360 x 740 (and at 1400 x 900) the board, the rack, the live score and the buttons
/// of the decision at hand are on the screen without scrolling, in every state: one's own move
/// with tiles placed, the blank's prompt, the opponent's play pending (Hold / Challenge /
/// Accept, under double challenge) with one's own tiles placed, one's own play pending, an
/// exchange, and the end (the result, Analyse and the steps through the game). Before the fix
/// the pending box pushed the rack to 849–900 px, the live score to 904–927 and Play to 932–967.
#[test]
fn board_rack_and_the_decision_fit_one_screen_in_every_state() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = TestServer::start("p29-fit");
    let seed = seed_with_a_blank_for_alice(&server);
    for (size, w, h) in SIZES {
        let g = server.create_game(json!({"players": ["Alice", "Bob"], "seed": seed}));
        let alice = browser.session();
        let bob = browser.session();
        alice.open_game_as(&server, &g, 0);
        alice.set_viewport(w, h);
        bob.open_game_as(&server, &g, 1);
        bob.set_viewport(w, h);
        alice.wait_for_seat();
        bob.wait_for_seat();

        // Bob waits for Alice: his rack and the board; his Play is there, not yet usable.
        check_state(
            &bob,
            size,
            "their-turn",
            &["#board", "#rack", "#play-preview", "#btn-play"],
        );

        // Alice's turn: the cursor on H8, the blank asks for its letter.
        alice.click_css("#board-sq-7-7");
        let blank = alice
            .rack_tiles()
            .into_iter()
            .find(|(_, l)| l == "?")
            .unwrap();
        alice.click_css(&format!("#rack .rack-tile[data-tile-id=\"{}\"]", blank.0));
        alice.wait_js(
            "the blank's prompt",
            "return document.querySelector('#blank-dialog').open",
        );
        check_state(
            &alice,
            size,
            "blank",
            &[
                "#board",
                "#rack",
                "#blank-dialog",
                "#blank-input",
                "#blank-letters button",
                "#blank-ok",
                "#blank-cancel",
            ],
        );
        alice.click_css("#blank-letters button[data-letter=E]");
        alice.wait_js(
            "the blank on the board",
            "return !document.querySelector('#blank-dialog').open && window.tilebag.state.placed.size === 1",
        );
        let letter = alice.lettered_tiles(1)[0].1.to_lowercase();
        alice.type_keys(&letter);
        alice.wait_js(
            "the live score",
            "return document.querySelector('#play-preview').dataset.score !== undefined",
        );
        check_state(&alice, size, "my-turn", TURN);
        // After the blank's prompt the board has the focus again: Enter plays.
        alice.type_keys(keys::ENTER);
        bob.wait_history(1, "Alice's play");

        // Bob: Alice's play waits for Hold, Challenge or Accept; he may also make his own move,
        // so his rack, live score and Play are there too.
        bob.wait_js(
            "the pending play",
            "return !!document.querySelector('#btn-accept')",
        );
        let mut pending: Vec<&str> = vec![
            "#board",
            "#rack",
            "#play-preview",
            "#btn-play",
            "#btn-hold",
            "#btn-challenge",
            "#btn-accept",
            "#pending [data-testid=challenge-word]",
        ];
        check_state(&bob, size, "pending", &pending);
        // Alice's own play waits for Bob.
        check_state(
            &alice,
            size,
            "my-play-pending",
            &["#board", "#rack", "#pending", "#btn-play"],
        );
        // Bob puts two tiles down from H9: the live score shows, with the pending play's buttons.
        let two: String = bob
            .lettered_tiles(2)
            .iter()
            .map(|(_, l)| l.to_lowercase())
            .collect();
        bob.click_css("#board-sq-8-7");
        bob.click_css("#board-sq-8-7");
        bob.type_keys(&two);
        bob.wait_js(
            "Bob's live score",
            "return document.querySelector('#play-preview').dataset.score !== undefined",
        );
        pending.extend(["#btn-recall"]);
        check_state(&bob, size, "pending-and-placed", &pending);

        // Bob exchanges instead: the tiles to give back are chosen on the rack; the exchange's
        // buttons show with the board, the rack and the pending play's.
        bob.click_css("#btn-exchange");
        bob.wait_js(
            "the exchange",
            "return !document.querySelector('#exchange-bar').hidden",
        );
        let first = bob.rack_tiles()[0].0;
        bob.click_css(&format!("#rack .rack-tile[data-tile-id=\"{first}\"]"));
        check_state(
            &bob,
            size,
            "exchange",
            &[
                "#board",
                "#rack",
                "#btn-exchange-go",
                "#btn-exchange-cancel",
                "#btn-accept",
            ],
        );
        bob.click_css("#btn-exchange-go");
        alice.wait_history(2, "Bob's exchange");

        // The end: Alice leaves. The result, Analyse and the steps through the game show with
        // the board.
        alice.confirm_click("#btn-leave");
        for (who, s) in [("alice", &alice), ("bob", &bob)] {
            s.wait_js(
                "the result",
                "return !document.querySelector('#result').hidden",
            );
            check_state(
                s,
                size,
                &format!("end-{who}"),
                &[
                    "#board",
                    "[data-testid=result]",
                    "#btn-analyse",
                    "#step-prev",
                    "#step-next",
                ],
            );
        }
        alice.assert_no_console_errors();
        bob.assert_no_console_errors();
    }
}

/// The engine's best placement for the seat to move (as `play` messages take it).
fn engine_play(view: &Value) -> Value {
    let ruleset = tilebag_core::Ruleset::preset("naspa-2013").unwrap();
    let tables = tilebag_engine::Engine::tables_for(&ruleset).unwrap();
    let engine = tilebag_engine::Engine::new(
        tilebag_lexicon::Lexicon::builtin_enable(),
        &tables,
        tilebag_engine::LeaveTable::enable(),
        7,
    );
    let s = common::situation_of_view(view);
    let best = engine.best(&s);
    let m = if best.kind == tilebag_engine::MoveKind::Place {
        best
    } else {
        engine
            .moves(&s)
            .into_iter()
            .find(|m| m.kind == tilebag_engine::MoveKind::Place)
            .expect("a placement")
    };
    json!({"type": "play", "position": m.coordinate(), "word": m.gcg_word()})
}

/// A finished game in a real lexicon (so that it can be analysed): four plays, the engine's
/// best for each seat in turn, then Bob leaves. Returns the game.
fn finished_game(server: &TestServer) -> Value {
    let g = server
        .create_game(json!({"players": ["Ann", "Bob"], "seed": 20240607, "lexicon": "enable1"}));
    let mut d = Driver::open(server, &g);
    for k in 0..4 {
        let seat = k % 2;
        let msg = engine_play(&d.views[seat]);
        d.ok(server, seat, msg);
    }
    d.ok(server, 0, json!({"type": "accept"}));
    d.ok(server, 1, json!({"type": "leave"}));
    d.close(server);
    g
}

/// The English tiles (as common.js has them): the unseen tiles of a position are these less the
/// board's and the rack's.
const BAG: &str = "AAAAAAAAABBCCDDDDEEEEEEEEEEEEFFGGGHHIIIIIIIIIJKLLLLMMNNNNNNOOOOOOOOPPQRRRRRRSSSSTTTTTTUUUUVVWWXYYZ??";

/// The tiles of `BAG` that are not on `board` (a blank is lowercase there) nor in `rack`, sorted
/// A to Z with the blanks last.
fn unseen_of(board: &[String], rack: &str) -> String {
    let mut left: Vec<char> = BAG.chars().collect();
    let mut take = |t: char| {
        if let Some(i) = left.iter().position(|&c| c == t) {
            left.remove(i);
        }
    };
    for row in board {
        for ch in row.chars() {
            match ch {
                '.' => {}
                'a'..='z' => take('?'),
                _ => take(ch),
            }
        }
    }
    for ch in rack.chars() {
        take(ch);
    }
    left.sort_by_key(|&c| if c == '?' { '[' } else { c });
    left.into_iter().collect()
}

/// Whether `text` has a dot that is not a decimal point (GCG's dot for a tile on the board).
fn tile_dot(text: &str) -> bool {
    let c: Vec<char> = text.chars().collect();
    (0..c.len()).any(|i| {
        c[i] == '.'
            && !(i > 0 && i + 1 < c.len() && c[i - 1].is_ascii_digit() && c[i + 1].is_ascii_digit())
    })
}

/// `8D COOPER.` written out with the board's letters: `8D COOPERS`.
fn whole_move(text: &str, board: &[String]) -> String {
    let Some((pos, word)) = text.split_once(' ') else {
        return text.to_string();
    };
    let digits: String = pos.chars().filter(char::is_ascii_digit).collect();
    let letter = pos.chars().find(char::is_ascii_alphabetic).unwrap();
    let (row, col) = (
        digits.parse::<usize>().unwrap() - 1,
        (letter.to_ascii_uppercase() as u8 - b'A') as usize,
    );
    let across = pos.starts_with(|c: char| c.is_ascii_digit());
    let out: String = word
        .chars()
        .enumerate()
        .map(|(i, ch)| {
            let (r, c) = if across {
                (row, col + i)
            } else {
                (row + i, col)
            };
            if ch == '.' {
                board[r].chars().nth(c).unwrap()
            } else {
                ch
            }
        })
        .map(|c| c.to_ascii_uppercase())
        .collect();
    format!("{pos} {out}")
}

/// Item 2, and two of item 8: after the game, a move the analysis shows is on the screen with
/// the board of that turn, the scores, both racks and the unseen tiles of that moment (before
/// the fix the board was scrolled off, its bottom at −32 px, and the scores and unseen tiles
/// stayed those of the end); every move is written as a word, never "COOPER." with a dot; each
/// alternative says its equity. And a finished game can be stepped through move by move (the
/// buttons beside the board, and the arrow keys) with each moment's scores, racks and unseen
/// tiles. At both sizes.
#[test]
fn analysis_preview_and_steps_show_that_moment_beside_the_board() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = TestServer::start("p29-analysis");
    let g = finished_game(&server);
    let id = g["id"]
        .as_str()
        .or(g["game_id"].as_str())
        .unwrap()
        .to_string();
    let analysis = server.get_json(&format!("/api/games/{id}/analysis"));
    let turns = analysis["turns"].as_array().unwrap().clone();
    assert_eq!(turns.len(), 4, "four moves analysed");
    // The record the page shows: Ann's seat's view of the finished game (both racks on it).
    let view = {
        let s = browser.session();
        s.open_game_as(&server, &g, 0);
        s.wait_js(
            "the finished game",
            "return window.tilebag.state.view && window.tilebag.state.view.phase.type === 'ended'",
        );
        s.game_view()
    };
    let history = view["history"].as_array().unwrap().clone();
    let scores_before = |line: usize| -> [i64; 2] {
        let mut s = [0, 0];
        for l in &history[..line] {
            s[l["seat"].as_u64().unwrap() as usize] = l["cumulative"].as_i64().unwrap();
        }
        s
    };
    let rack_on = |seat: u64, from: usize| -> String {
        history[from..]
            .iter()
            .find(|l| l["seat"] == seat && l["type"] == "play")
            .map(|l| l["rack"].as_str().unwrap().to_string())
            .unwrap_or_default()
    };
    // The last turn with a placement among its alternatives: a board with tiles, scores not 0.
    let (k, alt) = turns
        .iter()
        .enumerate()
        .rev()
        .find_map(|(k, t)| {
            let best = t["best"].as_array().unwrap();
            best.iter()
                .position(|b| b["kind"] == "play")
                .map(|a| (k, a))
        })
        .unwrap();
    assert!(k >= 1, "a turn after the first");
    let turn = &turns[k];
    let mover = turn["player"].as_u64().unwrap();
    let want_scores = scores_before(k);
    assert_eq!(
        turn["scores"],
        json!(want_scores),
        "the analysis carries the scores before the move"
    );
    let board: Vec<String> = turn["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    let want_racks = [rack_on(0, k), rack_on(1, k)];
    assert_eq!(turn["rack"], want_racks[mover as usize]);
    let want_unseen = unseen_of(&board, &want_racks[mover as usize]);
    let alt_tiles = turn["best"][alt]["tiles"].as_array().unwrap().len();
    let on_board: usize = board
        .iter()
        .map(|r| r.chars().filter(|&c| c != '.').count())
        .sum();
    // Some move of the game was played through a tile already on the board.
    assert!(
        turns
            .iter()
            .any(|t| t["played"]["text"].as_str().unwrap().contains('.')),
        "a move played through a tile: {turns:?}"
    );

    for (size, w, h) in SIZES {
        let s = browser.session();
        s.open_game_as(&server, &g, 0);
        s.set_viewport(w, h);
        s.wait_js(
            "the result",
            "return !document.querySelector('#result').hidden && !!document.querySelector('#btn-analyse')",
        );
        s.click_css("#btn-analyse");
        s.wait_js(
            "the analysis",
            "return document.querySelectorAll('[data-testid=analysis-turn]').length === 4",
        );
        // Every move written as a word: the letters played through read off that turn's board.
        for (i, t) in turns.iter().enumerate() {
            let b: Vec<String> = t["board"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap().to_string())
                .collect();
            let shown = s
                .js(
                    "return document.querySelectorAll('[data-testid=analysis-turn]')[arguments[0]].querySelector('[data-testid=played]').textContent",
                    json!([i]),
                )
                .as_str()
                .unwrap()
                .to_string();
            let shown = shown.replace(" (blank)", "");
            let want = whole_move(t["played"]["text"].as_str().unwrap(), &b);
            assert_eq!(shown, want, "{size}: move {} written out", i + 1);
            assert!(!shown.contains('.'), "{size}: no dot in {shown:?}");
            // Item 8: each alternative says its equity.
            let eq = s.js(
                "return [...document.querySelectorAll('[data-testid=analysis-turn]')[arguments[0]].querySelectorAll('[data-testid=alternative]')].map(b => [b.querySelector('[data-testid=equity]')?.textContent ?? '', b.textContent])",
                json!([i]),
            );
            for (j, m) in t["best"].as_array().unwrap().iter().enumerate() {
                let want_eq = format!("equity {:.1}", m["equity"].as_f64().unwrap());
                assert_eq!(
                    eq[j][0],
                    json!(want_eq),
                    "{size}: move {} alternative {}",
                    i + 1,
                    j + 1
                );
                // (after the rank: "1. 8H ...")
                let text = eq[j][1].as_str().unwrap();
                let rank = format!("{}. ", j + 1);
                assert!(text.starts_with(&rank), "{size}: {text:?}");
                assert!(
                    !tile_dot(&text[rank.len()..]),
                    "{size}: no dot for a tile in {text:?}"
                );
            }
        }
        // A person scrolls to the alternative and presses it.
        let sel = format!(
            "[data-testid=analysis-turn]:nth-child({}) [data-testid=alternative]:nth-of-type({})",
            k + 1,
            alt + 1
        );
        s.js(
            "document.querySelector(arguments[0]).scrollIntoView({block: 'center'}); return true",
            json!([sel]),
        );
        std::thread::sleep(Duration::from_millis(150));
        let before = measure(&s, &["#board"], false);
        println!(
            "{size}: before the click, the board is at {}",
            before["parts"]["#board"]
        );
        s.click_css(&sel);
        s.wait_js(
            "the preview",
            "return document.querySelectorAll('#board .sq.preview').length > 0",
        );
        std::thread::sleep(Duration::from_millis(200));
        s.screenshot(&format!("p29-analysis-preview-{size}"));
        let mut parts = vec![
            "#board",
            "#moment",
            "[data-testid=moment-score-0]",
            "[data-testid=moment-score-1]",
            "[data-testid=moment-unseen-tiles]",
            "#back-to-analysis",
            "#preview-clear",
        ];
        for (seat, r) in want_racks.iter().enumerate() {
            if !r.is_empty() {
                parts.push(if seat == 0 {
                    "[data-testid=moment-rack-0]"
                } else {
                    "[data-testid=moment-rack-1]"
                });
            }
        }
        assert_on_screen(
            &s,
            &format!("the analysis's preview ({size})"),
            &parts,
            false,
        );
        if size == "phone" {
            s.assert_fits("the analysis's preview");
        }
        // That moment: its scores (beside the board and in the players' panel), racks and
        // unseen tiles; the board of that turn with the move in the preview style.
        let shown = s.js(
            "const t = (q) => document.querySelector(q)?.textContent ?? null;
             return {s0: t('[data-testid=moment-score-0]'), s1: t('[data-testid=moment-score-1]'),
                     p0: t('#score-0'), p1: t('#score-1'),
                     r0: t('[data-testid=moment-rack-0]'), r1: t('[data-testid=moment-rack-1]'),
                     unseen: t('[data-testid=moment-unseen-tiles]'),
                     tracking: t('.tracking-summary'),
                     preview: document.querySelectorAll('#board .sq.preview').length,
                     others: document.querySelectorAll('#board .sq.has-tile:not(.preview)').length}",
            json!([]),
        );
        println!("{size}: the moment shown: {shown}");
        assert_eq!(shown["s0"], want_scores[0].to_string(), "{size}: {shown}");
        assert_eq!(shown["s1"], want_scores[1].to_string(), "{size}: {shown}");
        assert_eq!(
            shown["p0"],
            want_scores[0].to_string(),
            "{size}: the players' panel too"
        );
        assert_eq!(
            shown["p1"],
            want_scores[1].to_string(),
            "{size}: the players' panel too"
        );
        for seat in 0..2 {
            if !want_racks[seat].is_empty() {
                assert_eq!(
                    shown[format!("r{seat}")],
                    json!(want_racks[seat]),
                    "{size}: rack {seat}"
                );
            }
        }
        assert_eq!(
            shown["unseen"],
            json!(want_unseen),
            "{size}: the unseen tiles"
        );
        assert!(
            shown["tracking"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{} unseen", want_unseen.len())),
            "{size}: the unseen-tiles panel: {shown}"
        );
        assert_eq!(shown["preview"], json!(alt_tiles));
        assert_eq!(shown["others"], json!(on_board));
        s.assert_accessible(&format!("the analysis's preview ({size})"));
        // Back to the analysis: the alternative pressed is in view again, and focused.
        s.click_css("#back-to-analysis");
        std::thread::sleep(Duration::from_millis(150));
        let focused = s.js(
            "const b = document.activeElement; const r = b.getBoundingClientRect(); \
             return b.dataset.testid === 'alternative' && b.getAttribute('aria-pressed') === 'true' \
                    && r.top >= 0 && r.bottom <= window.innerHeight",
            json!([]),
        );
        assert_eq!(focused, true, "{size}: back at the alternative");
        // Back to the game: the final scores again.
        s.click_css("#preview-clear");
        s.wait_js(
            "the final position",
            "return document.querySelectorAll('#board .sq.preview').length === 0 && document.querySelector('#moment').hidden",
        );
        let finals = [s.score_shown(0), s.score_shown(1)];
        let r = &view["result"]["scores"];
        assert_eq!(json!(finals), *r, "{size}");

        // Stepping through the finished game (item 8), from the top of the page.
        s.js("window.scrollTo(0, 0); return true", json!([]));
        s.click_css("#step-first");
        s.wait_js(
            "the empty board",
            "return document.querySelectorAll('#board .sq.has-tile').length === 0",
        );
        assert_eq!([s.score_shown(0), s.score_shown(1)], [0, 0], "{size}");
        let step_parts = [
            "#board",
            "#step-prev",
            "#step-next",
            "#moment",
            "[data-testid=moment-score-0]",
            "[data-testid=moment-unseen-tiles]",
        ];
        for step in 1..=turns.len() {
            if step % 2 == 1 {
                s.click_css("#step-next");
            } else {
                // The arrow keys step too.
                s.type_keys(keys::RIGHT);
            }
            let where_ = if step == history.len() {
                "End".to_string()
            } else {
                format!("Move {step} of")
            };
            s.wait_js(
                "the step",
                &format!(
                    "return document.querySelector('[data-testid=step-where]').textContent.startsWith('{where_}')"
                ),
            );
            let want = scores_before(step);
            assert_eq!(
                [s.score_shown(0), s.score_shown(1)],
                want,
                "{size}: the scores after move {step}"
            );
            let tiles = s.js(
                "return document.querySelectorAll('#board .sq.has-tile').length",
                json!([]),
            );
            let want_tiles: usize = if step < turns.len() {
                // (the board before the next move)
                turns[step]["board"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap().chars().filter(|&c| c != '.').count())
                    .sum()
            } else {
                view["board"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap().chars().filter(|&c| c != '.').count())
                    .sum()
            };
            assert_eq!(
                tiles,
                json!(want_tiles),
                "{size}: the board after move {step}"
            );
            if step < turns.len() {
                let next = &turns[step];
                let nb: Vec<String> = next["board"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap().to_string())
                    .collect();
                let unseen = s.text_of("[data-testid=moment-unseen-tiles]");
                assert_eq!(
                    unseen,
                    unseen_of(&nb, next["rack"].as_str().unwrap()),
                    "{size}: unseen to the player to move after move {step}"
                );
                let rack = s.text_of(&format!(
                    "[data-testid=moment-rack-{}]",
                    next["player"].as_u64().unwrap()
                ));
                assert_eq!(
                    rack,
                    next["rack"].as_str().unwrap(),
                    "{size}: the rack to play"
                );
            }
            if step == 2 {
                check_state(&s, size, "step", &step_parts);
            }
        }
        s.type_keys(keys::LEFT);
        s.wait_js(
            "a step back",
            &format!(
                "return document.querySelector('[data-testid=step-where]').textContent.startsWith('Move {} of')",
                turns.len() - 1
            ),
        );
        s.click_css("#step-last");
        s.wait_js(
            "the end",
            "return document.querySelector('[data-testid=step-where]').textContent.startsWith('End')",
        );
        assert_eq!(json!([s.score_shown(0), s.score_shown(1)]), *r, "{size}");
        s.assert_no_console_errors();
    }
}

/// A game driven to the point where a seat has just gone out: every play lays a whole rack in a
/// row (rows 8 to 15, then 7 up to 1; columns B onwards), each word taken by the `test` lexicon.
/// Returns the seat that went out.
fn play_until_out(server: &TestServer, d: &mut Driver) -> usize {
    let rows: Vec<usize> = (7..15).chain((0..7).rev()).collect();
    for (k, &r) in rows.iter().enumerate() {
        let to_move = d.views[0]["to_move"].as_u64().unwrap() as usize;
        let rack: String = d.views[to_move]["rack"].as_str().unwrap().to_string();
        let word: String = rack
            .chars()
            .map(|c| if c == '?' { 'e' } else { c })
            .collect();
        let msg = json!({"type": "play", "position": format!("{}B", r + 1), "word": word});
        let reply = d.act(server, to_move, msg);
        assert_eq!(reply["type"], "ack", "play {k}: {reply}");
        if reply["effects"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "played" && e["out"] == true)
        {
            return to_move;
        }
    }
    panic!("nobody went out");
}

/// The rack's letters on the page, in order (`?` a blank).
fn rack_order(s: &Session<'_>) -> String {
    s.rack_tiles().into_iter().map(|(_, l)| l).collect()
}

/// Sorted A to Z, the blanks last (what "A–Z" and the key 5 do to a rack).
fn alphabetical(rack: &str) -> String {
    let mut v: Vec<char> = rack.chars().collect();
    v.sort_by_key(|&c| if c == '?' { '[' } else { c });
    v.into_iter().collect()
}

/// Item 7: Resign and Leave stand apart from the move buttons, only Resign in red, and words
/// under them say what each does; neither is offered against an out play (before the fix Resign
/// still was). The keys a Woogles player expects work, and the help lists them: 1 shuffles, 5
/// puts the rack in order, 2 passes (asking first), 3 challenges, 4 exchanges and $ chooses the
/// whole rack for it, Enter plays, Esc recalls, Backspace takes back a tile; typing a word on the
/// board still works. With the resignation option, "Ask to resign" and Leave are told apart, and
/// the request's answers fit the screen. At both sizes.
#[test]
fn resign_and_leave_apart_and_the_keys_a_woogles_player_expects() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = TestServer::start("p29-keys");
    for (size, w, h) in SIZES {
        let g = server.create_game(json!({"players": ["Alice", "Bob"], "seed": 31}));
        let alice = browser.session();
        let bob = browser.session();
        alice.open_game_as(&server, &g, 0);
        alice.set_viewport(w, h);
        bob.open_game_as(&server, &g, 1);
        bob.set_viewport(w, h);
        alice.wait_for_seat();
        bob.wait_for_seat();

        // Resign and Leave: not among the move buttons, one red, each explained.
        let apart = alice.js(
            "const red = (b) => getComputedStyle(b).color;
             const r = document.querySelector('#btn-resign'), l = document.querySelector('#btn-leave');
             return {resignInMoves: !!r.closest('#move-buttons'), leaveInMoves: !!l.closest('#move-buttons'),
                     sameColour: red(r) === red(l), help: document.querySelector('[data-testid=end-help]').textContent,
                     below: r.getBoundingClientRect().top > document.querySelector('#btn-pass').getBoundingClientRect().bottom}",
            json!([]),
        );
        println!("{size}: resign and leave: {apart}");
        assert_eq!(apart["resignInMoves"], false, "{size}: {apart}");
        assert_eq!(apart["leaveInMoves"], false, "{size}: {apart}");
        assert_eq!(
            apart["sameColour"], false,
            "{size}: only Resign is red: {apart}"
        );
        assert_eq!(
            apart["below"], true,
            "{size}: under the move buttons: {apart}"
        );
        let help = apart["help"].as_str().unwrap();
        assert!(
            help.contains("lose by 50") && help.contains("V.K.2"),
            "{size}: {help}"
        );

        // The keys, listed in the help.
        alice.click_css("#cursor-help summary");
        let keys_help = alice.text_of("#cursor-help");
        for (key, what) in [
            ("1", "shuffle"),
            ("2", "pass"),
            ("3", "challenge"),
            ("4", "exchange"),
            ("$", "whole rack"),
            ("5", "alphabetical"),
            ("Enter", "play"),
            ("Esc", "recall"),
            ("Backspace", "take back"),
        ] {
            assert!(
                keys_help
                    .lines()
                    .any(|l| l.contains(key) && l.contains(what)),
                "{size}: the help lists {key} ({what}): {keys_help}"
            );
        }
        alice.click_css("#cursor-help summary");
        // 1 shuffles (a shuffle may give the same order: a few tries), 5 sorts.
        alice.click_css("#board-sq-7-7");
        let start = rack_order(&alice);
        let mut shuffled = false;
        for _ in 0..6 {
            alice.type_keys("1");
            if rack_order(&alice) != start {
                shuffled = true;
                break;
            }
        }
        assert!(shuffled, "{size}: 1 shuffles the rack");
        alice.type_keys("5");
        let sorted = rack_order(&alice);
        assert_eq!(
            sorted,
            alphabetical(&start),
            "{size}: 5 puts the rack in order"
        );
        // Typing a word still works, Backspace takes back one tile, Esc all of them.
        let letters: String = alice
            .lettered_tiles(3)
            .iter()
            .map(|(_, l)| l.to_lowercase())
            .collect();
        alice.type_keys(&letters);
        alice.wait_js(
            "3 tiles placed",
            "return window.tilebag.state.placed.size === 3",
        );
        alice.type_keys(keys::BACKSPACE);
        alice.wait_js(
            "2 tiles placed",
            "return window.tilebag.state.placed.size === 2",
        );
        alice.type_keys(keys::ESCAPE);
        alice.wait_js(
            "none placed",
            "return window.tilebag.state.placed.size === 0",
        );
        alice.click_css("#board-sq-7-7");
        alice.type_keys(&letters[..2]);
        alice.wait_js(
            "2 tiles placed",
            "return window.tilebag.state.placed.size === 2",
        );
        check_state(&alice, size, "keys-placed", TURN);
        // Enter plays.
        alice.type_keys(keys::ENTER);
        bob.wait_history(1, "Alice's play, by Enter");
        // Bob: 3 challenges the play (the test lexicon takes it: he loses his turn).
        bob.wait_js(
            "the pending play",
            "return !!document.querySelector('#btn-challenge')",
        );
        bob.js("document.activeElement.blur(); return true", json!([]));
        bob.type_keys("3");
        bob.wait_js(
            "the verdict",
            "return document.querySelector('#notice').textContent.includes('ACCEPTABLE')",
        );
        // Alice again: 4 opens the exchange, $ chooses the whole rack, Esc cancels it.
        alice.wait_js(
            "Alice's turn",
            "const v = window.tilebag.state.view; return v.to_move === 0 && v.phase.type === 'awaiting-move'",
        );
        alice.js("document.activeElement.blur(); return true", json!([]));
        alice.type_keys("4");
        alice.wait_js(
            "the exchange",
            "return !document.querySelector('#exchange-bar').hidden",
        );
        alice.type_keys("$");
        alice.wait_js(
            "the whole rack chosen",
            "return document.querySelector('#btn-exchange-go').textContent === 'Exchange 7 tiles'",
        );
        check_state(
            &alice,
            size,
            "keys-exchange",
            &[
                "#board",
                "#rack",
                "#btn-exchange-go",
                "#btn-exchange-all",
                "#btn-exchange-cancel",
            ],
        );
        alice.type_keys(keys::ESCAPE);
        alice.wait_js(
            "no exchange",
            "return document.querySelector('#exchange-bar').hidden",
        );
        // 2 passes: the first press asks, the second passes.
        let n = alice.history_len();
        alice.js("document.activeElement.blur(); return true", json!([]));
        alice.type_keys("2");
        alice.wait_js(
            "the pass to ask",
            "return document.querySelector('#btn-pass').textContent === 'Confirm pass'",
        );
        assert_eq!(alice.history_len(), n, "{size}: one press does not pass");
        alice.type_keys("2");
        alice.wait_history(n + 1, "Alice's pass, by 2 2");
        assert_eq!(alice.game_view()["history"][n]["type"], "pass");
        alice.assert_no_console_errors();
        bob.assert_no_console_errors();
        drop((alice, bob));

        // An out play: only Hold, Challenge and Accept; no Resign, no Leave.
        let g = server.create_game(json!({"players": ["Alice", "Bob"], "seed": 99}));
        let s = browser.session();
        s.open_game_as(&server, &g, 0);
        s.set_viewport(w, h);
        s.wait_js(
            "Alice's page",
            "return document.querySelector('#conn').dataset.state === 'connected'",
        );
        let mut d = Driver::open(&server, &g);
        assert_eq!(play_until_out(&server, &mut d), 1);
        s.wait_js(
            "the out play",
            "return !!document.querySelector('#btn-accept')",
        );
        for id in ["#btn-resign", "#btn-leave", "#end-help"] {
            assert!(!s.is_visible(id), "{size}: {id} against an out play");
        }
        check_state(
            &s,
            size,
            "out-play",
            &[
                "#board",
                "#rack",
                "#btn-hold",
                "#btn-challenge",
                "#btn-accept",
            ],
        );
        d.close(&server);
        drop(s);

        // The resignation option: "Ask to resign" and Leave told apart; the request's answers on
        // the screen with the board and the rack.
        let g = server.create_game(
            json!({"players": ["Alice", "Bob"], "rules": {"resignation-option": "on"}}),
        );
        let alice = browser.session();
        let bob = browser.session();
        alice.open_game_as(&server, &g, 0);
        alice.set_viewport(w, h);
        bob.open_game_as(&server, &g, 1);
        bob.set_viewport(w, h);
        alice.wait_for_seat();
        bob.wait_for_seat();
        alice.wait_js(
            "the ruleset",
            "return document.querySelector('#btn-resign').textContent === 'Ask to resign'",
        );
        let help = alice.text_of("[data-testid=end-help]");
        assert!(
            help.contains("Ask to resign: Bob may end the game at the current score")
                && help.contains("Leave: the game ends now and you lose by 50"),
            "{size}: {help}"
        );
        alice.confirm_click("#btn-resign");
        bob.wait_js(
            "the request",
            "return !!document.querySelector('#btn-honour')",
        );
        check_state(
            &bob,
            size,
            "resign-request",
            &["#board", "#rack", "#btn-honour", "#btn-play-on"],
        );
    }
}

/// The page's background, as `[r, g, b]`.
fn background(s: &Session<'_>) -> Vec<u64> {
    let v = s.js(
        "return getComputedStyle(document.body).backgroundColor.match(/\\d+/g).slice(0, 3).map(Number)",
        json!([]),
    );
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

fn is_dark(rgb: &[u64]) -> bool {
    rgb.iter().sum::<u64>() < 3 * 80
}

/// Item 8: a dark theme that follows the system's preference, with a switch that is remembered;
/// a high-contrast board (remembered); the rack put in alphabetical order by a button; a sound
/// when the opponent moves, off by default and remembered; a notepad beside the board, kept in
/// this browser only (and typing in it places no tile). axe-core clean in the dark theme and
/// with the high-contrast board, at both sizes.
#[test]
fn dark_theme_contrast_board_alphabetical_rack_opponent_sound_and_notepad() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = TestServer::start("p29-settings");
    for (size, w, h) in SIZES {
        let g = server.create_game(json!({"players": ["Alice", "Bob"], "seed": 5}));
        let alice = browser.session();
        let bob = browser.session();
        // The system prefers dark: the page is dark from the start, without being asked.
        alice.prefer_color_scheme("dark");
        alice.open_game_as(&server, &g, 0);
        alice.set_viewport(w, h);
        bob.open_game_as(&server, &g, 1);
        bob.set_viewport(w, h);
        alice.wait_for_seat();
        bob.wait_for_seat();
        assert!(
            is_dark(&background(&alice)),
            "{size}: dark, as the system: {:?}",
            background(&alice)
        );
        assert!(!is_dark(&background(&bob)), "{size}: Bob's system is light");
        assert_eq!(
            alice.js("return document.querySelector('#theme').value", json!([])),
            "auto"
        );
        // Tiles placed, so the dark board shows tentative tiles and the live score too.
        let two: String = alice
            .lettered_tiles(2)
            .iter()
            .map(|(_, l)| l.to_lowercase())
            .collect();
        alice.type_on_board(7, 7, false, &two);
        alice.wait_js(
            "the live score",
            "return document.querySelector('#play-preview').dataset.score !== undefined",
        );
        check_state(&alice, size, "dark", TURN);
        // The switch: light, kept through a reload; then dark on a light system.
        alice.js(
            "const t = document.querySelector('#theme'); t.value = 'light'; t.dispatchEvent(new Event('change')); return true",
            json!([]),
        );
        assert!(!is_dark(&background(&alice)), "{size}: light by the switch");
        alice.refresh();
        alice.wait_for_game_page(true);
        assert!(!is_dark(&background(&alice)), "{size}: light is remembered");
        alice.prefer_color_scheme("light");
        alice.js(
            "const t = document.querySelector('#theme'); t.value = 'dark'; t.dispatchEvent(new Event('change')); return true",
            json!([]),
        );
        alice.refresh();
        alice.wait_for_game_page(true);
        assert!(
            is_dark(&background(&alice)),
            "{size}: dark is remembered on a light system"
        );
        // The high-contrast board, in the dark theme and then the light one; remembered.
        alice.click_css("#contrast");
        let sq = alice.js(
            "return [getComputedStyle(document.querySelector('#board-sq-0-1')).backgroundColor, \
                     getComputedStyle(document.querySelector('#board-sq-0-0')).backgroundColor, \
                     document.documentElement.classList.contains('hc-board')]",
            json!([]),
        );
        assert_eq!(
            sq,
            json!(["rgb(0, 0, 0)", "rgb(160, 0, 0)", true]),
            "{size}"
        );
        check_state(
            &alice,
            size,
            "dark-contrast",
            &["#board", "#rack", "#btn-play"],
        );
        alice.js(
            "const t = document.querySelector('#theme'); t.value = 'light'; t.dispatchEvent(new Event('change')); return true",
            json!([]),
        );
        alice.refresh();
        alice.wait_for_game_page(true);
        let sq = alice.js(
            "return [getComputedStyle(document.querySelector('#board-sq-0-1')).backgroundColor, \
                     document.querySelector('#contrast').checked]",
            json!([]),
        );
        assert_eq!(
            sq,
            json!(["rgb(255, 255, 255)", true]),
            "{size}: remembered"
        );
        check_state(&alice, size, "contrast", &["#board", "#rack", "#btn-play"]);
        alice.click_css("#contrast");

        // On a phone the site's pages wait behind one "Pages" button (the header is one line);
        // on a desktop they are shown. (A closed disclosure's content keeps its boxes in
        // Chromium: `checkVisibility` tells whether it is drawn.)
        let clock_link = || {
            alice.js(
                "return document.querySelector(\"header.site nav a[href='/clock']\").checkVisibility()",
                json!([]),
            ) == json!(true)
        };
        if size == "phone" {
            assert!(!clock_link(), "{size}: behind the button");
            alice.click_css(".site-menu > summary");
            assert!(clock_link(), "{size}: the menu opens");
            alice.screenshot("p29-pages-menu-phone");
            alice.assert_accessible("the pages menu open (phone)");
            alice.type_keys(keys::ESCAPE);
            assert!(!clock_link(), "{size}: Esc closes it");
        } else {
            assert!(clock_link(), "{size}: shown on a desktop");
        }

        // The rack in alphabetical order, by its button.
        let start = rack_order(&alice);
        alice.click_css("#btn-alpha");
        assert_eq!(rack_order(&alice), alphabetical(&start), "{size}");

        // The notepad: beside the board, kept in this browser through a reload; typing in it
        // places no tile.
        // (the reloads took back the tiles placed: nothing is on the board now)
        let note = "Bob keeps the S. Watch row 8.";
        alice.find("#notepad");
        alice.fill("#notepad", note);
        assert_eq!(
            alice.placed_tiles(),
            Vec::<String>::new(),
            "{size}: no tile placed by typing notes"
        );
        if size == "desktop" {
            let beside = alice.js(
                "const b = document.querySelector('#board').getBoundingClientRect(); \
                 const n = document.querySelector('#notepad').getBoundingClientRect(); \
                 return n.left >= b.right && n.top < b.bottom + 200",
                json!([]),
            );
            assert_eq!(beside, true, "{size}: the notepad is beside the board");
        }
        alice.refresh();
        alice.wait_for_game_page(true);
        assert_eq!(
            alice.js("return document.querySelector('#notepad').value", json!([])),
            note,
            "{size}: the notes are kept"
        );
        assert_eq!(
            bob.js("return document.querySelector('#notepad').value", json!([])),
            "",
            "{size}: in this browser only"
        );

        // The sound when the opponent moves: off by default; on, Bob's move sounds; kept.
        assert_eq!(
            alice.js(
                "return document.querySelector('#move-sound').checked",
                json!([])
            ),
            false,
            "{size}: off by default"
        );
        let mut d = Driver::open(&server, &g);
        d.ok(&server, 0, json!({"type": "pass"}));
        d.ok(&server, 1, json!({"type": "pass"}));
        alice.wait_history(2, "the passes");
        assert_eq!(
            alice.js("return window.tilebag.sounds", json!([])),
            json!([])
        );
        alice.click_css("#move-sound");
        alice.refresh();
        alice.wait_for_game_page(true);
        assert_eq!(
            alice.js(
                "return document.querySelector('#move-sound').checked",
                json!([])
            ),
            true,
            "{size}: remembered"
        );
        d.ok(&server, 0, json!({"type": "pass"}));
        assert_eq!(
            alice.js("return window.tilebag.sounds", json!([])),
            json!([]),
            "{size}: not for one's own move"
        );
        d.ok(&server, 1, json!({"type": "pass"}));
        alice.wait_js(
            "the sound of Bob's move",
            "return window.tilebag.sounds.length === 1 && window.tilebag.sounds[0] === 'opponent passed'",
        );
        d.close(&server);
        alice.screenshot(&format!("p29-settings-{size}"));
        alice.assert_no_console_errors();
        bob.assert_no_console_errors();
    }
}
