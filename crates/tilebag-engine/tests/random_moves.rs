//! The random moves the load tool and the server's tests play (`tilebag_engine::random`): a
//! random real-word play is one the core accepts and whose every word the lexicon holds, and
//! over many draws the choice spreads over many different plays; a phony play is one the core
//! accepts whatever its letters.

use std::collections::HashSet;
use tilebag_core::bag::Rng;
use tilebag_core::play::score_placement;
use tilebag_core::{Board, Layout, PlacedTile, Placement, Position, Square, TileSet};
use tilebag_engine::random::{phony_play, word_play};
use tilebag_engine::{Engine, Leaves, Tables};
use tilebag_lexicon::Lexicon;

fn board_of(rows: &[String], set: &TileSet) -> Board {
    let mut b = Board::new(15);
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch != '.' {
                b.set(
                    Square::new(r as u8, c as u8),
                    PlacedTile {
                        letter: set.letter_index(ch).unwrap(),
                        blank: ch.is_lowercase(),
                    },
                );
            }
        }
    }
    b
}

fn rows_with(lines: &[(usize, &str)]) -> Vec<String> {
    let mut rows: Vec<String> = (0..15).map(|_| ".".repeat(15)).collect();
    for (r, s) in lines {
        rows[*r] = s.to_string();
    }
    rows
}

#[test]
fn random_word_plays_are_legal_real_words_and_varied() {
    let lex = Lexicon::builtin_enable();
    let t = Tables::english();
    let engine = Engine::new(lex, &t, Leaves::enable(), 7);
    let set = TileSet::english();
    let layout = Layout::standard();
    let mut rng = Rng::new(77);
    for (rows, rack, max_tiles) in [
        (rows_with(&[]), "AEINRST", 7),
        (rows_with(&[(7, "....QUIXOTE....")]), "EORSTU?", 3),
        (rows_with(&[(7, ".......CAT.....")]), "DEGIKLO", 4),
    ] {
        let board = board_of(&rows, &set);
        let mut distinct = HashSet::new();
        for _ in 0..40 {
            let (pos, word) = word_play(&engine, &rows, rack, max_tiles, &mut rng)
                .unwrap_or_else(|| panic!("no play for {rack}"));
            let position = Position::parse(&pos, 15).unwrap();
            let p = Placement::from_gcg(&board, &layout, &set, position, &word).unwrap();
            assert!(p.tiles.len() <= max_tiles, "{pos} {word}");
            let scored = score_placement(&board, &layout, &set, &p, 7)
                .unwrap_or_else(|e| panic!("{pos} {word} refused: {e}"));
            for w in &scored.words {
                assert!(lex.contains(&w.word), "{pos} {word} forms {}", w.word);
            }
            distinct.insert((pos, word));
        }
        // Uniform over hundreds of plays: 40 draws give many different ones.
        assert!(
            distinct.len() >= 20,
            "{rack}: only {} plays",
            distinct.len()
        );
    }
    // No tile on the rack, or a board it cannot read: no play, no panic.
    assert_eq!(word_play(&engine, &rows_with(&[]), "", 7, &mut rng), None);
    assert_eq!(
        word_play(&engine, &rows_with(&[(2, "#")]), "AB", 7, &mut rng),
        None
    );
}

#[test]
fn random_phony_plays_are_accepted_by_the_core_whatever_their_letters() {
    let set = TileSet::english();
    let layout = Layout::standard();
    let rows = rows_with(&[(7, "...JUKEBOX.....")]);
    let board = board_of(&rows, &set);
    let mut rng = Rng::new(3);
    for _ in 0..100 {
        let (pos, word) = phony_play(&rows, "VVWWQ?Z", 5, &mut rng).unwrap();
        let position = Position::parse(&pos, 15).unwrap();
        let p = Placement::from_gcg(&board, &layout, &set, position, &word).unwrap();
        assert!(
            score_placement(&board, &layout, &set, &p, 7).is_ok(),
            "{pos} {word}"
        );
    }
}
