//! `sudokit bench`: single-threaded solving throughput per file and mode, parsing
//! included (each line goes through the same reader as `solve`).

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use sudokit::format::{ReadOptions, Reader};
use sudokit::solve::{self, Limits};

use crate::cli::{BenchArgs, BenchMode};
use crate::output;

/// Runs `sudokit bench`.
pub fn run(args: BenchArgs) -> Result<u8> {
    let mut out = output::stdout();
    writeln!(
        out,
        "{:<40} {:>8} {:>7} {:>12} {:>10} {:>9}",
        "file", "puzzles", "mode", "puzzles/s", "us/puzzle", "guesses"
    )?;
    let options = ReadOptions {
        shape: args.shape,
        ..ReadOptions::default()
    };
    let mut bad_lines = 0;
    for file in &args.files {
        // Bytes that are not UTF-8 become bad characters of their line, as elsewhere.
        let bytes = std::fs::read(file).with_context(|| format!("cannot read {file}"))?;
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text.lines().collect();
        for &mode in &args.modes {
            let limit = match mode {
                BenchMode::First => 1,
                BenchMode::Unique => 2,
            };
            let mut best = f64::MAX;
            let (mut puzzles, mut guesses) = (0u64, 0u64);
            for round in 0..args.rounds {
                let start = Instant::now();
                puzzles = 0;
                guesses = 0;
                let mut reader = Reader::new(options.clone());
                // Bad lines are reported (once per file) and left out of the count.
                let mut take = |r: sudokit::format::ReadResult| match r {
                    Ok(record) => {
                        let report =
                            solve::search(&record.grid, &Limits::solutions(limit), &mut |_| true);
                        puzzles += 1;
                        guesses += report.guesses;
                    }
                    Err(e) if round == 0 && mode == args.modes[0] => {
                        eprintln!("{file}:{}:{}: {}", e.line, e.column, e.message);
                        bad_lines += 1;
                    }
                    Err(_) => {}
                };
                for (i, line) in lines.iter().enumerate() {
                    reader.push(i + 1, line, &mut take);
                }
                reader.finish(&mut take);
                best = best.min(start.elapsed().as_secs_f64());
            }
            if puzzles == 0 {
                bail!("{file}: no puzzles");
            }
            let mode = match mode {
                BenchMode::First => "first",
                BenchMode::Unique => "unique",
            };
            let name = std::path::Path::new(file)
                .file_name()
                .map_or_else(|| file.clone(), |n| n.to_string_lossy().into_owned());
            writeln!(
                out,
                "{:<40} {:>8} {:>7} {:>12.0} {:>10.2} {:>9.1}",
                name,
                puzzles,
                mode,
                puzzles as f64 / best,
                best * 1e6 / puzzles as f64,
                guesses as f64 / puzzles as f64
            )?;
            out.flush()?;
        }
    }
    Ok(if bad_lines > 0 { 2 } else { 0 })
}
