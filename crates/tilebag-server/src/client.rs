//! A small client for the server's API: one HTTP/1.1 request per connection, and a WebSocket
//! that parses and keeps every message it receives. The load tool and the tests use it; it is
//! not a general HTTP client.

use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("I/O: {0}")]
    Io(#[from] std::io::Error),
    #[error("WebSocket: {0}")]
    Ws(#[from] tokio_tungstenite::tungstenite::Error),
    #[error("bad response: {0}")]
    BadResponse(String),
    #[error("timed out waiting for {0}")]
    Timeout(String),
    #[error("the connection closed ({0})")]
    Closed(String),
}

/// An HTTP response.
#[derive(Debug, Clone)]
pub struct HttpResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl HttpResponse {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    pub fn json(&self) -> Result<Value, ClientError> {
        serde_json::from_slice(&self.body)
            .map_err(|e| ClientError::BadResponse(format!("{e}: {}", self.text())))
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Send one request (`Connection: close`) and read the whole response.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
) -> Result<HttpResponse, ClientError> {
    let typed = body.map(|b| ("application/json", b));
    request(addr, method, path, &[], typed).await
}

/// Send one request with extra headers (e.g. `Cookie`) and an optional body of the given content
/// type (e.g. a form, `application/x-www-form-urlencoded`).
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<(&str, &[u8])>,
) -> Result<HttpResponse, ClientError> {
    let mut s = TcpStream::connect(addr).await?;
    s.set_nodelay(true)?;
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    let body = body.map(|(content_type, b)| {
        req.push_str(&format!(
            "Content-Type: {content_type}\r\nContent-Length: {}\r\n",
            b.len()
        ));
        b
    });
    req.push_str("\r\n");
    let mut bytes = req.into_bytes();
    if let Some(b) = body {
        bytes.extend_from_slice(b);
    }
    s.write_all(&bytes).await?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await?;
    parse_response(&raw)
}

/// `http` with a JSON body.
pub async fn post_json(
    addr: SocketAddr,
    path: &str,
    body: &Value,
) -> Result<HttpResponse, ClientError> {
    http(addr, "POST", path, Some(body.to_string().as_bytes())).await
}

/// Reads a whole HTTP/1.1 response (status line, headers, body).
pub fn parse_response(raw: &[u8]) -> Result<HttpResponse, ClientError> {
    let bad = |m: &str| ClientError::BadResponse(m.to_string());
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| bad("no end of headers"))?;
    let head = std::str::from_utf8(&raw[..end]).map_err(|_| bad("headers are not UTF-8"))?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().ok_or_else(|| bad("no status line"))?;
    let status: u16 = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("no status code"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    let chunked = headers.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    if chunked {
        body = dechunk(&body).ok_or_else(|| bad("bad chunked body"))?;
    }
    Ok(HttpResponse {
        status,
        headers,
        body,
    })
}

fn dechunk(mut b: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let nl = b.windows(2).position(|w| w == b"\r\n")?;
        let size_str = std::str::from_utf8(&b[..nl]).ok()?;
        let size = usize::from_str_radix(size_str.split(';').next()?.trim(), 16).ok()?;
        b = &b[nl + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(b.get(..size)?);
        b = b.get(size + 2..)?;
    }
}

type Stream = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A WebSocket connection to a game that keeps every message it received.
pub struct WsClient {
    ws: Stream,
    /// Every text message received, as sent (while `keep` is true).
    pub raw: Vec<String>,
    /// Keep received messages in `raw` (default true; the load tool turns it off).
    pub keep: bool,
    /// The close code and reason, once the server closed.
    pub closed: Option<(u16, String)>,
}

impl WsClient {
    /// Connect to `path` (e.g. `/api/games/ID/ws?token=T`).
    pub async fn connect(addr: SocketAddr, path: &str) -> Result<WsClient, ClientError> {
        // The library zeroes its whole read buffer on every read: keep it near a view's size.
        let config = WebSocketConfig::default().read_buffer_size(16 * 1024);
        let (ws, _) = tokio_tungstenite::connect_async_with_config(
            format!("ws://{addr}{path}"),
            Some(config),
            true,
        )
        .await?;
        Ok(WsClient {
            ws,
            raw: Vec::new(),
            keep: true,
            closed: None,
        })
    }

    pub async fn send_text(&mut self, text: impl Into<String>) -> Result<(), ClientError> {
        let text: String = text.into();
        self.ws.send(Message::Text(text.into())).await?;
        Ok(())
    }

    pub async fn send_json(&mut self, v: &Value) -> Result<(), ClientError> {
        self.send_text(v.to_string()).await
    }

    /// The next message (parsed), or `None` once the connection is closed.
    pub async fn recv(&mut self) -> Result<Option<Value>, ClientError> {
        match self.recv_text().await? {
            None => Ok(None),
            Some(t) => serde_json::from_str(&t)
                .map(Some)
                .map_err(|e| ClientError::BadResponse(format!("{e}: {t}"))),
        }
    }

    /// The next text message as sent, or `None` once the connection is closed.
    pub async fn recv_text(&mut self) -> Result<Option<String>, ClientError> {
        use futures_util::StreamExt;
        loop {
            match self.ws.next().await {
                None => return Ok(None),
                Some(Err(e)) => {
                    if self.closed.is_some() {
                        return Ok(None);
                    }
                    return Err(e.into());
                }
                Some(Ok(Message::Text(t))) => {
                    let s = t.as_str().to_string();
                    if self.keep {
                        self.raw.push(s.clone());
                    }
                    return Ok(Some(s));
                }
                Some(Ok(Message::Close(frame))) => {
                    self.closed = Some(match frame {
                        Some(f) => (u16::from(f.code), f.reason.as_str().to_string()),
                        None => (u16::from(CloseCode::Status), String::new()),
                    });
                    return Ok(None);
                }
                Some(Ok(_)) => continue,
            }
        }
    }

    /// The next message, waiting at most `wait`.
    pub async fn recv_timeout(&mut self, wait: Duration) -> Result<Option<Value>, ClientError> {
        tokio::time::timeout(wait, self.recv())
            .await
            .map_err(|_| ClientError::Timeout("a message".into()))?
    }

    /// Read messages until one satisfies `pred`; return it (the others are kept in `raw`).
    pub async fn recv_until(
        &mut self,
        wait: Duration,
        what: &str,
        mut pred: impl FnMut(&Value) -> bool,
    ) -> Result<Value, ClientError> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let msg = tokio::time::timeout(left, self.recv())
                .await
                .map_err(|_| ClientError::Timeout(what.to_string()))??;
            match msg {
                Some(v) if pred(&v) => return Ok(v),
                Some(_) => {}
                None => {
                    return Err(ClientError::Closed(format!(
                        "{:?} while waiting for {what}",
                        self.closed
                    )))
                }
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

use futures_util::SinkExt;
