//! The analyses of ended games made so far (`analysis.rs` makes them), kept by game id in the
//! hub: an ended game never changes, so its analysis is made once.

use crate::protocol::ErrorCode;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Analyses kept in memory.
const KEEP: usize = 256;

type Slot = Arc<tokio::sync::OnceCell<Result<Arc<String>, (ErrorCode, String)>>>;

/// The analyses made so far, by game id.
#[derive(Default)]
pub struct Cache {
    slots: Mutex<HashMap<String, Slot>>,
}

impl Cache {
    pub fn slot(&self, id: &str) -> Slot {
        let mut slots = self.slots.lock().expect("analysis cache lock");
        if slots.len() >= KEEP && !slots.contains_key(id) {
            // Forget the finished ones; a new request recomputes.
            slots.retain(|_, s| s.get().is_none());
        }
        slots.entry(id.to_string()).or_default().clone()
    }
}
