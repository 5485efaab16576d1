//! What the command-line tests share: running the real `tilebag` binary, reading what it said,
//! and a temporary directory per test. `td.rs` adds the director's harness for `tilebag td`.
//!
//! Each test file takes it with `mod support;`; a file uses only some of it.

#![allow(dead_code)]

pub mod serve;
pub mod td;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the binary with `args`.
pub fn tilebag<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilebag"))
        .args(args)
        .output()
        .expect("run the tilebag binary")
}

/// Runs the binary with `args` in `dir` (relative paths are the test's files there).
pub fn tilebag_in<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilebag"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run the tilebag binary")
}

/// Standard output, which must be UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

/// Standard error, which must be UTF-8.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

/// Everything the binary said, for assertion messages.
pub fn said(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A fresh, empty directory `PREFIX-NAME-PID` under the system's temporary directory.
pub fn temp_dir(prefix: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("{prefix}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
