//! Agreement of our Sudoku Explainer rating (ER) with ratings SE gave: reads lines
//! `hash 81digits rating` (the sudoku-exchange collection, rated by Sukaku Explainer),
//! rates every puzzle by solving it (nothing is looked up), and prints the agreement
//! table (exact, within 0.1, within 0.5, off by more), Spearman's rank correlation and
//! the timing.
//!
//! ```text
//! cargo run --release -p sudokit --example se_agreement -- FILE [--limit N] [--every K] [--threads T] [--diff] [--out PATHS] [--no-helper]
//! ```
//!
//! `--every K` takes every K-th puzzle (a spread-out sample), `--diff` lists the
//! disagreements (puzzle, SE's ER, ours, and our hardest step). `--out PATHS` writes one
//! line per puzzle (ER, EP, ED and every step's rating, placements and eliminations) so
//! two builds can be compared with `diff`: a speed change must leave it identical.
//! `--no-helper` keeps ratings from starting helper threads on idle cores
//! (`se::Options::helper`).

use std::time::Instant;

use sudokit::format::parse_grid;
use sudokit::logic::State;
use sudokit::logic::se::{self, Options};

struct Row {
    puzzle: String,
    expected: u16,
    got: Option<u16>,
    hardest: String,
    micros: u128,
    path: String,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut file = None;
    let (mut limit, mut every, mut threads, mut diff) = (usize::MAX, 1usize, 2usize, false);
    let mut out: Option<String> = None;
    let mut opts = Options::default();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--limit" => {
                limit = args[i + 1].parse().expect("number");
                i += 1;
            }
            "--every" => {
                every = args[i + 1].parse().expect("number");
                i += 1;
            }
            "--threads" => {
                threads = args[i + 1].parse().expect("number");
                i += 1;
            }
            "--diff" => diff = true,
            "--out" => {
                out = Some(args[i + 1].clone());
                i += 1;
            }
            "--four-links" => opts.four_links = true,
            "--uvwxyz" => opts.uvwxyz = true,
            "--tuvwxyz" => opts.tuvwxyz = true,
            "--no-helper" => opts.helper = false,
            f => file = Some(f.to_string()),
        }
        i += 1;
    }
    let file =
        file.expect("usage: se_agreement FILE [--limit N] [--every K] [--threads T] [--diff]");
    let text = std::fs::read_to_string(&file).expect("readable file");
    let items: Vec<(String, u16)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .step_by(every)
        .take(limit)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let r: f64 = f[2].parse().expect("rating");
            (f[1].to_string(), (r * 10.0).round() as u16)
        })
        .collect();
    let start = Instant::now();
    let chunk = items.len().div_ceil(threads.max(1)).max(1);
    let mut rows: Vec<Row> = std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|(p, expected)| {
                            let t = Instant::now();
                            let grid = parse_grid(p).expect("puzzle");
                            let r = se::rate(&State::from_grid(&grid), &opts);
                            let hardest = r
                                .steps
                                .iter()
                                .max_by_key(|s| s.rating)
                                .map(|s| format!("{} {}", s.rating, s.title()))
                                .unwrap_or_default();
                            let micros = t.elapsed().as_micros();
                            let mut path = format!("{} {} {}", r.er, r.ep, r.ed);
                            for s in &r.steps {
                                path.push_str(&format!(
                                    " {:?}:{}:{:?}:{:?}",
                                    s.technique, s.rating, s.placements, s.eliminations
                                ));
                            }
                            Row {
                                puzzle: p.clone(),
                                expected: *expected,
                                got: r.solved.then_some(r.er),
                                hardest,
                                micros,
                                path,
                            }
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    });
    let secs = start.elapsed().as_secs_f64();
    if let Some(out) = &out {
        let text: String = rows
            .iter()
            .map(|r| format!("{} {}\n", r.puzzle, r.path))
            .collect();
        std::fs::write(out, text).expect("writable --out file");
    }
    let n = rows.len();
    let (mut exact, mut near, mut half, mut far) = (0, 0, 0, 0);
    for r in &rows {
        let got = r.got.unwrap_or(200) as i32;
        let d = (got - r.expected as i32).abs();
        if d == 0 {
            exact += 1;
        }
        if d <= 1 {
            near += 1;
        }
        if d <= 5 {
            half += 1;
        } else {
            far += 1;
        }
    }
    let pct = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
    println!("puzzles          {n}");
    println!("exact            {exact:>6}  {:6.2}%", pct(exact));
    println!("within 0.1       {near:>6}  {:6.2}%", pct(near));
    println!("within 0.5       {half:>6}  {:6.2}%", pct(half));
    println!("off by more      {far:>6}  {:6.2}%", pct(far));
    println!(
        "spearman         {:.4}",
        spearman(
            &rows.iter().map(|r| r.expected as f64).collect::<Vec<_>>(),
            &rows
                .iter()
                .map(|r| r.got.unwrap_or(200) as f64)
                .collect::<Vec<_>>()
        )
    );
    let mut times: Vec<u128> = rows.iter().map(|r| r.micros).collect();
    times.sort_unstable();
    println!(
        "time             {secs:.1} s wall, median {} us, p90 {} us, max {} us per puzzle; {:.1} puzzles/s",
        times[n / 2],
        times[n * 9 / 10],
        times[n - 1],
        n as f64 / secs
    );
    if diff {
        rows.sort_by_key(|r| (r.expected, r.got));
        for r in rows.iter().filter(|r| r.got != Some(r.expected)) {
            println!(
                "{} se={} ours={} [{}]",
                r.puzzle,
                r.expected,
                r.got.map_or("-".to_string(), |g| g.to_string()),
                r.hardest
            );
        }
    }
}

/// Spearman's rank correlation (average ranks for ties).
fn spearman(a: &[f64], b: &[f64]) -> f64 {
    fn ranks(v: &[f64]) -> Vec<f64> {
        let mut idx: Vec<usize> = (0..v.len()).collect();
        idx.sort_by(|&i, &j| v[i].partial_cmp(&v[j]).expect("numbers"));
        let mut r = vec![0.0; v.len()];
        let mut i = 0;
        while i < idx.len() {
            let mut j = i;
            while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
                j += 1;
            }
            let avg = (i + j) as f64 / 2.0 + 1.0;
            for k in i..=j {
                r[idx[k]] = avg;
            }
            i = j + 1;
        }
        r
    }
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let (mut num, mut da, mut db) = (0.0, 0.0, 0.0);
    for i in 0..a.len() {
        num += (ra[i] - ma) * (rb[i] - mb);
        da += (ra[i] - ma).powi(2);
        db += (rb[i] - mb).powi(2);
    }
    num / (da.sqrt() * db.sqrt())
}
