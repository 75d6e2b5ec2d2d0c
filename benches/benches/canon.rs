//! Canonical forms per second, sudokit against the `sudoku` crate's `canonicalized()` in
//! the same run: 9x9 puzzles (a slice of the 17-clue set) and their solution grids. Each
//! iteration canonicalises the whole slice, so criterion's elements/s is forms/s.
//!
//! The crate canonicalises a puzzle through its solution (unique puzzles only); sudokit
//! works on the puzzle itself. `cargo bench -p sudokit-benches --bench canon`; the
//! `canon` example prints the same comparison as a table, on the whole set.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudokit::format::parse_grid;
use sudokit::{Grid, canon, solve};

const SLICE: usize = 2000;

fn canonical_forms(c: &mut Criterion) {
    let Some(mut lines) = sudokit_benches::load("puzzles2_17_clue") else {
        eprintln!("skipping: data not found");
        return;
    };
    lines.truncate(SLICE);
    let puzzles: Vec<Grid> = lines
        .iter()
        .map(|l| parse_grid(&l[..81]).unwrap())
        .collect();
    let grids: Vec<Grid> = puzzles.iter().map(|p| solve::solve(p).unwrap()).collect();
    let text = |set: &[Grid]| -> Vec<String> {
        set.iter()
            .map(|g| {
                g.cells()
                    .iter()
                    .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
                    .collect()
            })
            .collect()
    };
    for (name, ours, theirs) in [
        ("17-clue puzzles", &puzzles, text(&puzzles)),
        ("solution grids", &grids, text(&grids)),
    ] {
        let mut group = c.benchmark_group(format!("canon/{name}"));
        group.throughput(Throughput::Elements(ours.len() as u64));
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(4));
        group.warm_up_time(Duration::from_secs(1));
        group.bench_function("sudokit", |b| {
            b.iter(|| {
                let sum: u32 = ours
                    .iter()
                    .map(|g| canon::canonical(g).unwrap().grid.cells()[80] as u32)
                    .sum();
                black_box(sum)
            })
        });
        group.bench_function("sudoku-crate", |b| {
            b.iter(|| {
                let sum: u32 = theirs
                    .iter()
                    .map(|l| {
                        let s = sudoku::Sudoku::from_str_line(l).unwrap();
                        s.canonicalized()
                            .map_or(0, |(c, _)| c.to_bytes()[80] as u32)
                    })
                    .sum();
                black_box(sum)
            })
        });
        group.finish();
    }
}

criterion_group!(benches, canonical_forms);
criterion_main!(benches);
