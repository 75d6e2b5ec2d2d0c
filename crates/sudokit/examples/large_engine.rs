//! Times one engine directly (no hand-over) on a file of `ID PUZZLE [SOLUTION]` lines
//! (the gecode-large sets): `large_engine FILE [cdcl|general] [LIMIT] [TIMEOUT_SECS]`.
//! Every solution is verified, and compared with the file's solution when it has one.
//! The side-by-side benchmark against CaDiCaL is `sudokit-benches`' `large` example.
use std::time::{Duration, Instant};

use sudokit::format::parse_grid;
use sudokit::solve::{Limits, cdcl, general};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("file");
    let engine = args.get(2).map_or("cdcl", |s| s.as_str());
    let limit: u64 = args.get(3).map_or(2, |s| s.parse().unwrap());
    let timeout: f64 = args.get(4).map_or(30.0, |s| s.parse().unwrap());
    let mut times = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let puzzle = parse_grid(fields[1]).expect("puzzle");
        let expected = fields.get(2).and_then(|s| parse_grid(s).ok());
        let limits = Limits {
            solutions: limit,
            nodes: None,
            deadline: Some(Instant::now() + Duration::from_secs_f64(timeout)),
        };
        let mut first = None;
        let start = Instant::now();
        let mut check = |cells: &[u8]| {
            let g = sudokit::Grid::from_cells(puzzle.geometry().clone(), cells.to_vec()).unwrap();
            assert!(g.solves(&puzzle), "invalid solution for {}", fields[0]);
            first.get_or_insert(g);
            true
        };
        let report = match engine {
            "general" => general::search(&puzzle, &limits, &mut check),
            _ => cdcl::search(&puzzle, &limits, &mut check),
        };
        let t = start.elapsed().as_secs_f64();
        times.push(t);
        if let (Some(e), Some(f)) = (&expected, &first) {
            if limit == 1 || report.solutions == 1 {
                assert_eq!(e, f, "{}: different solution", fields[0]);
            }
        }
        println!(
            "{:>4} {:>8.3} s  solutions {} {:?}  decisions {}",
            fields[0], t, report.solutions, report.stop, report.guesses
        );
    }
    times.sort_by(f64::total_cmp);
    let total: f64 = times.iter().sum();
    println!(
        "total {total:.2} s, median {:.3} s, max {:.3} s",
        times[times.len() / 2],
        times[times.len() - 1]
    );
}
