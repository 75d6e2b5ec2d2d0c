//! Solving throughput, sudokit against the `sudoku` crate in the same run, on every
//! 9x9 data set of `../shared/data`, in both modes ("unique" = count up to 2, "first" =
//! first solution). Each iteration parses and solves a fixed slice of the set, so
//! criterion's elements/s is puzzles/s.
//!
//! `cargo bench -p sudokit-benches --bench solve`; the `compare` example prints the same
//! comparison as a table with ratios.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudokit::format::{ReadOptions, Reader};
use sudokit::solve::{self, Limits};

/// Puzzles per iteration: enough for a stable figure, few enough for quick samples.
fn slice_len(set: &str) -> usize {
    if set.contains("hardest") { 300 } else { 3000 }
}

fn solving(c: &mut Criterion) {
    for &set in sudokit_benches::SETS {
        let Some(mut lines) = sudokit_benches::load(set) else {
            eprintln!("skipping {set}: data not found");
            continue;
        };
        lines.truncate(slice_len(set));
        let mut group = c.benchmark_group(set);
        group.throughput(Throughput::Elements(lines.len() as u64));
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(4));
        group.warm_up_time(Duration::from_secs(1));
        for (mode, limit) in [("unique", 2u64), ("first", 1)] {
            group.bench_function(format!("sudokit/{mode}"), |b| {
                b.iter(|| {
                    // The CLI's data path: one streaming reader, a Grid per line.
                    let mut reader = Reader::new(ReadOptions::default());
                    let mut solved = 0;
                    for (i, line) in lines.iter().enumerate() {
                        reader.push(i + 1, line, &mut |r| {
                            let grid = r.expect("valid puzzle").grid;
                            let report =
                                solve::search(&grid, &Limits::solutions(limit), &mut |_| true);
                            solved += (report.solutions > 0) as usize;
                        });
                    }
                    black_box(solved)
                })
            });
            group.bench_function(format!("sudoku-crate/{mode}"), |b| {
                b.iter(|| {
                    let mut solved = 0;
                    for line in &lines {
                        let s = sudoku::Sudoku::from_str_line(&line[..81]).expect("valid puzzle");
                        solved += (s.solutions_count_up_to(limit as usize) > 0) as usize;
                    }
                    black_box(solved)
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, solving);
criterion_main!(benches);
