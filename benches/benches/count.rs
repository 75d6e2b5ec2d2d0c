//! Counting and enumerating, sudokit against the `sudoku` crate in the same run:
//!
//! * `kron`: all 283,576 solutions of `kron(eye(3),magic(3))` (REFERENCE.md: the crate
//!   51 ms, tdoku 65 ms; Moler's MATLAB "a little over half an hour");
//! * `six`: the 28,200,960 grids of the empty 6x6 (2x3 boxes), counted and enumerated
//!   (the crate has no 6x6);
//! * `empty`: every grid of a shape by `solve::count_every_grid`: 9x9 (the band method,
//!   6.67 x 10^21), 8x8 with 2x4 boxes (two bands, 2.9 x 10^16), Latin squares of order
//!   7 (meeting in the middle, 6.1 x 10^13); no peer counts these; and `classes`: essentially
//!   different 6x6 grids (49), Latin squares of order 7 up to isotopy (564) and their
//!   main classes (147);
//! * `check/<set>`: `sudokit check`'s work per puzzle (verdict by a count up to two, plus
//!   the singles test) against the crate's count up to two, on a slice of each data set.
//!
//! `cargo bench -p sudokit-benches --bench count`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudokit::check::{self, Options};
use sudokit::format::parse_grid;
use sudokit::solve::{self, Limits, classes};
use sudokit::{Geometry, Grid, Shape};

const KRON: &str =
    "816000000357000000492000000000816000000357000000492000000000816000000357000000492";

fn kron(c: &mut Criterion) {
    let grid = parse_grid(KRON).unwrap();
    let peer = sudoku::Sudoku::from_str_line(&KRON.replace('0', ".")).unwrap();
    let mut group = c.benchmark_group("kron");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(4));
    group.bench_function("sudokit/count", |b| {
        b.iter(|| black_box(solve::count_solutions(&grid, u64::MAX).count))
    });
    group.bench_function("sudoku-crate/count", |b| {
        b.iter(|| black_box(peer.solutions_count_up_to(usize::MAX)))
    });
    group.bench_function("sudokit/enumerate", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            solve::enumerate(&grid, &Limits::solutions(u64::MAX), &mut |s| {
                sum += s[80] as u64;
                true
            });
            black_box(sum)
        })
    });
    group.finish();
}

fn six(c: &mut Criterion) {
    let empty = Grid::empty(Geometry::standard(Shape::new(2, 3).unwrap()));
    let mut group = c.benchmark_group("six");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("sudokit/count", |b| {
        b.iter(|| black_box(solve::count_solutions(&empty, u64::MAX).count))
    });
    group.bench_function("sudokit/enumerate", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            solve::enumerate(&empty, &Limits::solutions(u64::MAX), &mut |s| {
                sum += s[35] as u64;
                true
            });
            black_box(sum)
        })
    });
    group.finish();
}

fn empty(c: &mut Criterion) {
    let latin = sudokit::Variant {
        latin: true,
        ..Default::default()
    };
    let grids = [
        ("9x9", Grid::empty(Geometry::classic())),
        (
            "8x8",
            Grid::empty(Geometry::standard(Shape::new(2, 4).unwrap())),
        ),
        (
            "latin-7",
            Grid::empty(std::sync::Arc::new(
                Geometry::for_variant(7, None, &latin).unwrap(),
            )),
        ),
    ];
    let mut group = c.benchmark_group("empty");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for (name, grid) in &grids {
        group.bench_function(format!("sudokit/{name}"), |b| {
            b.iter(|| black_box(solve::count_every_grid(grid, None)))
        });
    }
    group.finish();
    // Essentially different grids (Burnside over conjugacy classes): the small cases; 9x9
    // takes about 40 s (`time sudokit count --essentially-different`).
    let mut group = c.benchmark_group("classes");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for (name, geometry, transposing) in [
        ("6x6", Geometry::standard(Shape::new(2, 3).unwrap()), true),
        ("latin-7-isotopy", grids[2].1.geometry().clone(), false),
    ] {
        group.bench_function(format!("sudokit/{name}"), |b| {
            b.iter(|| {
                black_box(classes::count_essentially_different(
                    &geometry,
                    transposing,
                    None,
                ))
            })
        });
    }
    let latin = grids[2].1.geometry().clone();
    group.bench_function("sudokit/latin-7-main-classes", |b| {
        b.iter(|| black_box(classes::count_main_classes(&latin, None)))
    });
    group.finish();
}

fn checking(c: &mut Criterion) {
    for &set in sudokit_benches::SETS {
        let Some(mut lines) = sudokit_benches::load(set) else {
            eprintln!("skipping {set}: data not found");
            continue;
        };
        lines.truncate(if set.contains("hardest") { 300 } else { 3000 });
        let grids: Vec<Grid> = lines
            .iter()
            .map(|l| parse_grid(&l[..81]).unwrap())
            .collect();
        let mut group = c.benchmark_group(format!("check/{set}"));
        group.throughput(Throughput::Elements(lines.len() as u64));
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(4));
        group.bench_function("sudokit/check", |b| {
            b.iter(|| {
                let options = Options::default();
                black_box(
                    grids
                        .iter()
                        .filter(|g| check::check(g, &options).solution.is_some())
                        .count(),
                )
            })
        });
        group.bench_function("sudokit/count-to-2", |b| {
            b.iter(|| {
                black_box(
                    grids
                        .iter()
                        .map(|g| solve::count_solutions(g, 2).count)
                        .sum::<u64>(),
                )
            })
        });
        group.bench_function("sudoku-crate/count-to-2", |b| {
            b.iter(|| {
                black_box(
                    lines
                        .iter()
                        .map(|l| {
                            sudoku::Sudoku::from_str_line(&l[..81])
                                .unwrap()
                                .solutions_count_up_to(2)
                        })
                        .sum::<usize>(),
                )
            })
        });
        group.finish();
    }
}

criterion_group!(benches, kron, six, empty, checking);
criterion_main!(benches);
