//! Decisions and time of one CDCL solver per tie-break seed on every puzzle of a file of
//! `ID PUZZLE [SOLUTION]` lines: `cdcl_seeds FILE FIRST_SEED LAST_SEED [TIMEOUT_SECS]`.
use std::time::{Duration, Instant};

use sudokit::format::parse_grid;
use sudokit::solve::{Limits, cdcl};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("file");
    let first: u64 = args[2].parse().unwrap();
    let last: u64 = args[3].parse().unwrap();
    let timeout: f64 = args.get(4).map_or(60.0, |s| s.parse().unwrap());
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let puzzle = parse_grid(fields[1]).expect("puzzle");
        for seed in first..=last {
            let limits = Limits {
                solutions: 1,
                nodes: None,
                deadline: Some(Instant::now() + Duration::from_secs_f64(timeout)),
            };
            let start = Instant::now();
            let report = cdcl::search_seeded(&puzzle, &limits, seed);
            println!(
                "{} {} {} {:.3} {:?}",
                fields[0],
                seed,
                report.guesses,
                start.elapsed().as_secs_f64(),
                report.stop
            );
        }
    }
}
