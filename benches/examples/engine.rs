//! Runs only sudokit's classic engine over a data set (for profilers):
//! `engine SET [LIMIT_SOLUTIONS] [MAX_PUZZLES] [ROUNDS]`.

use std::time::Instant;

use sudokit::solve::{Limits, classic};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let set = args.get(1).map_or("puzzles2_17_clue", |s| s.as_str());
    let limit: u64 = args.get(2).map_or(2, |s| s.parse().unwrap());
    let max: usize = args.get(3).map_or(usize::MAX, |s| s.parse().unwrap());
    let rounds: usize = args.get(4).map_or(1, |s| s.parse().unwrap());
    let mut lines = sudokit_benches::load(set).expect("data set");
    lines.truncate(max);
    let puzzles: Vec<Vec<u8>> = lines
        .iter()
        .map(|l| {
            l.bytes()
                .take(81)
                .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
                .collect()
        })
        .collect();
    let mut best = f64::MAX;
    let (mut solutions, mut guesses) = (0, 0);
    for _ in 0..rounds {
        let start = Instant::now();
        solutions = 0;
        guesses = 0;
        for p in &puzzles {
            let r = classic::search(p, &Limits::solutions(limit), &mut |_| true);
            solutions += r.solutions;
            guesses += r.guesses;
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    let n = puzzles.len() as f64;
    println!(
        "{set}: {:.0} puzzles/s, {:.2} us/puzzle, {:.1} nodes/puzzle, {solutions} solutions",
        n / best,
        best * 1e6 / n,
        guesses as f64 / n
    );
}
