//! Chi-square test of the grid samplers on the 288 complete 4x4 grids:
//! `uniformity [SAMPLES]`. Prints the statistic for `random_grid` and `uniform_grid`
//! (287 degrees of freedom: about 287 if uniform; 361 is the 0.1% critical value).
use std::collections::HashMap;

use sudokit::generate::{random_grid, uniform_grid};
use sudokit::rng::Rng;
use sudokit::solve::{Limits, search};
use sudokit::{Geometry, Grid, Shape};

fn main() {
    let samples: usize = std::env::args()
        .nth(1)
        .map_or(28_800, |s| s.parse().unwrap());
    let g = Geometry::standard(Shape::SHIDOKU);
    let mut all = Vec::new();
    search(
        &Grid::empty(g.clone()),
        &Limits::solutions(u64::MAX),
        &mut |s| {
            all.push(s.to_vec());
            true
        },
    );
    assert_eq!(all.len(), 288);
    fn transformed(g: &std::sync::Arc<Geometry>, rng: &mut Rng) -> Option<Grid> {
        let grid = random_grid(g, rng)?;
        let t = sudokit::Transform::random(Shape::SHIDOKU, &mut || rng.next_u64());
        t.apply(&grid).ok()
    }
    for (name, f) in [
        (
            "random_grid",
            random_grid as fn(&_, &mut Rng) -> Option<Grid>,
        ),
        ("random_grid + random symmetry", transformed),
        ("uniform_grid", uniform_grid),
    ] {
        let mut counts: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut rng = Rng::new(12345);
        for _ in 0..samples {
            let grid = f(&g, &mut rng).unwrap();
            *counts.entry(grid.cells().to_vec()).or_default() += 1;
        }
        let expected = samples as f64 / 288.0;
        let chi2: f64 = all
            .iter()
            .map(|c| {
                let k = *counts.get(c).unwrap_or(&0) as f64;
                (k - expected).powi(2) / expected
            })
            .sum();
        println!(
            "{name}: chi-square {chi2:.1} over 287 degrees of freedom ({} grids seen)",
            counts.len()
        );
    }
    let six = Geometry::standard(Shape::new(2, 3).unwrap());
    let start = std::time::Instant::now();
    let mut rng = Rng::new(1);
    for _ in 0..20 {
        uniform_grid(&six, &mut rng).unwrap();
    }
    println!("uniform_grid 6x6: {:?} per grid", start.elapsed() / 20);
}
