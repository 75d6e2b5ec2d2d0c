//! How long `n` (a new puzzle of a level) makes the player wait: seconds and candidate
//! puzzles per level and shape, over a few seeds.
//!
//! `cargo run --release -p sudokit-play --example levels [SHAPE...]` (default 3x3).

use std::time::Instant;

use sudokit::logic::Level;
use sudokit::rng::Rng;
use sudokit::{Geometry, Shape};
use sudokit_play::levels::{BUDGET, new_puzzle};

fn main() {
    let shapes: Vec<String> = std::env::args().skip(1).collect();
    let shapes = if shapes.is_empty() {
        vec!["3x3".to_string()]
    } else {
        shapes
    };
    for shape in shapes {
        let shape: Shape = shape.parse().expect("a shape RxC");
        let g = Geometry::standard(shape);
        for level in [
            Level::Easy,
            Level::Medium,
            Level::Hard,
            Level::Unfair,
            Level::Extreme,
        ] {
            let (mut exact, mut attempts, mut worst) = (0, 0, 0.0f64);
            let start = Instant::now();
            for seed in 0..5 {
                let t = Instant::now();
                let (made, got) = new_puzzle(&g, level, &mut Rng::new(seed), BUDGET).unwrap();
                exact += usize::from(got == level);
                attempts += made.attempts;
                worst = worst.max(t.elapsed().as_secs_f64());
            }
            println!(
                "{shape} {:8} exact {exact}/5  candidates {attempts:6}  total {:7.2}s  worst {:6.2}s",
                level.name(),
                start.elapsed().as_secs_f64(),
                worst
            );
        }
    }
}
