//! Times the generator's complete grids: `grid_timing SIDE VARIANT SEEDS [REGIONS]`
//! (e.g. `grid_timing 64 standard 20`, `grid_timing 16 x,windoku 5`) draws one grid
//! for each seed `0..SEEDS`, checks it against every house, and prints the mean and
//! the slowest time.
use std::sync::Arc;
use std::time::Instant;

use sudokit::generate::random_grid;
use sudokit::rng::Rng;
use sudokit::variant::Variant;
use sudokit::{Geometry, Grid};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: grid_timing SIDE VARIANT SEEDS [REGIONS]");
        std::process::exit(2);
    }
    let n: usize = args[1].parse().expect("a side");
    let mut variant: Variant = args[2].parse().expect("a variant");
    let seeds: u64 = args[3].parse().expect("a number of seeds");
    if let Some(map) = args.get(4) {
        variant.regions = Some(Variant::parse_regions(map, n).expect("a region map"));
    }
    let g = Arc::new(Geometry::for_variant(n, None, &variant).expect("a geometry"));
    let (mut total, mut slowest) = (0.0f64, 0.0f64);
    for seed in 0..seeds {
        let start = Instant::now();
        let grid = random_grid(&g, &mut Rng::new(seed)).expect("a complete grid");
        let took = start.elapsed().as_secs_f64();
        assert!(
            grid.solves(&Grid::empty(g.clone())),
            "seed {seed}: not a grid"
        );
        total += took;
        slowest = slowest.max(took);
    }
    println!(
        "{n}x{n} {}: {seeds} grids, mean {:.4} s, slowest {:.4} s",
        args[2],
        total / seeds as f64,
        slowest
    );
}
