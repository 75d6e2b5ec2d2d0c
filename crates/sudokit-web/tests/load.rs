//! The server under load: 10,000 mixed requests (solves with traces, counts, checks,
//! hints, malformed JSON, unknown routes, oversize bodies, wrong methods) from 16
//! client threads. Every request must get an answer with the status its kind calls
//! for; the server must stay up; the resident set must not keep growing. Prints
//! requests per second, p50/p99 latency and the resident set before and after.

use std::time::{Duration, Instant};

use sudokit_web::Budget;

// Shared with the other test binary, which uses the rest of it.
#[allow(dead_code)]
mod util;

use crate::util::{raw, request, server};

/// Resident set size in KiB, from /proc (None where there is no /proc).
fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Request `i` of the mix, and the status it must get.
fn mixed(i: usize) -> (Vec<u8>, u16) {
    let big = format!(r#"{{"puzzle":"{}"}}"#, ".".repeat(70_000));
    match i % 10 {
        0 => (
            request(
                "POST",
                "/api/solve",
                br#"{"puzzle":"lo-shu","engine":"moler"}"#,
            ),
            200,
        ),
        1 => (
            request(
                "POST",
                "/api/solve",
                br#"{"puzzle":"octave","engine":"fallin"}"#,
            ),
            200,
        ),
        2 => (
            request(
                "POST",
                "/api/count",
                br#"{"puzzle":"lo-shu-0","limit":100}"#,
            ),
            200,
        ),
        3 => (
            request("POST", "/api/check", br#"{"puzzle":"kronecker-example"}"#),
            200,
        ),
        4 => (request("POST", "/api/hint", br#"{"puzzle":"lo-shu"}"#), 200),
        5 => (
            request("POST", "/api/solve", br#"{"puzzle": "lo-shu", "engine": }"#),
            400,
        ),
        6 => (request("POST", "/api/solve", br#"{"puzzle": "1234"}"#), 400),
        7 => (request("POST", "/api/teleport", b"{}"), 404),
        8 => (request("POST", "/api/solve", big.as_bytes()), 413),
        _ => (request("PUT", "/api/count", b"{}"), 405),
    }
}

/// Sends `total` requests of the mix from `threads` clients; returns the sorted
/// latencies and the elapsed time.
fn run(addr: std::net::SocketAddr, total: usize, threads: usize) -> (Vec<Duration>, Duration) {
    let started = Instant::now();
    let mut latencies: Vec<Duration> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    for i in (t..total).step_by(threads) {
                        let (req, want) = mixed(i);
                        let t0 = Instant::now();
                        let (status, body) = raw(addr, &req);
                        mine.push(t0.elapsed());
                        assert_eq!(
                            status,
                            want,
                            "request {i}: {}",
                            String::from_utf8_lossy(&body)
                        );
                        let json: serde_json::Value =
                            serde_json::from_slice(&body).expect("every answer is JSON");
                        assert_eq!(json.get("error").is_some(), want != 200, "request {i}");
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("client thread"))
            .collect()
    });
    latencies.sort();
    (latencies, started.elapsed())
}

#[test]
fn ten_thousand_mixed_requests_all_answered() {
    let s = server(4, Budget::default());
    let addr = s.addr();
    // A warm-up round, so the resident set measured after it includes the allocator's
    // steady state; then the real run.
    run(addr, 1_000, 16);
    let before = rss_kib();
    let (latencies, elapsed) = run(addr, 10_000, 16);
    let after = rss_kib();
    assert_eq!(latencies.len(), 10_000, "every request answered");
    // A second round: memory that grows with the number of requests shows here.
    run(addr, 10_000, 16);
    let again = rss_kib();
    let p = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    let kib = |k: Option<u64>| k.map_or("?".into(), |k| k.to_string());
    println!(
        "load: 10000 mixed requests in {:.2} s: {:.0} requests/s, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; RSS {} KiB before, {} KiB after, {} KiB after 10000 more",
        elapsed.as_secs_f64(),
        10_000.0 / elapsed.as_secs_f64(),
        p(0.50).as_secs_f64() * 1e3,
        p(0.99).as_secs_f64() * 1e3,
        latencies.last().unwrap().as_secs_f64() * 1e3,
        kib(before),
        kib(after),
        kib(again),
    );
    if let (Some(b), Some(a), Some(c)) = (before, after, again) {
        // Flat: allocator arenas of the 16 client threads and 4 workers settle in the
        // first round; the second must not add more than 4 MiB.
        assert!(a < b + 32 * 1024, "RSS grew from {b} KiB to {a} KiB");
        assert!(
            c < a + 4 * 1024,
            "RSS grew from {a} KiB to {c} KiB in the second round"
        );
    }
    // Still serving.
    let (status, _) = raw(
        addr,
        &request("POST", "/api/count", br#"{"puzzle":"lo-shu"}"#),
    );
    assert_eq!(status, 200);
    s.stop();
}
