//! `sudokit count`: the number of solutions of each puzzle, one record per puzzle in.
//!
//! With the fast engine the count never materialises solutions (empty standard grids
//! and Latin squares have methods of their own, [`solve::count_every_grid`]: the 9x9
//! grid's 6,670,903,752,021,072,936,960 by the band method; puzzles with many
//! solutions are counted row by row with memoisation: 283,576 for
//! `kron(eye(3),magic(3))` in milliseconds); a seed engine counts by running its
//! program to the end (Moler's `sudoku_all`).
//!
//! Line output: the puzzle, then the count (`1000+` when `--limit` or a time or node
//! limit cut it short). JSON Lines records, a contract:
//!
//! | key | meaning |
//! |---|---|
//! | `index` | 1-based number of the puzzle in the whole input |
//! | `file` | source name |
//! | `line` | 1-based line where the puzzle starts |
//! | `puzzle` | the puzzle on one line; null when unreadable |
//! | `count` | solutions found (all of them when `complete`); an integer that may pass 2^64 (the empty 9x9 grid); null when invalid |
//! | `complete` | false when `--limit`, `--timeout` or `--node-limit` stopped the count |
//! | `error` | why the puzzle is invalid, else null |
//! | `stats` | with `--stats`: the engine's statistics (see `sudokit solve`) |
//! | `trace` | with `--trace`: the engine's steps |
//!
//! `--essentially-different` counts, for an empty grid (of the shapes the band method
//! counts, or a Latin square up to order 8), its grids up to the shape's symmetries and
//! relabelling instead ([`classes::count_essentially_different`]: 5,472,730,538 for
//! 9x9); `count` is that number, and with `--stats` the key `burnside` gives the terms
//! of Burnside's average: `grids`, `symmetries`, `transposing`, `conjugates`,
//! `conjugacy_classes` and `invariants` (`[class size, invariant grids]` per class that
//! has any). `--main-classes` counts a Latin square's main classes
//! ([`classes::count_main_classes`]: 147 of order 7, 283,657 of order 8).
//!
//! Exit codes: 0 all counted (a `--limit` cut counts as done), 1 some puzzle hit a time
//! or node limit, 2 input errors.

use anyhow::Result;
use serde::Serialize;
use sudokit::engines::{Engine, Stats, Step};
use sudokit::format::SymbolStyle;
use sudokit::solve::classes::{self, Classes, ClassesError};
use sudokit::solve::{self, Stop};

use crate::batch::{self, Outcome, Status};
use crate::cli::{CountArgs, LimitArgs, OutputFormat};
use crate::commands::engine::{self, JsonStats, JsonStep};
use crate::input::{self, Item};
use crate::output::{self, RecordHead};

/// Runs `sudokit count`; returns the exit code.
pub fn run(args: CountArgs) -> Result<u8> {
    let engine = engine::engine(&args.engine)?;
    let sources = input::sources(&args.input.sources, None)?;
    let options = input::read_options(&args.input)?;
    let counter = Counter {
        engine,
        stats: args.engine.stats,
        trace: args.engine.trace,
        json: args.run.format == Some(OutputFormat::Json),
        style: options.symbols.clone(),
        limit: args.limit.unwrap_or(u64::MAX),
        limits: args.limits.clone(),
        comments: args.run.comments,
        classes: args.essentially_different.then_some(Symmetries {
            transposing: !args.no_transposing,
            conjugates: args.main_classes,
        }),
    };
    if counter.classes.is_some() && counter.engine != Engine::Fast {
        anyhow::bail!("--essentially-different counts with the fast engine's band method");
    }
    let mut out = output::stdout();
    batch::run_command(
        &sources,
        &options,
        &args.run,
        "counted",
        |item| counter.count(item),
        &mut out,
    )
}

struct Counter {
    engine: Engine,
    stats: bool,
    trace: bool,
    json: bool,
    style: SymbolStyle,
    limit: u64,
    limits: LimitArgs,
    comments: bool,
    /// `--essentially-different`: grids are counted up to these symmetries.
    classes: Option<Symmetries>,
}

/// The symmetries `--essentially-different` counts grids up to (besides relabelling).
struct Symmetries {
    transposing: bool,
    /// `--main-classes`: a Latin square's conjugates too.
    conjugates: bool,
}

#[derive(Serialize)]
struct JsonRecord<'a> {
    #[serde(flatten)]
    head: RecordHead<'a>,
    count: Option<u128>,
    complete: bool,
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<JsonStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<Vec<JsonStep>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    burnside: Option<JsonBurnside>,
}

/// With `--essentially-different --stats`: the terms of Burnside's average.
#[derive(Serialize)]
struct JsonBurnside {
    grids: u128,
    symmetries: u64,
    transposing: bool,
    conjugates: bool,
    conjugacy_classes: usize,
    /// `[class size, invariant grids of one member with a house reading 1..n]` for
    /// each class that has any, the identity first.
    invariants: Vec<(u64, u128)>,
}

impl From<Classes> for JsonBurnside {
    fn from(c: Classes) -> JsonBurnside {
        JsonBurnside {
            grids: c.grids,
            symmetries: c.symmetries,
            transposing: c.transposing,
            conjugates: c.conjugates,
            conjugacy_classes: c.conjugacy_classes,
            invariants: c.invariants,
        }
    }
}

/// A finished count, as [`Counter::render`] shows it.
struct Counted {
    count: u128,
    stop: Stop,
    stats: Stats,
    steps: Vec<Step>,
    line: usize,
    /// With `--essentially-different`: how the classes were counted.
    classes: Option<Classes>,
}

impl Counted {
    fn new(count: u128, stop: Stop, stats: Stats, line: usize) -> Counted {
        Counted {
            count,
            stop,
            stats,
            steps: Vec::new(),
            line,
            classes: None,
        }
    }
}

impl Counter {
    fn count(&self, item: &Item) -> Outcome {
        let record = match &item.record {
            Ok(r) => r,
            Err(e) => return self.render(item, None, Err((e.line, e.column, e.message.clone()))),
        };
        let grid = &record.grid;
        if let Some(c) = grid.first_conflict() {
            let column = record.column_of(c.second);
            return self.render(
                item,
                Some(grid),
                Err((record.line, column, output::conflict(&c, grid, &self.style))),
            );
        }
        if let Err(e) = self.engine.supports(grid.geometry()) {
            return self.render(item, Some(grid), Err((record.line, record.column, e)));
        }
        if let Some(symmetries) = &self.classes {
            return self.count_classes(item, grid, record.line, record.column, symmetries);
        }
        // One solution past the limit tells "exactly the limit" from "more": a puzzle
        // with two solutions under `--limit 2` counts 2, not 2+.
        let limits = self.limits.for_puzzle(self.limit).one_past();
        // Empty grids, and Latin squares up to order 8 with givens in few lines, have
        // methods of their own, whose counts (the 9x9 grid's) can exceed any limit: used only when no
        // limit asks for less.
        if self.engine == Engine::Fast && self.limit == u64::MAX {
            if let Some((n, stop)) = solve::count_by_method(grid, limits.deadline) {
                let stats = Stats {
                    guesses: Some(0),
                    ..Stats::default()
                };
                return self.render(
                    item,
                    Some(grid),
                    Ok(Counted::new(n, stop, stats, record.line)),
                );
            }
        }
        let (report, stats, steps) = if self.engine == Engine::Fast {
            let report = solve::count(grid, &limits);
            let stats = Stats {
                guesses: Some(report.guesses),
                ..Stats::default()
            };
            (report, stats, Vec::new())
        } else {
            let (outcome, steps) =
                engine::run(self.engine, grid, &limits, self.trace, &mut |_, _| true);
            (outcome.report, outcome.stats, steps)
        };
        let report = report.capped(self.limit);
        let counted = Counted {
            steps,
            ..Counted::new(report.solutions.into(), report.stop, stats, record.line)
        };
        self.render(item, Some(grid), Ok(counted))
    }

    /// `--essentially-different`: the grid must be empty.
    fn count_classes(
        &self,
        item: &Item,
        grid: &sudokit::Grid,
        line: usize,
        column: usize,
        symmetries: &Symmetries,
    ) -> Outcome {
        if grid.filled() != 0 {
            let message = "--essentially-different counts the grids of an empty grid";
            return self.render(item, Some(grid), Err((line, column, message.to_string())));
        }
        let deadline = self.limits.for_puzzle(u64::MAX).deadline;
        let stats = Stats::default();
        let counted = if symmetries.conjugates {
            classes::count_main_classes(grid.geometry(), deadline)
        } else {
            classes::count_essentially_different(grid.geometry(), symmetries.transposing, deadline)
        };
        match counted {
            Ok(classes) => {
                let counted = Counted {
                    classes: Some(classes.clone()),
                    ..Counted::new(classes.classes, Stop::Exhausted, stats, line)
                };
                self.render(item, Some(grid), Ok(counted))
            }
            Err(ClassesError::Timeout) => self.render(
                item,
                Some(grid),
                Ok(Counted::new(0, Stop::Timeout, stats, line)),
            ),
            Err(e) => self.render(item, Some(grid), Err((line, column, e.to_string()))),
        }
    }

    fn render(
        &self,
        item: &Item,
        puzzle: Option<&sudokit::Grid>,
        result: Result<Counted, (usize, usize, String)>,
    ) -> Outcome {
        let shown = puzzle.map(|p| output::line(p, &self.style));
        match result {
            Err((line, column, message)) => {
                let text = if self.json {
                    json(&JsonRecord {
                        head: RecordHead::new(item, line, shown),
                        count: None,
                        complete: false,
                        error: Some(&message),
                        stats: None,
                        trace: None,
                        burnside: None,
                    })
                } else {
                    format!(
                        "{} # error: {message}\n",
                        shown.unwrap_or_else(|| item.text.clone())
                    )
                };
                Outcome {
                    text,
                    status: Status::Invalid,
                    diagnostic: Some(format!("{}:{line}:{column}: {message}", item.source)),
                }
            }
            Ok(Counted {
                count,
                stop,
                stats,
                steps,
                line,
                classes,
            }) => {
                let complete = stop == Stop::Exhausted;
                let status = match stop {
                    Stop::NodeLimit | Stop::Timeout => Status::Timeout,
                    _ => Status::Solved,
                };
                let geometry = puzzle.expect("a counted puzzle").geometry();
                let text = if self.json {
                    json(&JsonRecord {
                        head: RecordHead::new(item, line, shown),
                        count: Some(count),
                        complete,
                        error: None,
                        stats: self.stats.then(|| JsonStats::from(&stats)),
                        trace: self.trace.then(|| engine::json_trace(&steps, geometry)),
                        burnside: classes.filter(|_| self.stats).map(JsonBurnside::from),
                    })
                } else {
                    let mut text = engine::trace_text(&steps, geometry);
                    let body = format!(
                        "{} {count}{}",
                        shown.unwrap_or_default(),
                        if complete { "" } else { "+" }
                    );
                    text.push_str(&output::with_comments(item, body, self.comments));
                    if status == Status::Timeout {
                        text.push_str(" # timeout");
                    } else if let Some(classes) = classes.filter(|_| self.stats) {
                        text.push_str(&format!(
                            " # grids {}, symmetries {} ({}), conjugacy classes {}, {} with invariant grids",
                            classes.grids,
                            classes.symmetries,
                            match (classes.conjugates, classes.transposing) {
                                (true, _) => "with conjugates",
                                (false, true) => "with transposing",
                                (false, false) => "without transposing",
                            },
                            classes.conjugacy_classes,
                            classes.invariants.len(),
                        ));
                    } else if self.stats {
                        text.push_str(&format!(" # {}", engine::stats_text(&stats)));
                    }
                    text.push('\n');
                    text
                };
                Outcome {
                    text,
                    status,
                    diagnostic: None,
                }
            }
        }
    }
}

fn json(record: &impl Serialize) -> String {
    let mut text = serde_json::to_string(record).expect("records serialise");
    text.push('\n');
    text
}
