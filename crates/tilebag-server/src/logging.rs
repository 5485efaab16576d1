//! The server's log: structured, levelled and filterable lines on standard error, each naming the
//! process that wrote it (an operator of several processes reads them side by side) and, where a
//! game is concerned, the game (`game=ID`).
//!
//! The libraries log through `tracing`'s macros with fields (`tracing::warn!(game = %id, ...)`);
//! this file installs the one subscriber, in `tilebag serve` only (tests and embedders that never
//! call [`init`] log nothing). What is written is chosen like `RUST_LOG`, from `TILEBAG_LOG`
//! (default `info`): `TILEBAG_LOG=warn`, `TILEBAG_LOG=tilebag_live=debug,info`, ...
//!
//! A line: `2026-11-27T09:41:02.311Z  WARN process=web-1 tilebag_live::live: cannot save game=ab12 error=...`

use std::fmt;
use tracing::{Event, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::time::{FormatTime, SystemTime};
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::EnvFilter;

/// The environment variable that filters the log.
pub const FILTER_VAR: &str = "TILEBAG_LOG";

/// The name a process gives itself when the operator names none: `tilebag-PID`.
pub fn default_process_name() -> String {
    format!("tilebag-{}", std::process::id())
}

/// A line: the time (UTC), the level, `process=NAME`, where it was written, the message and its
/// fields as `key=value`.
struct Line {
    process: String,
}

impl<S, N> FormatEvent<S, N> for Line
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        SystemTime.format_time(&mut writer)?;
        let meta = event.metadata();
        write!(
            writer,
            " {:>5} process={} {}: ",
            meta.level(),
            self.process,
            meta.target()
        )?;
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}

/// The filter `TILEBAG_LOG` asks for (`info` when unset); a value that cannot be read is an error
/// naming it, rather than a log silently different from the one asked for.
pub fn filter_from_env() -> anyhow::Result<EnvFilter> {
    match std::env::var(FILTER_VAR) {
        Err(_) => Ok(EnvFilter::new("info")),
        Ok(spec) => EnvFilter::try_new(&spec)
            .map_err(|e| anyhow::anyhow!("{FILTER_VAR}={spec:?} is not a log filter: {e}")),
    }
}

fn subscriber<W>(
    process: &str,
    filter: EnvFilter,
    writer: W,
) -> impl Subscriber + Send + Sync + 'static
where
    W: for<'w> tracing_subscriber::fmt::MakeWriter<'w> + Send + Sync + 'static,
{
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(writer)
        .event_format(Line {
            process: process.to_string(),
        })
        .finish()
}

/// Install the process's log (once; a second call changes nothing).
pub fn init(process: &str) -> anyhow::Result<()> {
    let filter = filter_from_env()?;
    let _ = tracing::subscriber::set_global_default(subscriber(process, filter, std::io::stderr));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Lines(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Lines {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn logged(filter: &str, f: impl FnOnce()) -> String {
        let lines = Lines::default();
        let out = lines.clone();
        let sub = subscriber("web-2", EnvFilter::new(filter), move || out.clone());
        tracing::subscriber::with_default(sub, f);
        let bytes = lines.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn a_line_names_its_process_level_and_game() {
        let text = logged("info", || {
            tracing::warn!(game = %"g7Kx", error = %"disk full", "cannot save");
        });
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.contains(" WARN process=web-2 "), "{text}");
        assert!(
            text.contains("tilebag_server::logging::tests: cannot save game=g7Kx"),
            "{text}"
        );
        // It begins with the time, in UTC.
        assert!(
            text.starts_with("20") && text.as_bytes()[10] == b'T',
            "{text}"
        );
        assert!(text.contains("error=disk full"), "{text}");
    }

    #[test]
    fn the_filter_keeps_what_the_operator_asked_for() {
        let text = logged("warn", || {
            tracing::info!("started");
            tracing::error!("the database is down");
        });
        assert!(!text.contains("started"), "{text}");
        assert!(text.contains("ERROR process=web-2"), "{text}");
        // By target: this module's debug lines only.
        let text = logged("off,tilebag_server::logging=debug", || {
            tracing::debug!("asked for");
        });
        assert!(text.contains("asked for"), "{text}");
    }

    #[test]
    fn a_filter_that_cannot_be_read_is_named() {
        assert!(EnvFilter::try_new("tilebag_live=loud").is_err());
    }
}
