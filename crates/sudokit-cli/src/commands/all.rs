//! `sudokit all`: every solution of each puzzle, written as it is found (Moler's
//! `sudoku_all`). Output is streamed in constant memory, so the 28,200,960 grids of the
//! empty 6x6 puzzle go straight to the pipe; puzzles are processed one after another.
//!
//! Line output: one solution per line; with `--stats`, each line ends with the engine's
//! statistics at the moment the solution was found (`# steps 50, ...`: exercise 14.10's
//! step count per solution), and each puzzle ends with a comment line giving the count,
//! the mean step count and the final statistics. `--trace` interleaves the steps as
//! comment lines. JSON Lines: one record per solution,
//!
//! | key | meaning |
//! |---|---|
//! | `index` | 1-based number of the puzzle in the whole input |
//! | `solution` | 1-based number of the solution for this puzzle |
//! | `grid` | the solution on one line |
//! | `stats` | with `--stats`: the engine's statistics when it was found |
//!
//! then one record per puzzle: `index`, `file`, `line`, `puzzle`, `count`, `complete`
//! (false when `--limit` or `--timeout` stopped it), `error` (invalid input, else
//! null), and with `--stats` `stats` (final) and `mean_steps`. With `--trace`, steps
//! are records `{"index", "step": {...}}` (see `sudokit solve`).
//!
//! Exit codes: 0 every puzzle has a solution, 1 some has none (or timed out), 2 input
//! errors.

use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use serde::Serialize;
use sudokit::engines::{self, Engine, Hooks, Stats, Step};
use sudokit::format::SymbolStyle;
use sudokit::solve::{self, Limits, Stop};
use sudokit::{Grid, format};

use crate::cli::{AllArgs, OutputFormat};
use crate::commands::engine::{self, JsonStats};
use crate::input::{self, Item};
use crate::output::{self, RecordHead};

/// Runs `sudokit all`; returns the exit code.
pub fn run(args: AllArgs) -> Result<u8> {
    let engine = engine::engine(&args.engine)?;
    let sources = input::sources(&args.input.sources, None)?;
    let options = input::read_options(&args.input)?;
    let printer = Printer {
        engine,
        format: args.format.unwrap_or(OutputFormat::Line),
        stats: args.engine.stats,
        trace: args.engine.trace,
        style: options.symbols.clone(),
        limit: args.limit.unwrap_or(u64::MAX),
        timeout: args.timeout,
    };
    let mut out = output::stdout();
    let mut code = 0u8;
    let mut failure = None;
    input::read_items(
        &sources,
        &options,
        &mut |item| match printer.print(&item, &mut *out) {
            Ok(c) => {
                code = code.max(c);
                true
            }
            Err(e) => {
                failure = Some(e);
                false
            }
        },
    )?;
    if let Some(e) = failure {
        return Err(e);
    }
    out.flush()?;
    Ok(code)
}

struct Printer {
    engine: Engine,
    format: OutputFormat,
    stats: bool,
    trace: bool,
    style: SymbolStyle,
    limit: u64,
    timeout: Option<std::time::Duration>,
}

#[derive(Serialize)]
struct JsonSolution<'a> {
    index: u64,
    solution: u64,
    grid: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<JsonStats>,
}

#[derive(Serialize)]
struct JsonSummary<'a> {
    #[serde(flatten)]
    head: RecordHead<'a>,
    count: u64,
    complete: bool,
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<JsonStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mean_steps: Option<f64>,
}

#[derive(Serialize)]
struct JsonTraceStep<'a> {
    index: u64,
    step: &'a engine::JsonStep,
}

impl Printer {
    /// Prints the solutions of one puzzle; returns its exit code (0, 1 or 2).
    fn print(&self, item: &Item, out: &mut dyn Write) -> Result<u8> {
        let (record, error) = match &item.record {
            Ok(r) => {
                let g = &r.grid;
                let error = g
                    .first_conflict()
                    .map(|c| output::conflict(&c, g, &self.style))
                    .or_else(|| self.engine.supports(g.geometry()).err());
                (Some(r), error)
            }
            Err(e) => (None, Some(e.message.clone())),
        };
        if let Some(message) = error {
            let (line, column) = match (&item.record, record) {
                (Err(e), _) => (e.line, e.column),
                (_, Some(r)) => (r.line, output::error_column(r)),
                _ => (0, 0),
            };
            eprintln!("{}:{line}:{column}: {message}", item.source);
            if self.format == OutputFormat::Json {
                self.summary_json(
                    item,
                    line,
                    record.map(|r| &r.grid),
                    0,
                    false,
                    Some(&message),
                    None,
                    None,
                    out,
                )?;
            } else {
                writeln!(out, "# {}:{line}: error: {message}", item.source)?;
            }
            return Ok(2);
        }
        let record = record.expect("a readable puzzle");
        let grid = &record.grid;
        // One solution past the limit (found, not printed) tells "exactly the limit"
        // from "more", as for `count`.
        let limits = Limits {
            solutions: self.limit,
            nodes: None,
            deadline: self.timeout.map(|t| Instant::now() + t),
        }
        .one_past();
        let mut past_limit = false;
        let mut count = 0u64;
        let mut steps_sum = 0u64;
        let mut io_error = None;
        let mut text = String::new();
        let geometry = grid.geometry().clone();
        let mut emit = |cells: &[u8], stats: Option<&Stats>, out: &mut dyn Write| -> bool {
            if count == self.limit {
                past_limit = true;
                return false;
            }
            count += 1;
            if let Some(s) = stats.and_then(|s| s.steps) {
                steps_sum += s;
            }
            text.clear();
            self.solution_text(item.index, count, &geometry, cells, stats, &mut text);
            match out.write_all(text.as_bytes()) {
                Ok(()) => true,
                Err(e) => {
                    io_error = Some(e);
                    false
                }
            }
        };
        let (stop, final_stats) = if self.engine == Engine::Fast {
            let report = solve::enumerate(grid, &limits, &mut |cells| emit(cells, None, out));
            (
                report.stop,
                Stats {
                    guesses: Some(report.guesses),
                    ..Stats::default()
                },
            )
        } else {
            // Trace steps and solutions interleave: both write to `out` in order.
            let out_cell = std::cell::RefCell::new(&mut *out);
            let mut on_step = |s: &Step| {
                let line = match self.format {
                    OutputFormat::Json => {
                        let step = &engine::json_trace(std::slice::from_ref(s), &geometry)[0];
                        let mut l = serde_json::to_string(&JsonTraceStep {
                            index: item.index,
                            step,
                        })
                        .expect("steps serialise");
                        l.push('\n');
                        l
                    }
                    _ => engine::trace_line(s, &geometry),
                };
                let _ = out_cell.borrow_mut().write_all(line.as_bytes());
            };
            let stats_wanted = self.stats;
            let outcome = engines::run(
                self.engine,
                grid,
                &limits,
                Hooks {
                    on_solution: &mut |cells, stats| {
                        let mut o = out_cell.borrow_mut();
                        emit(cells, stats_wanted.then_some(stats), &mut **o)
                    },
                    on_step: if self.trace { Some(&mut on_step) } else { None },
                },
            );
            (outcome.report.stop, outcome.stats)
        };
        if let Some(e) = io_error {
            return Err(e.into());
        }
        let complete = stop == Stop::Exhausted && !past_limit;
        let mean = (self.stats && final_stats.steps.is_some() && count > 0)
            .then(|| steps_sum as f64 / count as f64);
        if self.format == OutputFormat::Json {
            self.summary_json(
                item,
                record.line,
                Some(grid),
                count,
                complete,
                None,
                self.stats.then_some(&final_stats),
                mean,
                out,
            )?;
        } else if self.stats {
            let mut line = format!(
                "# {}:{}: {count}{} solution{}",
                item.source,
                record.line,
                if complete { "" } else { "+" },
                if count == 1 { "" } else { "s" }
            );
            if let Some(m) = mean {
                line.push_str(&format!(", mean steps {m:.2}"));
            }
            let s = engine::stats_text(&final_stats);
            if !s.is_empty() {
                line.push_str(&format!("; {s}"));
            }
            writeln!(out, "{line}")?;
        }
        Ok(match stop {
            Stop::NodeLimit | Stop::Timeout => 1,
            _ if count == 0 => 1,
            _ => 0,
        })
    }

    /// One solution in the chosen format.
    fn solution_text(
        &self,
        index: u64,
        number: u64,
        geometry: &std::sync::Arc<sudokit::Geometry>,
        cells: &[u8],
        stats: Option<&Stats>,
        text: &mut String,
    ) {
        let symbols = output::symbols(&self.style, geometry.size());
        match self.format {
            OutputFormat::Json => {
                let grid: String = cells.iter().map(|&d| symbols.char(d)).collect();
                let mut line = serde_json::to_string(&JsonSolution {
                    index,
                    solution: number,
                    grid: &grid,
                    stats: stats.map(JsonStats::from),
                })
                .expect("solutions serialise");
                line.push('\n');
                text.push_str(&line);
            }
            OutputFormat::Line => {
                text.extend(cells.iter().map(|&d| symbols.char(d)));
                if let Some(s) = stats {
                    text.push_str(" # ");
                    text.push_str(&engine::stats_text_at_solution(s));
                }
                text.push('\n');
            }
            OutputFormat::Matrix | OutputFormat::Pretty => {
                let grid = Grid::from_cells(geometry.clone(), cells.to_vec()).expect("fits");
                text.push_str(&format!("# {index} solution {number}"));
                if let Some(s) = stats {
                    text.push_str(&format!(": {}", engine::stats_text_at_solution(s)));
                }
                text.push('\n');
                if self.format == OutputFormat::Matrix {
                    text.push_str(&format::to_matrix(&grid));
                } else {
                    text.push_str(&format::to_pretty(&grid, &symbols));
                }
                text.push('\n');
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn summary_json(
        &self,
        item: &Item,
        line: usize,
        puzzle: Option<&Grid>,
        count: u64,
        complete: bool,
        error: Option<&str>,
        stats: Option<&Stats>,
        mean_steps: Option<f64>,
        out: &mut dyn Write,
    ) -> Result<()> {
        let mut text = serde_json::to_string(&JsonSummary {
            head: RecordHead::new(item, line, puzzle.map(|p| output::line(p, &self.style))),
            count,
            complete,
            error,
            stats: stats.map(JsonStats::from),
            mean_steps,
        })
        .expect("records serialise");
        text.push('\n');
        out.write_all(text.as_bytes())?;
        Ok(())
    }
}
