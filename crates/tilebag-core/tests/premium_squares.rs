//! The board and the scoring appendices, one rule per test, each worked by hand: NASPA III.A.4 and
//! A.II, NSA III.A.4 and Appendix II, WESPA Appendix 1 ("Premium spaces", "Scoring", "50-point
//! bonus"), SANSPA 5.2 and Literacy scoring 2 to 8 say the same things in their own words.
//!
//! Tiles from earlier turns are set straight onto the board (`put`): a premium square counts only
//! for the turn that covers it, so how they got there does not matter. Letter values: A E I O R
//! S T U L N 1, D 2, B C M P 3, F H V W Y 4, K 5, J X 8, Q Z 10, blank 0.

use tilebag_core::board::Premium;
use tilebag_core::play::BINGO_BONUS;
use tilebag_core::{Board, Layout, Square, TileSet};

mod board_support;

use board_support::{put, score, sq};

fn premium(name: &str) -> Premium {
    Layout::standard().premium(sq(name))
}

#[test]
fn naspa_iii_a_4_the_standard_layout_square_by_square() {
    // The standard board, read off the printed one: 8 triple word (TW), 17 double word (DW, with
    // the centre), 12 triple letter (TL) and 24 double letter (DL) squares; 164 plain squares.
    let tw = ["A1", "H1", "O1", "A8", "O8", "A15", "H15", "O15"];
    let dw = [
        "B2", "C3", "D4", "E5", "N2", "M3", "L4", "K5", "B14", "C13", "D12", "E11", "N14", "M13",
        "L12", "K11", "H8",
    ];
    let tl = [
        "F2", "J2", "B6", "F6", "J6", "N6", "B10", "F10", "J10", "N10", "F14", "J14",
    ];
    let dl = [
        "D1", "L1", "G3", "I3", "A4", "H4", "O4", "C7", "G7", "I7", "M7", "D8", "L8", "C9", "G9",
        "I9", "M9", "A12", "H12", "O12", "G13", "I13", "D15", "L15",
    ];
    let l = Layout::standard();
    assert_eq!(l.size, 15);
    assert_eq!(l.centre, sq("H8"));
    let mut expected = vec![Premium::None; 225];
    for (names, p) in [
        (&tw[..], Premium::TripleWord),
        (&dw[..], Premium::DoubleWord),
        (&tl[..], Premium::TripleLetter),
        (&dl[..], Premium::DoubleLetter),
    ] {
        for n in names {
            let s = sq(n);
            assert_eq!(
                expected[s.row as usize * 15 + s.col as usize],
                Premium::None
            );
            expected[s.row as usize * 15 + s.col as usize] = p;
        }
    }
    for r in 0..15u8 {
        for c in 0..15u8 {
            let s = Square::new(r, c);
            assert_eq!(
                l.premium(s),
                expected[r as usize * 15 + c as usize],
                "square {s}"
            );
        }
    }
    assert_eq!(tw.len() + dw.len() + tl.len() + dl.len(), 61);
}

#[test]
fn naspa_a_ii_c_1_a_double_letter_square_doubles_the_letter() {
    let mut b = Board::new(15);
    put(&mut b, "8E", "ARE");
    assert_eq!(premium("D8"), Premium::DoubleLetter);
    // 8D FARE: F on D8 (DL) 4×2 = 8, then A R E already on the board 1+1+1: 11.
    let sp = score(&b, "8D", "FARE");
    assert_eq!((sp.words[0].word.as_str(), sp.score), ("FARE", 11));
    // The same word with the F on a plain square (I8) scores its face value, 4+1+1+1 = 7 (and
    // the old tile on L8, a DL, counts once).
    let mut b = Board::new(15);
    put(&mut b, "8J", "ARE");
    assert_eq!(premium("I8"), Premium::None);
    assert_eq!(score(&b, "8I", "FARE").score, 7);
}

#[test]
fn naspa_a_ii_c_2_a_triple_letter_square_triples_the_letter() {
    let mut b = Board::new(15);
    put(&mut b, "F7", "ARE");
    assert_eq!(premium("F6"), Premium::TripleLetter);
    // F6 FARE (down): F on F6 (TL) 4×3 = 12, then A R E 1+1+1: 15.
    let sp = score(&b, "F6", "FARE");
    assert_eq!((sp.words[0].word.as_str(), sp.score), ("FARE", 15));
}

#[test]
fn naspa_a_ii_d_1_the_centre_and_a_double_word_square_double_the_word() {
    // The centre is a double word (DW) square: 8H FAR as the first play, F on H8:
    // (4+1+1)×2 = 12.
    let b = Board::new(15);
    assert_eq!(premium("H8"), Premium::DoubleWord);
    assert_eq!(score(&b, "8H", "FAR").score, 12);
    // Any other DW square: E5 FARE (down) with ARE on E6–E8, F on E5: (4+1+1+1)×2 = 14.
    let mut b = Board::new(15);
    put(&mut b, "E6", "ARE");
    assert_eq!(premium("E5"), Premium::DoubleWord);
    let sp = score(&b, "E5", "FARE");
    assert_eq!((sp.words[0].word.as_str(), sp.score), ("FARE", 14));
}

#[test]
fn naspa_a_ii_d_2_a_triple_word_square_triples_the_word() {
    // 1A FAR with AR on B1–C1, F on A1, a triple word (TW) square: (4+1+1)×3 = 18.
    let mut b = Board::new(15);
    put(&mut b, "1B", "AR");
    assert_eq!(premium("A1"), Premium::TripleWord);
    let sp = score(&b, "1A", "FAR");
    assert_eq!((sp.words[0].word.as_str(), sp.score), ("FAR", 18));
    // Down the side: O7 HOT (down) with the T already on O9: H on O7 (plain), O on O8 (TW):
    // (4+1+1)×3 = 18.
    let mut b = Board::new(15);
    put(&mut b, "O9", "T");
    assert_eq!(premium("O7"), Premium::None);
    assert_eq!(premium("O8"), Premium::TripleWord);
    let sp = score(&b, "O7", "HOT");
    assert_eq!((sp.words[0].word.as_str(), sp.score), ("HOT", 18));
}

#[test]
fn naspa_a_ii_e_letter_premiums_count_before_word_premiums() {
    // 8D JOKED as the first play: J on D8 (DL), D on H8 (the centre, DW).
    // Letters first: (8×2 + 1 + 5 + 1 + 2)×2 = 25×2 = 50, not (8+1+5+1+2)×2 + 8 = 42.
    let b = Board::new(15);
    assert_eq!(premium("D8"), Premium::DoubleLetter);
    assert_eq!(score(&b, "8D", "JOKED").score, 50);
    // With a TW and a DL in one word: 1A BEAK with EA on B1–C1: B on A1 (TW), K on D1 (DL):
    // (3 + 1 + 1 + 5×2)×3 = 15×3 = 45, not (3+1+1+5)×3 + 5 = 35.
    let mut b = Board::new(15);
    put(&mut b, "1B", "EA");
    assert_eq!(premium("D1"), Premium::DoubleLetter);
    assert_eq!(score(&b, "1A", "BEAK").score, 45);
}

#[test]
fn naspa_a_ii_f_two_double_word_squares_multiply_by_four() {
    // 5E CRAFTED with the F already on H5: C on E5 (DW) and D on K5 (DW), the rest plain.
    // (3+1+1+4+1+1+2) = 13, doubled and redoubled: 13×4 = 52. Six new tiles: no bingo.
    let mut b = Board::new(15);
    put(&mut b, "5H", "F");
    assert_eq!(premium("E5"), Premium::DoubleWord);
    assert_eq!(premium("K5"), Premium::DoubleWord);
    let sp = score(&b, "5E", "CRAFTED");
    assert!(!sp.bingo);
    assert_eq!((sp.words[0].word.as_str(), sp.score), ("CRAFTED", 52));
}

#[test]
fn naspa_a_ii_g_two_triple_word_squares_multiply_by_nine() {
    // 1A ABSOLUTE with the L already on E1: A on A1 (TW), O on D1 (DL), E on H1 (TW).
    // 1 + 3 + 1 + 1×2 + 1 + 1 + 1 + 1 = 11, tripled and tripled again: 99; seven new tiles, so
    // the 50-point bonus is added after: 149.
    let mut b = Board::new(15);
    put(&mut b, "1E", "L");
    assert_eq!(premium("A1"), Premium::TripleWord);
    assert_eq!(premium("H1"), Premium::TripleWord);
    let sp = score(&b, "1A", "ABSOLUTE");
    assert!(sp.bingo);
    assert_eq!(sp.words[0].score, 99);
    assert_eq!(sp.score, 11 * 9 + BINGO_BONUS);
}

#[test]
fn naspa_a_ii_h_premium_squares_count_only_on_the_turn_they_are_covered() {
    // FAR on A1–C1 from an earlier turn (scored ×3 then). A1 FE (down): F old on A1 (TW, used),
    // E on A2 (plain): 4 + 1 = 5, not 15.
    let mut b = Board::new(15);
    put(&mut b, "1A", "FAR");
    assert_eq!(premium("A1"), Premium::TripleWord);
    assert_eq!(premium("A2"), Premium::None);
    let sp = score(&b, "A1", "FE");
    assert_eq!((sp.words[0].word.as_str(), sp.score), ("FE", 5));
    // FARE on D8–G8 from an earlier turn (F on D8, a DL). D7 OF (down): O on D7 (plain), the
    // old F counts its face value: 1 + 4 = 5, not 9.
    let mut b = Board::new(15);
    put(&mut b, "8D", "FARE");
    assert_eq!(premium("D8"), Premium::DoubleLetter);
    assert_eq!(premium("D7"), Premium::None);
    let sp = score(&b, "D7", "OF");
    assert_eq!((sp.words[0].word.as_str(), sp.score), ("OF", 5));
}

#[test]
fn naspa_a_ii_i_a_blank_on_a_word_premium_still_multiplies_the_word() {
    // A blank (lowercase) on a triple word (TW) square: 1A fAR with AR on B1–C1:
    // (0+1+1)×3 = 6.
    let mut b = Board::new(15);
    put(&mut b, "1B", "AR");
    assert_eq!(premium("A1"), Premium::TripleWord);
    let sp = score(&b, "1A", "fAR");
    assert!(sp.placement.tiles[0].1.blank);
    assert_eq!(sp.score, 6);
    // On a double word (DW) square: E5 fARE (down) with ARE on E6–E8: (0+1+1+1)×2 = 6.
    let mut b = Board::new(15);
    put(&mut b, "E6", "ARE");
    assert_eq!(score(&b, "E5", "fARE").score, 6);
    // On the centre as the first play: 8H eX: (0 + 8)×2 = 16.
    assert_eq!(score(&Board::new(15), "8H", "eX").score, 16);
}

#[test]
fn wespa_appendix_1_a_blank_on_a_letter_premium_is_still_worth_zero() {
    // On a double letter (DL) square: 8D fARE with ARE on E8–G8: 0×2 + 1+1+1 = 3.
    let mut b = Board::new(15);
    put(&mut b, "8E", "ARE");
    assert_eq!(premium("D8"), Premium::DoubleLetter);
    assert_eq!(score(&b, "8D", "fARE").score, 3);
    // On a triple letter (TL) square: F6 fARE (down) with ARE on F7–F9: 0×3 + 3 = 3.
    let mut b = Board::new(15);
    put(&mut b, "F7", "ARE");
    assert_eq!(premium("F6"), Premium::TripleLetter);
    assert_eq!(score(&b, "F6", "fARE").score, 3);
}

#[test]
fn naspa_a_ii_b_every_word_formed_scores_with_its_premiums_counted_in_each() {
    // HA on H8–I8. 9H AX: A on H9 (plain), X on I9 (DL, 8×2 = 16). Words formed:
    //   AX (across, the main word): 1 + 16 = 17
    //   HA (down, column H): H old 4 + A 1 = 5
    //   AX (down, column I): A old 1 + X 16 = 17 (the DL counts in this word too)
    // The play scores every word: 17 + 5 + 17 = 39.
    let mut b = Board::new(15);
    put(&mut b, "8H", "HA");
    assert_eq!(premium("H9"), Premium::None);
    assert_eq!(premium("I9"), Premium::DoubleLetter);
    let sp = score(&b, "9H", "AX");
    let words: Vec<(&str, i32)> = sp
        .words
        .iter()
        .map(|w| (w.word.as_str(), w.score))
        .collect();
    assert_eq!(words, [("AX", 17), ("HA", 5), ("AX", 17)]);
    assert_eq!(sp.score, 39);
}

#[test]
fn naspa_a_ii_b_a_bingo_adds_50_after_the_word_is_doubled() {
    // 8H QUIXOTE as the first play: Q on H8 (the centre, DW), O on L8 (DL).
    // 10 + 1 + 1 + 8 + 1×2 + 1 + 1 = 24, doubled: 48; all seven tiles: + 50 = 98 (not
    // (24 + 50)×2 = 148).
    let sp = score(&Board::new(15), "8H", "QUIXOTE");
    assert!(sp.bingo);
    assert_eq!(sp.words[0].score, 48);
    assert_eq!(sp.score, 48 + BINGO_BONUS);
    assert_eq!(sp.score, 98);
}

#[test]
fn nsa_iv_f_1_two_blanks_in_one_play_keep_their_own_letters() {
    // 8G sAt: a blank as S on G8, A on H8 (the centre), a blank as T on I8: (0 + 1 + 0)×2 = 2.
    let mut b = Board::new(15);
    let sp = score(&b, "8G", "sAt");
    assert_eq!(sp.score, 2);
    assert_eq!(sp.words[0].word, "SAT");
    for (s, t) in &sp.placement.tiles {
        b.set(*s, *t);
    }
    let set = TileSet::english();
    assert_eq!(set.placed_char(b.get(sq("G8")).unwrap()), 's');
    assert_eq!(set.placed_char(b.get(sq("H8")).unwrap()), 'A');
    assert_eq!(set.placed_char(b.get(sq("I8")).unwrap()), 't');
    // Fixed for the rest of the game: a later play through them reads them as S and T, worth 0.
    // I7 ATE (down) through the t: A on I7 (DL) 1×2, t 0, E on I9 (DL) 1×2: 4.
    let sp = score(&b, "I7", "A.E");
    assert_eq!((sp.words[0].word.as_str(), sp.score), ("ATE", 4));
}
