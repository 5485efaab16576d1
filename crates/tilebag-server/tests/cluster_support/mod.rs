//! Several `tilebag serve` processes as one service, for the tests of issue 31: a NATS server of
//! their own (on a loopback port; `None`, saying so, when `nats-server` is not installed) and a
//! PostgreSQL schema of their own (`None`, saying so, when `TILEBAG_TEST_POSTGRES` is not set),
//! and servers in this test process that share them.
#![allow(dead_code)]

use crate::common::{config, random_tag, temp_dir};
use serde_json::Value;
use std::net::SocketAddr;
use tilebag_nats::test_server::NatsServer;
use tilebag_server::client::http;
use tilebag_server::{RunningServer, ServeConfig};

pub const KEY: &str = "common-test-director-key";

/// What several processes share: a database schema and a NATS server.
pub struct Shared {
    pub nats: NatsServer,
    pub database: String,
    pub schema: String,
    admin: tokio_postgres::Client,
}

impl Shared {
    pub async fn start(test: &str) -> Option<Shared> {
        let Ok(url) = std::env::var("TILEBAG_TEST_POSTGRES") else {
            println!("skipping {test}: TILEBAG_TEST_POSTGRES not set (several processes share PostgreSQL)");
            return None;
        };
        let nats = NatsServer::start()?;
        let (admin, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
            .await
            .expect("connect to TILEBAG_TEST_POSTGRES");
        tokio::spawn(conn);
        let schema = format!("tilebag_cluster_{}", random_tag());
        admin
            .batch_execute(&format!("CREATE SCHEMA {schema}"))
            .await
            .unwrap();
        let sep = if url.contains('?') { '&' } else { '?' };
        let database = format!("{url}{sep}options=-c%20search_path%3D{schema}");
        Some(Shared {
            nats,
            database,
            schema,
            admin,
        })
    }

    /// A server process named `name` of the service (in this test process), with the test
    /// lexicon of `words`.
    pub fn config(&self, name: &str, words: &[&str]) -> ServeConfig {
        let mut c = config(&self.database, words);
        c.process_name = name.to_string();
        c.nats = Some(self.nats.url());
        c.events_dir = Some(temp_dir(&format!("events-{name}")));
        c
    }

    pub async fn serve(&self, name: &str, words: &[&str]) -> RunningServer {
        tilebag_server::start(self.config(name, words))
            .await
            .unwrap()
    }

    pub async fn drop(self) {
        let _ = self
            .admin
            .batch_execute(&format!("DROP SCHEMA {} CASCADE", self.schema))
            .await;
    }
}

/// `GET /api/health` of a process, with the director key.
pub async fn health(addr: SocketAddr) -> Value {
    let r = tilebag_server::client::request(
        addr,
        "GET",
        "/api/health",
        &[("authorization", &format!("Bearer {KEY}"))],
        None,
    )
    .await
    .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    r.json().unwrap()
}

/// The process that owns game `id`, by the health view.
pub async fn owner_of(addr: SocketAddr, id: &str) -> Option<String> {
    let h = health(addr).await;
    h["processes"].as_array()?.iter().find_map(|p| {
        p["games"]
            .as_array()?
            .iter()
            .any(|g| g == id)
            .then(|| p["name"].as_str().unwrap().to_string())
    })
}

/// Waits (up to 10 s) until `addr`'s health view says process `name` runs game `id`; whether
/// it did.
pub async fn until_run_by(addr: SocketAddr, id: &str, name: &str) -> bool {
    for _ in 0..100 {
        if owner_of(addr, id).await.as_deref() == Some(name) {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    false
}

pub async fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let r = http(addr, "GET", path, None).await.unwrap();
    (r.status, r.text())
}
