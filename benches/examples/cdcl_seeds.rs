//! Decisions to a first solution of the gecode 25x25 puzzles, one clause-learning
//! solver per (puzzle, seed), no portfolio: how run times spread over decision orders.
//! `cargo run --release -p sudokit-benches --example cdcl_seeds -- [SEEDS [CAP [PUZZLES]]]`
//! (SEEDS: seeds 0..SEEDS, default 4; CAP: decisions, default 300000; PUZZLES: comma-
//! separated 1-based lines of `gecode-large/sudoku25.txt`, default all). Jobs run on
//! every core; each line is `puzzle seed decisions seconds`.

use std::sync::Mutex;
use std::time::Instant;

use sudokit::format::{ReadOptions, Reader};
use sudokit::solve::{Limits, cdcl};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seeds: u64 = args.get(1).map_or(4, |v| v.parse().expect("SEEDS"));
    let cap: u64 = args.get(2).map_or(300_000, |v| v.parse().expect("CAP"));
    let lines = sudokit_benches::load("gecode-large/sudoku25.txt").expect("data set");
    let mut grids = Vec::new();
    let mut reader = Reader::new(ReadOptions::default());
    for (i, line) in lines.iter().enumerate() {
        reader.push(i + 1, line, &mut |r| {
            grids.push(r.expect("valid puzzle").grid)
        });
    }
    let picked: Vec<usize> = match args.get(3) {
        Some(list) => list
            .split(',')
            .map(|v| v.parse().expect("PUZZLES"))
            .collect(),
        None => (1..=grids.len()).collect(),
    };
    let jobs: Mutex<Vec<(usize, u64)>> = Mutex::new(
        picked
            .iter()
            .flat_map(|&p| (0..seeds).map(move |s| (p, s)))
            .rev()
            .collect(),
    );
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let Some((p, seed)) = jobs.lock().unwrap().pop() else {
                        return;
                    };
                    let limits = Limits {
                        solutions: 1,
                        nodes: Some(cap),
                        deadline: None,
                    };
                    let start = Instant::now();
                    let r = cdcl::search_seeded(&grids[p - 1], &limits, seed);
                    let decisions = if r.solutions == 1 { r.guesses } else { 2 * cap };
                    println!(
                        "{p} {seed} {decisions} {:.2}",
                        start.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
}
