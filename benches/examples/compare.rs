//! Side-by-side throughput of sudokit's engine and the `sudoku` crate on every data set,
//! interleaved in one process: `cargo run --release -p sudokit-benches --example compare`.
//! Options: `--rounds N` (default 3), `--sets a,b`, `--limit N` puzzles per set.

use std::time::Instant;

use sudokit::format::{ReadOptions, Reader};
use sudokit::solve::{self, Limits};

/// Our full data path, as the CLI runs it: a streaming reader, a `Grid` per line, the
/// engine chosen by geometry.
fn ours(lines: &[String], limit: u64) -> (f64, u64, u64) {
    let start = Instant::now();
    let (mut solved, mut guesses) = (0, 0);
    let mut reader = Reader::new(ReadOptions::default());
    for (i, line) in lines.iter().enumerate() {
        reader.push(i + 1, line, &mut |r| {
            let grid = r.expect("valid puzzle").grid;
            let report = solve::search(&grid, &Limits::solutions(limit), &mut |_| true);
            solved += (report.solutions > 0) as u64;
            guesses += report.guesses;
        });
    }
    (start.elapsed().as_secs_f64(), solved, guesses)
}

fn crate_peer(lines: &[String], limit: usize) -> (f64, u64) {
    let start = Instant::now();
    let mut solved = 0;
    for line in lines {
        let s = sudoku::Sudoku::from_str_line(&line[..81]).expect("valid line");
        solved += (s.solutions_count_up_to(limit) > 0) as u64;
    }
    (start.elapsed().as_secs_f64(), solved)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let get = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .map(|i| args[i + 1].clone())
    };
    let rounds: usize = get("--rounds").map_or(3, |v| v.parse().unwrap());
    let max: usize = get("--limit").map_or(usize::MAX, |v| v.parse().unwrap());
    let sets: Vec<String> = get("--sets").map_or_else(
        || {
            sudokit_benches::SETS
                .iter()
                .map(|s| s.to_string())
                .collect()
        },
        |v| v.split(',').map(|s| s.to_string()).collect(),
    );
    println!(
        "| data set | mode | sudokit puzzles/s | sudoku crate puzzles/s | ratio | sudokit guesses/puzzle |"
    );
    println!("|---|---|---:|---:|---:|---:|");
    for set in &sets {
        let Some(mut lines) = sudokit_benches::load(set) else {
            eprintln!("missing data set {set}");
            continue;
        };
        lines.truncate(max);
        for (mode, limit) in [("unique", 2u64), ("first", 1)] {
            let (mut best_ours, mut best_peer) = (f64::MAX, f64::MAX);
            let mut g = 0;
            for _ in 0..rounds {
                let (t, solved_ours, guesses) = ours(&lines, limit);
                let (t2, solved_peer) = crate_peer(&lines, limit as usize);
                assert_eq!(solved_ours, solved_peer, "{set}: engines disagree");
                best_ours = best_ours.min(t);
                best_peer = best_peer.min(t2);
                g = guesses;
            }
            let n = lines.len() as f64;
            println!(
                "| {set} ({}) | {mode} | {:.0} | {:.0} | {:.2} | {:.1} |",
                lines.len(),
                n / best_ours,
                n / best_peer,
                best_peer / best_ours,
                g as f64 / n
            );
        }
    }
}
