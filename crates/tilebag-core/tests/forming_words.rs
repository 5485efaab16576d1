//! The ways a play may form new words (NASPA A.I.C, NSA Appendix I.C, WESPA Appendix 1 "Next
//! player's turn" (1)–(5), SANSPA 5.1.5, Literacy "New words may be formed by"), each with the
//! words it forms and its score worked by hand. NASPA's own example is ARM on the board.
//!
//! Tiles from earlier turns are set straight onto the board (`put`). Letter values: A E I O R S
//! T U L N 1, D 2, B C M P 3, F H V W Y 4, K 5, J X 8, Q Z 10.

use tilebag_core::board::Premium;
use tilebag_core::play::ScoredPlay;
use tilebag_core::{Board, Layout};

mod board_support;

use board_support::{put, score, sq};

/// The words a play forms, main word first, with their scores.
fn words(sp: &ScoredPlay) -> Vec<(String, i32)> {
    sp.words.iter().map(|w| (w.word.clone(), w.score)).collect()
}

fn w(list: &[(&str, i32)]) -> Vec<(String, i32)> {
    list.iter().map(|&(s, n)| (s.to_string(), n)).collect()
}

/// ARM on F8–H8 (the centre's premium was used by the play that put it there).
fn arm() -> Board {
    let mut b = Board::new(15);
    put(&mut b, "8F", "ARM");
    b
}

#[test]
fn naspa_a_i_c_1_extend_a_word_at_either_or_both_ends() {
    let b = arm();
    // In front: 8E HARM, H on E8 (plain): 4 + 1 + 1 + 3 = 9.
    assert_eq!(words(&score(&b, "8E", "HARM")), w(&[("HARM", 9)]));
    // Behind: 8F ARMED, E on I8 and D on J8 (plain): 1 + 1 + 3 + 1 + 2 = 8.
    assert_eq!(words(&score(&b, "8F", "ARMED")), w(&[("ARMED", 8)]));
    // Both ends in one play: 8D CHARMED, C on D8 (DL) 3×2, H on E8, E and D on I8–J8:
    // 6 + 4 + 1 + 1 + 3 + 1 + 2 = 18.
    assert_eq!(Layout::standard().premium(sq("D8")), Premium::DoubleLetter);
    let sp = score(&b, "8D", "CHARMED");
    assert_eq!(sp.placement.tiles.len(), 4);
    assert_eq!(words(&sp), w(&[("CHARMED", 18)]));
    // WESPA's clarification: TRAINER to STRAINERS in one move, an S at each end, on D8 and L8
    // (both DL): 1×2 + 7 + 1×2 = 11.
    let mut b = Board::new(15);
    put(&mut b, "8E", "TRAINER");
    assert_eq!(
        words(&score(&b, "8D", "STRAINERS")),
        w(&[("STRAINERS", 11)])
    );
}

#[test]
fn naspa_a_i_c_2_cross_a_word_at_right_angles() {
    // F8 AID (down) through the A of ARM: I on F9 (plain), D on F10 (TL) 2×3:
    // 1 + 1 + 6 = 8. The play forms only AID.
    let b = arm();
    assert_eq!(Layout::standard().premium(sq("F10")), Premium::TripleLetter);
    assert_eq!(words(&score(&b, "F8", "AID")), w(&[("AID", 8)]));
    // Through the middle: G7 ORE (down) through the R: O on G7 (DL) 1×2, E on G9 (DL) 1×2:
    // 2 + 1 + 2 = 5.
    assert_eq!(words(&score(&b, "G7", "ORE")), w(&[("ORE", 5)]));
}

#[test]
fn naspa_a_i_c_3_play_parallel_forming_cross_words() {
    // NASPA's example: MEAL on F7–I7, above ARM. G7 and I7 are DL squares.
    //   MEAL (main): M 3 + E 1×2 + A 1 + L 1×2 = 8
    //   MA (F7–F8): M 3 + A 1 (old) = 4
    //   ER (G7–G8): E 1×2 + R 1 (old) = 3
    //   AM (H7–H8): A 1 + M 3 (old) = 4
    // The player gets every word: 8 + 4 + 3 + 4 = 19.
    let b = arm();
    let sp = score(&b, "7F", "MEAL");
    assert_eq!(
        words(&sp),
        w(&[("MEAL", 8), ("MA", 4), ("ER", 3), ("AM", 4)])
    );
    assert_eq!(sp.score, 19);
}

#[test]
fn wespa_appendix_1_4_add_a_letter_to_an_existing_word() {
    // I8 SO (down): the S on I8 turns ARM into ARMS, the O goes on I9 (DL).
    //   SO (main): 1 + 1×2 = 3; ARMS: 1 + 1 + 3 + 1 = 6; in all 9.
    let b = arm();
    let sp = score(&b, "I8", "SO");
    assert_eq!(words(&sp), w(&[("SO", 3), ("ARMS", 6)]));
    assert_eq!(sp.score, 9);
    // A single tile that only adds to the word: 8F ARMS, the S alone: 6.
    let sp = score(&b, "8F", "ARMS");
    assert_eq!(words(&sp), w(&[("ARMS", 6)]));
}

#[test]
fn wespa_appendix_1_5_bridge_between_letters_on_the_board() {
    // OH on F4–F5 and ME on J4–J5 (down). 5F HOUSE uses the H and the E already on the board
    // and bridges them with O, U, S on G5–I5 (plain): 4 + 1 + 1 + 1 + 1 = 8.
    let mut b = Board::new(15);
    put(&mut b, "F4", "OH");
    put(&mut b, "J4", "ME");
    let sp = score(&b, "5F", "HOUSE");
    assert_eq!(sp.placement.tiles.len(), 3);
    assert_eq!(words(&sp), w(&[("HOUSE", 8)]));
}
