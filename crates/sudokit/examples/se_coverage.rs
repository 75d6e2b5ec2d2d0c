//! Logic coverage and speed on a file of puzzles (one per line, `#` comments): how many
//! Sudoku Explainer's path solves (no brute force), the ER distribution, and the time
//! per puzzle.
//!
//! ```text
//! cargo run --release -p sudokit --example se_coverage -- FILE [--limit N] [--threads T] [--each]
//! ```

use std::time::Instant;

use sudokit::format::parse_grid;
use sudokit::logic::State;
use sudokit::logic::se::{self, Options};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = args
        .first()
        .expect("usage: se_coverage FILE [--limit N] [--threads T]");
    let opt = |name: &str, default: usize| {
        args.iter()
            .position(|a| a == name)
            .map_or(default, |i| args[i + 1].parse().expect("number"))
    };
    let (limit, threads) = (opt("--limit", usize::MAX), opt("--threads", 1));
    let each = args.iter().any(|a| a == "--each");
    let text = std::fs::read_to_string(file).expect("readable file");
    let puzzles: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(limit)
        .collect();
    let start = Instant::now();
    let chunk = puzzles.len().div_ceil(threads.max(1)).max(1);
    let results: Vec<(Option<u16>, u128, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = puzzles
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|p| {
                            let t = Instant::now();
                            let grid = parse_grid(&p[..81]).expect("puzzle");
                            let r = se::rate(&State::from_grid(&grid), &Options::default());
                            if each {
                                println!(
                                    "{} er={} solved={} {} ms",
                                    &p[..81],
                                    r.er,
                                    r.solved,
                                    t.elapsed().as_millis()
                                );
                            }
                            (
                                r.solved.then_some(r.er),
                                t.elapsed().as_micros(),
                                r.steps.len(),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    });
    let n = results.len();
    let solved = results.iter().filter(|r| r.0.is_some()).count();
    let mut times: Vec<u128> = results.iter().map(|r| r.1).collect();
    times.sort_unstable();
    let mut hist = std::collections::BTreeMap::new();
    for r in &results {
        *hist.entry(r.0.map(|e| e / 10)).or_insert(0) += 1;
    }
    println!(
        "puzzles {n}, solved by logic {solved} ({:.2}%)",
        100.0 * solved as f64 / n as f64
    );
    println!("ER by unit: {hist:?}");
    println!(
        "time: {:.1} s wall, median {} us, p90 {} us, max {} us per puzzle; {:.1} puzzles/s",
        start.elapsed().as_secs_f64(),
        times[n / 2],
        times[n * 9 / 10],
        times[n - 1],
        n as f64 / start.elapsed().as_secs_f64()
    );
}
