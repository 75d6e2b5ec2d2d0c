//! The endpoints over real HTTP: answers checked against the seed documents' figures,
//! and every kind of bad request answered with a 4xx JSON error.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sudokit::format::parse_grid;
use sudokit_web::Budget;

use std::io::{Read, Write};
use std::net::TcpStream;

use sudokit_web::Config;

use crate::util::{config, get, post, raw, request, server, server_with};

/// The solution is complete, keeps the givens and breaks no rule.
fn assert_solves(puzzle: &str, solution: &Value) {
    let p = parse_grid(puzzle).unwrap();
    let s = parse_grid(solution.as_str().expect("a solution")).unwrap();
    assert!(s.solves(&p), "{solution} does not solve {puzzle}");
}

#[test]
fn moler_takes_fifty_steps_on_lo_shu() {
    // Moler, Experiments with MATLAB, figure 14.12: sudoku_basic solves Lo-Shu in 50
    // steps.
    let s = server(2, Budget::default());
    let (status, a) = post(
        s.addr(),
        "/api/solve",
        r#"{"puzzle":"lo-shu","engine":"moler"}"#,
    );
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["status"], "solved");
    assert_eq!(a["stats"]["steps"], 50);
    let trace = a["trace"].as_array().unwrap();
    assert_eq!(trace.last().unwrap()["step"], 50);
    let clues = a["puzzle"]
        .as_str()
        .unwrap()
        .bytes()
        .filter(|&b| b != b'.')
        .count();
    assert_eq!(
        trace.iter().filter(|t| t["reason"] == "given").count(),
        clues
    );
    assert_eq!(a["houses"].as_array().unwrap().len(), 27);
    assert_solves(a["puzzle"].as_str().unwrap(), &a["solution"]);
    s.stop();
}

/// Replays a trace as the page does (givens and singles fill, a guess opens a branch,
/// a backtrack empties what was filled since its guess) and returns the final board.
fn replay(trace: &[Value], cells: usize) -> Vec<u64> {
    let mut values = vec![0u64; cells];
    let mut filled: Vec<usize> = Vec::new();
    let mut branches: Vec<usize> = Vec::new();
    for s in trace {
        let cell = s["cell"].as_u64().unwrap() as usize;
        let value = s["value"].as_u64().unwrap();
        match s["reason"].as_str().unwrap() {
            "given" => values[cell] = value,
            "singleton" | "hidden single" | "guess" => {
                assert_eq!(values[cell], 0, "{s} fills a filled cell");
                if s["reason"] == "guess" {
                    branches.push(filled.len());
                }
                filled.push(cell);
                values[cell] = value;
            }
            "backtrack" => {
                let keep = branches.pop().expect("a backtrack closes a guess");
                assert_eq!(filled[keep], cell, "{s} backtracks another cell's guess");
                for c in filled.drain(keep..) {
                    values[c] = 0;
                }
            }
            "dead end" => {}
            r => panic!("unknown reason {r}"),
        }
    }
    values
}

#[test]
fn every_engine_trace_replays_to_its_solution() {
    // The page's replay rule holds for every seed engine: the last board of the trace
    // is the solution the engine reports.
    let s = server(2, Budget::default());
    for engine in ["moler", "octave", "fallin", "kronecker", "gubin"] {
        for puzzle in [
            "lo-shu",
            "fallin",
            "octave",
            "kronecker-example",
            "kronecker",
        ] {
            let body = json!({"puzzle": puzzle, "engine": engine, "max_steps": sudokit_web::api::MAX_TRACE}).to_string();
            let (status, a) = post(s.addr(), "/api/solve", &body);
            assert_eq!(status, 200, "{engine} {puzzle}: {a}");
            assert_eq!(a["status"], "solved", "{engine} {puzzle}");
            assert_eq!(a["truncated"], false, "{engine} {puzzle}");
            let board = replay(a["trace"].as_array().unwrap(), 81);
            let solution: Vec<u64> = a["solution"]
                .as_str()
                .unwrap()
                .bytes()
                .map(|b| u64::from(b - b'0'))
                .collect();
            assert_eq!(board, solution, "{engine} on {puzzle}");
        }
    }
    s.stop();
}

#[test]
fn counts_and_verdicts_match_moler_exercise_14_5() {
    // Exercise 14.5: replacing Lo-Shu's (9,1) clue by 5 keeps it unique, by 6 gives
    // two solutions, by 7 none.
    let s = server(2, Budget::default());
    for (name, count) in [("lo-shu-5", 1), ("lo-shu-6", 2), ("lo-shu-7", 0)] {
        let (status, a) = post(s.addr(), "/api/count", &json!({"puzzle": name}).to_string());
        assert_eq!(status, 200);
        assert_eq!(a["count"], count, "{name}");
        assert_eq!(a["complete"], true);
    }
    let (_, a) = post(s.addr(), "/api/check", r#"{"puzzle":"lo-shu-6"}"#);
    assert_eq!(a["verdict"], "multiple");
    let (_, a) = post(s.addr(), "/api/check", r#"{"puzzle":"diag4"}"#);
    // Figure 14.8: diag(1:4) has two solutions.
    assert_eq!(a["verdict"], "multiple");
    assert_eq!(a["size"], 4);
    s.stop();
}

#[test]
fn logic_endpoints_answer() {
    let s = server(2, Budget::default());
    let (status, a) = post(s.addr(), "/api/hint", r#"{"puzzle":"lo-shu"}"#);
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["status"], "step");
    let step = &a["step"];
    assert!(!step["text"].as_str().unwrap().is_empty());
    assert_eq!(step["placements"].as_array().unwrap().len(), 1);
    let (status, a) = post(s.addr(), "/api/explain", r#"{"puzzle":"lo-shu"}"#);
    assert_eq!(status, 200);
    assert_eq!(a["status"], "solved");
    let clues = a["puzzle"]
        .as_str()
        .unwrap()
        .bytes()
        .filter(|&b| b != b'.')
        .count();
    let placements: usize = a["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["placements"].as_array().unwrap().len())
        .sum();
    assert_eq!(placements, 81 - clues, "every empty cell is filled once");
    let (status, a) = post(s.addr(), "/api/rate", r#"{"puzzle":"lo-shu"}"#);
    assert_eq!(status, 200);
    assert!(a["er"].as_f64().is_some());
    let (status, a) = post(s.addr(), "/api/explain", r#"{"puzzle":"lo-shu-6"}"#);
    assert_eq!(status, 400, "several solutions: {a}");
    let (status, a) = post(
        s.addr(),
        "/api/generate",
        r#"{"seed":7,"symmetry":"rot180"}"#,
    );
    assert_eq!(status, 200, "{a}");
    assert_solves(a["puzzle"].as_str().unwrap(), &a["solution"]);
    let (_, c) = post(
        s.addr(),
        "/api/count",
        &json!({"puzzle": a["puzzle"]}).to_string(),
    );
    assert_eq!(c["count"], 1, "generated puzzles are unique");
    let (_, b) = post(
        s.addr(),
        "/api/generate",
        r#"{"seed":7,"symmetry":"rot180"}"#,
    );
    assert_eq!(a["puzzle"], b["puzzle"], "a seed reproduces its puzzle");
    s.stop();
}

#[test]
fn variants_travel_through_every_endpoint() {
    let s = server(2, Budget::default());
    let map = "AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIIIGGGHHHIII";
    let map = &map[..81];
    // A generated jigsaw comes with its board: region map, regions, nothing shaded.
    let (status, a) = post(
        s.addr(),
        "/api/generate",
        &json!({"seed": 3, "variant": "jigsaw", "regions": map, "level": "easy"}).to_string(),
    );
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["variant"], "jigsaw");
    assert_eq!(a["level"], "easy");
    let labels: Vec<char> = a["region_map"].as_str().unwrap().chars().collect();
    let regions = a["regions"].as_array().unwrap();
    for c in 0..81 {
        for d in 0..81 {
            // Same label, same region: the map the server read is the one sent.
            let same = map.as_bytes()[c] == map.as_bytes()[d];
            assert_eq!(regions[c] == regions[d], same, "cells {c} and {d}");
            assert_eq!(labels[c] == labels[d], same);
        }
    }
    assert_eq!(a["shaded"], json!([]));
    // The same puzzle, checked and hinted as a jigsaw: unique, with a step.
    let keys = json!({"puzzle": a["puzzle"], "variant": "jigsaw", "regions": map});
    let (_, c) = post(s.addr(), "/api/check", &keys.to_string());
    assert_eq!(c["verdict"], "unique", "{c}");
    let (_, h) = post(s.addr(), "/api/hint", &keys.to_string());
    assert_eq!(h["status"], "step", "{h}");
    // X-sudoku: 17 cells shaded (two diagonals sharing the centre).
    let (status, x) = post(s.addr(), "/api/generate", r#"{"seed":3,"variant":"x"}"#);
    assert_eq!(status, 200, "{x}");
    assert_eq!(x["shaded"].as_array().unwrap().len(), 17);
    assert!(x["shaded"].as_array().unwrap().contains(&json!(40)));
    // A Latin square has no boxes.
    let (_, l) = post(s.addr(), "/api/generate", r#"{"seed":3,"variant":"latin"}"#);
    assert!(
        l["regions"].as_array().unwrap().iter().all(Value::is_null),
        "{l}"
    );
    // The map may follow the puzzle in its text, as the command line reads it (it was
    // refused for want of the `regions` key).
    let text = format!("{}\n{map}", a["puzzle"].as_str().unwrap());
    let (status, c) = post(
        s.addr(),
        "/api/check",
        &json!({"puzzle": text, "variant": "jigsaw"}).to_string(),
    );
    assert_eq!((status, &c["verdict"]), (200, &json!("unique")), "{c}");
    // A jigsaw generated without a map draws one (from the seed), and the puzzle is
    // unique under it.
    let body = json!({"seed": 5, "variant": "jigsaw"}).to_string();
    let (status, j) = post(s.addr(), "/api/generate", &body);
    assert_eq!(status, 200, "{j}");
    let drawn = j["region_map"].as_str().unwrap();
    assert_eq!(drawn.len(), 81);
    assert_eq!(
        post(s.addr(), "/api/generate", &body).1["region_map"],
        drawn
    );
    let keys = json!({"puzzle": j["puzzle"], "variant": "jigsaw", "regions": drawn});
    let (_, c) = post(s.addr(), "/api/check", &keys.to_string());
    assert_eq!(c["verdict"], "unique", "{c}");
    // A puzzle without its map, or with a bad one, is refused.
    for body in [
        json!({"puzzle": "lo-shu", "variant": "jigsaw"}),
        json!({"puzzle": "lo-shu", "regions": "AAB"}),
    ] {
        let (status, e) = post(s.addr(), "/api/check", &body.to_string());
        assert_eq!(status, 400, "{body}: {e}");
        assert!(e["error"].as_str().unwrap().contains("region"), "{e}");
    }
    s.stop();
}

#[test]
fn page_and_assets_are_served() {
    let s = server(1, Budget::default());
    let (status, body) = get(s.addr(), "/");
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&body).contains("<script src=\"/app.js\">"));
    assert_eq!(get(s.addr(), "/app.js").0, 200);
    assert_eq!(get(s.addr(), "/style.css").0, 200);
    assert_eq!(get(s.addr(), "/nope.html").0, 404);
    let (status, body) = get(s.addr(), "/api/puzzles");
    assert_eq!(status, 200);
    let list: Value = serde_json::from_slice(&body).unwrap();
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "lo-shu")
    );
    s.stop();
}

#[test]
fn bad_requests_get_json_errors() {
    let s = server(2, Budget::default());
    let a = s.addr();
    let cases: &[(&str, &str, &str, u16)] = &[
        ("POST", "/api/solve", "{", 400),
        ("POST", "/api/solve", "", 400),
        ("POST", "/api/solve", "[1,2,3]", 400),
        ("POST", "/api/solve", r#"{"puzzle": 5}"#, 400),
        ("POST", "/api/solve", r#"{"puzzle": "12x"}"#, 400),
        (
            "POST",
            "/api/solve",
            r#"{"puzzle": "lo-shu", "engine": "quantum"}"#,
            400,
        ),
        (
            "POST",
            "/api/solve",
            r#"{"puzzle": "lo-shu", "engine": "fast", "pick": "last-min"}"#,
            400,
        ),
        (
            "POST",
            "/api/solve",
            r#"{"puzzle": "lo-shu", "max_steps": 100000000}"#,
            400,
        ),
        (
            "POST",
            "/api/solve",
            r#"{"puzzle": "shidoku", "engine": "gubin"}"#,
            400,
        ),
        (
            "POST",
            "/api/solve",
            r#"{"puzzle": "lo-shu", "shape": "3x"}"#,
            400,
        ),
        (
            "POST",
            "/api/count",
            r#"{"puzzle": "lo-shu", "limit": -1}"#,
            400,
        ),
        (
            "POST",
            "/api/hint",
            r#"{"puzzle": "lo-shu", "candidates": "all"}"#,
            400,
        ),
        ("POST", "/api/generate", r#"{"level": "godlike"}"#, 400),
        ("POST", "/api/generate", r#"{"shape": "1x1000"}"#, 400),
        ("POST", "/api/generate", "\u{0}\u{1}", 400),
        ("POST", "/api/nothing", "{}", 404),
        ("GET", "/api/solve", "", 405),
        ("DELETE", "/api/count", "{}", 405),
    ];
    for &(method, path, body, want) in cases {
        let (status, body) = raw(a, &request(method, path, body.as_bytes()));
        let json: Value = serde_json::from_slice(&body)
            .unwrap_or_else(|_| panic!("{method} {path} {body:?}: not JSON"));
        assert_eq!(status, want, "{method} {path} {body:?}: {json}");
        assert!(json["error"].is_string(), "{json}");
    }
    // The page takes GET (and HEAD); other methods get 405 naming them.
    let (status, body) = raw(a, &request("POST", "/", b"{}"));
    assert_eq!(status, 405, "{}", String::from_utf8_lossy(&body));
    assert!(String::from_utf8_lossy(&body).contains("takes GET"));
    let (status, body) = raw(a, b"HEAD /app.js HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!((status, body.len()), (200, 0));
    // No answer to HEAD has a body, an error's included (found by QA).
    for (path, want) in [("/api/count", 405), ("/api/nope", 404), ("/nope", 404)] {
        let request = format!("HEAD {path} HTTP/1.1\r\nHost: x\r\n\r\n");
        let (status, body) = raw(a, request.as_bytes());
        assert_eq!((status, body.len()), (want, 0), "{path}");
    }
    // An absolute-form target names its path (RFC 9112, 3.2.2).
    let (status, _) = raw(
        a,
        b"GET http://localhost/app.js HTTP/1.1\r\nHost: localhost\r\n\r\n",
    );
    assert_eq!(status, 200);
    // Invalid UTF-8 and garbage instead of HTTP: answered or closed, never a crash.
    let (status, _) = raw(a, &request("POST", "/api/solve", &[0xff, 0xfe, b'{']));
    assert_eq!(status, 400);
    let _ = raw(a, b"\x00\x01garbage\r\n\r\n");
    // The server still answers.
    assert_eq!(post(a, "/api/count", r#"{"puzzle":"lo-shu"}"#).0, 200);
    s.stop();
}

#[test]
fn oversize_bodies_are_refused() {
    let s = server(2, Budget::default());
    let big = format!(r#"{{"puzzle":"{}"}}"#, ".".repeat(200_000));
    let (status, body) = raw(s.addr(), &request("POST", "/api/solve", big.as_bytes()));
    assert_eq!(status, 413, "{}", String::from_utf8_lossy(&body));
    // Without a length (chunked), the limit holds while reading.
    let mut chunked = b"POST /api/solve HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".to_vec();
    for _ in 0..100 {
        chunked.extend_from_slice(format!("{:x}\r\n{}\r\n", 1000, "a".repeat(1000)).as_bytes());
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let (status, _) = raw(s.addr(), &chunked);
    assert_eq!(status, 413);
    assert_eq!(
        post(s.addr(), "/api/count", r#"{"puzzle":"lo-shu"}"#).0,
        200
    );
    s.stop();
}

#[test]
fn lying_and_stalling_clients_hold_only_their_own_connection() {
    // One API worker and four connections.
    let s = server_with(Config {
        workers: 1,
        connections: 4,
        io_timeout: Duration::from_millis(1500),
        ..config()
    });
    let a = s.addr();
    // A declared length far beyond memory, a few bytes, and the connection closed: the
    // server must neither allocate the declared length nor fall over.
    let mut liar = TcpStream::connect(a).unwrap();
    liar.write_all(
        b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000000000\r\n\r\nabc",
    )
    .unwrap();
    let mut answer = String::new();
    let _ = liar.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    drop(liar);
    // A body shorter than declared, a head never finished, a request never sent: held
    // open beside a normal request, which is answered at once (the worker is not
    // theirs), and each given up after the timeout (408, or closed).
    let stall = |bytes: &[u8]| {
        let mut held = TcpStream::connect(a).unwrap();
        held.write_all(bytes).unwrap();
        held
    };
    let stalls: [&[u8]; 3] = [
        b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{\"puzzle\"",
        b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Le",
        b"",
    ];
    let held: Vec<TcpStream> = stalls.iter().map(|b| stall(b)).collect();
    let t = Instant::now();
    assert_eq!(post(a, "/api/count", r#"{"puzzle":"lo-shu"}"#).0, 200);
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
    for mut h in held {
        let mut answer = String::new();
        let _ = h.read_to_string(&mut answer);
        assert!(
            answer.is_empty() || answer.starts_with("HTTP/1.1 408"),
            "{answer}"
        );
    }
    // With every connection held, a new client waits for one to time out.
    let held: Vec<TcpStream> = (0..4).map(|_| stall(b"")).collect();
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    assert_eq!(post(a, "/api/count", r#"{"puzzle":"lo-shu"}"#).0, 200);
    let waited = t.elapsed();
    assert!(
        waited > Duration::from_millis(1000) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
    drop(held);
    s.stop();
}

#[test]
fn expect_100_continue_is_honoured() {
    let s = server(1, Budget::default());
    let body = br#"{"puzzle":"lo-shu"}"#;
    let mut c = TcpStream::connect(s.addr()).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        c,
        "POST /api/count HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    let mut interim = [0u8; 25];
    c.read_exact(&mut interim).unwrap();
    assert_eq!(&interim, b"HTTP/1.1 100 Continue\r\n\r\n");
    c.write_all(body).unwrap();
    let mut answer = String::new();
    c.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
    assert!(answer.contains(r#""count":1"#), "{answer}");
    // Too large: refused before the client sends it.
    let mut c = TcpStream::connect(s.addr()).unwrap();
    c.write_all(b"POST /api/count HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 10000000\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    c.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    s.stop();
}

#[test]
fn long_requests_stop_at_the_time_limit() {
    let s = server(2, Budget::new(Duration::from_millis(200), 2));
    // A 25x25 grid with only its first row: every digit is given, so digit symmetry
    // does not shorten the count, and counting its solutions never ends: the deadline
    // stops it.
    let first_row = format!("123456789ABCDEFGHIJKLMNOP{}", ".".repeat(600));
    let t = Instant::now();
    let (status, a) = post(
        s.addr(),
        "/api/count",
        &json!({"puzzle": first_row, "limit": u64::MAX}).to_string(),
    );
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["status"], "timeout");
    assert_eq!(a["complete"], false);
    // The empty grid has more solutions than a count can hold: the first one found
    // already stands for 25! of them, so the answer is a lower bound at once.
    let (status, a) = post(
        s.addr(),
        "/api/count",
        &json!({"puzzle": ".".repeat(625), "limit": u64::MAX}).to_string(),
    );
    assert_eq!(status, 200, "{a}");
    assert_eq!(
        (a["count"].as_u64(), &a["complete"]),
        (Some(u64::MAX), &json!(false)),
        "{a}"
    );
    // Moler's engine recomputes every candidate after each fill: slow on 25x25.
    let (status, a) = post(
        s.addr(),
        "/api/solve",
        &json!({"puzzle": format!("{}1", ".".repeat(624)), "engine": "kronecker"}).to_string(),
    );
    assert_eq!(status, 200, "{a}");
    assert!(
        matches!(a["status"].as_str(), Some("timeout" | "solved")),
        "{a}"
    );
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    s.stop();
}

#[test]
fn generating_stops_at_the_time_limit() {
    // A 64x64 grid takes minutes to draw and dig: the job stops at the deadline instead
    // of holding its job slot (and a core) long after its request was answered, so the
    // one slot is free again for the next request (found by QA: two such requests
    // refused every logic endpoint for minutes).
    let s = server(2, Budget::new(Duration::from_millis(500), 1));
    let (status, a) = post(s.addr(), "/api/generate", r#"{"shape":"8x8"}"#);
    assert_eq!(status, 503, "{a}");
    std::thread::sleep(Duration::from_millis(300));
    let (status, a) = post(s.addr(), "/api/generate", r#"{"shape":"2x2","seed":1}"#);
    assert_eq!(status, 200, "{a}");
    s.stop();
}

#[test]
fn logic_jobs_past_the_limit_get_503() {
    // A zero time limit: the job cannot answer in time, the request gets 503 at once,
    // and the job finishes in the background without taking a worker.
    let s = server(1, Budget::new(Duration::ZERO, 1));
    let (status, a) = post(s.addr(), "/api/rate", r#"{"puzzle":"octave"}"#);
    assert_eq!(status, 503, "{a}");
    assert!(a["error"].as_str().unwrap().contains("time limit"));
    // The one job slot is busy until that rating ends: further jobs are refused, not
    // queued without bound; plain endpoints still answer.
    assert_eq!(
        post(s.addr(), "/api/check", r#"{"puzzle":"lo-shu"}"#).0,
        200
    );
    s.stop();
}
