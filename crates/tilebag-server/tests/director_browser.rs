//! The director's pages and the players' event pages in headless Chromium (issue 14's director
//! items and issue 11's public error pages): the division page in tabs that keeps the focus
//! for the next player, undo that asks first and says what it undoes in words, online games
//! only for boards that can still take their result (and a result the event refused shown to
//! the director, never dropped), calls for the director arriving on the open page with a sound,
//! standings headed by what is really in, scores with an en dash and a resignation said as one,
//! the printouts, the site navigation, pages that fit a 360 px phone, and axe-core clean.
//!
//! The event is set up through `tilebag-events` (the file the pages work on), then the pages
//! are used as a director and players would. Screenshots go under
//! `target/browser-screenshots/td-*.png`. Without Chromium the tests print a skip note and pass.

mod browser_support;
mod common;

use browser_support::{game_on_board, link_of, Browser, Session, TestServer};
use serde_json::json;
use tilebag_tournament::{Action, Pairing};

/// Ann and Bob paired in a round robin of one round, the director signed in on `s`, and their
/// game started online from the division page.
fn start_one_online_game(server: &TestServer, s: &Session<'_>) {
    server.create_event("naspa-2013", "RR:1", &[("Ann", 1800), ("Bob", 1700)]);
    server.pair_round(1);
    s.sign_in_on_the_page(server);
    s.start_online_games(server, 1, 1);
}

/// The director ends online game `id` from the division page's round tab (open on `s`); returns
/// what the division page then says about its refused result, once it says something.
fn end_online_game(s: &Session<'_>, server: &TestServer, id: &str) -> String {
    s.click_css(&format!("#end-{id}"));
    s.wait_for_banner("Game ended by the director.");
    s.wait("the refused online result on the page", || {
        s.goto(&server.url("/td/club/d/A"));
        let text = s.text_of("#online-conflicts");
        (!text.is_empty()).then_some(text)
    })
}

/// Issue 14, director items 4, 5 and 7, and item 7's widths: the division page is in tabs;
/// "Add player" keeps the focus for the next name; the standings say "after round N" only when
/// round N is complete; scores use an en dash; every director page has the site navigation and
/// the main navigation links to /td; the division page, the public page and a player's page fit
/// a 360 px phone; axe-core finds nothing.
#[test]
fn division_page_in_tabs_keeps_focus_fits_a_phone_and_passes_axe() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = TestServer::start("td-tabs");
    server.create_event(
        "naspa-2013",
        "RR:3",
        &[("Ann Able", 1800), ("Bob Baker", 1700), ("Cat Cole", 1600)],
    );
    let s = browser.director_session(&server);
    // Item 7: the director's pages wear the site navigation, with Director as the current page.
    assert_eq!(
        s.js(
            "return document.querySelector('header.site nav a[href=\"/td\"]')?.getAttribute('aria-current')",
            json!([])
        ),
        json!("page")
    );
    s.goto(&server.url("/td/club/d/A"));
    let tabs = s.js(
        "return [...document.querySelectorAll('nav.tabs a')].map(a => a.textContent)",
        json!([]),
    );
    assert_eq!(
        tabs,
        json!([
            "Round",
            "Players",
            "Standings",
            "Prizes",
            "Reports",
            "Settings",
            "Print and export"
        ])
    );
    // Before any round, the page opens on Players, with the name field ready.
    assert_eq!(
        s.js("return document.activeElement.id", json!([])),
        json!("player-name")
    );
    s.fill("#player-name", "Dan Dunn");
    s.fill("#player-rating", "1500");
    s.click_css("#add-player");
    s.wait_for_banner("Added #4 Dan Dunn.");
    // The focus is back in the name field: the next name can be typed at once.
    assert_eq!(
        s.js("return document.activeElement.id", json!([])),
        json!("player-name")
    );
    s.type_keys("Eve");
    assert_eq!(
        s.js(
            "return document.querySelector('#player-name').value",
            json!([])
        ),
        json!("Eve")
    );
    s.screenshot("td-players-tab");
    // A tab is a short page, not the 4,000 px of everything at once.
    let height = s.js("return document.documentElement.scrollHeight", json!([]));
    assert!(height.as_i64().unwrap() < 2500, "{height} px");

    // Pair round 1 from the Players tab and enter one of its two results.
    s.click_css("#propose");
    s.click_css("#post-pairings");
    s.wait_for_banner("Round 1 pairings posted.");
    // Issue 29 item 3: the director types the scores and leaves the kind of result as it is:
    // a final result, in the standings at once, and the banner says what was recorded.
    assert_eq!(
        s.js("return document.querySelector('#entry-1').value", json!([])),
        json!("final")
    );
    s.fill("#score-1-first", "412");
    s.fill("#score-1-second", "389");
    s.click_css("#enter-1");
    let said = s.wait_for_banner_containing("recorded as final, 412\u{2013}389");
    assert!(
        said.starts_with("Round 1, board 1 (") && said.ends_with("it counts in the standings."),
        "{said}"
    );
    // Item 5: the score with an en dash.
    assert_eq!(s.text_of("#board-1 .outcome"), "412\u{2013}389");
    // Item 5: the standings are not "after round 1" while a game of it is still being played.
    s.click_css("#tab-standings");
    let heading = s.text_of("#standings-h");
    assert_eq!(heading, "Standings during round 1 (1 of 2 games in)");
    // So does the printout for the wall.
    s.goto(&server.url("/td/club/d/A/export/standings.html"));
    assert_eq!(
        s.text_of("h2"),
        "Division A \u{b7} Standings during round 1 (1 of 2 games in)"
    );
    // The public page says the same.
    s.goto(&server.url("/events/club/A"));
    let public = s.text_of("main");
    assert!(
        public.contains("Standings during round 1 (1 of 2 games in)")
            && public.contains("412\u{2013}389"),
        "{public}"
    );
    // Once the round's last result is in, the heading is "after round 1".
    s.goto(&server.url("/td/club/d/A?tab=round"));
    s.enter_result(2, "350", "371");
    s.wait_for_banner_containing("recorded as final, 350\u{2013}371");
    s.click_css("#tab-standings");
    assert_eq!(s.text_of("#standings-h"), "Standings after round 1");
    s.goto(&server.url("/events/club/A"));
    assert!(
        s.text_of("main").contains("Standings after round 1"),
        "{}",
        s.text_of("main")
    );

    // Item 7: the lobby's navigation links to the director's pages.
    s.goto(&server.url("/"));
    s.find("header.site nav a[href=\"/td\"]");

    // Widths (item 7 of the game page list) and axe-core, at 360 px and at desktop size.
    let links = s.player_links(&server);
    let pages = [
        ("division-round", "/td/club/d/A?tab=round"),
        ("division-players", "/td/club/d/A?tab=players"),
        ("division-standings", "/td/club/d/A?tab=standings"),
        ("division-settings", "/td/club/d/A?tab=settings"),
        ("division-print", "/td/club/d/A?tab=print"),
        ("events", "/td"),
        ("event", "/td/club"),
        ("undo", "/td/club/undo"),
        ("links", "/td/club/d/A/links"),
        ("public-event", "/events/club"),
        ("public-division", "/events/club/A"),
        ("player", &links[0].1),
    ];
    s.check_pages_fit_and_pass_axe(&server, "td-", &pages);
    s.assert_no_console_errors();
}

/// Issue 14, director item 3: Undo first shows, in words, what it will undo, and undoes it only
/// when confirmed; its message is words, not the log's JSON.
#[test]
fn undo_asks_first_and_says_in_words_what_it_undoes() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = TestServer::start("td-undo");
    server.create_event(
        "naspa-2013",
        "SW:3",
        &[("Ann", 1800), ("Bob", 1700), ("Cat", 1600)],
    );
    let s = browser.director_session(&server);
    s.goto(&server.url("/td/club"));
    s.click_css("#undo");
    let what = s.text_of("#undo-what");
    assert_eq!(
        what,
        "The newest change (action #5) was: adding Cat (rating 1600) to division A."
    );
    // Nothing is undone by looking.
    assert_eq!(server.event_file().rows().unwrap().len(), 5);
    s.screenshot("td-undo-confirm");
    s.click_css("#confirm-undo");
    s.wait_for_banner("Undid action #5: adding Cat (rating 1600) to division A.");
    let t = server.event_file().load().unwrap();
    assert_eq!(t.division("A").unwrap().players.len(), 2);
    // A confirmation shown before another change undoes nothing.
    s.goto(&server.url("/td/club/undo"));
    s.find("#confirm-undo");
    server
        .event_file()
        .append(|_| {
            Ok(vec![Action::AddPlayer {
                division: "A".into(),
                name: "Dee".into(),
                rating: 0,
                member_id: None,
                career_games: None,
                members: vec![],
            }])
        })
        .unwrap();
    s.click_css("#confirm-undo");
    s.wait_js(
        "the refusal",
        "return document.querySelector('#error')?.textContent.includes('the event changed since the confirmation was shown')",
    );
    assert_eq!(
        server
            .event_file()
            .load()
            .unwrap()
            .division("A")
            .unwrap()
            .players
            .len(),
        3
    );
    s.assert_no_console_errors();
}

/// Issue 14, director item 1: "Start online games" skips a board with a tally slip waiting (and
/// a player with a result is not offered the online game); an online game whose result the
/// event refused (the pairing got a result meanwhile) is shown to the director.
#[test]
fn online_games_only_where_a_result_can_go_and_a_refused_result_is_shown() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = TestServer::start("td-online");
    server.create_event(
        "naspa-2013",
        "RR:3",
        &[("Ann", 1800), ("Bob", 1700), ("Cat", 1600), ("Dan", 1500)],
    );
    server.pair_round(1);
    let t = server.event_file().load().unwrap();
    let d = t.division("A").unwrap();
    let (g1, g2) = (
        game_on_board(d, 1, 1).clone(),
        game_on_board(d, 1, 2).clone(),
    );
    // Board 1: a tally slip is waiting for confirmation.
    let by = g1.first;
    server
        .event_file()
        .append(move |_| {
            Ok(vec![Action::SubmitSlip {
                division: "A".into(),
                round: 1,
                player: by,
                score: 400,
                opponent_score: 350,
            }])
        })
        .unwrap();
    let s = browser.director_session(&server);
    s.start_online_games(&server, 1, 1);
    let t = server.event_file().load().unwrap();
    let online = &t.division("A").unwrap().online;
    assert_eq!(online.len(), 1);
    assert!(
        online[0].first == g2.first || online[0].first == g2.second,
        "the game is board 2's"
    );
    assert!(s.try_find("#board-1 a.seat").is_none());
    let id = online[0].game_id.clone();

    // Board 2 gets a result from the director while its online game is still on; the online
    // game then ends (the director ends it): its result cannot go in, and the page says so.
    s.enter_result(2, "420", "300");
    s.wait_for_banner_containing("recorded as final, 420\u{2013}300");
    let conflict = end_online_game(&s, &server, &id);
    assert!(
        conflict.contains(&format!("online game {id} ended "))
            && conflict.contains("the event holds 420\u{2013}300 (entered by the director)"),
        "{conflict}"
    );
    // The event's result is the director's, and is not said to be the online game's ending.
    assert_eq!(s.text_of("#board-2 .outcome"), "420\u{2013}300");
    s.screenshot("td-online-conflict");
    // The player whose game has a result is not offered the online game any more.
    let links = s.player_links(&server);
    let name = |p: u32| {
        t.division("A").unwrap().players[p as usize - 1]
            .name
            .clone()
    };
    s.goto(&server.url(link_of(&links, &name(g2.first))));
    s.find("#slip");
    assert!(s.try_find("#play-online").is_none());
    s.assert_no_console_errors();
}

/// Issue 14, director item 2: a call for the director from an online game appears on the open
/// division page by itself (no reload), with a sound.
#[test]
fn a_call_for_the_director_arrives_on_the_open_division_page() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = TestServer::start("td-calls");
    let s = browser.session();
    start_one_online_game(&server, &s);
    let seat = s.seat_link_on_board(1);
    // The page stays open (a mark on the window shows it is not reloaded).
    s.js("window.stillHere = true; window.tdChimes = 0;", json!([]));
    assert_eq!(s.text_of("#calls"), "");
    // The calls are pushed by the server (Server-Sent Events), not polled.
    assert_eq!(
        s.js(
            "return document.querySelector('#calls').dataset.live",
            json!([])
        ),
        json!("push")
    );
    // The director looks at another tab and comes back with the browser's Back button: the
    // page comes back from the back/forward cache (the same document, its marks kept) and
    // opens its stream again (td.js closes it when the page is left, so that a kept page holds
    // none of the browser's few connections to the server).
    s.js(
        "window.addEventListener('pageshow', (e) => { window.fromCache = e.persisted; });",
        json!([]),
    );
    s.click_css("#tab-standings");
    s.wait_js(
        "the standings tab",
        "return location.search.includes('tab=standings')",
    );
    s.js("history.back()", json!([]));
    s.wait_js(
        "the division page again, from the cache",
        "return window.fromCache === true && window.stillHere === true",
    );
    // A player calls the director from their seat, in another window.
    let p = browser.session();
    p.goto(&server.url(&seat));
    p.confirm_click("#btn-director");
    let text = s.wait_js(
        "the call on the open page",
        "return document.querySelector('#calls .call-item')?.textContent",
    );
    assert!(
        text.as_str().unwrap().contains("called the director")
            && text.as_str().unwrap().contains("round 1, board 1"),
        "{text}"
    );
    assert_eq!(s.js("return window.stillHere", json!([])), json!(true));
    s.wait_js("the chime", "return window.tdChimes >= 1");
    s.screenshot("td-call-arrived");
    s.assert_accessible("the division page with a call");
    s.assert_no_console_errors();

    // The lobby lists the event's game apart from casual ones (issue 14, lobby item 9).
    let l = browser.session();
    l.goto(&server.url("/"));
    let rows = l.wait_js(
        "the event's game in the tournament table",
        "const r = [...document.querySelectorAll('#event-games [data-testid=game-row]')];          return r.length === 1 && !document.querySelector('#event-games-area').hidden ? r[0].textContent : null",
    );
    assert!(
        rows.as_str().unwrap().contains("Ann") && rows.as_str().unwrap().contains("Bob"),
        "{rows}"
    );
    // The game waits for the director: the lobby says so rather than whose move it is.
    assert!(
        rows.as_str()
            .unwrap()
            .contains("Paused: the director is called"),
        "{rows}"
    );
    assert_eq!(
        l.js(
            "return document.querySelectorAll('#games [data-testid=game-row]').length",
            json!([])
        ),
        json!(0),
        "no casual game listed"
    );
    l.js(
        "document.querySelector('#event-games-area').scrollIntoView(); return true",
        json!([]),
    );
    l.screenshot("lobby-event-game");
}

/// Issue 14, director items 5 and 6: a resignation at 0–0 reads as a resignation on every page;
/// the pairings print alphabetically by player; the scorecards carry the coming rounds'
/// opponents of a round robin.
#[test]
fn a_resignation_reads_as_one_and_the_printouts_help_the_wall() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = TestServer::start("td-print");
    server.create_event(
        "naspa-2013",
        "RR:3",
        &[("Zoe", 1800), ("Al", 1700), ("Mia", 1600), ("Bea", 1500)],
    );
    server.pair_round(1);
    let s = browser.director_session(&server);
    s.start_online_games(&server, 1, 2);
    let t = server.event_file().load().unwrap();
    let d = t.division("A").unwrap();
    let link = d.online[0].clone();
    let board = d.rounds[0]
        .pairings
        .iter()
        .filter_map(Pairing::game)
        .find(|g| g.first == link.first || g.second == link.first)
        .unwrap()
        .board;
    let resigner = format!(
        "#{} {}",
        link.first,
        d.players[link.first as usize - 1].name
    );
    // The first seat resigns before any move (NASPA V.K.2: the opponent wins by 50).
    let tokens = s.js(
        &format!(
            "return [...document.querySelectorAll('#board-{board} a.seat')].map(a => new URL(a.href).searchParams.get('token'))"
        ),
        json!([]),
    );
    let created = json!({
        "id": link.game_id,
        "seats": [
            {"ws": format!("/api/games/{}/ws?token={}", link.game_id, tokens[0].as_str().unwrap())},
            {"ws": format!("/api/games/{}/ws?token={}", link.game_id, tokens[1].as_str().unwrap())},
        ],
        "observer_ws": format!("/api/games/{}/ws", link.game_id),
    });
    server.rt.block_on(async {
        let mut table = common::Table::open(server.addr, &created, false).await;
        table.ok(0, json!({"type": "resign"})).await;
    });
    let outcome = s.wait("the reported resignation", || {
        s.goto(&server.url("/td/club/d/A?round=1"));
        let text = s.text_of(&format!("#board-{board} .outcome"));
        (!text.is_empty()).then_some(text)
    });
    let said = format!("{resigner} resigned at 0\u{2013}0");
    assert!(outcome.contains(&said), "{outcome}");
    s.goto(&server.url("/events/club/A?round=1"));
    assert!(s.text_of("#pairings").contains(&said));
    // The event itself records a resignation (not a 0–0 game with a spread): the CLI's
    // tables and printouts say so too.
    let t = server.event_file().load().unwrap();
    let d = t.division("A").unwrap();
    let g = game_on_board(d, 1, board);
    assert!(
        matches!(g.result, Some(tilebag_tournament::GameResult::Played { resigned_by: Some(p), .. }) if p == link.first),
        "{:?}",
        g.result
    );
    let text = tilebag_tournament::tables::result_text(d, g.result.as_ref(), false);
    assert!(
        text.ends_with(&format!("(#{} resigned)", link.first)),
        "{text}"
    );

    // The wall's pairings: every player once, alphabetically, with board and opponent.
    s.goto(&server.url("/td/club/d/A/export/pairings-by-name.html?round=1"));
    let names = s.js(
        "return [...document.querySelectorAll('#by-name tbody tr')].map(r => r.cells[0].textContent.split(' (')[0])",
        json!([]),
    );
    assert_eq!(names, json!(["Al", "Bea", "Mia", "Zoe"]));
    s.screenshot("td-print-by-name");
    // Scorecards: a round robin's coming rounds (2 and 3) already name the opponents, and
    // over the three rounds each player meets the three others once.
    s.goto(&server.url("/td/club/d/A/export/scorecards.html"));
    let cards = s.js(
        "return [...document.querySelectorAll('.card')].map(c => [...c.querySelectorAll('tbody tr')].map(r => r.cells[1].textContent))",
        json!([]),
    );
    let cards = cards.as_array().unwrap();
    assert_eq!(cards.len(), 4);
    for (i, card) in cards.iter().enumerate() {
        let opps: Vec<&str> = card
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert_eq!(opps.len(), 3, "{opps:?}");
        let mut ids: Vec<String> = opps
            .iter()
            .map(|o| {
                o.split("(#")
                    .nth(1)
                    .unwrap_or("")
                    .trim_end_matches(')')
                    .to_string()
            })
            .collect();
        ids.sort();
        let mut want: Vec<String> = (1..=4)
            .filter(|p| *p != i + 1)
            .map(|p| p.to_string())
            .collect();
        want.sort();
        assert_eq!(ids, want, "card {}: {opps:?}", i + 1);
    }
    s.screenshot("td-print-scorecards");
}

/// Issue 13, the director tools on the pages: the games still missing in a round; a result
/// over one already in refused with a pointer to Correct, and Correct changing it; unusual
/// scores only once the director confirms them; the prize table; the reports (wall chart,
/// roster, …) as printable pages and CSV; rating submission refused, naming the round, until
/// the round is complete, then the NASPA and WESPA files. At 360 px and desktop, axe clean.
#[test]
fn prizes_reports_missing_correction_and_submission_on_the_pages() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = TestServer::start("td-reports");
    server.create_event(
        "naspa-2013",
        "RR:3",
        &[("Ann", 1900), ("Bob", 1750), ("Cat", 1620), ("Dan", 1500)],
    );
    server.pair_round(1);
    let t = server.event_file().load().unwrap();
    let d = t.division("A").unwrap();
    let (g1, g2) = (
        game_on_board(d, 1, 1).clone(),
        game_on_board(d, 1, 2).clone(),
    );
    let name = |p: u32| d.players[p as usize - 1].name.clone();
    let s = browser.director_session(&server);

    // Both games are missing; submission is refused, naming the round.
    s.goto(&server.url("/td/club/d/A?round=1"));
    let missing = s.text_of("#missing");
    assert!(
        missing.starts_with("Still missing (2): board 1: "),
        "{missing}"
    );
    s.goto(&server.url("/td/club/d/A?tab=print"));
    assert_eq!(
        s.text_of("#submit-refused"),
        "Not ready: division A: results are missing in round 1. The Reports tab lists the games still missing."
    );
    assert!(s.try_find("#submit-naspa").is_none());
    let refused = server.get("/td/club/d/A/export/submit-naspa.t");
    // Without the director's key: the sign-in page, not the event's state.
    let text = refused.text();
    assert!(
        text.contains("id=\"key\"") && !text.contains("results are missing"),
        "{text}"
    );
    let status = s.js(
        "return fetch('/td/club/d/A/export/submit-naspa.t').then(async r => [r.status, await r.text()])",
        json!([]),
    );
    assert_eq!(status[0], json!(422));
    assert!(
        status[1]
            .as_str()
            .unwrap()
            .contains("results are missing in round 1"),
        "{status}"
    );

    // A stale page: another director enters board 1 meanwhile; entering it here is refused,
    // pointing to Correct, and nothing changes.
    s.goto(&server.url("/td/club/d/A?round=1"));
    let (first1, second1) = (g1.first, g1.second);
    server
        .event_file()
        .append(move |_| {
            Ok(vec![Action::SetResult {
                division: "A".into(),
                round: 1,
                player: first1,
                result: tilebag_tournament::ResultEntry::Scores {
                    score: 400,
                    opponent_score: 389,
                },
                note: String::new(),
            }])
        })
        .unwrap();
    s.enter_result(1, "412", "389");
    let err = s.wait_for_error("the refusal");
    assert_eq!(
        err,
        format!(
            "refused: round 1, board 1 (#{first1} ({}) v #{second1} ({})) already has a result (400\u{2013}389); to change it, use Correct on board 1 (tilebag td correct)",
            name(first1),
            name(second1)
        )
    );
    assert_eq!(s.text_of("#board-1 .outcome"), "400\u{2013}389");
    s.screenshot("td-result-refused");
    // Correct (under the board's row) changes it.
    s.click_css("#correct-1 summary");
    s.fill_result(1, "412", "389");
    s.fill("#result-1 input[name=note]", "slip misread");
    s.click_css("#enter-1");
    s.wait_for_banner_containing("corrected to 412\u{2013}389");
    assert_eq!(s.text_of("#board-1 .outcome"), "412\u{2013}389");
    let missing = s.text_of("#missing");
    assert_eq!(
        missing,
        format!(
            "Still missing (1): board 2: #{} ({}) v #{} ({})",
            g2.first,
            name(g2.first),
            g2.second,
            name(g2.second)
        )
    );

    // Board 2: 850–320 is unusual (850 > 800; 850 − 320 = 530 > 500): asked to confirm.
    s.enter_result(2, "850", "320");
    let err = s.wait_for_error("the question");
    assert!(
        err.ends_with("a score of 850 is over 800, a spread of 530 is over 500; check the scores, tick \"unusual scores are right\" and enter them again"),
        "{err}"
    );
    assert!(s.text_of("#board-2 .outcome").is_empty());
    s.fill_result(2, "850", "320");
    s.click_css("#yes-2");
    s.click_css("#enter-2");
    s.wait_for_banner_containing("recorded as final, 850\u{2013}320");
    assert_eq!(s.text_of("#missing"), "Every result of round 1 is in.");
    s.screenshot("td-round-complete");

    // The prize table after round 1: board 2's first won by 530, board 1's first by 23, so
    // 1st place is g2.first and 2nd g1.first (prize-bands unset: 3 places); the high game is
    // 850 (v g2.second), the high loss 389 (g1.second; 320 is lower).
    s.click_css("#tab-prizes");
    assert_eq!(s.text_of("#prizes-h"), "Prizes after round 1");
    let rows = s.js(
        "return [...document.querySelectorAll('#prizes tbody tr')].map(r => [...r.cells].map(c => c.textContent))",
        json!([]),
    );
    let row = |label: &str| {
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r[0] == json!(label))
            .unwrap_or_else(|| panic!("no {label} in {rows}"))
            .clone()
    };
    assert_eq!(row("1st place")[1], json!(name(g2.first)));
    assert_eq!(row("1st place")[2], json!("1-0 +530"));
    assert_eq!(row("2nd place")[1], json!(name(g1.first)));
    assert_eq!(
        row("High game"),
        json!([
            "High game",
            name(g2.first),
            format!("850 v {}, round 1", name(g2.second))
        ])
    );
    assert_eq!(row("High loss")[1], json!(name(g1.second)));
    s.click_css("#report-prizes");
    assert_eq!(s.text_of("h2"), "Division A \u{b7} Prizes after round 1");
    s.screenshot("td-print-prizes");

    // The reports: the wall chart for the wall, from the Reports tab.
    s.goto(&server.url("/td/club/d/A?tab=reports"));
    assert_eq!(s.text_of("#all-in"), "Every paired round is complete.");
    s.click_css("#report-wallchart");
    let chart = s.js(
        "return [...document.querySelectorAll('#wallchart tbody tr')].map(r => [...r.cells].map(c => c.textContent))",
        json!([]),
    );
    let chart = chart.as_array().unwrap();
    assert_eq!(chart.len(), 4);
    let seat = |p: u32, g: &tilebag_tournament::Game| if g.first == p { "1st" } else { "2nd" };
    let w = g2.first;
    assert_eq!(
        chart[w as usize - 1],
        json!([
            w.to_string(),
            name(w),
            format!("{} v #{} W 850-320 +530", seat(w, &g2), g2.second),
            "1-0",
            "+530"
        ])
    );
    s.screenshot("td-print-wallchart");
    s.goto(&server.url("/td/club/d/A/export/roster.html"));
    let roster = s.js(
        "return [...document.querySelectorAll('#roster tbody tr')].map(r => r.cells[2].textContent)",
        json!([]),
    );
    assert_eq!(roster, json!(["1900", "1750", "1620", "1500"]));
    let csv = s.js(
        "return fetch('/td/club/d/A/export/wallchart.csv').then(r => r.text())",
        json!([]),
    );
    assert!(
        csv.as_str()
            .unwrap()
            .starts_with("player,name,R1,record,spread\n"),
        "{csv}"
    );

    // Submission: the round is complete, so both files are offered.
    s.goto(&server.url("/td/club/d/A?tab=print"));
    assert!(s.try_find("#submit-refused").is_none());
    let t_file = s.js(
        "return fetch(document.querySelector('#submit-naspa').href).then(async r => [r.status, r.headers.get('content-disposition'), await r.text()])",
        json!([]),
    );
    assert_eq!(t_file[0], json!(200));
    assert_eq!(t_file[1], json!("attachment; filename=\"a.t\""));
    let t_text = t_file[2].as_str().unwrap();
    assert_eq!(t_text.lines().count(), 4, "{t_text}");
    assert!(t_text.contains("850"), "{t_text}");
    let tou = s.js(
        "return fetch(document.querySelector('#submit-wespa').href).then(async r => [r.status, await r.text()])",
        json!([]),
    );
    // The event has no date, which a .TOU header needs: the page says so, and the download is
    // refused, saying why.
    assert!(s
        .text_of("#submit-no-date")
        .contains("needs the event's date"));
    assert_eq!(tou[0], json!(422));
    assert!(
        tou[1]
            .as_str()
            .unwrap()
            .contains("the event has no date, which a .TOU header needs; set it with"),
        "{tou}"
    );

    // Widths and axe-core, at 360 px and at desktop size.
    let pages = [
        ("division-prizes", "/td/club/d/A?tab=prizes"),
        ("division-reports", "/td/club/d/A?tab=reports"),
        ("division-print-submit", "/td/club/d/A?tab=print"),
        ("division-round-missing", "/td/club/d/A?tab=round"),
        ("print-wallchart", "/td/club/d/A/export/wallchart.html"),
        ("print-prizes", "/td/club/d/A/export/prizes.html"),
        ("print-roster", "/td/club/d/A/export/roster.html"),
        ("print-high-wins", "/td/club/d/A/export/high-wins.html"),
        ("print-performance", "/td/club/d/A/export/performance.html"),
    ];
    s.check_pages_fit_and_pass_axe(&server, "td-", &pages);
    // The only errors logged are the two refusals fetched on purpose above.
    let errors: Vec<String> = s
        .console_errors()
        .into_iter()
        .filter(|e| !(e.contains("/export/submit-") && e.contains("status of 422")))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

/// Issue 11: a public page never names the server's files in an error, and never wears the
/// director's navigation (breadcrumbs, Sign out).
#[test]
fn public_error_pages_name_no_path_and_wear_no_director_navigation() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = TestServer::start("td-public-errors");
    server.create_event("naspa-2013", "SW:3", &[("Ann", 1800), ("Bob", 1700)]);
    let s = browser.session();
    let root = server.dir.to_string_lossy().to_string();
    for path in [
        "/events/nope",
        "/events/club/Z",
        "/events/Bad..Name",
        "/p/club/AAAAAAAAAAAAAAAAAAAAAAAA",
        "/p/nope/AAAAAAAAAAAAAAAAAAAAAAAA",
    ] {
        let r = server.get(path);
        assert_eq!(r.status, 404, "{path}");
        let html = r.text();
        assert!(
            !html.contains(&root),
            "{path} names the server's folder: {html}"
        );
        assert!(!html.contains(".tbev"), "{path} names a file: {html}");
        assert!(
            !html.contains("Sign out") && !html.contains("/td/logout"),
            "{path}: {html}"
        );
        s.goto(&server.url(path));
        s.find("#error");
        assert!(s.try_find("nav.crumbs").is_none(), "{path}");
        s.assert_accessible(path);
    }
    s.screenshot("td-public-error");
}

/// Issue 14, director item 1, on the path the issue names: an online game is started, then the
/// two players settle the board with a tally slip on their own pages (NASPA V.J, WESPA 5.4):
/// once the slip is submitted, and again once it is confirmed, neither player's page offers
/// "Play this game online" any more; when the online game then ends, its refused result is shown
/// to the director on the division page, never dropped in silence.
#[test]
fn a_confirmed_slip_takes_the_online_game_off_the_player_pages_and_its_end_is_shown() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = TestServer::start("td-online-slip");
    let s = browser.session();
    start_one_online_game(&server, &s);
    let t = server.event_file().load().unwrap();
    let id = t.division("A").unwrap().online[0].game_id.clone();
    let links = s.player_links(&server);
    let page = |name: &str| server.url(link_of(&links, name));
    let (ann, bob) = (page("Ann"), page("Bob"));
    let p = browser.session();
    p.goto(&ann);
    assert!(
        p.try_find("#play-online").is_some(),
        "before any result the game is offered"
    );
    // Ann submits the slip: 402 to 377.
    p.fill("#my-score", "402");
    p.fill("#their-score", "377");
    p.click_css("#submit-slip");
    p.wait_js(
        "the slip to be waiting",
        "return (document.querySelector('#slip')?.textContent ?? '').includes('You submitted')",
    );
    assert!(
        p.try_find("#play-online").is_none(),
        "a slip waits: no online game"
    );
    p.goto(&bob);
    assert!(p.try_find("#play-online").is_none(), "nor on Bob's page");
    p.click_css("#confirm");
    p.wait_js(
        "the confirmed result",
        "return !document.querySelector('#confirm')",
    );
    for who in [&ann, &bob] {
        p.goto(who);
        assert!(
            p.try_find("#play-online").is_none(),
            "a confirmed result: no online game on {who}"
        );
        assert!(p.text_of("#slip").contains("402"), "{}", p.text_of("#slip"));
    }
    let t = server.event_file().load().unwrap();
    let g = t.division("A").unwrap().rounds[0]
        .pairings
        .iter()
        .find_map(Pairing::game)
        .cloned()
        .unwrap();
    assert!(g.result.is_some(), "the confirmed slip is the result");

    // The online game ends afterwards (the director ends it): its result cannot go in, and the
    // division page says so.
    s.goto(&server.url("/td/club/d/A?round=1"));
    let conflict = end_online_game(&s, &server, &id);
    assert!(
        conflict.contains(&format!("online game {id} ended ")),
        "{conflict}"
    );
    s.screenshot("td-online-slip-conflict");
    s.assert_accessible("the division page with a refused online result");
    p.assert_no_console_errors();
    s.assert_no_console_errors();
}
