//! A server with a judge that accepts every word, for trying the API by hand or loading it from
//! another process (`tilebag serve` is the real thing, with the built-in lexicon):
//!
//! ```text
//! cargo run --release -p tilebag-server --example serve -- [PORT] [DATABASE]
//! ```

use std::sync::Arc;
use tilebag_server::{run, ServeConfig};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut config = ServeConfig {
        default_lexicon: "accept-all".into(),
        ..ServeConfig::default()
    };
    if let Some(p) = args.first() {
        config.port = p.parse()?;
    }
    if let Some(db) = args.get(1) {
        config.database = db.clone();
    }
    config.limits.messages_per_second = 1000.0;
    config.limits.burst = 1000.0;
    config
        .lexicons
        .insert("accept-all".into(), Arc::new(tilebag_core::game::AcceptAll));
    run(config)
}
