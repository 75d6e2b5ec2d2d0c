//! The web server's parsers' promises, as plain functions: the `web_request` and
//! `http_request` fuzz targets call them on generated inputs, and
//! `crates/sudokit-web/tests/corpus.rs` replays the committed corpora and crash cases
//! through the same functions in every `cargo test`.
#![allow(dead_code)]

use sudokit_web::api::{self, Request};
use sudokit_web::http::{self, Fail, Framing, Incoming};

const ROUTES: &[&str] = &[
    "/api/solve",
    "/api/count",
    "/api/check",
    "/api/explain",
    "/api/hint",
    "/api/rate",
    "/api/generate",
    "/api/puzzles",
];

/// Feeds arbitrary bytes to the JSON request parsing as the body of every route (and as
/// a route itself), and checks its promises: no panic; a refusal is a 4xx JSON error
/// with a message; an accepted request names a puzzle whose grid has the cell count of
/// its geometry. Requests are parsed, not run, so every input takes microseconds.
pub fn web_request(data: &[u8]) {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let method = if selector & 0x80 == 0 { "POST" } else { "GET" };
    let route = match ROUTES.get(selector as usize & 0x7f) {
        Some(r) => r.to_string(),
        // Otherwise the bytes name the route too.
        None => format!(
            "/api/{}",
            String::from_utf8_lossy(&body[..body.len().min(16)])
        ),
    };
    match api::parse(method, &route, body) {
        Err(answer) => {
            assert!((400..500).contains(&answer.status), "{answer:?}");
            assert!(
                answer.json()["error"]
                    .as_str()
                    .is_some_and(|m| !m.is_empty()),
                "{answer:?}"
            );
        }
        Ok(request) => {
            let grid = match &request {
                Request::Solve(p, _)
                | Request::Count(p, _)
                | Request::Check(p, _)
                | Request::Explain(p)
                | Request::Hint(p, _)
                | Request::Rate(p) => Some(&p.grid),
                Request::Generate(_) | Request::Puzzles => None,
            };
            if let Some(g) = grid {
                assert_eq!(g.cells().len(), g.geometry().cell_count());
            }
        }
    }
}

/// Reads arbitrary bytes as an HTTP request (the first byte sets the body limit, in
/// steps of 16 bytes) and checks the framing's promises: no panic; a refusal is an
/// error status with a reason phrase and a message; a body read is within the limit and
/// exactly as long as its `Content-Length`.
pub fn http_request(data: &[u8]) {
    let Some((&limit, bytes)) = data.split_first() else {
        return;
    };
    let limit = limit as usize * 16;
    let refusal = |fail: Fail| {
        if let Fail::Refuse(status, message) = fail {
            assert!((400..600).contains(&status), "{status} {message}");
            assert!(!http::reason(status).is_empty(), "{status}");
            assert!(!message.is_empty());
        }
    };
    let mut incoming = Incoming::new(bytes);
    let head = match incoming.head() {
        Ok(head) => head,
        Err(fail) => return refusal(fail),
    };
    assert!(!head.method.is_empty());
    assert!(!head.path.contains('?'), "{head:?}");
    match incoming.body(&head, limit) {
        Ok(body) => {
            assert!(body.len() <= limit, "{head:?}");
            match head.framing {
                Framing::Empty => assert!(body.is_empty()),
                Framing::Length(n) => assert_eq!(body.len() as u64, n),
                Framing::Chunked => {}
            }
        }
        Err(fail) => refusal(fail),
    }
}
