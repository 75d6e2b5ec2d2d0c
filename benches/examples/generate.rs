//! Generator throughput side by side, one thread, in one run: sudokit's `generate`
//! (minimal; rot180; each level; SE 7.0-8.0; 16x16) against the `sudoku` crate's
//! minimal generator and, when installed, qqwing (a separate process; its puzzles are
//! unique but not minimal).
//!
//! `cargo run --release -p sudokit-benches --example generate [-- --seconds S]`

use std::process::Command;
use std::time::Instant;

use sudokit::generate::{self, Options, Symmetry, Target};
use sudokit::logic::Level;
use sudokit::rng::Rng;
use sudokit::{Geometry, Shape};

/// Runs `make` until `seconds` have passed (at least `min` times); puzzles per second.
fn rate(seconds: f64, min: u32, mut make: impl FnMut(u64)) -> (f64, u32) {
    let start = Instant::now();
    let mut made = 0;
    while made < min || start.elapsed().as_secs_f64() < seconds {
        make(made as u64);
        made += 1;
    }
    (f64::from(made) / start.elapsed().as_secs_f64(), made)
}

fn ours(shape: Shape, symmetry: Symmetry, target: Target, seconds: f64) -> (f64, u32) {
    let g = Geometry::standard(shape);
    let accept = |p: &sudokit::Grid, _: &sudokit::Grid| target.check(p).0;
    let options = Options {
        symmetry,
        accept: (!target.is_any()).then_some(&accept as &generate::Accept),
        ..Options::default()
    };
    rate(seconds, 3, |i| {
        generate::generate(&g, &options, &mut Rng::new(i)).expect("a puzzle");
    })
}

fn qqwing(difficulty: &str, count: u32) -> Option<f64> {
    let start = Instant::now();
    let out = Command::new("qqwing")
        .args([
            "--generate",
            &count.to_string(),
            "--difficulty",
            difficulty,
            "--one-line",
        ])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| f64::from(count) / start.elapsed().as_secs_f64())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: f64 = args
        .iter()
        .position(|a| a == "--seconds")
        .map_or(2.0, |i| args[i + 1].parse().expect("seconds"));
    let row =
        |name: &str, (per_s, n): (f64, u32)| println!("{name:<34} {per_s:>10.1} /s  ({n} puzzles)");
    println!("{:<34} {:>12}", "generator (one thread)", "puzzles/s");
    row(
        "sudokit minimal 9x9",
        ours(Shape::CLASSIC, Symmetry::None, Target::default(), seconds),
    );
    row(
        "sudoku crate minimal 9x9",
        rate(seconds, 3, |_| {
            sudoku::Sudoku::generate_with_symmetry(sudoku::Symmetry::None);
        }),
    );
    row(
        "sudokit minimal rot180",
        ours(Shape::CLASSIC, Symmetry::Rot180, Target::default(), seconds),
    );
    row(
        "sudoku crate minimal rot180",
        rate(seconds, 3, |_| {
            sudoku::Sudoku::generate_with_symmetry(sudoku::Symmetry::HalfRotation);
        }),
    );
    for level in [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Unfair,
        Level::Extreme,
    ] {
        let target = Target {
            level: Some(level),
            ..Target::default()
        };
        row(
            &format!("sudokit --level {}", level.name()),
            ours(Shape::CLASSIC, Symmetry::None, target, seconds),
        );
    }
    let er = Target {
        er: Some((70, 80)),
        ..Target::default()
    };
    row(
        "sudokit --er 7.0..8.0",
        ours(Shape::CLASSIC, Symmetry::None, er, seconds),
    );
    row(
        "sudokit minimal 16x16",
        ours(
            Shape::new(4, 4).unwrap(),
            Symmetry::None,
            Target::default(),
            seconds,
        ),
    );
    for (difficulty, count) in [
        ("any", 200),
        ("simple", 10),
        ("easy", 50),
        ("intermediate", 30),
        ("expert", 50),
    ] {
        match qqwing(difficulty, count) {
            Some(r) => println!(
                "{:<34} {r:>10.1} /s  ({count} puzzles, not minimal)",
                format!("qqwing {difficulty}")
            ),
            None => println!("qqwing {difficulty}: not installed"),
        }
    }
}
