//! Measures the client against a `nats-server`: publish rate, publish→subscriber throughput,
//! and request/reply round trips (one at a time, and many in flight).
//!
//! ```text
//! cargo run --release -p tilebag-nats --example nats_bench -- [--url nats://HOST:PORT]
//!     [--messages 200000] [--size 128] [--requests 5000] [--in-flight 64]
//! ```
//! Without `--url` it starts its own `nats-server` on a free loopback port.

use std::time::{Duration, Instant};

use tilebag_nats::test_server::NatsServer;
use tilebag_nats::Client;

struct Options {
    url: Option<String>,
    messages: usize,
    size: usize,
    requests: usize,
    in_flight: usize,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        url: None,
        messages: 200_000,
        size: 128,
        requests: 5_000,
        in_flight: 64,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| {
            v.parse::<usize>()
                .map_err(|_| format!("{flag}: {v:?} is not a number"))
        };
        match flag.as_str() {
            "--url" => o.url = Some(value()?),
            "--messages" => o.messages = number(value()?)?,
            "--size" => o.size = number(value()?)?,
            "--requests" => o.requests = number(value()?)?,
            "--in-flight" => o.in_flight = number(value()?)?.max(1),
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    Ok(o)
}

#[tokio::main]
async fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("nats_bench: {e}");
            std::process::exit(2);
        }
    };
    let _server;
    let url = match &o.url {
        Some(url) => url.clone(),
        None => {
            let Some(server) = NatsServer::start() else {
                std::process::exit(1);
            };
            let url = server.url();
            _server = server;
            url
        }
    };
    if let Err(e) = run(&url, &o).await {
        eprintln!("nats_bench: {e}");
        std::process::exit(1);
    }
}

async fn run(url: &str, o: &Options) -> Result<(), tilebag_nats::NatsError> {
    let publisher = Client::connect(url, "bench-publisher").await?;
    let subscriber = Client::connect(url, "bench-subscriber").await?;
    let payload = bytes_of(o.size);

    // 1. Publishing alone: queueing and writing, no subscriber.
    let began = Instant::now();
    for _ in 0..o.messages {
        publish_retrying(&publisher, "bench.nobody", &payload).await?;
    }
    publisher.flush().await?;
    let took = began.elapsed();
    println!(
        "publish (no subscriber): {} messages of {} bytes in {:.3} s = {:.0} msg/s",
        o.messages,
        o.size,
        took.as_secs_f64(),
        o.messages as f64 / took.as_secs_f64()
    );

    // 2. Publisher → server → subscriber on another connection, read as they come.
    let mut sub = subscriber.subscribe("bench.fanout")?;
    subscriber.flush().await?;
    let expected = o.messages;
    let counter = subscriber.clone();
    let reader = tokio::spawn(async move {
        // Received plus dropped (a full queue) is what reached this client.
        let mut got = 0usize;
        while got + (counter.dropped() as usize) < expected {
            match tokio::time::timeout(Duration::from_millis(50), sub.next()).await {
                Ok(Some(_)) => got += 1,
                Ok(None) => break,
                Err(_) => {}
            }
        }
        (got, Instant::now())
    });
    let began = Instant::now();
    for _ in 0..o.messages {
        publish_retrying(&publisher, "bench.fanout", &payload).await?;
    }
    publisher.flush().await?;
    let (got, last) = reader.await.expect("reader task");
    let took = last.duration_since(began);
    println!(
        "publish → subscribe: {} messages of {} bytes reached the subscribing client in {:.3} s = {:.0} msg/s, {:.1} MB/s; {got} read by the consumer task, {} dropped for its full queue ({} deep)",
        o.messages,
        o.size,
        took.as_secs_f64(),
        o.messages as f64 / took.as_secs_f64(),
        (o.messages * o.size) as f64 / took.as_secs_f64() / 1e6,
        subscriber.dropped(),
        tilebag_nats::SUBSCRIPTION_CAPACITY
    );

    // 3. Request/reply: a responder on the subscriber's connection.
    let mut service = subscriber.subscribe("bench.act")?;
    subscriber.flush().await?;
    let responder_client = subscriber.clone();
    let responder = tokio::spawn(async move {
        while let Some(m) = service.next().await {
            if responder_client.respond(&m, m.payload.clone()).is_err() {
                break;
            }
        }
    });
    let mut latencies = Vec::with_capacity(o.requests);
    let began = Instant::now();
    for _ in 0..o.requests {
        let t = Instant::now();
        publisher
            .request("bench.act", payload.clone(), Duration::from_secs(5))
            .await?;
        latencies.push(t.elapsed());
    }
    let took = began.elapsed();
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    println!(
        "request/reply one at a time: {} in {:.3} s = {:.0}/s; round trip p50 {:?}, p99 {:?}, max {:?}",
        o.requests,
        took.as_secs_f64(),
        o.requests as f64 / took.as_secs_f64(),
        at(0.50),
        at(0.99),
        latencies[latencies.len() - 1]
    );

    let began = Instant::now();
    let per_task = o.requests.div_ceil(o.in_flight);
    let mut tasks = Vec::new();
    for _ in 0..o.in_flight {
        let client = publisher.clone();
        let payload = payload.clone();
        tasks.push(tokio::spawn(async move {
            for _ in 0..per_task {
                client
                    .request("bench.act", payload.clone(), Duration::from_secs(5))
                    .await?;
            }
            Ok::<(), tilebag_nats::NatsError>(())
        }));
    }
    for t in tasks {
        t.await.expect("request task")?;
    }
    let took = began.elapsed();
    let total = per_task * o.in_flight;
    println!(
        "request/reply, {} in flight: {total} in {:.3} s = {:.0}/s",
        o.in_flight,
        took.as_secs_f64(),
        total as f64 / took.as_secs_f64()
    );
    responder.abort();
    Ok(())
}

/// Publishes, waiting a moment when the outgoing queue is full (the bench outruns the socket).
async fn publish_retrying(
    client: &Client,
    subject: &str,
    payload: &bytes::Bytes,
) -> Result<(), tilebag_nats::NatsError> {
    loop {
        match client.publish(subject, payload.clone()) {
            Err(tilebag_nats::NatsError::QueueFull { .. }) => {
                tokio::time::sleep(Duration::from_millis(1)).await
            }
            other => return other,
        }
    }
}

fn bytes_of(size: usize) -> bytes::Bytes {
    (0..size)
        .map(|i| (i % 251) as u8)
        .collect::<Vec<u8>>()
        .into()
}
