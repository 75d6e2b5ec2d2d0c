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
    for file in &args.files {
        let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))?;
        let lines: Vec<&str> = text.lines().collect();
        for &mode in &args.modes {
            let limit = match mode {
                BenchMode::First => 1,
                BenchMode::Unique => 2,
            };
            let mut best = f64::MAX;
            let (mut puzzles, mut guesses) = (0u64, 0u64);
            for _ in 0..args.rounds.max(1) {
                let start = Instant::now();
                puzzles = 0;
                guesses = 0;
                let mut reader = Reader::new(options.clone());
                for (i, line) in lines.iter().enumerate() {
                    reader.push(i + 1, line, &mut |r| {
                        if let Ok(record) = r {
                            let report =
                                solve::search(&record.grid, &Limits::solutions(limit), &mut |_| {
                                    true
                                });
                            puzzles += 1;
                            guesses += report.guesses;
                        }
                    });
                }
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
    Ok(0)
}
