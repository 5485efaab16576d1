//! Issue 30's whole story in headless Chromium, as two people at two browsers live it: Ann (on a
//! 360 px phone) and Bob (at a desktop) sign up; Ann seeks a rated game in the lobby; Bob sees it
//! arrive and accepts it with one click; both land at their seats. They play a word each (real
//! ENABLE words, so the engine can analyse the game), say hello in the game's players' chat
//! (each sees the other's message without reloading), and one resigns: both pages show the
//! result. Ann offers a rematch and Bob accepts it: both land at the next game, the seats
//! swapped. Then each opens their profile, `/u/NAME`: the rating has moved from a newcomer's
//! 1500 (the winner's up, the loser's down, both marked provisional), the finished game is listed
//! with its result, the rating's chart is drawn; and the game's "Analysis" link opens the game
//! page's analysis of its moves (`/games/ID#analysis`; the same link to a game still being
//! played says the analysis waits for its end).
//!
//! The lobby, the game page (chat, result, rematch offer, analysis) and both profiles fit a
//! 360 px phone and pass axe-core, at the phone's size and the desktop's.
//!
//! Without Chromium and chromedriver the test prints a skip note and passes. Screenshots go to
//! `target/browser-screenshots/p30-lobby-*.png`.

mod browser_support;

use browser_support::{viewport, Browser, Session, TestServer};
use std::time::Instant;
use tilebag_lexicon::WordSource;

const PHONE: (u32, u32) = (360, 740);
const DESKTOP: (u32, u32) = (1400, 900);

/// The page fits the window (nothing scrolls sideways) and axe-core finds nothing on it; a
/// screenshot `p30-lobby-{name}` with the part matching `show` in view.
fn check(s: &Session<'_>, name: &str, show: &str) {
    s.assert_fits(name);
    s.js(
        "document.querySelector(arguments[0]).scrollIntoView({block: 'start'}); return true",
        serde_json::json!([show]),
    );
    s.screenshot(&format!("p30-lobby-{name}"));
    s.assert_accessible(name);
}

/// The same, at the other size too (the page's own size last, as it was).
fn check_both_sizes(s: &Session<'_>, name: &str, show: &str, own: (u32, u32)) {
    let other = if own == PHONE { DESKTOP } else { PHONE };
    for (w, h) in [other, own] {
        viewport(s, w, h);
        let size = if (w, h) == PHONE { "phone" } else { "desktop" };
        check(s, &format!("{name}-{size}"), show);
    }
}

#[test]
fn two_players_sign_up_seek_play_chat_resign_rematch_and_see_their_profiles_change() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let t0 = Instant::now();
    let server = TestServer::start("p30-lobby");
    let words = WordSource::builtin();
    let ann = browser.session();
    viewport(&ann, PHONE.0, PHONE.1);
    let bob = browser.session();
    viewport(&bob, DESKTOP.0, DESKTOP.1);

    // Both sign up and come back to the lobby.
    ann.sign_up_to_the_lobby(&server, "Ann");
    bob.sign_up_to_the_lobby(&server, "Bob");

    // Ann seeks a rated five-minute game with the ENABLE word list.
    let listed = ann.seek_a_game("enable1", 5, true);
    assert!(listed.contains("Ann (1500?)"), "{listed}");
    assert!(
        listed.contains("5 min each") && listed.contains("rated") && listed.contains("enable1"),
        "{listed}"
    );
    check(&ann, "seek-phone", "#seeks-h");

    // Bob sees it arrive without reloading, and accepts it with one click.
    let seen = bob.wait_for_a_seek();
    assert!(seen.contains("Ann (1500?)"), "{seen}");
    check(&bob, "accept-desktop", "#seeks-h");
    bob.accept_the_seek();
    // Both land at their seats: Bob's page goes there, Ann's follows her lobby's stream.
    let bob_seat = bob.seat_at_the_game();
    let ann_seat = ann.seat_at_the_game();
    assert_eq!(ann_seat + bob_seat, 1);
    let first_game = ann.game_id();
    assert_eq!(bob.game_id(), first_game);
    let mut names = vec![String::new(); 2];
    names[ann_seat] = "Ann".into();
    names[bob_seat] = "Bob".into();
    assert_eq!(ann.player_names(), names);
    assert_eq!(bob.player_names(), names);

    // They play a word each, the first player first.
    let (first, second) = if ann_seat == 0 {
        (&ann, &bob)
    } else {
        (&bob, &ann)
    };
    let first_word = first.play_a_word(&words);
    second.wait_history(1, "the first move, on the other page");
    let second_word = second.play_a_word(&words);
    first.wait_history(2, "the second move, on the other page");
    eprintln!("played: {first_word:?}, then {second_word:?}");

    // They chat in the game's players' chat: each sees the other's message.
    ann.say_in_the_game_chat("good luck!");
    bob.wait_for_game_chat_line("Ann good luck!");
    bob.say_in_the_game_chat("thanks, you too");
    ann.wait_for_game_chat_line("Bob thanks, you too");
    ann.wait_for_game_chat_line("Ann good luck!");
    // On a phone the chat comes just after the board, rack and moves, before the unseen tiles.
    assert_eq!(
        ann.js(
            "return document.querySelector('#game-chat').getBoundingClientRect().top \
             < document.querySelector('.tracking').getBoundingClientRect().top",
            serde_json::json!([])
        ),
        serde_json::json!(true),
        "the game chat is below the unseen tiles on a phone"
    );
    check(&ann, "game-chat-phone", "#game-chat");
    check(&bob, "game-chat-desktop", "#game-chat");

    // The first player resigns; both pages show the result.
    first.confirm_click("#btn-resign");
    // The first player sits at seat 0.
    let (loser, winner) = (names[0].clone(), names[1].clone());
    for s in [&ann, &bob] {
        let (line, why) = s.wait_for_the_result();
        assert!(line.starts_with(&format!("{winner} wins")), "{line}");
        assert_eq!(why, format!("Why the game ended: {loser} resigned."));
        // Silence is asked for during a game only.
        s.wait_js(
            "\"Ask for silence\" to go once the game is over",
            "return document.querySelector('#game-chat .chat-silence').hidden",
        );
    }

    // Ann offers a rematch; Bob accepts it from his page.
    ann.offer_a_rematch();
    check(&ann, "result-phone", "#result");
    assert_eq!(
        bob.wait_for_a_rematch_offer(),
        "Ann offers a rematch, with the seats swapped."
    );
    check_both_sizes(&bob, "rematch-offer", "#result", DESKTOP);
    bob.click_css("[data-testid=rematch-accept]");
    // Both land at their seats of the next game, the seats swapped.
    assert_eq!(bob.seat_at_the_next_game(&first_game), 1 - bob_seat);
    assert_eq!(ann.seat_at_the_next_game(&first_game), 1 - ann_seat);
    let rematch = ann.game_id();
    assert_eq!(bob.game_id(), rematch);

    // Each opens their profile: the rating moved from a newcomer's 1500, the winner's up and the
    // loser's down, still provisional after one game; the game is listed with its result; the
    // rating's history is drawn.
    for (s, me, own) in [(&ann, "Ann", PHONE), (&bob, "Bob", DESKTOP)] {
        s.open_profile_once_rated(&server, me);
        let ratings = s.ratings_shown();
        assert_eq!(ratings.len(), 1, "{ratings:?}");
        let r = &ratings[0];
        assert!(r.category.contains("blitz"), "{r:?}");
        assert!(
            r.provisional && r.text.starts_with(&format!("{}?", r.rating)),
            "{r:?}"
        );
        if me == winner {
            assert!(r.rating > 1500, "{me} won: {r:?}");
        } else {
            assert!(r.rating < 1500, "{me} lost: {r:?}");
        }
        let line = s.profile_game_line(&first_game);
        let (outcome, how) = if me == winner {
            ("Won", "the opponent resigned")
        } else {
            ("Lost", "you resigned")
        };
        let opponent = if me == "Ann" { "Bob" } else { "Ann" };
        assert!(line.starts_with(outcome), "{line}");
        assert!(line.contains(how) && line.contains("rated"), "{line}");
        assert!(line.contains(&format!("against {opponent}")), "{line}");
        assert!(s.profile_game_line(&rematch).starts_with("Playing"));
        // One game: a line from a newcomer's 1500 to the rating after it, both ends labelled.
        assert_eq!(
            s.find_all("figure.rating-chart svg[role='img'] circle")
                .len(),
            2,
            "one game: the start and the point after it"
        );
        assert_eq!(s.find_all("figure.rating-chart svg polyline").len(), 1);
        assert_eq!(
            s.text_of("figure.rating-chart svg text.chart-first"),
            "1500"
        );
        assert_eq!(
            s.text_of("figure.rating-chart svg text.chart-last"),
            r.rating.to_string()
        );
        check_both_sizes(s, &format!("profile-{}", me.to_lowercase()), "body", own);
    }

    // From her profile, Ann opens the finished game's analysis.
    ann.open_analysis_from_profile(&first_game);
    let turns = ann.find_all("#analysis [data-testid=analysis-turn]").len();
    assert_eq!(turns, 2, "a turn of the analysis for each move played");
    if let Some(word) = &first_word {
        let played = ann.text_of("#analysis [data-testid=analysis-turn] [data-testid=played]");
        assert!(played.contains(word.as_str()), "{played} is not {word}");
    }
    // Seen without a seat, the ended game is not watched live.
    assert_eq!(ann.text_of("#conn"), "Watching (ended)");
    check_both_sizes(&ann, "analysis", "#analysis", PHONE);

    // The same link to the game still being played says the analysis waits for its end.
    ann.goto(&server.url(&format!("/games/{rematch}#analysis")));
    ann.wait_js(
        "the note that the analysis waits for the end",
        "return document.querySelector('#notice').textContent \
         === 'The analysis opens here when the game has ended.'",
    );
    assert!(!ann.is_visible("#analysis"));

    ann.assert_no_console_errors();
    bob.assert_no_console_errors();
    eprintln!("the story took {:.1} s", t0.elapsed().as_secs_f64());
}
