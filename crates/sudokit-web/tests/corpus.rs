//! The fuzz corpus of the request parser (`fuzz/corpus/web_request`) replayed in a
//! normal test, with the fuzz target's checks: no panic, refusals are 4xx JSON errors.

use std::path::Path;

use sudokit_web::api;

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

#[test]
fn fuzz_corpus_replays_cleanly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/web_request");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipping: no corpus at {}", dir.display());
        return;
    };
    let mut replayed = 0;
    for entry in entries {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        let Some((&selector, body)) = data.split_first() else {
            continue;
        };
        // The same mapping as fuzz/fuzz_targets/web_request.rs.
        let method = if selector & 0x80 == 0 { "POST" } else { "GET" };
        let route = match ROUTES.get(selector as usize & 0x7f) {
            Some(r) => r.to_string(),
            None => format!(
                "/api/{}",
                String::from_utf8_lossy(&body[..body.len().min(16)])
            ),
        };
        if let Err(answer) = api::parse(method, &route, body) {
            assert!((400..500).contains(&answer.status), "{answer:?}");
            assert!(answer.json()["error"].is_string(), "{answer:?}");
        }
        replayed += 1;
    }
    assert!(replayed > 0);
}
