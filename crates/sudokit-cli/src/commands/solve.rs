//! `sudokit solve`: one record out per puzzle in, in input order.
//!
//! JSON Lines records (`--format json`), a contract other tools rely on:
//!
//! | key | meaning |
//! |---|---|
//! | `index` | 1-based number of the puzzle in the whole input |
//! | `file` | source name (`<stdin>`, a path, a built-in name) |
//! | `line` | 1-based line where the puzzle (or the error) starts |
//! | `id` | text before the puzzle on its line, when present |
//! | `puzzle` | the puzzle, normalised to one line (`.` = empty); null when unreadable |
//! | `shape` | geometry, e.g. `3x3`, `latin 5`, `jigsaw 9 x` |
//! | `variant` | the variant when not plain sudoku: `x`, `windoku`, `jigsaw`, `latin`, ... |
//! | `status` | `solved`, `unsolvable`, `invalid`; with `--unique` also `multiple`; with limits `timeout` |
//! | `solution` | the solution on one line, or null |
//! | `solutions` | with `--unique`: 1, or 2 meaning "at least two" |
//! | `guesses` | search nodes used |
//! | `error` | why the puzzle is `invalid` (syntax or conflicting givens), else null |
//! | `comment` | text after the puzzle on its line, when present |
//! | `stats` | with `--stats`: the engine's statistics (`steps`, `calls`, `max_depth`, `guesses`, `first_solution_call`, `first_solution_depth`, those that apply) |
//! | `trace` | with `--trace`: the engine's steps (see `commands::engine`) |
//!
//! `--engine` runs a seed document's program instead of the fast search (see
//! `sudokit::engines`); in the other formats `--stats` adds `# steps 50, ...` after the
//! solution and `--trace` puts the steps before it as comment lines.

use std::io::{self, IsTerminal};

use anyhow::Result;
use serde::Serialize;
use sudokit::engines::{Engine, Stats, Step};
use sudokit::solve::Stop;
use sudokit::{Grid, format::SymbolStyle};

use crate::batch::{self, Outcome, Status};
use crate::cli::{LimitArgs, OutputFormat, SolveArgs};
use crate::commands::engine::{self, JsonStats, JsonStep};
use crate::input::{self, Item};
use crate::output;

/// Runs `sudokit solve`; returns the exit code.
pub fn run(args: SolveArgs) -> Result<u8> {
    let builtin_example = args.input.sources.is_empty() && io::stdin().is_terminal();
    let sources = input::sources(&args.input.sources, Some("lo-shu"))?;
    let format = args.run.format.unwrap_or(if builtin_example {
        OutputFormat::Pretty
    } else {
        OutputFormat::Line
    });
    let options = input::read_options(&args.input)?;
    let solver = Solver {
        engine: engine::engine(&args.engine)?,
        stats: args.engine.stats,
        trace: args.engine.trace,
        unique: args.unique,
        format,
        style: options.symbols.clone(),
        comments: args.run.comments,
        limits: args.limits.clone(),
    };
    let mut out = output::stdout();
    if builtin_example {
        let b = sudokit::puzzles::builtin("lo-shu").expect("built-in example");
        writeln!(out, "{}: {}\n{}\n", b.name, b.source, b.note)?;
    }
    batch::run_command(
        &sources,
        &options,
        &args.run,
        "solved",
        |item| solver.solve(item),
        &mut out,
    )
}

use std::io::Write as _;

/// Solving options for one run.
struct Solver {
    engine: Engine,
    stats: bool,
    trace: bool,
    unique: bool,
    format: OutputFormat,
    style: SymbolStyle,
    comments: bool,
    limits: LimitArgs,
}

/// Everything known about one puzzle's result, before rendering.
struct Answer<'a> {
    puzzle: Option<&'a Grid>,
    status: Status,
    solution: Option<Grid>,
    solutions: Option<u64>,
    guesses: Option<u64>,
    error: Option<String>,
    line: usize,
    column: usize,
    stats: Option<Stats>,
    steps: Vec<Step>,
}

/// The JSON record of one puzzle (see the module documentation).
#[derive(Serialize)]
struct JsonRecord<'a> {
    index: u64,
    file: &'a str,
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a str>,
    puzzle: Option<String>,
    shape: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    regions: Option<String>,
    status: &'static str,
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<u64>,
    guesses: Option<u64>,
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    comment: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<JsonStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<Vec<JsonStep>>,
}

impl Solver {
    fn solve(&self, item: &Item) -> Outcome {
        let answer = match &item.record {
            Err(e) => Answer {
                puzzle: None,
                status: Status::Invalid,
                solution: None,
                solutions: None,
                guesses: None,
                error: Some(e.message.clone()),
                line: e.line,
                column: e.column,
                stats: None,
                steps: Vec::new(),
            },
            Ok(record) => self.answer(record),
        };
        self.render(item, &answer)
    }

    fn answer<'a>(&self, record: &'a sudokit::Record) -> Answer<'a> {
        let grid = &record.grid;
        let mut answer = Answer {
            puzzle: Some(grid),
            status: Status::Solved,
            solution: None,
            solutions: None,
            guesses: None,
            error: None,
            line: record.line,
            column: record.column,
            stats: None,
            steps: Vec::new(),
        };
        // The fast search finds conflicts by itself (checked below, only when it fails);
        // the seed engines assume consistent givens.
        if self.engine != Engine::Fast {
            if let Some(c) = grid.first_conflict() {
                answer.status = Status::Invalid;
                answer.error = Some(output::conflict(&c, grid, &self.style));
                answer.column = record.column_of(c.second);
                return answer;
            }
        }
        if let Err(e) = self.engine.supports(grid.geometry()) {
            answer.status = Status::Invalid;
            answer.error = Some(e);
            return answer;
        }
        let limits = self.limits.for_puzzle(if self.unique { 2 } else { 1 });
        let mut first: Option<Vec<u8>> = None;
        let (outcome, steps) =
            engine::run(self.engine, grid, &limits, self.trace, &mut |cells, _| {
                if first.is_none() {
                    first = Some(cells.to_vec());
                }
                true
            });
        let report = outcome.report;
        answer.stats = self.stats.then_some(outcome.stats);
        answer.steps = steps;
        answer.solution = first
            .map(|cells| Grid::from_cells(grid.geometry().clone(), cells).expect("solution fits"));
        answer.guesses = Some(report.guesses);
        answer.solutions = self.unique.then_some(report.solutions);
        // Conflicting givens leave no solution; only then is it worth naming them.
        if report.solutions == 0 {
            if let Some(c) = grid.first_conflict() {
                answer.status = Status::Invalid;
                answer.error = Some(output::conflict(&c, grid, &self.style));
                answer.column = record.column_of(c.second);
                return answer;
            }
        }
        answer.status = match (report.stop, report.solutions) {
            (Stop::Timeout | Stop::NodeLimit, _) => Status::Timeout,
            (_, 0) => Status::Unsolvable,
            (_, n) if self.unique && n >= 2 => Status::Multiple,
            _ => Status::Solved,
        };
        answer
    }

    fn render(&self, item: &Item, a: &Answer) -> Outcome {
        let diagnostic = a
            .error
            .as_ref()
            .map(|e| format!("{}:{}:{}: {}", item.source, a.line, a.column, e));
        let error = a.error.as_deref().unwrap_or("invalid");
        let trace = a
            .puzzle
            .map(|p| engine::trace_text(&a.steps, p.geometry()))
            .unwrap_or_default();
        let stats = a
            .stats
            .as_ref()
            .map(|s| format!(" # {}", engine::stats_text(s)))
            .unwrap_or_default();
        let text = match self.format {
            OutputFormat::Json => self.json(item, a),
            OutputFormat::Line => {
                let shown = match (&a.solution, a.puzzle) {
                    (Some(s), _) if a.status != Status::Timeout => output::line(s, &self.style),
                    (_, Some(p)) => output::line(p, &self.style),
                    (_, None) => item.text.clone(),
                };
                let body = output::with_comments(item, shown, self.comments);
                let note = match a.status {
                    Status::Solved => None,
                    Status::Multiple => Some("multiple solutions".to_string()),
                    Status::Unsolvable => Some("no solution".to_string()),
                    Status::Timeout => Some("timeout".to_string()),
                    Status::Invalid => Some(format!("error: {error}")),
                };
                let stats = a.stats.as_ref().map(engine::stats_text);
                let comment: Vec<String> = note.into_iter().chain(stats).collect();
                if comment.is_empty() {
                    format!("{trace}{body}\n")
                } else {
                    format!("{trace}{body} # {}\n", comment.join("; "))
                }
            }
            OutputFormat::Matrix => {
                let head = format!(
                    "# {} {}:{} {}",
                    item.index,
                    item.source,
                    a.line,
                    a.status.name()
                );
                match (a.solution.as_ref().or(a.puzzle), &a.error) {
                    (Some(g), None) => {
                        format!("{trace}{head}{stats}\n{}\n", sudokit::format::to_matrix(g))
                    }
                    _ => format!("{head}: {error}\n\n"),
                }
            }
            OutputFormat::Pretty => {
                let head = format!(
                    "# {} {}:{} {}",
                    item.index,
                    item.source,
                    a.line,
                    a.status.name()
                );
                match (a.puzzle, &a.error) {
                    (Some(p), None) => {
                        format!(
                            "{trace}{head}{stats}\n{}\n",
                            output::side_by_side(p, a.solution.as_ref(), &self.style)
                        )
                    }
                    _ => format!("{head}: {error}\n\n"),
                }
            }
        };
        Outcome {
            text,
            status: a.status,
            diagnostic,
        }
    }

    fn json(&self, item: &Item, a: &Answer) -> String {
        let record = item.record.as_ref().ok();
        let json = JsonRecord {
            index: item.index,
            file: &item.source,
            line: a.line,
            id: record.map(|r| r.prefix.as_str()).filter(|s| !s.is_empty()),
            puzzle: a.puzzle.map(|p| output::line(p, &self.style)),
            shape: a.puzzle.map(|p| p.geometry().name()),
            variant: a.puzzle.and_then(output::variant_name),
            regions: a.puzzle.and_then(output::region_map),
            status: a.status.name(),
            solution: a.solution.as_ref().map(|s| output::line(s, &self.style)),
            solutions: a.solutions,
            guesses: a.guesses,
            error: a.error.as_deref(),
            comment: record.map(|r| r.comment.as_str()).filter(|s| !s.is_empty()),
            stats: a.stats.as_ref().map(JsonStats::from),
            trace: (self.trace && a.puzzle.is_some())
                .then(|| engine::json_trace(&a.steps, a.puzzle.expect("puzzle").geometry())),
        };
        let mut text = serde_json::to_string(&json).expect("records serialise");
        text.push('\n');
        text
    }
}
