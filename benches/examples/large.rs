//! The 25x25 gecode puzzles side by side: sudokit's engine (first solution, and unique
//! mode = count up to 2) against CaDiCaL on our own CNF export, one puzzle at a time.
//!
//! `cargo run --release -p sudokit-benches --example large [-- OPTIONS]` (the engine races
//! a portfolio on every core; under `taskset -c 1` it shares one)
//! Options: `--timeout SECS` per puzzle and run (default 60), `--only ID,ID`,
//! `--solver PATH` (default `cadical`; skipped when it cannot be started),
//! `--no-unique`, `--file PATH` (default `gecode-large/sudoku25.txt` in the data folder).
//!
//! CaDiCaL is a separate process (it inherits the CPU affinity): its time includes
//! reading the ~750,000-clause file, which is part of what using it costs; ours starts
//! from the parsed grid. Every solution, ours and the SAT solver's, is checked against
//! the rules and the givens, and against the known solution when the data set has one.

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sudokit::format::parse_grid;
use sudokit::solve::{self, Limits, Stop};
use sudokit::{Grid, cnf};

/// One timed run: seconds, and what it found (`None` when it ran out of time).
struct Run {
    secs: f64,
    solutions: Option<u64>,
}

impl Run {
    fn cell(&self) -> String {
        match self.solutions {
            Some(_) => format!("{:.3}", self.secs),
            None => format!(">{:.0}", self.secs),
        }
    }
}

fn ours(puzzle: &Grid, limit: u64, timeout: f64, id: &str) -> (Run, Option<Grid>) {
    let limits = Limits {
        solutions: limit,
        nodes: None,
        deadline: Some(Instant::now() + Duration::from_secs_f64(timeout)),
    };
    let mut first: Option<Vec<u8>> = None;
    let start = Instant::now();
    let report = solve::search(puzzle, &limits, &mut |cells| {
        first.get_or_insert_with(|| cells.to_vec());
        true
    });
    let secs = start.elapsed().as_secs_f64();
    let solution = first.map(|c| Grid::from_cells(puzzle.geometry().clone(), c).unwrap());
    if let Some(s) = &solution {
        assert!(
            s.solves(puzzle),
            "{id}: our solution breaks a rule or a given"
        );
    }
    let done = report.stop != Stop::Timeout;
    (
        Run {
            secs,
            solutions: done.then_some(report.solutions),
        },
        solution,
    )
}

/// Runs the SAT solver on the puzzle's CNF; `None` when it cannot be started.
fn sat(solver: &str, puzzle: &Grid, timeout: f64, id: &str) -> Option<(Run, Option<Grid>)> {
    let path = std::env::temp_dir().join(format!("sudokit-large-{}-{id}.cnf", std::process::id()));
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(cnf::to_dimacs(puzzle).as_bytes()))
        .expect("temporary CNF file");
    let start = Instant::now();
    let child = Command::new(solver)
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        let _ = std::fs::remove_file(&path);
        return None;
    };
    // Read the model on a thread so a large output cannot block the child.
    let mut stdout = child.stdout.take().expect("piped stdout");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).map(|_| text)
    });
    let deadline = start + Duration::from_secs_f64(timeout);
    let finished = loop {
        if child.try_wait().expect("wait for the solver").is_some() {
            break true;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break false;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let secs = start.elapsed().as_secs_f64();
    let text = reader.join().expect("reader thread").unwrap_or_default();
    let _ = std::fs::remove_file(&path);
    if !finished {
        return Some((
            Run {
                secs,
                solutions: None,
            },
            None,
        ));
    }
    if text.lines().any(|l| l.starts_with("s UNSATISFIABLE")) {
        return Some((
            Run {
                secs,
                solutions: Some(0),
            },
            None,
        ));
    }
    let model: String = text
        .lines()
        .filter(|l| l.starts_with("v "))
        .map(|l| &l[2..])
        .collect::<Vec<_>>()
        .join(" ");
    let grid = cnf::decode_model(puzzle, &model).expect("the solver's model is a full grid");
    assert!(grid.solves(puzzle), "{id}: {solver}'s model breaks a rule");
    Some((
        Run {
            secs,
            solutions: Some(1),
        },
        Some(grid),
    ))
}

/// Median, max and total of the runs (timeouts count at their time).
fn summary(runs: &[&Run]) -> [f64; 3] {
    let mut t: Vec<f64> = runs.iter().map(|r| r.secs).collect();
    t.sort_by(f64::total_cmp);
    let median = if t.len() % 2 == 1 {
        t[t.len() / 2]
    } else {
        (t[t.len() / 2 - 1] + t[t.len() / 2]) / 2.0
    };
    [median, t[t.len() - 1], t.iter().sum()]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let get = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .map(|i| args[i + 1].clone())
    };
    let timeout: f64 = get("--timeout").map_or(60.0, |v| v.parse().expect("seconds"));
    let solver = get("--solver").unwrap_or_else(|| "cadical".into());
    let only: Option<Vec<String>> = get("--only").map(|v| v.split(',').map(String::from).collect());
    let unique = !args.iter().any(|a| a == "--no-unique");
    let data = sudokit_benches::data_dir().join("gecode-large");
    let file = get("--file").map_or_else(|| data.join("sudoku25.txt"), Into::into);
    let Ok(text) = std::fs::read_to_string(&file) else {
        eprintln!("no data at {}: nothing to do", file.display());
        return;
    };
    let known: Vec<(String, String)> = std::fs::read_to_string(data.join("sudoku25-solutions.txt"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 3).then(|| (f[0].to_string(), f[2].to_string()))
        })
        .collect();

    println!(
        "| puzzle | sudokit first (s) | sudokit unique (s) | solutions | {solver} (s) | {solver} / sudokit first |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    let mut rows: Vec<(Run, Option<Run>, Option<Run>)> = Vec::new();
    let mut have_sat = true;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let id = fields[0];
        if only.as_ref().is_some_and(|o| !o.iter().any(|x| x == id)) {
            continue;
        }
        let puzzle = parse_grid(fields[1]).expect("a valid puzzle");
        let expected = known
            .iter()
            .find(|(k, _)| k == id)
            .map(|(_, s)| parse_grid(s).expect("a valid solution"));
        let (first, solution) = ours(&puzzle, 1, timeout, id);
        let uniq = unique.then(|| ours(&puzzle, 2, timeout, id).0);
        let peer = if have_sat {
            sat(&solver, &puzzle, timeout, id)
        } else {
            None
        };
        have_sat = peer.is_some();
        for found in [solution.as_ref(), peer.as_ref().and_then(|p| p.1.as_ref())]
            .into_iter()
            .flatten()
        {
            if let Some(e) = &expected {
                assert_eq!(found, e, "{id}: not the known solution");
            }
        }
        let peer = peer.map(|p| p.0);
        let ratio = match &peer {
            Some(p) if p.solutions.is_some() && first.solutions.is_some() => {
                format!("{:.2}", p.secs / first.secs)
            }
            _ => "-".into(),
        };
        println!(
            "| {id} | {} | {} | {} | {} | {ratio} |",
            first.cell(),
            uniq.as_ref().map_or("-".into(), Run::cell),
            uniq.as_ref()
                .and_then(|u| u.solutions)
                .map_or("-".into(), |s| s.to_string()),
            peer.as_ref().map_or("-".into(), Run::cell),
        );
        rows.push((first, uniq, peer));
    }
    if rows.is_empty() {
        return;
    }
    if !have_sat {
        eprintln!("{solver} could not be started: SAT column skipped");
    }
    let firsts: Vec<&Run> = rows.iter().map(|r| &r.0).collect();
    let uniqs: Vec<&Run> = rows.iter().filter_map(|r| r.1.as_ref()).collect();
    let peers: Vec<&Run> = rows.iter().filter_map(|r| r.2.as_ref()).collect();
    let ours_s = summary(&firsts);
    let uniq_s = (uniqs.len() == rows.len()).then(|| summary(&uniqs));
    let peer_s = (peers.len() == rows.len()).then(|| summary(&peers));
    for (k, name) in ["median", "max", "total"].iter().enumerate() {
        let ratio = peer_s.map_or("-".into(), |p| format!("{:.2}", p[k] / ours_s[k]));
        println!(
            "| {name} | {:.3} | {} | | {} | {ratio} |",
            ours_s[k],
            uniq_s.map_or("-".into(), |u| format!("{:.3}", u[k])),
            peer_s.map_or("-".into(), |p| format!("{:.3}", p[k])),
        );
    }
    let timeouts = |runs: &[&Run]| runs.iter().filter(|r| r.solutions.is_none()).count();
    let faster = rows
        .iter()
        .filter(|r| r.2.as_ref().is_some_and(|p| p.secs > r.0.secs))
        .count();
    println!(
        "\n{} puzzles, timeout {timeout} s: sudokit timed out on {} (first) and {} (unique), {solver} on {}; sudokit first faster than {solver} on {faster}",
        rows.len(),
        timeouts(&firsts),
        timeouts(&uniqs),
        timeouts(&peers),
    );
}
