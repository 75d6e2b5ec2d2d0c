//! Rating throughput: Sudoku Explainer's path (ER/EP/ED) and the human path (explain,
//! HoDoKu level) on slices of the SE-rated sudoku-exchange collection, of top1465 and
//! of the forum's hardest (five puzzles, ~2 s an iteration). Each iteration rates a
//! fixed slice one puzzle at a time (a helper thread uses the idle core), so
//! criterion's elements/s is puzzles/s.
//!
//! `cargo bench -p sudokit-benches --bench logic`. The whole hardest set is measured
//! with the `se_coverage` example (minutes per run).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudokit::format::parse_grid;
use sudokit::logic::{self, State, se};

fn puzzles(name: &str, step: usize, limit: usize) -> Option<Vec<State>> {
    let text = std::fs::read_to_string(sudokit_benches::data_dir().join(name)).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .step_by(step)
            .take(limit)
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                let p = if f.len() >= 3 { f[1] } else { &f[0][..81] };
                State::from_grid(&parse_grid(p).expect("puzzle"))
            })
            .collect(),
    )
}

fn rating(c: &mut Criterion) {
    for (set, step, limit) in [
        ("sudoku-exchange/diabolical.txt", 400, 100),
        ("puzzles3_magictour_top1465", 15, 100),
        ("puzzles6_forum_hardest_1106", 75, 5),
    ] {
        let Some(states) = puzzles(set, step, limit) else {
            eprintln!("skipping {set}: data not found");
            continue;
        };
        let mut group = c.benchmark_group(set.replace('/', "-"));
        group.throughput(Throughput::Elements(states.len() as u64));
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(10));
        group.warm_up_time(Duration::from_secs(2));
        group.bench_function("se-path", |b| {
            b.iter(|| {
                let opts = se::Options::default();
                let total: u32 = states
                    .iter()
                    .map(|s| u32::from(se::rate(s, &opts).er))
                    .sum();
                black_box(total)
            })
        });
        group.bench_function("human-path", |b| {
            b.iter(|| {
                let steps: usize = states.iter().map(|s| logic::explain(s).steps.len()).sum();
                black_box(steps)
            })
        });
        group.finish();
    }
}

criterion_group!(benches, rating);
criterion_main!(benches);
