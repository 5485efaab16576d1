//! The figures an operator graphs, counted where they happen and written in Prometheus' text
//! format (version 0.0.4, what Prometheus, VictoriaMetrics and the OpenTelemetry collector
//! read) by the server's `GET /metrics`.
//!
//! Counters only ever rise (a collector computes rates, such as actions a second, from them);
//! gauges are read when the page is asked for. Every update is one relaxed atomic add: nothing
//! here takes a lock on a game's path.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The upper bounds (seconds) of the commit-latency histogram's buckets: from a quarter of a
/// millisecond (SQLite on a fast disk) to a second (a database in trouble).
pub const COMMIT_BUCKETS: [f64; 12] = [
    0.000_25, 0.000_5, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
];

/// A histogram with fixed buckets, in Prometheus' cumulative form when written.
#[derive(Default)]
pub struct Histogram {
    /// Observations at most each bound (not cumulative here; summed when written).
    buckets: [AtomicU64; COMMIT_BUCKETS.len()],
    /// Observations above the last bound.
    over: AtomicU64,
    count: AtomicU64,
    /// The sum, in nanoseconds.
    sum_ns: AtomicU64,
}

impl Histogram {
    pub fn observe(&self, d: Duration) {
        let s = d.as_secs_f64();
        match COMMIT_BUCKETS.iter().position(|&b| s <= b) {
            Some(i) => self.buckets[i].fetch_add(1, Ordering::Relaxed),
            None => self.over.fetch_add(1, Ordering::Relaxed),
        };
        self.count.fetch_add(1, Ordering::Relaxed);
        let ns = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        self.sum_ns.fetch_add(ns, Ordering::Relaxed);
    }

    fn write(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} histogram");
        let mut cumulative = 0;
        for (bound, n) in COMMIT_BUCKETS.iter().zip(&self.buckets) {
            cumulative += n.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {cumulative}");
        }
        cumulative += self.over.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {cumulative}");
        let sum = self.sum_ns.load(Ordering::Relaxed) as f64 / 1e9;
        let _ = writeln!(out, "{name}_sum {sum}");
        // The count is the +Inf bucket's, read once, so the two always agree on the page.
        let _ = writeln!(out, "{name}_count {cumulative}");
    }
}

/// What the live games count.
#[derive(Default)]
pub struct Metrics {
    /// Events committed (a seat's action, the computer's, or time's `Tick`).
    pub actions: AtomicU64,
    /// Commits the store refused or could not confirm.
    pub commit_failures: AtomicU64,
    /// How long each commit took the store.
    pub commit_latency: Histogram,
    pub games_created: AtomicU64,
    pub games_ended: AtomicU64,
    /// Game WebSockets open now (seats and watchers).
    pub sockets: AtomicI64,
}

/// A game WebSocket, counted in [`Metrics::sockets`] while this lives.
pub struct OpenSocket(Arc<Metrics>);

impl OpenSocket {
    pub fn new(metrics: Arc<Metrics>) -> OpenSocket {
        metrics.sockets.fetch_add(1, Ordering::Relaxed);
        OpenSocket(metrics)
    }
}

impl Drop for OpenSocket {
    fn drop(&mut self) {
        self.0.sockets.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The gauges read at the moment the page is written.
pub struct Gauges {
    /// Games in this process's memory.
    pub games: usize,
    /// HTTP and WebSocket connections open now.
    pub connections: usize,
    pub database_up: bool,
    /// Unix seconds when the process started.
    pub started_s: f64,
    /// CPU time this process has used (user and system), in seconds; `None` where the system
    /// does not say (the series is then left out rather than written as 0).
    pub cpu_seconds: Option<f64>,
    /// Of that, the time spent in the kernel on this process's behalf (its sockets, its
    /// database file, waking its threads), in seconds; `None` where the system does not say.
    pub cpu_system_seconds: Option<f64>,
    /// With several processes (`serve --nats`): this process's part; `None` for one alone.
    pub cluster: Option<ClusterGauges>,
}

/// What an operator of several processes graphs besides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClusterGauges {
    /// Live games whose lease this process holds.
    pub leases_held: usize,
    /// Games another process runs that this one stands in for (its sockets on them).
    pub stand_ins: usize,
    /// Games taken over from a process that stopped renewing its lease, in all.
    pub takeovers: u64,
    pub nats_up: bool,
}

fn counter(out: &mut String, name: &str, help: &str, v: u64) {
    let _ = writeln!(
        out,
        "# HELP {name} {help}\n# TYPE {name} counter\n{name} {v}"
    );
}

fn gauge(out: &mut String, name: &str, help: &str, v: f64) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {v}");
}

impl Metrics {
    /// The page, in Prometheus' text format.
    pub fn render(&self, g: &Gauges) -> String {
        let mut out = String::with_capacity(2048);
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        gauge(
            &mut out,
            "tilebag_games",
            "Live games held in this process's memory.",
            g.games as f64,
        );
        gauge(
            &mut out,
            "tilebag_sockets",
            "Game WebSockets open now (seats and watchers).",
            self.sockets.load(Ordering::Relaxed).max(0) as f64,
        );
        gauge(
            &mut out,
            "tilebag_connections",
            "HTTP and WebSocket connections open now.",
            g.connections as f64,
        );
        gauge(
            &mut out,
            "tilebag_database_up",
            "1 while the database takes writes, 0 while it is down.",
            if g.database_up { 1.0 } else { 0.0 },
        );
        gauge(
            &mut out,
            "tilebag_start_time_seconds",
            "When this process started, in Unix seconds.",
            g.started_s,
        );
        if let Some(cpu) = g.cpu_seconds {
            // Prometheus' standard name, as its client libraries write it.
            let _ = writeln!(
                out,
                "# HELP process_cpu_seconds_total Total user and system CPU time spent in \
                 seconds.\n# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total {cpu}"
            );
        }
        if let Some(system) = g.cpu_system_seconds {
            let name = "tilebag_cpu_system_seconds_total";
            let _ = writeln!(
                out,
                "# HELP {name} Of process_cpu_seconds_total, the CPU time the kernel spent for \
                 this process (system time), in seconds.\n# TYPE {name} counter\n{name} {system}"
            );
        }
        counter(
            &mut out,
            "tilebag_actions_total",
            "Game events committed (moves, challenges, time).",
            load(&self.actions),
        );
        counter(
            &mut out,
            "tilebag_commit_failures_total",
            "Game events the database refused or could not confirm.",
            load(&self.commit_failures),
        );
        counter(
            &mut out,
            "tilebag_games_created_total",
            "Games created.",
            load(&self.games_created),
        );
        counter(
            &mut out,
            "tilebag_games_ended_total",
            "Games that ended.",
            load(&self.games_ended),
        );
        self.commit_latency.write(
            &mut out,
            "tilebag_commit_seconds",
            "Time to make one game event durable in the database.",
        );
        if let Some(c) = g.cluster {
            gauge(
                &mut out,
                "tilebag_leases_held",
                "Live games this process runs, by lease.",
                c.leases_held as f64,
            );
            gauge(
                &mut out,
                "tilebag_stand_ins",
                "Games other processes run that this process has sockets on.",
                c.stand_ins as f64,
            );
            gauge(
                &mut out,
                "tilebag_nats_up",
                "1 while this process reaches NATS, 0 while it does not.",
                if c.nats_up { 1.0 } else { 0.0 },
            );
            counter(
                &mut out,
                "tilebag_lease_takeovers_total",
                "Games taken over from a process that stopped renewing its lease.",
                c.takeovers,
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gauges() -> Gauges {
        Gauges {
            games: 3,
            connections: 7,
            database_up: true,
            started_s: 1_700_000_000.0,
            cpu_seconds: Some(12.5),
            cpu_system_seconds: Some(4.25),
            cluster: None,
        }
    }

    /// The value on the line that starts with `name ` (or `name{`...`} `).
    fn value(page: &str, series: &str) -> f64 {
        page.lines()
            .find_map(|l| l.strip_prefix(series).and_then(|r| r.strip_prefix(' ')))
            .unwrap_or_else(|| panic!("no {series} in\n{page}"))
            .parse()
            .unwrap()
    }

    #[test]
    fn a_commit_lands_in_its_bucket_and_every_bucket_above() {
        let m = Metrics::default();
        m.commit_latency.observe(Duration::from_micros(700)); // ≤ 1 ms
        m.commit_latency.observe(Duration::from_millis(30)); // ≤ 50 ms
        m.commit_latency.observe(Duration::from_secs(3)); // over every bound
        let page = m.render(&gauges());
        assert_eq!(
            value(&page, "tilebag_commit_seconds_bucket{le=\"0.0005\"}"),
            0.0
        );
        assert_eq!(
            value(&page, "tilebag_commit_seconds_bucket{le=\"0.001\"}"),
            1.0
        );
        assert_eq!(
            value(&page, "tilebag_commit_seconds_bucket{le=\"0.025\"}"),
            1.0
        );
        assert_eq!(
            value(&page, "tilebag_commit_seconds_bucket{le=\"0.05\"}"),
            2.0
        );
        assert_eq!(value(&page, "tilebag_commit_seconds_bucket{le=\"1\"}"), 2.0);
        assert_eq!(
            value(&page, "tilebag_commit_seconds_bucket{le=\"+Inf\"}"),
            3.0
        );
        assert_eq!(value(&page, "tilebag_commit_seconds_count"), 3.0);
        // 0.0007 + 0.03 + 3 seconds.
        assert!((value(&page, "tilebag_commit_seconds_sum") - 3.0307).abs() < 1e-9);
    }

    #[test]
    fn one_of_several_processes_shows_its_leases_and_takeovers() {
        let page = Metrics::default().render(&Gauges {
            cluster: Some(ClusterGauges {
                leases_held: 12,
                stand_ins: 4,
                takeovers: 3,
                nats_up: false,
            }),
            ..gauges()
        });
        assert_eq!(value(&page, "tilebag_leases_held"), 12.0);
        assert_eq!(value(&page, "tilebag_stand_ins"), 4.0);
        assert_eq!(value(&page, "tilebag_lease_takeovers_total"), 3.0);
        assert_eq!(value(&page, "tilebag_nats_up"), 0.0);
        // One process alone writes none of them.
        let alone = Metrics::default().render(&gauges());
        assert!(!alone.contains("tilebag_leases_held"), "{alone}");
    }

    #[test]
    fn cpu_time_the_system_does_not_give_is_left_out() {
        let page = Metrics::default().render(&Gauges {
            cpu_seconds: None,
            cpu_system_seconds: None,
            ..gauges()
        });
        assert!(!page.contains("process_cpu_seconds_total"), "{page}");
        assert!(!page.contains("tilebag_cpu_system_seconds_total"), "{page}");
    }

    #[test]
    fn every_series_is_declared_once_with_its_type() {
        let m = Metrics::default();
        m.actions.fetch_add(5, Ordering::Relaxed);
        m.sockets.fetch_add(2, Ordering::Relaxed);
        let page = m.render(&gauges());
        assert_eq!(value(&page, "tilebag_actions_total"), 5.0);
        assert_eq!(value(&page, "tilebag_sockets"), 2.0);
        assert_eq!(value(&page, "tilebag_games"), 3.0);
        assert_eq!(value(&page, "tilebag_connections"), 7.0);
        assert_eq!(value(&page, "tilebag_database_up"), 1.0);
        assert_eq!(value(&page, "process_cpu_seconds_total"), 12.5);
        assert_eq!(value(&page, "tilebag_cpu_system_seconds_total"), 4.25);
        let mut names = Vec::new();
        for line in page.lines() {
            if let Some(rest) = line.strip_prefix("# TYPE ") {
                let (name, kind) = rest.split_once(' ').unwrap();
                assert!(["counter", "gauge", "histogram"].contains(&kind), "{line}");
                assert!(!names.contains(&name), "{name} declared twice");
                names.push(name);
            } else if !line.starts_with('#') {
                // Every sample belongs to a declared series.
                assert!(names.iter().any(|n| line.starts_with(n)), "{line}");
            }
        }
    }
}
