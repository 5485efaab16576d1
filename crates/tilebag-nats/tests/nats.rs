//! The client against a real `nats-server` (each test skips, saying so, where it is not
//! installed), and against a hostile fake server.

use std::time::{Duration, Instant};

use tilebag_nats::test_server::NatsServer;
use tilebag_nats::{Client, ConnState, Message, NatsError, Subscription};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A bound on every wait, so that a broken client fails the test instead of hanging it.
const PATIENCE: Duration = Duration::from_secs(15);

async fn next(sub: &mut Subscription) -> Message {
    tokio::time::timeout(PATIENCE, sub.next())
        .await
        .unwrap_or_else(|_| panic!("no message on {} within {PATIENCE:?}", sub.subject()))
        .expect("the subscription ended")
}

async fn connect(server: &NatsServer, name: &str) -> Client {
    Client::connect(&server.url(), name)
        .await
        .unwrap_or_else(|e| panic!("connect {name}: {e}"))
}

/// Waits until the state is one that `wanted` accepts, returning it and how long it took.
async fn wait_for_state(
    client: &Client,
    wanted: impl Fn(&ConnState) -> bool,
) -> (ConnState, Duration) {
    let began = Instant::now();
    let mut state = client.state();
    let found = tokio::time::timeout(PATIENCE, state.wait_for(|s| wanted(s)))
        .await
        .expect("the state never came")
        .expect("the client's state channel closed")
        .clone();
    (found, began.elapsed())
}

/// The server spawns these futures on a multi-threaded runtime.
#[test]
fn the_client_and_its_futures_can_move_between_threads() {
    fn assert_send<T: Send + 'static>(_: T) {}
    fn assert_sync<T: Send + Sync>() {}
    assert_sync::<Client>();
    assert_send(async {
        let client = Client::connect("nats://127.0.0.1:1", "x").await?;
        let mut sub = client.subscribe("s")?;
        let _ = sub.next().await;
        client.flush().await?;
        client.request("s", "x", Duration::from_secs(1)).await
    });
}

#[tokio::test]
async fn publish_reaches_a_subscriber_on_another_client() {
    let Some(server) = NatsServer::start() else {
        return;
    };
    let director = connect(&server, "director").await;
    let seat = connect(&server, "seat").await;
    assert_eq!(*seat.state().borrow(), ConnState::Connected);
    let mut exact = seat.subscribe("game.7.events").unwrap();
    let mut every_game = seat.subscribe("game.*.events").unwrap();
    let mut everything = seat.subscribe("game.>").unwrap();
    seat.flush().await.unwrap();

    director.publish("game.7.events", "8D QI 22").unwrap();
    director.publish("game.8.events", "H4 ZAX 50").unwrap();
    director.flush().await.unwrap();

    let m = next(&mut exact).await;
    assert_eq!(
        m,
        Message {
            subject: "game.7.events".into(),
            reply: None,
            payload: "8D QI 22".into()
        }
    );
    assert_eq!(next(&mut every_game).await.payload, "8D QI 22");
    assert_eq!(next(&mut every_game).await.subject, "game.8.events");
    assert_eq!(next(&mut everything).await.subject, "game.7.events");
    assert_eq!(next(&mut everything).await.subject, "game.8.events");
    assert!(
        exact.try_next().is_none(),
        "game.8 must not reach game.7's subscriber"
    );
    assert_eq!(seat.dropped(), 0);
}

#[tokio::test]
async fn a_queue_group_delivers_each_message_to_one_member() {
    let Some(server) = NatsServer::start() else {
        return;
    };
    let publisher = connect(&server, "publisher").await;
    let first = connect(&server, "first").await;
    let second = connect(&server, "second").await;
    let mut a = first.subscribe_queue("actions", "owners").unwrap();
    let mut b = second.subscribe_queue("actions", "owners").unwrap();
    let mut watcher = first.subscribe("actions").unwrap();
    first.flush().await.unwrap();
    second.flush().await.unwrap();

    const N: usize = 200;
    for i in 0..N {
        publisher.publish("actions", i.to_string()).unwrap();
    }
    publisher.flush().await.unwrap();
    first.flush().await.unwrap();
    second.flush().await.unwrap();

    let mut seen = Vec::new();
    for _ in 0..N {
        seen.push(next(&mut watcher).await.payload);
    }
    let mut got = Vec::new();
    while let Some(m) = a.try_next() {
        got.push(m.payload);
    }
    let from_a = got.len();
    while let Some(m) = b.try_next() {
        got.push(m.payload);
    }
    assert_eq!(got.len(), N, "each message to exactly one member");
    got.sort();
    seen.sort();
    assert_eq!(got, seen);
    assert!(
        from_a > 0 && from_a < N,
        "both members should get some of {N}: the first got {from_a}"
    );
}

#[tokio::test]
async fn request_and_reply() {
    let Some(server) = NatsServer::start() else {
        return;
    };
    let owner = connect(&server, "owner").await;
    let forwarder = connect(&server, "forwarder").await;
    let mut inbox = owner.subscribe("game.9.act").unwrap();
    owner.flush().await.unwrap();
    let responder = tokio::spawn(async move {
        for _ in 0..3 {
            let m = next(&mut inbox).await;
            assert!(m.reply.as_deref().unwrap().starts_with("_INBOX."));
            let mut answer = b"accepted: ".to_vec();
            answer.extend_from_slice(&m.payload);
            owner.respond(&m, answer).unwrap();
        }
        owner
    });
    for word in ["QI", "ZAX", "JO"] {
        let reply = forwarder
            .request("game.9.act", word, PATIENCE)
            .await
            .unwrap();
        assert_eq!(reply.payload, format!("accepted: {word}"));
    }
    let owner = responder.await.unwrap();
    let plain = Message {
        subject: "x".into(),
        reply: None,
        payload: "y".into(),
    };
    assert!(matches!(
        owner.respond(&plain, "z"),
        Err(NatsError::NoReplySubject { .. })
    ));
}

#[tokio::test]
async fn a_request_nobody_answers_times_out() {
    let Some(server) = NatsServer::start() else {
        return;
    };
    let client = connect(&server, "lonely").await;
    let err = client
        .request("game.404.act", "8D QI", Duration::from_millis(300))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        NatsError::Timeout {
            subject: "game.404.act".into(),
            timeout: Duration::from_millis(300)
        }
    );
    assert!(err.to_string().contains("game.404.act"), "{err}");
    // The client is still usable afterwards.
    let mut sub = client.subscribe("after").unwrap();
    client.flush().await.unwrap();
    client.publish("after", "ok").unwrap();
    assert_eq!(next(&mut sub).await.payload, "ok");
}

#[tokio::test]
async fn payloads_with_crlf_binary_bytes_and_nothing_arrive_intact() {
    let Some(server) = NatsServer::start() else {
        return;
    };
    let sender = connect(&server, "sender").await;
    let receiver = connect(&server, "receiver").await;
    let mut sub = receiver.subscribe("raw").unwrap();
    receiver.flush().await.unwrap();
    let every_byte: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).collect();
    let payloads: Vec<Vec<u8>> = vec![
        b"line one\r\nline two\r\n".to_vec(),
        b"\r\n".to_vec(),
        b"MSG raw 1 3\r\nabc\r\n".to_vec(),
        every_byte,
        Vec::new(),
        vec![b'x'; 200_000],
    ];
    for p in &payloads {
        sender.publish("raw", p.clone()).unwrap();
    }
    for p in &payloads {
        assert_eq!(&next(&mut sub).await.payload[..], &p[..]);
    }
}

#[tokio::test]
async fn a_payload_over_max_payload_is_refused_naming_the_limit() {
    let Some(server) = NatsServer::start() else {
        return;
    };
    let client = connect(&server, "big").await;
    let max = client.max_payload();
    assert_eq!(max, 1024 * 1024, "nats-server's default max_payload");
    let err = client.publish("big", vec![0u8; max + 1]).unwrap_err();
    assert_eq!(
        err,
        NatsError::PayloadTooLarge {
            size: max + 1,
            max_payload: max
        }
    );
    assert!(
        err.to_string().contains("max_payload of 1048576 bytes"),
        "{err}"
    );
    assert!(matches!(
        client.request("big", vec![0u8; max + 1], PATIENCE).await,
        Err(NatsError::PayloadTooLarge { .. })
    ));
    // Exactly the limit goes through, and the connection is still up.
    let mut sub = client.subscribe("big").unwrap();
    client.publish("big", vec![7u8; max]).unwrap();
    assert_eq!(next(&mut sub).await.payload.len(), max);
    assert!(client.is_connected());
}

#[tokio::test]
async fn bad_subjects_are_refused() {
    let Some(server) = NatsServer::start() else {
        return;
    };
    let client = connect(&server, "careful").await;
    for subject in ["", "a b", "a\r\nPUB x 1", "game..7", "game.*"] {
        assert!(
            matches!(
                client.publish(subject, "x"),
                Err(NatsError::BadSubject { .. })
            ),
            "{subject:?}"
        );
    }
    assert!(matches!(
        client.subscribe("a\r\nSUB b 9"),
        Err(NatsError::BadSubject { .. })
    ));
    assert!(matches!(
        client.subscribe_queue("a", "two words"),
        Err(NatsError::BadSubject { .. })
    ));
    client.flush().await.unwrap();
}

#[tokio::test]
async fn an_outage_is_seen_refused_and_healed_with_subscriptions_renewed() {
    let Some(mut server) = NatsServer::start() else {
        return;
    };
    let publisher = connect(&server, "publisher").await;
    let subscriber = connect(&server, "subscriber").await;
    let mut sub = subscriber.subscribe("game.1.events").unwrap();
    let mut queue_sub = subscriber.subscribe_queue("game.1.act", "owners").unwrap();
    subscriber.flush().await.unwrap();
    publisher.publish("game.1.events", "before").unwrap();
    assert_eq!(next(&mut sub).await.payload, "before");

    server.stop();
    let (state, took) = wait_for_state(&subscriber, |s| s != &ConnState::Connected).await;
    let ConnState::Disconnected { reason, .. } = state else {
        unreachable!()
    };
    eprintln!("subscriber saw the outage after {took:?}: {reason}");
    wait_for_state(&publisher, |s| s != &ConnState::Connected).await;
    let err = publisher.publish("game.1.events", "during").unwrap_err();
    assert!(matches!(err, NatsError::Disconnected { .. }), "{err}");
    assert!(err.to_string().contains("not connected"), "{err}");
    assert!(matches!(
        publisher.request("game.1.act", "x", PATIENCE).await,
        Err(NatsError::Disconnected { .. })
    ));
    assert!(matches!(
        publisher.flush().await,
        Err(NatsError::Disconnected { .. })
    ));
    // A subscription made during the outage is sent on reconnection too.
    let mut late = subscriber.subscribe("game.2.events").unwrap();

    server.restart();
    let (_, took) = wait_for_state(&subscriber, |s| s == &ConnState::Connected).await;
    eprintln!("subscriber reconnected {took:?} after the restart");
    wait_for_state(&publisher, |s| s == &ConnState::Connected).await;
    subscriber.flush().await.unwrap();
    publisher.publish("game.1.events", "after").unwrap();
    publisher.publish("game.2.events", "late").unwrap();
    publisher.publish("game.1.act", "queued").unwrap();
    assert_eq!(next(&mut sub).await.payload, "after");
    assert_eq!(next(&mut late).await.payload, "late");
    assert_eq!(next(&mut queue_sub).await.payload, "queued");
    assert!(
        sub.try_next().is_none(),
        "'during' was refused, never queued"
    );
}

#[tokio::test]
async fn a_client_started_before_its_server_connects_when_the_server_comes() {
    let Some(mut server) = NatsServer::start() else {
        return;
    };
    server.stop();
    // Only a malformed address is refused at once.
    let err = Client::start("tls://127.0.0.1:4222", "x").unwrap_err();
    assert!(err.to_string().contains("TLS is not supported"), "{err}");
    let early = Client::start(&server.url(), "early").unwrap();
    let mut sub = early.subscribe("lobby.seeks").unwrap();
    // It says why once its first try has failed.
    let (state, _) = wait_for_state(
        &early,
        |s| matches!(s, ConnState::Disconnected { reason, .. } if reason != "connecting"),
    )
    .await;
    let ConnState::Disconnected { reason, .. } = state else {
        unreachable!()
    };
    assert!(reason.contains(&server.port().to_string()), "{reason}");
    assert!(matches!(
        early.publish("lobby.seeks", "too soon"),
        Err(NatsError::Disconnected { .. })
    ));

    server.restart();
    let (_, took) = wait_for_state(&early, |s| s == &ConnState::Connected).await;
    eprintln!("the early client connected {took:?} after the server started");
    early.flush().await.unwrap();
    // The subscription made before the server was there is in place.
    let late = connect(&server, "late").await;
    late.publish("lobby.seeks", "hello").unwrap();
    assert_eq!(next(&mut sub).await.payload, "hello");
}

#[tokio::test]
async fn a_silent_server_is_noticed_by_its_missing_pongs() {
    // A fake server that answers the handshake and then says nothing, with the socket open.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("nats://{}", listener.local_addr().unwrap());
    let fake = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        socket
            .write_all(b"INFO {\"server_id\":\"fake\",\"max_payload\":1024}\r\n")
            .await
            .unwrap();
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        while !seen.windows(6).any(|w| w == b"PING\r\n") {
            let n = socket.read(&mut buf).await.unwrap();
            assert!(n > 0, "the client closed during the handshake");
            seen.extend_from_slice(&buf[..n]);
        }
        socket.write_all(b"PONG\r\n").await.unwrap();
        // Read (and ignore) the liveness PINGs until the client gives up on us.
        while socket.read(&mut buf).await.is_ok_and(|n| n > 0) {}
        String::from_utf8_lossy(&seen).into_owned()
    });
    let client = Client::connect(&url, "patient").await.unwrap();
    assert_eq!(client.max_payload(), 1024);
    let (state, took) = wait_for_state(&client, |s| s != &ConnState::Connected).await;
    eprintln!("silence noticed after {took:?}: {state:?}");
    let ConnState::Disconnected { reason, .. } = state else {
        unreachable!()
    };
    assert!(reason.contains("no PONG"), "{reason}");
    let handshake = tokio::time::timeout(PATIENCE, fake).await.unwrap().unwrap();
    assert!(
        handshake.starts_with("CONNECT {\"verbose\":false,\"pedantic\":false"),
        "{handshake}"
    );
    assert!(handshake.contains("\"name\":\"patient\""), "{handshake}");
}

#[tokio::test]
async fn a_hostile_server_gets_a_protocol_error_and_a_reconnection_not_a_panic() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("nats://{}", listener.local_addr().unwrap());
    let garbage: [&[u8]; 4] = [
        b"MSG game.1 2 99999999999999999999\r\n",
        b"MSG game.1 two 3\r\nabc\r\n",
        b"HELLO THERE\r\n",
        b"MSG game.1 2 3\r\nabcdef\r\n",
    ];
    let fake = tokio::spawn(async move {
        for bad in garbage {
            let (mut socket, _) = listener.accept().await.unwrap();
            socket
                .write_all(b"INFO {\"max_payload\":1048576}\r\n")
                .await
                .unwrap();
            let mut seen = Vec::new();
            let mut buf = [0u8; 4096];
            while !seen.windows(6).any(|w| w == b"PING\r\n") {
                let n = socket.read(&mut buf).await.unwrap();
                assert!(n > 0);
                seen.extend_from_slice(&buf[..n]);
            }
            socket.write_all(b"PONG\r\n").await.unwrap();
            socket.write_all(bad).await.unwrap();
            // The client must hang up on us.
            while socket.read(&mut buf).await.is_ok_and(|n| n > 0) {}
        }
        // Then behave: answer the next handshake and stay.
        let (mut socket, _) = listener.accept().await.unwrap();
        socket.write_all(b"INFO {}\r\n").await.unwrap();
        let mut buf = [0u8; 4096];
        let mut seen = Vec::new();
        while !seen.windows(6).any(|w| w == b"PING\r\n") {
            let n = socket.read(&mut buf).await.unwrap();
            seen.extend_from_slice(&buf[..n]);
        }
        socket.write_all(b"PONG\r\n").await.unwrap();
        socket
    });
    let client = Client::connect(&url, "wary").await.unwrap();
    // The fake server checks that the client hung up after each piece of garbage, and ends by
    // accepting a good connection: the client reconnected every time.
    let _socket = tokio::time::timeout(Duration::from_secs(60), fake)
        .await
        .expect("the client did not hang up on garbage and reconnect")
        .unwrap();
    let (state, _) = wait_for_state(&client, |s| s == &ConnState::Connected).await;
    assert_eq!(state, ConnState::Connected);
}

#[tokio::test]
async fn dropping_a_subscription_stops_its_delivery_at_the_server() {
    let Some(server) = NatsServer::start() else {
        return;
    };
    let publisher = connect(&server, "publisher").await;
    let first = connect(&server, "first").await;
    let second = connect(&server, "second").await;
    let a = first.subscribe_queue("work", "workers").unwrap();
    let mut b = second.subscribe_queue("work", "workers").unwrap();
    first.flush().await.unwrap();
    second.flush().await.unwrap();
    drop(a);
    // UNSUB has reached the server once this round trip is over.
    first.flush().await.unwrap();
    const N: usize = 100;
    for i in 0..N {
        publisher.publish("work", i.to_string()).unwrap();
    }
    publisher.flush().await.unwrap();
    // Had the server still counted the first member, about half would have gone to it.
    for i in 0..N {
        assert_eq!(next(&mut b).await.payload, i.to_string());
    }
    assert!(b.try_next().is_none());
}

#[tokio::test]
async fn a_slow_subscriber_loses_the_excess_and_it_is_counted() {
    let Some(server) = NatsServer::start() else {
        return;
    };
    let publisher = connect(&server, "publisher").await;
    let slow = connect(&server, "slow").await;
    let mut sub = slow.subscribe("flood").unwrap();
    slow.flush().await.unwrap();
    let capacity = tilebag_nats::SUBSCRIPTION_CAPACITY;
    let extra = 300;
    for i in 0..capacity + extra {
        publisher.publish("flood", i.to_string()).unwrap();
    }
    publisher.flush().await.unwrap();
    // The server queued every MSG to `slow` before answering this PING.
    slow.flush().await.unwrap();
    assert_eq!(slow.dropped(), extra as u64);
    // The first `capacity` arrived, in order; the rest were dropped.
    for i in 0..capacity {
        assert_eq!(sub.try_next().unwrap().payload, i.to_string());
    }
    assert!(sub.try_next().is_none());
    // Reading again frees room: new messages arrive.
    publisher.publish("flood", "more").unwrap();
    assert_eq!(next(&mut sub).await.payload, "more");
}

#[tokio::test]
async fn connecting_fails_clearly() {
    // Nothing listens on a port we just freed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let err = Client::connect(&format!("nats://127.0.0.1:{port}"), "x")
        .await
        .unwrap_err();
    assert!(matches!(err, NatsError::Io { .. }), "{err}");
    assert!(err.to_string().contains(&port.to_string()), "{err}");
    let err = Client::connect("tls://127.0.0.1:4222", "x")
        .await
        .unwrap_err();
    assert!(err.to_string().contains("TLS is not supported"), "{err}");

    let Some(server) = NatsServer::start_with(&["--auth", "s3cret"]) else {
        return;
    };
    let port = server.port();
    let err = Client::connect(&format!("nats://wrong@127.0.0.1:{port}"), "intruder")
        .await
        .unwrap_err();
    assert_eq!(err, NatsError::Server("Authorization Violation".into()));
    let err = Client::connect(&server.url(), "anonymous")
        .await
        .unwrap_err();
    assert_eq!(err, NatsError::Server("Authorization Violation".into()));
    let client = Client::connect(&format!("nats://s3cret@127.0.0.1:{port}"), "member")
        .await
        .unwrap();
    client.flush().await.unwrap();
}

#[tokio::test]
async fn user_and_password_from_the_url() {
    let Some(server) = NatsServer::start_with(&["--user", "td", "--pass", "p@ss word"]) else {
        return;
    };
    let port = server.port();
    let err = Client::connect(&format!("nats://td:nope@127.0.0.1:{port}"), "x")
        .await
        .unwrap_err();
    assert_eq!(err, NatsError::Server("Authorization Violation".into()));
    let client = Client::connect(&format!("nats://td:p%40ss%20word@127.0.0.1:{port}"), "td")
        .await
        .unwrap();
    client.flush().await.unwrap();
}

#[tokio::test]
async fn closing_the_last_client_sends_what_was_queued_and_ends_its_subscriptions() {
    let Some(server) = NatsServer::start() else {
        return;
    };
    let listener = connect(&server, "listener").await;
    let mut heard = listener.subscribe("x").unwrap();
    listener.flush().await.unwrap();
    let client = connect(&server, "short-lived").await;
    let mut sub = client.subscribe("x").unwrap();
    let state = client.state();
    let other_handle = client.clone();
    drop(client);
    // A clone keeps the connection open.
    other_handle.publish("x", "last words").unwrap();
    drop(other_handle);
    // What was queued before the last drop is still sent; then the subscription ends.
    assert_eq!(next(&mut heard).await.payload, "last words");
    while let Some(m) = tokio::time::timeout(PATIENCE, sub.next()).await.unwrap() {
        assert_eq!(m.payload, "last words");
    }
    assert!(matches!(
        &*state.borrow(),
        ConnState::Disconnected { reason, .. } if reason.contains("closed")
    ));
}
