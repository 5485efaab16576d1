//! The load tool: a short run in every test pass, and the 1,000-game run on demand:
//!
//! ```text
//! cargo test -p tilebag-server --release --test load -- --ignored --nocapture
//! ```

use std::time::Duration;
use tilebag_server::{bench_serve, BenchOptions};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_tool_plays_games_to_the_end_without_errors() {
    let options = BenchOptions {
        think: Duration::ZERO,
        ..BenchOptions::default()
    };
    let report = bench_serve(None, 8, options).await.unwrap();
    println!("{report}");
    assert_eq!(report.errors, 0, "{report}");
    assert_eq!(report.games_completed, 8);
    assert!(report.actions > 8 * 20, "{report}");
    assert!(report.p50 <= report.p99 && report.p99 <= report.max);
    assert!(report.to_string().contains("p99"));
}

/// `--words`: the clients play random real words found by the engine; the games still end
/// and nothing is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_tool_plays_real_words_from_the_engine() {
    let options = BenchOptions {
        think: Duration::ZERO,
        words: true,
        ..BenchOptions::default()
    };
    let report = bench_serve(None, 4, options).await.unwrap();
    println!("{report}");
    assert_eq!(report.errors, 0, "{report}");
    assert_eq!(report.games_completed, 4);
    assert!(report.actions > 4 * 10, "{report}");
}

#[test]
#[ignore = "a minute of load: run with --ignored"]
fn load_1000_concurrent_games() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let report = rt
        .block_on(bench_serve(None, 1000, BenchOptions::default()))
        .unwrap();
    println!("{report}");
    assert_eq!(report.errors, 0, "{report}");
    assert_eq!(report.games_completed, 1000);
    assert!(report.p99 < Duration::from_millis(20), "{report}");
}
