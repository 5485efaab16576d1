//! A TCP proxy in front of the real PostgreSQL, which a test cuts and restores: the database
//! out of reach for the servers behind it (`outage.rs`, `several_processes_outages.rs`).
#![allow(dead_code)]

use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// What the proxy does with connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Forward both ways.
    Up,
    /// Forward to the database, but drop its answers (a write that commits but whose answer is
    /// lost).
    Swallow,
    /// Close every connection and every new one at once: the database is out of reach.
    Down,
}

/// A TCP proxy in front of the real PostgreSQL.
pub struct Proxy {
    pub addr: SocketAddr,
    mode: watch::Sender<Mode>,
}

impl Proxy {
    pub async fn start(target: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (mode, rx) = watch::channel(Mode::Up);
        tokio::spawn(async move {
            loop {
                let Ok((client, _)) = listener.accept().await else {
                    return;
                };
                if *rx.borrow() == Mode::Down {
                    drop(client);
                    continue;
                }
                tokio::spawn(forward(client, target, rx.clone()));
            }
        });
        Proxy { addr, mode }
    }

    pub fn set(&self, m: Mode) {
        self.mode.send_replace(m);
    }
}

async fn forward(client: TcpStream, target: SocketAddr, mut mode: watch::Receiver<Mode>) {
    let Ok(server) = TcpStream::connect(target).await else {
        return;
    };
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let (mut cr, mut cw) = client.into_split();
    let (mut sr, mut sw) = server.into_split();
    let up = async {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            match cr.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => {
                    if sw.write_all(&buf[..n]).await.is_err() {
                        return;
                    }
                }
            }
        }
    };
    let answers = mode.clone();
    let down = async {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            match sr.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => {
                    if *answers.borrow() == Mode::Swallow {
                        continue;
                    }
                    if cw.write_all(&buf[..n]).await.is_err() {
                        return;
                    }
                }
            }
        }
    };
    tokio::select! {
        _ = up => {}
        _ = down => {}
        _ = mode.wait_for(|m| *m == Mode::Down) => {}
    }
    // Dropping both halves of both sockets closes them.
}

/// The database's address and the URL of the same database through `proxy`, in `schema`.
pub fn through(url: &str, proxy: SocketAddr, schema: &str, app: &str) -> (SocketAddr, String) {
    let cfg: tokio_postgres::Config = url.parse().expect("TILEBAG_TEST_POSTGRES is a URL");
    let host = match cfg.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(h)) => h.clone(),
        other => panic!("TILEBAG_TEST_POSTGRES must name a TCP host, not {other:?}"),
    };
    let port = cfg.get_ports().first().copied().unwrap_or(5432);
    let target = format!("{host}:{port}")
        .parse()
        .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], port)));
    let user = cfg.get_user().expect("a user in TILEBAG_TEST_POSTGRES");
    let password = cfg
        .get_password()
        .map(|p| format!(":{}", String::from_utf8_lossy(p)))
        .unwrap_or_default();
    let db = cfg.get_dbname().unwrap_or(user);
    let url = format!(
        "postgres://{user}{password}@{proxy}/{db}?application_name={app}\
         &options=-c%20search_path%3D{schema}"
    );
    (target, url)
}
