//! What every handler of the HTTP API is given: the hub of live games, the static files, the
//! lexicons and the per-address quotas (`http.rs` makes it; the analysis and the WebSocket
//! upgrade are handlers too).

use std::path::PathBuf;
use std::sync::Arc;
use tilebag_live::live::Hub;
use tilebag_live::quota::PerAddress;

#[derive(Clone)]
pub(crate) struct AppState {
    pub hub: Arc<Hub>,
    pub static_dir: Option<Arc<PathBuf>>,
    /// The lexicons by name, for the word judge kiosk (`POST /api/judge`).
    pub lexicons: Arc<std::collections::HashMap<String, tilebag_live::config::Judge>>,
    /// Where the kiosk's adjudications are logged (NASPA IV.J.1).
    pub judge_log: Arc<crate::web::JudgeLogFile>,
    /// Per-address quotas on what anybody may ask without a key.
    pub quota_games: Arc<PerAddress>,
    pub quota_judge: Arc<PerAddress>,
    pub quota_verify: Arc<PerAddress>,
    /// The connection limits (a WebSocket's silence timeout, a stream's keep-alive).
    pub net: crate::net::NetLimits,
}
