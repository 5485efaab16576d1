//! Times one Argon2id hash under the crate's cost (and OWASP's minimums beside it), to choose
//! and check `password::COST`:
//!
//! ```text
//! cargo run --release -p tilebag-accounts --example argon2_cost
//! ```
//!
//! Prints the median and the spread of a few hashes per cost. A verify costs the same as a hash.

use std::time::Instant;
use tilebag_accounts::password::{self, Cost};

fn time_ms(cost: Cost, rounds: usize) -> Vec<f64> {
    let salt = [42u8; password::SALT_LEN];
    // One warm-up hash (page faults on the first allocation of the memory).
    password::hash_password_with("warm up", &salt, cost).expect("hash");
    let mut times: Vec<f64> = (0..rounds)
        .map(|i| {
            let pw = format!("correct horse battery staple {i}");
            let start = Instant::now();
            password::hash_password_with(&pw, &salt, cost).expect("hash");
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(|a, b| a.total_cmp(b));
    times
}

fn main() {
    let rounds = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(15usize);
    let candidates = [
        ("COST (chosen)", password::COST),
        ("OWASP m=19MiB t=2 p=1", password::OWASP_MINIMUM),
        (
            "OWASP m=46MiB t=1 p=1",
            Cost {
                memory_kib: 46 * 1024,
                iterations: 1,
                parallelism: 1,
            },
        ),
        (
            "m=24MiB t=2 p=1",
            Cost {
                memory_kib: 24 * 1024,
                iterations: 2,
                parallelism: 1,
            },
        ),
        (
            "m=48MiB t=2 p=1",
            Cost {
                memory_kib: 48 * 1024,
                iterations: 2,
                parallelism: 1,
            },
        ),
        (
            "m=32MiB t=3 p=1",
            Cost {
                memory_kib: 32 * 1024,
                iterations: 3,
                parallelism: 1,
            },
        ),
        (
            "m=64MiB t=2 p=1",
            Cost {
                memory_kib: 64 * 1024,
                iterations: 2,
                parallelism: 1,
            },
        ),
    ];
    println!("{rounds} hashes per cost; milliseconds per hash");
    for (name, cost) in candidates {
        let t = time_ms(cost, rounds);
        println!(
            "{name:<24} m={:>6} KiB t={} p={}: median {:6.1} ms  (min {:6.1}, max {:6.1})",
            cost.memory_kib,
            cost.iterations,
            cost.parallelism,
            t[t.len() / 2],
            t[0],
            t[t.len() - 1]
        );
    }
    let start = Instant::now();
    let v = password::verify_unknown_user("someone");
    println!(
        "verify_unknown_user: {:.1} ms ({v:?})",
        start.elapsed().as_secs_f64() * 1000.0
    );
}
