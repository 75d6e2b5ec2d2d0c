//! Feeds arbitrary bytes to the web server's request parsing as the body of every
//! route (and as a route itself), and checks its promises: no panic; a refusal is a
//! 4xx JSON error with a message; an accepted request names a puzzle whose grid has
//! the cell count of its geometry. Requests are parsed, not run, so every input takes
//! microseconds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudokit_web::api::{self, Request};

const ROUTES: &[&str] = &[
    "/api/solve", "/api/count", "/api/check", "/api/explain", "/api/hint", "/api/rate",
    "/api/generate", "/api/puzzles",
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else { return };
    let method = if selector & 0x80 == 0 { "POST" } else { "GET" };
    let route = match ROUTES.get(selector as usize & 0x7f) {
        Some(r) => r.to_string(),
        // Otherwise the bytes name the route too.
        None => format!("/api/{}", String::from_utf8_lossy(&body[..body.len().min(16)])),
    };
    match api::parse(method, &route, body) {
        Err(answer) => {
            assert!((400..500).contains(&answer.status), "{answer:?}");
            assert!(answer.json()["error"].as_str().is_some_and(|m| !m.is_empty()));
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
});
