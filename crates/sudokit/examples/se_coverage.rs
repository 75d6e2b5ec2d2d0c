//! Logic coverage and speed on a file of puzzles (one per line, `#` comments): how many
//! Sudoku Explainer's path solves (no brute force), the ER distribution, and the time
//! per puzzle.
//!
//! ```text
//! cargo run --release -p sudokit --example se_coverage -- FILE [--limit N] [--every K] [--threads T] [--timeout SECS] [--each] [--no-helper]
//! ```
//!
//! `--timeout SECS` gives up on a puzzle after that long (counted apart, with the time
//! distribution of the puzzles that finished); `--every K` takes every K-th puzzle.
//! `--no-helper` keeps ratings from starting helper threads on idle cores
//! (`se::Options::helper`).

use std::time::{Duration, Instant};

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
    let every = opt("--every", 1);
    let timeout = args
        .iter()
        .position(|a| a == "--timeout")
        .map(|i| Duration::from_secs_f64(args[i + 1].parse().expect("seconds")));
    let each = args.iter().any(|a| a == "--each");
    let helper = !args.iter().any(|a| a == "--no-helper");
    let text = std::fs::read_to_string(file).expect("readable file");
    let puzzles: Vec<&str> = text
        .lines()
        .map(str::trim)
        // Puzzle lines start with 81 cells; anything shorter (a pasted summary) is not one.
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .step_by(every)
        .take(limit)
        .collect();
    let start = Instant::now();
    let chunk = puzzles.len().div_ceil(threads.max(1)).max(1);
    let results: Vec<(Option<u16>, u128, bool)> = std::thread::scope(|scope| {
        let handles: Vec<_> = puzzles
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|p| {
                            let t = Instant::now();
                            let grid = parse_grid(&p[..81]).expect("puzzle");
                            let opts = Options {
                                deadline: timeout.map(|d| t + d),
                                helper,
                                ..Options::default()
                            };
                            let r = se::rate(&State::from_grid(&grid), &opts);
                            if each {
                                println!(
                                    "{} er={} solved={}{} {} ms",
                                    &p[..81],
                                    r.er,
                                    r.solved,
                                    if r.timed_out { " timed out" } else { "" },
                                    t.elapsed().as_millis()
                                );
                            }
                            (
                                r.solved.then_some(r.er),
                                t.elapsed().as_micros(),
                                r.timed_out,
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
    let timed_out = results.iter().filter(|r| r.2).count();
    let mut times: Vec<u128> = results.iter().map(|r| r.1).collect();
    times.sort_unstable();
    if let Some(limit) = timeout {
        let mut done: Vec<u128> = results.iter().filter(|r| !r.2).map(|r| r.1).collect();
        done.sort_unstable();
        let within = |s: f64| done.iter().filter(|&&t| t as f64 <= s * 1e6).count();
        println!(
            "timed out after {:.1} s: {timed_out}; finished within 0.1 s {}, 1 s {}, 10 s {}, {:.1} s {}",
            limit.as_secs_f64(),
            within(0.1),
            within(1.0),
            within(10.0),
            limit.as_secs_f64(),
            done.len()
        );
    }
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
