//! Times digging large grids: `dig_timing SIDE SEEDS` draws a complete grid for each
//! seed `0..SEEDS`, digs it (no symmetry) and prints the time and the empty cells.
use std::sync::Arc;
use std::time::Instant;

use sudokit::generate::{Symmetry, dig, random_grid};
use sudokit::rng::Rng;
use sudokit::{Geometry, Grid};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: dig_timing SIDE SEEDS");
        std::process::exit(2);
    }
    let n: usize = args[1].parse().expect("a side");
    let seeds: u64 = args[2].parse().expect("a number of seeds");
    let g = Arc::new(Geometry::for_variant(n, None, &Default::default()).expect("a geometry"));
    let (mut total, mut empty) = (0.0, 0);
    for seed in 0..seeds {
        let mut rng = Rng::new(seed);
        let solution: Grid = random_grid(&g, &mut rng).expect("a complete grid");
        let start = Instant::now();
        let (puzzle, _) =
            dig(&solution, Symmetry::None, None, None, &mut rng).expect("no deadline");
        let took = start.elapsed().as_secs_f64();
        let blanks = puzzle.cells().iter().filter(|&&v| v == 0).count();
        println!("{n}x{n} seed {seed}: {took:.2} s, {blanks} empty cells");
        total += took;
        empty += blanks;
    }
    println!(
        "{n}x{n}: {seeds} digs, mean {:.2} s, {:.1} empty cells",
        total / seeds as f64,
        empty as f64 / seeds as f64
    );
}
