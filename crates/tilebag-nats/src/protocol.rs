//! NATS's wire format: parsing what the server sends (never panicking, whatever it sends),
//! writing what the client sends, reading the URL.

use bytes::{BufMut, Bytes, BytesMut};

use crate::error::NatsError;

/// The longest control line accepted from the server (INFO is the longest one in practice).
pub const MAX_CONTROL_LINE: usize = 256 * 1024;
/// The payload limit assumed until the server's INFO says otherwise (the server's default).
pub const DEFAULT_MAX_PAYLOAD: usize = 1024 * 1024;
/// No server payload limit is believed above this (NATS's own hard limit is 64 MiB).
pub const MAX_MAX_PAYLOAD: usize = 64 * 1024 * 1024;

/// One operation sent by the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerOp {
    /// `INFO {...}`: what we need of it.
    Info {
        max_payload: Option<usize>,
    },
    /// `MSG <subject> <sid> [reply-to] <#bytes>\r\n<payload>\r\n`.
    Msg {
        subject: String,
        sid: u64,
        reply: Option<String>,
        payload: Bytes,
    },
    Ping,
    Pong,
    Ok,
    /// `-ERR 'message'`, quotes removed.
    Err(String),
}

/// Parses one operation at the start of `buf`. `Ok(None)`: more bytes are needed.
/// `Ok(Some((op, n)))`: `op` used the first `n` bytes. `Err`: the stream is not NATS (the
/// connection must be dropped). `max_payload` bounds a MSG's size.
pub fn parse(buf: &[u8], max_payload: usize) -> Result<Option<(ServerOp, usize)>, NatsError> {
    let window = &buf[..buf.len().min(MAX_CONTROL_LINE + 2)];
    let Some(nl) = window.iter().position(|&b| b == b'\n') else {
        if buf.len() > MAX_CONTROL_LINE {
            return Err(protocol(format!(
                "control line longer than {MAX_CONTROL_LINE} bytes"
            )));
        }
        return Ok(None);
    };
    let line = &buf[..nl];
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let after_line = nl + 1;
    let line =
        std::str::from_utf8(line).map_err(|_| protocol("control line is not UTF-8".to_string()))?;
    let (op, rest) = match line.find([' ', '\t']) {
        Some(i) => (&line[..i], line[i..].trim_start_matches([' ', '\t'])),
        None => (line, ""),
    };
    let op_upper = op.to_ascii_uppercase();
    let parsed = match op_upper.as_str() {
        "MSG" => return parse_msg(buf, rest, after_line, max_payload),
        "PING" if rest.is_empty() => ServerOp::Ping,
        "PONG" if rest.is_empty() => ServerOp::Pong,
        "+OK" if rest.is_empty() => ServerOp::Ok,
        "-ERR" => ServerOp::Err(unquote(rest.trim()).to_string()),
        "INFO" => ServerOp::Info {
            max_payload: info_max_payload(rest)?,
        },
        "HMSG" => {
            return Err(protocol(
                "HMSG received, but this client never asks for headers".to_string(),
            ))
        }
        _ => return Err(protocol(format!("unknown operation {:?}", shorten(line)))),
    };
    Ok(Some((parsed, after_line)))
}

fn parse_msg(
    buf: &[u8],
    args: &str,
    after_line: usize,
    max_payload: usize,
) -> Result<Option<(ServerOp, usize)>, NatsError> {
    let parts: Vec<&str> = args.split_ascii_whitespace().collect();
    let (subject, sid, reply, size) = match parts.as_slice() {
        [subject, sid, size] => (*subject, *sid, None, *size),
        [subject, sid, reply, size] => (*subject, *sid, Some(*reply), *size),
        _ => {
            return Err(protocol(format!(
                "MSG needs 3 or 4 arguments, got {}: {:?}",
                parts.len(),
                shorten(args)
            )))
        }
    };
    let sid = number(sid, "MSG sid")?;
    let size = number(size, "MSG size")?;
    if size > max_payload as u64 {
        return Err(protocol(format!(
            "MSG of {size} bytes exceeds max_payload of {max_payload} bytes"
        )));
    }
    let size = size as usize;
    let end = after_line + size;
    if buf.len() < end + 2 {
        return Ok(None);
    }
    if &buf[end..end + 2] != b"\r\n" {
        return Err(protocol(format!(
            "MSG payload of {size} bytes is not followed by CRLF"
        )));
    }
    Ok(Some((
        ServerOp::Msg {
            subject: subject.to_string(),
            sid,
            reply: reply.map(str::to_string),
            payload: Bytes::copy_from_slice(&buf[after_line..end]),
        },
        end + 2,
    )))
}

/// A decimal number of at most 19 digits: no sign, no spaces, no overflow.
fn number(text: &str, what: &str) -> Result<u64, NatsError> {
    if text.is_empty() || text.len() > 19 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(protocol(format!(
            "{what} is not a number: {:?}",
            shorten(text)
        )));
    }
    text.parse()
        .map_err(|_| protocol(format!("{what} is not a number: {:?}", shorten(text))))
}

/// The `max_payload` of an INFO's JSON, if present; a present but unreadable one is an error.
/// Only this field is read, so a hand scan does instead of a JSON library.
fn info_max_payload(json: &str) -> Result<Option<usize>, NatsError> {
    if !json.trim_start().starts_with('{') {
        return Err(protocol(format!(
            "INFO is not a JSON object: {:?}",
            shorten(json)
        )));
    }
    let key = "\"max_payload\"";
    let Some(at) = json.find(key) else {
        return Ok(None);
    };
    let rest = json[at + key.len()..].trim_start();
    let Some(rest) = rest.strip_prefix(':') else {
        return Err(protocol("INFO's max_payload has no value".to_string()));
    };
    let rest = rest.trim_start();
    let digits: &str = &rest[..rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len())];
    let value = number(digits, "INFO's max_payload")?;
    if value == 0 {
        return Err(protocol("INFO's max_payload is 0".to_string()));
    }
    Ok(Some(value.min(MAX_MAX_PAYLOAD as u64) as usize))
}

fn unquote(text: &str) -> &str {
    text.strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .unwrap_or(text)
}

/// At most 80 characters of hostile text in an error message.
fn shorten(text: &str) -> String {
    if text.chars().count() <= 80 {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(80).collect();
        s.push('…');
        s
    }
}

fn protocol(problem: String) -> NatsError {
    NatsError::Protocol(problem)
}

/// Where and as whom to connect, from `nats://[user:pass@|token@]host[:port]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerAddress {
    /// `host:port`, ready for `TcpStream::connect` (IPv6 hosts in brackets).
    pub addr: String,
    pub user: Option<String>,
    pub pass: Option<String>,
    pub token: Option<String>,
}

impl ServerAddress {
    pub fn parse(url: &str) -> Result<ServerAddress, NatsError> {
        let bad = |problem: &str| NatsError::BadUrl {
            url: redact(url),
            problem: problem.to_string(),
        };
        let rest = match url.split_once("://") {
            Some(("nats", rest)) => rest,
            Some(("tls", _)) => return Err(bad("TLS is not supported by this client")),
            Some((scheme, _)) => {
                return Err(bad(&format!(
                    "scheme {scheme:?} is not nats:// (no TLS, no websocket)"
                )))
            }
            None => url,
        };
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        if rest.contains('/') || rest.contains('?') || rest.contains('#') {
            return Err(bad("a NATS URL has no path, query or fragment"));
        }
        if rest.contains(',') {
            return Err(bad("only one server URL is supported"));
        }
        let (userinfo, hostport) = match rest.rsplit_once('@') {
            Some((u, h)) => (Some(u), h),
            None => (None, rest),
        };
        let (host, port) = if let Some(v6) = hostport.strip_prefix('[') {
            let Some((host, after)) = v6.split_once(']') else {
                return Err(bad("unclosed [ in the IPv6 host"));
            };
            let port = match after {
                "" => None,
                p => Some(
                    p.strip_prefix(':')
                        .ok_or_else(|| bad("junk after the IPv6 host"))?,
                ),
            };
            (format!("[{host}]"), port)
        } else {
            match hostport.split_once(':') {
                Some((h, p)) => (h.to_string(), Some(p)),
                None => (hostport.to_string(), None),
            }
        };
        if host.is_empty() || host == "[]" {
            return Err(bad("no host"));
        }
        if host.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(bad("the host contains spaces or control characters"));
        }
        let port: u16 = match port {
            None => 4222,
            Some(p) => match p.parse::<u16>() {
                Ok(0) | Err(_) => return Err(bad(&format!("port {p:?} is not 1-65535"))),
                Ok(n) => n,
            },
        };
        let (mut user, mut pass, mut token) = (None, None, None);
        if let Some(info) = userinfo {
            match info.split_once(':') {
                Some((u, p)) => {
                    user = Some(percent_decode(u).ok_or_else(|| bad("bad %-escape in the user"))?);
                    pass =
                        Some(percent_decode(p).ok_or_else(|| bad("bad %-escape in the password"))?);
                }
                None => {
                    token =
                        Some(percent_decode(info).ok_or_else(|| bad("bad %-escape in the token"))?)
                }
            }
        }
        Ok(ServerAddress {
            addr: format!("{host}:{port}"),
            user,
            pass,
            token,
        })
    }
}

/// The URL without its password or token, for error messages and logs.
pub fn redact(url: &str) -> String {
    let (scheme, rest) = match url.split_once("://") {
        Some((s, r)) => (format!("{s}://"), r),
        None => (String::new(), url),
    };
    match rest.rsplit_once('@') {
        Some((info, host)) => match info.split_once(':') {
            Some((user, _)) => format!("{scheme}{user}:***@{host}"),
            None => format!("{scheme}***@{host}"),
        },
        None => url.to_string(),
    }
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Checks a subject: not empty, no spaces or control characters, no empty token; wildcards
/// (`*`, `>` as a whole token, `>` last) only when `wildcards` is set.
pub fn check_subject(subject: &str, wildcards: bool) -> Result<(), NatsError> {
    let bad = |problem: &str| NatsError::BadSubject {
        subject: shorten(subject),
        problem: problem.to_string(),
    };
    if subject.is_empty() {
        return Err(bad("it is empty"));
    }
    if subject.len() > 4096 {
        return Err(bad("it is longer than 4096 bytes"));
    }
    if subject.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(bad("it contains spaces or control characters"));
    }
    let tokens: Vec<&str> = subject.split('.').collect();
    for (i, token) in tokens.iter().enumerate() {
        if token.is_empty() {
            return Err(bad(
                "it has an empty token (leading, trailing or double dot)",
            ));
        }
        let wild = *token == "*" || *token == ">";
        if wild && !wildcards {
            return Err(bad("wildcards are for subscribing, not publishing"));
        }
        if *token == ">" && i + 1 != tokens.len() {
            return Err(bad("'>' must be the last token"));
        }
    }
    Ok(())
}

/// Checks a queue group name: not empty, no spaces or control characters.
pub fn check_queue_group(group: &str) -> Result<(), NatsError> {
    if group.is_empty() || group.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(NatsError::BadSubject {
            subject: shorten(group),
            problem: "a queue group name must be non-empty, without spaces or control characters"
                .to_string(),
        });
    }
    Ok(())
}

/// `CONNECT {...}\r\n`.
pub fn connect_frame(address: &ServerAddress, name: &str) -> Bytes {
    let mut json = String::from("{\"verbose\":false,\"pedantic\":false,\"lang\":\"rust\"");
    json.push_str(",\"version\":\"");
    json.push_str(env!("CARGO_PKG_VERSION"));
    json.push_str("\",\"protocol\":1,\"echo\":true,\"headers\":false,\"name\":");
    push_json_string(&mut json, name);
    if let Some(user) = &address.user {
        json.push_str(",\"user\":");
        push_json_string(&mut json, user);
    }
    if let Some(pass) = &address.pass {
        json.push_str(",\"pass\":");
        push_json_string(&mut json, pass);
    }
    if let Some(token) = &address.token {
        json.push_str(",\"auth_token\":");
        push_json_string(&mut json, token);
    }
    json.push('}');
    Bytes::from(format!("CONNECT {json}\r\n"))
}

fn push_json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `PUB <subject> [reply] <#bytes>\r\n<payload>\r\n` as one buffer.
pub fn pub_frame(subject: &str, reply: Option<&str>, payload: &[u8]) -> Bytes {
    let mut frame = BytesMut::with_capacity(subject.len() + payload.len() + 32);
    frame.put_slice(b"PUB ");
    frame.put_slice(subject.as_bytes());
    if let Some(reply) = reply {
        frame.put_u8(b' ');
        frame.put_slice(reply.as_bytes());
    }
    frame.put_slice(format!(" {}\r\n", payload.len()).as_bytes());
    frame.put_slice(payload);
    frame.put_slice(b"\r\n");
    frame.freeze()
}

/// `SUB <subject> [queue group] <sid>\r\n`.
pub fn sub_frame(subject: &str, queue: Option<&str>, sid: u64) -> Bytes {
    Bytes::from(match queue {
        Some(q) => format!("SUB {subject} {q} {sid}\r\n"),
        None => format!("SUB {subject} {sid}\r\n"),
    })
}

/// `UNSUB <sid>\r\n`.
pub fn unsub_frame(sid: u64) -> Bytes {
    Bytes::from(format!("UNSUB {sid}\r\n"))
}

pub const PING: &[u8] = b"PING\r\n";
pub const PONG: &[u8] = b"PONG\r\n";

#[cfg(test)]
mod tests {
    use super::*;

    const MAX: usize = 1024;

    fn one(input: &[u8]) -> Result<Option<(ServerOp, usize)>, NatsError> {
        parse(input, MAX)
    }

    #[test]
    fn reads_every_operation() {
        assert_eq!(one(b"PING\r\n").unwrap(), Some((ServerOp::Ping, 6)));
        assert_eq!(one(b"pong\r\n").unwrap(), Some((ServerOp::Pong, 6)));
        assert_eq!(one(b"+OK\r\nPING\r\n").unwrap(), Some((ServerOp::Ok, 5)));
        assert_eq!(
            one(b"-ERR 'Authorization Violation'\r\n").unwrap(),
            Some((ServerOp::Err("Authorization Violation".into()), 32))
        );
        let info = b"INFO {\"server_id\":\"x\",\"max_payload\":1048576,\"proto\":1}\r\n";
        assert_eq!(
            one(info).unwrap(),
            Some((
                ServerOp::Info {
                    max_payload: Some(1048576)
                },
                info.len()
            ))
        );
        assert_eq!(
            one(b"INFO {\"server_id\":\"x\"}\r\n").unwrap().unwrap().0,
            ServerOp::Info { max_payload: None }
        );
    }

    #[test]
    fn reads_a_message_whose_payload_holds_crlf_and_binary() {
        let input = b"MSG game.7 12 _INBOX.a.1 6\r\na\r\n\0\xff!\r\nPING\r\n";
        let (op, used) = one(input).unwrap().unwrap();
        assert_eq!(
            op,
            ServerOp::Msg {
                subject: "game.7".into(),
                sid: 12,
                reply: Some("_INBOX.a.1".into()),
                payload: Bytes::from_static(b"a\r\n\0\xff!"),
            }
        );
        assert_eq!(&input[used..], b"PING\r\n");
        let (op, used) = one(b"MSG s 1 0\r\n\r\n").unwrap().unwrap();
        assert_eq!(used, 13);
        assert!(matches!(op, ServerOp::Msg { payload, reply: None, .. } if payload.is_empty()));
    }

    #[test]
    fn truncated_input_asks_for_more_at_every_cut() {
        let input = b"MSG game.7 12 _INBOX.a.1 6\r\na\r\n\0\xff!\r\n";
        for cut in 0..input.len() {
            assert_eq!(one(&input[..cut]).unwrap(), None, "cut at {cut}");
        }
        assert!(one(input).unwrap().is_some());
        for cut in 0..5 {
            assert_eq!(one(&b"PING\r\n"[..cut]).unwrap(), None);
        }
    }

    #[test]
    fn hostile_lines_are_errors_not_panics() {
        let cases: &[&[u8]] = &[
            b"MSG\r\n",
            b"MSG s\r\n",
            b"MSG s 1\r\n",
            b"MSG s 1 a b c\r\n",
            b"MSG s x 3\r\nabc\r\n",
            b"MSG s 1 -3\r\nabc\r\n",
            b"MSG s 1 +3\r\nabc\r\n",
            b"MSG s 1 3x\r\nabc\r\n",
            b"MSG s 1 99999999999999999999999\r\n",
            b"MSG s 18446744073709551616 1\r\na\r\n",
            b"MSG s 1 18446744073709551615\r\n",
            b"MSG s 1 1025\r\n",
            b"MSG s 1 3\r\nabcXY",
            b"HMSG s 1 10 12\r\n",
            b"WHAT\r\n",
            b"\r\n",
            b"PING extra\r\n",
            b"\xff\xfe\r\n",
            b"INFO not-json\r\n",
            b"INFO {\"max_payload\":-1}\r\n",
            b"INFO {\"max_payload\":}\r\n",
            b"INFO {\"max_payload\":0}\r\n",
            b"INFO {\"max_payload\" 5}\r\n",
            b"INFO {\"max_payload\":99999999999999999999999}\r\n",
        ];
        for case in cases {
            assert!(
                matches!(one(case), Err(NatsError::Protocol(_))),
                "{:?} gave {:?}",
                String::from_utf8_lossy(case),
                one(case)
            );
        }
    }

    #[test]
    fn an_endless_line_is_refused_once_it_passes_the_bound() {
        let mut long = vec![b'A'; MAX_CONTROL_LINE];
        assert_eq!(one(&long).unwrap(), None);
        long.push(b'A');
        let err = one(&long).unwrap_err();
        assert!(err.to_string().contains("longer than"), "{err}");
        // A newline far beyond the bound does not make it acceptable.
        long.extend_from_slice(b"\r\n");
        assert!(one(&long).is_err());
    }

    #[test]
    fn a_huge_info_max_payload_is_capped() {
        let (op, _) = one(b"INFO {\"max_payload\":9000000000}\r\n")
            .unwrap()
            .unwrap();
        assert_eq!(
            op,
            ServerOp::Info {
                max_payload: Some(MAX_MAX_PAYLOAD)
            }
        );
    }

    #[test]
    fn random_bytes_never_panic() {
        // A fixed xorshift stream: every slice of it parses to something, or to an error.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let alphabet = b"MSG PINGOKERR+-INFO{}\"max_payload\":0123456789 \r\n\x00\xff.*>";
        for _ in 0..2000 {
            let len = (x % 64) as usize;
            let mut input = Vec::with_capacity(len);
            for _ in 0..len {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                input.push(alphabet[(x % alphabet.len() as u64) as usize]);
            }
            let mut rest: &[u8] = &input;
            while let Ok(Some((_, used))) = parse(rest, MAX) {
                assert!(used > 0 && used <= rest.len());
                rest = &rest[used..];
            }
        }
    }

    #[test]
    fn urls() {
        let a = ServerAddress::parse("nats://127.0.0.1:4333").unwrap();
        assert_eq!(a.addr, "127.0.0.1:4333");
        assert_eq!((a.user, a.pass, a.token), (None, None, None));
        let a = ServerAddress::parse("nats://bob:s%40cret@localhost").unwrap();
        assert_eq!(a.addr, "localhost:4222");
        assert_eq!(a.user.as_deref(), Some("bob"));
        assert_eq!(a.pass.as_deref(), Some("s@cret"));
        let a = ServerAddress::parse("nats://t0ken@[::1]:5000").unwrap();
        assert_eq!(a.addr, "[::1]:5000");
        assert_eq!(a.token.as_deref(), Some("t0ken"));
        assert_eq!(
            ServerAddress::parse("localhost:4222").unwrap().addr,
            "localhost:4222"
        );
        for bad in [
            "tls://h:1",
            "http://h",
            "nats://",
            "nats://h:0",
            "nats://h:99999",
            "nats://h:x",
            "nats://h/path",
            "nats://a,b",
            "nats://[::1",
            "nats://u:%zz@h",
        ] {
            assert!(
                matches!(ServerAddress::parse(bad), Err(NatsError::BadUrl { .. })),
                "{bad}"
            );
        }
        let err = ServerAddress::parse("http://bob:secret@h")
            .unwrap_err()
            .to_string();
        assert!(!err.contains("secret"), "{err}");
    }

    #[test]
    fn subjects() {
        assert!(check_subject("game.42.events", false).is_ok());
        assert!(check_subject("game.*.events", true).is_ok());
        assert!(check_subject("game.>", true).is_ok());
        for bad in ["", "a..b", ".a", "a.", "a b", "a\r\nb", "a.>.b"] {
            assert!(check_subject(bad, true).is_err(), "{bad:?}");
        }
        assert!(check_subject("game.*", false).is_err());
        assert!(check_queue_group("servers").is_ok());
        assert!(check_queue_group("a b").is_err());
    }

    #[test]
    fn frames() {
        assert_eq!(
            &pub_frame("s", Some("r"), b"a\r\nb")[..],
            b"PUB s r 4\r\na\r\nb\r\n"
        );
        assert_eq!(&pub_frame("s", None, b"")[..], b"PUB s 0\r\n\r\n");
        assert_eq!(&sub_frame("s.*", Some("q"), 3)[..], b"SUB s.* q 3\r\n");
        let address = ServerAddress::parse("nats://u:p\"x@h").unwrap();
        let connect = connect_frame(&address, "serve \"one\"");
        let text = std::str::from_utf8(&connect).unwrap();
        assert!(text.starts_with("CONNECT {\"verbose\":false,\"pedantic\":false"));
        assert!(text.contains("\"name\":\"serve \\\"one\\\"\""), "{text}");
        assert!(text.contains("\"pass\":\"p\\\"x\""), "{text}");
        assert!(text.ends_with("}\r\n"));
    }
}
