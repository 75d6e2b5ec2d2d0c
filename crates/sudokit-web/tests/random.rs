//! Random requests straight to the endpoints (no sockets): built-in and random puzzles
//! of several shapes and variants, random options and pencil marks. No request may
//! reach the 500 answer that stands for a panic, every answer is JSON, and every
//! solution the solver reports solves its puzzle.

use std::time::Duration;

use serde_json::{Value, json};
use sudokit::Shape;
use sudokit::format::{ReadOptions, parse_one};
use sudokit::rng::Rng;
use sudokit_web::{Budget, api};

/// A 9x9 jigsaw map: regions of nine cells, not all boxes.
const JIGSAW: &str =
    "AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII";

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len() as u64) as usize]
}

/// A puzzle and the keys that describe its kind: a built-in one, or a random grid of
/// 4x4, 6x6 or 9x9 (clues at random, so it may have no solution, one, or many).
fn puzzle_keys(rng: &mut Rng) -> (Value, usize) {
    if rng.below(4) == 0 {
        let name = pick(
            rng,
            &[
                "lo-shu", "lo-shu-0", "lo-shu-6", "lo-shu-7", "kron", "diag4",
            ],
        );
        let n = if *name == "diag4" { 4 } else { 9 };
        return (json!({ "puzzle": name }), n);
    }
    let (n, shape) = *pick(rng, &[(4, "2x2"), (6, "2x3"), (6, "3x2"), (9, "3x3")]);
    let symbols = "123456789";
    let clue_chance = 2 + rng.below(30);
    let text: String = (0..n * n)
        .map(|_| {
            if rng.below(100) < clue_chance {
                symbols.as_bytes()[rng.below(n as u64) as usize] as char
            } else {
                '.'
            }
        })
        .collect();
    let mut keys = json!({ "puzzle": text, "shape": shape });
    match (rng.below(8), n) {
        (0, _) => keys["variant"] = json!("x"),
        (1, _) => keys["variant"] = json!("latin"),
        (2, 9) => keys["variant"] = json!("windoku"),
        (3, 9) => keys["regions"] = json!(JIGSAW),
        (4, _) => keys["variant"] = json!("disjoint"),
        (5, 9) => keys["variant"] = json!(pick(rng, &["asterisk", "girandola,centre-dot"])),
        _ => {}
    }
    (keys, n)
}

/// Per-cell pencil marks: mostly digits of the grid, some out of range, some cells
/// without any, now and then a list of the wrong length.
fn candidates(rng: &mut Rng, n: usize) -> Value {
    let cells = n * n + usize::from(rng.below(20) == 0);
    let lists: Vec<Vec<u64>> = (0..cells)
        .map(|_| {
            (0..=n as u64 + 1)
                .filter(|&d| {
                    if d == 0 || d > n as u64 {
                        rng.below(200) == 0
                    } else {
                        rng.below(4) != 0
                    }
                })
                .collect()
        })
        .collect();
    json!(lists)
}

fn request(rng: &mut Rng) -> (String, Value) {
    let route = *pick(
        rng,
        &[
            "solve", "solve", "count", "check", "explain", "hint", "hint", "rate", "generate",
        ],
    );
    if route == "generate" {
        let mut keys = json!({ "seed": rng.below(1000) });
        keys["shape"] = json!(pick(rng, &["2x2", "2x3", "3x2", "3x3"]));
        if rng.below(2) == 0 {
            keys["symmetry"] = json!(pick(
                rng,
                &["none", "rot180", "rot90", "diagonal", "mirror", "bogus"]
            ));
        }
        if rng.below(3) == 0 {
            keys["variant"] = json!(pick(
                rng,
                &["x", "latin", "windoku", "disjoint", "asterisk"]
            ));
        }
        if rng.below(3) == 0 {
            keys["level"] = json!(pick(rng, &["easy", "medium", "hard", "fiendish"]));
        }
        return (route.into(), keys);
    }
    let (mut keys, n) = puzzle_keys(rng);
    match route {
        "solve" => {
            keys["engine"] = json!(pick(
                rng,
                &["fast", "moler", "octave", "fallin", "kronecker", "gubin"]
            ));
            if rng.below(4) == 0 {
                keys["pick"] = json!(pick(rng, &["first-min", "last-min", "first-empty"]));
            }
            if rng.below(4) == 0 {
                keys["max_steps"] = json!(rng.below(50));
            }
        }
        "count" => keys["limit"] = json!(rng.below(6)),
        "check" => keys["minimal"] = json!(rng.below(2) == 0),
        "hint" if rng.below(3) != 0 => keys["candidates"] = candidates(rng, n),
        _ => {}
    }
    (route.into(), keys)
}

#[test]
fn random_requests_never_panic_and_solutions_hold() {
    let budget = Budget::new(Duration::from_secs(2), 4);
    let mut rng = Rng::new(2026);
    let mut statuses = std::collections::BTreeMap::new();
    for _ in 0..400 {
        let (route, keys) = request(&mut rng);
        let body = keys.to_string();
        let answer = api::respond("POST", &format!("/api/{route}"), body.as_bytes(), &budget);
        *statuses.entry(answer.status).or_insert(0) += 1;
        assert_ne!(answer.status, 500, "{route} {body}: {}", answer.body);
        let a: Value = serde_json::from_str(&answer.body).expect("JSON");
        let shape = a["shape"].as_str().and_then(|s| s.parse::<Shape>().ok());
        let standard = keys.get("variant").is_none() && keys.get("regions").is_none();
        // Standard sudoku of the answer's shape (variants' houses are not checked here).
        if let (Some(puzzle), Some(solution), Some(shape), true) = (
            a["puzzle"].as_str(),
            a["solution"].as_str(),
            shape,
            standard,
        ) {
            let options = ReadOptions {
                shape: Some(shape),
                ..ReadOptions::default()
            };
            let p = parse_one(puzzle, &options)
                .expect("the puzzle reads back")
                .grid;
            let s = parse_one(solution, &options)
                .expect("the solution reads back")
                .grid;
            assert!(
                s.solves(&p),
                "{route} {body}: {solution} does not solve {puzzle}"
            );
        }
    }
    // Both kinds of answer came up: the test is not all refusals.
    assert!(statuses.get(&200).is_some_and(|&k| k > 100), "{statuses:?}");
    assert!(statuses.get(&400).is_some_and(|&k| k > 10), "{statuses:?}");
}
