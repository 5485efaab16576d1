//! The readers never panic: mutated `.t` files, archives and schedule strings give errors (with
//! line numbers) or valid divisions, and an imported division always replays or is refused.

use tilebag_core::bag::Rng;
use tilebag_tournament::tsh::{division_actions, parse_t, read_tsh_archive, TshError};
use tilebag_tournament::{Action, Schedule, Tournament};

const GOOD: &str = "\
Chew, John, III:CM000003 1800 3 0 2 3 0 2; 300 50 350 300 50 300; p12 1 0 2 1 0 2
Second, Sam 1700 0 3 1 0 3 1; 50 400 320 50 410 280; p12 0 1 1 0 2 2
Third, Tia 1600 1 2 0 1 2 4; 280 390 50 310 380 420; lifeg 12
Winter 1900 0 0 0 0 0 3; -50 -50 -50 -50 -50 500; off -50
";

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let alphabet: Vec<char> = "0123456789 ;:-\n#,Xp12off".chars().collect();
    for _ in 0..1 + rng.below(6) {
        let i = rng.below(chars.len().max(1));
        match rng.below(3) {
            0 if !chars.is_empty() => {
                chars.remove(i.min(chars.len() - 1));
            }
            1 => chars.insert(i.min(chars.len()), alphabet[rng.below(alphabet.len())]),
            _ if !chars.is_empty() => {
                let j = i.min(chars.len() - 1);
                chars[j] = alphabet[rng.below(alphabet.len())];
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_t_files_never_panic() {
    let mut rng = Rng::new(5);
    let (mut ok, mut refused) = (0, 0);
    for _ in 0..20_000 {
        let text = mutate(&mut rng, GOOD);
        match division_actions(&text, "A", "naspa-2013", "MAN:6", 1) {
            Ok(actions) => {
                let mut log = vec![Action::CreateTournament {
                    name: "Fuzz".into(),
                    date: None,
                }];
                log.extend(actions);
                let _ = Tournament::replay(&log);
                ok += 1;
            }
            Err(TshError::Line { line, .. }) => {
                assert!(line >= 1 && line <= text.lines().count(), "{line}");
                refused += 1;
            }
            Err(e) => panic!("{e}"),
        }
        let _ = parse_t(&text);
        let _ = read_tsh_archive(&format!(
            "division A a.t\n#begin_file name=a.t\n{text}#end_file name=a.t\n"
        ));
    }
    assert!(ok > 100 && refused > 100, "{ok} {refused}");
}

#[test]
fn random_schedule_strings_never_panic() {
    let mut rng = Rng::new(9);
    let alphabet: Vec<char> = "IFSWKOTHRDAPMN:@0123456789 ".chars().collect();
    for _ in 0..20_000 {
        let s: String = (0..rng.below(20))
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        if let Ok(sch) = Schedule::parse(&s) {
            let _ = sch.total_rounds(rng.below(50));
            let _ = sch.block_for(rng.below(40) as u32, 17);
        }
    }
}
