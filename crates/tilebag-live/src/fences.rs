//! The leases this process holds on live games, when several processes share one PostgreSQL
//! database (see `tilebag_store::leases`). Every write of a game's events or time goes through
//! [`crate::health::Monitored`], which names the game's lease generation from here, so the store
//! refuses it if another process has taken the game since ([`StoreError::Fenced`]). A write so
//! refused, or a lease found taken at renewal, is reported on the `lost` channel: the cluster
//! (`cluster.rs`) then stops the game's task in this process.
//!
//! [`StoreError::Fenced`]: tilebag_store::StoreError::Fenced

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

pub struct Fences {
    /// This process's name (the leases' owner).
    pub owner: String,
    held: Mutex<HashMap<String, u64>>,
    lost: mpsc::UnboundedSender<String>,
}

impl Fences {
    /// The fences of process `owner`, and the receiver of the games whose lease it has lost.
    pub fn new(owner: &str) -> (Arc<Fences>, mpsc::UnboundedReceiver<String>) {
        let (lost, rx) = mpsc::unbounded_channel();
        let f = Fences {
            owner: owner.to_string(),
            held: Mutex::new(HashMap::new()),
            lost,
        };
        (Arc::new(f), rx)
    }

    /// This process now holds `game`'s lease at `generation`.
    pub fn hold(&self, game: &str, generation: u64) {
        self.held
            .lock()
            .expect("fences lock")
            .insert(game.to_string(), generation);
    }

    /// The generation of `game`'s lease, if this process holds it.
    pub fn generation(&self, game: &str) -> Option<u64> {
        self.held.lock().expect("fences lock").get(game).copied()
    }

    /// Forgets `game`'s lease (given up or lost); the generation it had.
    pub fn forget(&self, game: &str) -> Option<u64> {
        self.held.lock().expect("fences lock").remove(game)
    }

    /// Every lease held, with its generation.
    pub fn held(&self) -> Vec<(String, u64)> {
        self.held
            .lock()
            .expect("fences lock")
            .iter()
            .map(|(g, n)| (g.clone(), *n))
            .collect()
    }

    /// How many leases are held.
    pub fn count(&self) -> usize {
        self.held.lock().expect("fences lock").len()
    }

    /// `game`'s lease is lost (a write was fenced off): forget it and have its task stopped.
    pub fn lost(&self, game: &str) {
        if self.forget(game).is_some() {
            let _ = self.lost.send(game.to_string());
        }
    }
}
