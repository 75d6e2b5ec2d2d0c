//! A profiling harness for the solving path as `compare` times it (streaming reader,
//! `Grid`, engine), with nothing else in the process: run it under `perf record` or
//! `valgrind --tool=callgrind` to see where an easy puzzle's time goes.
//! `cargo run --release -p sudokit-benches --example profile -- SET [LIMIT [ROUNDS]]`
//! (LIMIT: solutions to count up to, default 2; ROUNDS: passes over the set, default 20).

use sudokit::format::{ReadOptions, Reader};
use sudokit::solve::{self, Limits};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(set) = args.get(1) else {
        eprintln!("usage: profile SET [LIMIT [ROUNDS]]");
        std::process::exit(2);
    };
    let lines = sudokit_benches::load(set).unwrap_or_else(|| {
        eprintln!("missing data set {set}");
        std::process::exit(2);
    });
    let limit: u64 = args.get(2).map_or(2, |v| v.parse().expect("LIMIT"));
    let rounds: usize = args.get(3).map_or(20, |v| v.parse().expect("ROUNDS"));
    let mut solutions = 0;
    for _ in 0..rounds {
        let mut reader = Reader::new(ReadOptions::default());
        for (i, line) in lines.iter().enumerate() {
            reader.push(i + 1, line, &mut |r| {
                let grid = r.expect("valid puzzle").grid;
                solutions +=
                    solve::search(&grid, &Limits::solutions(limit), &mut |_| true).solutions;
            });
        }
    }
    println!("{solutions} solutions");
}
