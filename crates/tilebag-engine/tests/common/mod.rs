//! What the engine's integration tests share.

use std::path::PathBuf;

/// A file of `../shared` (the real game records and positions beside the project), or `None`
/// with the skip message when it is absent (a user's fresh clone; CI always has it).
pub fn shared(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared")
        .join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!(
            "skipping: {} is absent (the shared corpus sits beside the project in CI)",
            p.display()
        );
        None
    }
}
