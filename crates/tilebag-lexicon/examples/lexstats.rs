//! Figures for the lexicon: build time, file size, load time, lookups per second beside a
//! `HashSet<String>`, and peak memory, for ENABLE1 (words of at most 15 letters) and a
//! 280,000-word list (ENABLE1 grown by `synth::large_list`, about CSW19's size).
//!
//! `cargo run --release -p tilebag-lexicon --example lexstats`
//!
//! Peak memory is VmHWM from /proc/self/status, measured in child processes of this program so
//! each figure covers one job: `--baseline` (nothing), `--build LIST` (make the word list, build
//! the lexicon), `--load FILE` (read and validate a built file, then run the lookup batch),
//! `--hashset LIST` (make the list and a `HashSet<String>` of it). `--seed FILE` writes a small
//! built lexicon, e.g. to seed the fuzz corpus. `--write LIST FILE` writes a list as text, e.g. to
//! time `tilebag lexicon build` (with its GADDAG section) on the 280,000-word list.

use std::collections::HashSet;
use std::hint::black_box;
use std::process::Command;
use std::time::{Duration, Instant};
use tilebag_lexicon::synth::{large_list, mixed_batch};
use tilebag_lexicon::{parse_word_list, peak_memory_kib, Lexicon, ENABLE1_TEXT};

const LOOKUPS: usize = 1_000_000;

fn list(name: &str) -> Vec<String> {
    let enable: Vec<String> = parse_word_list(ENABLE1_TEXT)
        .expect("embedded ENABLE1 parses")
        .into_iter()
        .filter(|w| w.len() <= 15)
        .collect();
    match name {
        "enable" => enable,
        "280k" => large_list(&enable, 280_000, 2024),
        other => panic!("unknown list {other}; use enable or 280k"),
    }
}

/// Best of `runs` timings of `f`.
fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..runs {
        let t = Instant::now();
        let r = black_box(f());
        best = best.min(t.elapsed());
        out = Some(r);
    }
    (best, out.expect("runs > 0"))
}

fn child(args: &[&str]) -> String {
    let exe = std::env::current_exe().expect("current exe");
    let out = Command::new(exe).args(args).output().expect("child runs");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["--baseline"] => {
            println!("{}", peak_memory_kib().unwrap_or(0));
            return;
        }
        ["--build", name] => {
            let words = list(name);
            let lex = Lexicon::from_words(&words, name).expect("builds");
            black_box(&lex);
            println!("{}", peak_memory_kib().unwrap_or(0));
            return;
        }
        ["--hashset", name] => {
            let set: HashSet<String> = list(name).into_iter().collect();
            black_box(&set);
            println!("{}", peak_memory_kib().unwrap_or(0));
            return;
        }
        ["--load", file] => {
            let lex = Lexicon::load(file).expect("loads");
            let loaded = peak_memory_kib().unwrap_or(0);
            black_box(&lex);
            println!("{loaded}");
            return;
        }
        ["--seed", path] => {
            // A small built file to seed the fuzz corpus (see fuzz/).
            let words = ["CAT", "CATS", "CAR", "CARS", "SCAR", "SCARS", "QI", "ZA", "OK", "EUOI"];
            let lex = Lexicon::from_words(words, "seed").expect("builds");
            if let Some(dir) = std::path::Path::new(path).parent() {
                std::fs::create_dir_all(dir).expect("creates the directory");
            }
            lex.save(path).expect("saves");
            return;
        }
        ["--write", name, path] => {
            // The word list as a text file, one word a line, for `tilebag lexicon build`
            // (`--write 280k list.txt`: the synthetic CSW-sized list the build time is measured on).
            let mut text = list(name).join("\n");
            text.push('\n');
            std::fs::write(path, text).expect("writes the list");
            return;
        }
        [] => {}
        _ => panic!(
            "usage: lexstats [--baseline | --build LIST | --hashset LIST | --load FILE | --seed FILE | --write LIST FILE]"
        ),
    }

    let baseline = child(&["--baseline"]);
    println!("process baseline peak RSS: {baseline} KiB");
    let dir = std::env::temp_dir().join(format!("tilebag-lexstats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for name in ["enable", "280k"] {
        let words = list(name);
        let (build, lex) = best(5, || Lexicon::from_words(&words, name).expect("builds"));
        let (parse_build, _) = if name == "enable" {
            best(5, || {
                Lexicon::from_word_list(ENABLE1_TEXT, name).expect("builds")
            })
        } else {
            (Duration::ZERO, lex.clone())
        };
        let bytes = lex.to_bytes();
        let (load, loaded) = best(20, || Lexicon::from_bytes(&bytes).expect("loads"));
        assert_eq!(loaded, lex);
        let file = dir.join(format!("{name}.tblex"));
        lex.save(&file).expect("saves");
        let (load_file, _) = best(20, || Lexicon::load(&file).expect("loads"));

        let set: HashSet<String> = words.iter().cloned().collect();
        let queries = mixed_batch(&words, LOOKUPS, 7);
        let (t_dawg, hits_dawg) = best(5, || queries.iter().filter(|w| lex.contains(w)).count());
        let (t_set, hits_set) = best(5, || {
            queries.iter().filter(|w| set.contains(w.as_str())).count()
        });
        assert_eq!(hits_dawg, hits_set);
        let (t_enum, n) = best(3, || lex.words().count());
        let stats = lex.build_stats();

        let peak_build = child(&["--build", name]);
        let peak_load = child(&["--load", &file.to_string_lossy()]);
        let peak_set = child(&["--hashset", name]);

        println!();
        println!(
            "== {name}: {} words ({} nodes, {} edges)",
            stats.words, stats.nodes, stats.edges
        );
        println!("build (sorted words -> lexicon):  {}", ms(build));
        if name == "enable" {
            println!("parse + build (ENABLE1 text):     {}", ms(parse_build));
        }
        println!(
            "file size:                        {} bytes ({:.2} MB)",
            bytes.len(),
            bytes.len() as f64 / 1e6
        );
        println!("load (from_bytes, validated):     {}", ms(load));
        println!("load (file read + from_bytes):    {}", ms(load_file));
        println!(
            "enumerate all words:              {} ({n} words)",
            ms(t_enum)
        );
        println!(
            "lookups ({LOOKUPS} mixed, {hits_dawg} present): DAWG {:.1} M/s ({:.0} ns each), HashSet<String> {:.1} M/s ({:.0} ns each)",
            LOOKUPS as f64 / t_dawg.as_secs_f64() / 1e6,
            t_dawg.as_nanos() as f64 / LOOKUPS as f64,
            LOOKUPS as f64 / t_set.as_secs_f64() / 1e6,
            t_set.as_nanos() as f64 / LOOKUPS as f64,
        );
        println!("peak RSS, make list + build:      {peak_build} KiB");
        println!("peak RSS, load file only:         {peak_load} KiB");
        println!("peak RSS, make list + HashSet:    {peak_set} KiB");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
