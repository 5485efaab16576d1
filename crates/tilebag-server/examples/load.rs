//! The load tool from the command line (until `tilebag bench serve` wraps it):
//!
//! ```text
//! cargo run --release -p tilebag-server --example load -- [GAMES] [THINK_MS] [ADDR] [PRESET]
//! ```
//!
//! GAMES concurrent games (default 1000), each client thinking THINK_MS on average before each
//! action (default 1000; 0 plays flat out), against the server at ADDR (default: a server
//! started in this process on a free port with a temporary SQLite file).

use std::time::Duration;
use tilebag_server::{bench_serve, BenchOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let think: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let addr = args
        .get(2)
        .filter(|a| *a != "-")
        .map(|a| a.parse().expect("ADDR is host:port"));
    let mut options = BenchOptions {
        think: Duration::from_millis(think),
        ..BenchOptions::default()
    };
    if let Some(p) = args.get(3) {
        options.preset = p.clone();
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    match rt.block_on(bench_serve(addr, games, options)) {
        Ok(report) => {
            println!("{report}");
            if report.errors > 0 {
                std::process::exit(1);
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}
