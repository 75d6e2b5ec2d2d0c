//! `sudokit explain`: the whole logical path of each puzzle, easiest step first, one
//! line per step (`--verbose`: the pencil marks before each step and a sentence after
//! it). A step that needs brute force says so. A source that is a pencil-mark grid (as
//! `hint` reads it) is explained from that state on (`puzzle` null in JSON unless
//! `--puzzle` names the puzzle the marks were made on).
//!
//! JSON Lines records (`--format json`), a contract other tools rely on:
//!
//! | key | meaning |
//! |---|---|
//! | `index` | 1-based number of the puzzle in the whole input |
//! | `file` | source name |
//! | `line` | 1-based line where the puzzle starts |
//! | `puzzle` | the puzzle on one line, or null when unreadable |
//! | `status` | `solved`, `unsolvable`, `multiple`, `invalid`, or `timeout` (stuck, or `--timeout` passed: `error` says so) |
//! | `error` | why the puzzle was not explained, else null |
//! | `steps` | the steps, in order (see below) |
//!
//! Each step: `technique` (stable kebab-case name: `hidden-single`, `x-wing`,
//! `forcing-net`...), `name` (display name), `rating` (Sudoku Explainer scale),
//! `placements` (`r3c9=5`), `eliminations` (`r5c3<>7`), the pattern: `digits`,
//! `cells`, `houses` (`r2`, `c5`, `b7`), `cover`, `fins`, `chain` (Eureka-style text or
//! null), and `line` (the short form) and `text` (a sentence).

use std::time::{Duration, Instant};

use anyhow::Result;
use serde::Serialize;
use sudokit::format::{self, SymbolStyle};
use sudokit::logic::step::Digits;
use sudokit::logic::{self, State, Step};
use sudokit::solve::{Limits, Verdict, unique_within};
use sudokit::{Geometry, Grid, Record};

use crate::batch::{self, Outcome, Status};
use crate::cli::{ExplainArgs, OutputFormat};
use crate::input::{self, Item, Source};
use crate::marks::{self, Input};
use crate::output::{self, RecordHead};

/// A step as JSON (see the module documentation).
#[derive(Serialize)]
pub struct StepJson {
    technique: &'static str,
    name: String,
    rating: f64,
    placements: Vec<String>,
    eliminations: Vec<String>,
    digits: Vec<u8>,
    cells: Vec<String>,
    houses: Vec<String>,
    cover: Vec<String>,
    fins: Vec<String>,
    chain: Option<String>,
    line: String,
    text: String,
}

impl StepJson {
    /// The JSON form of a step.
    pub fn new(step: &Step, g: &Geometry) -> StepJson {
        let houses = |hs: &[usize]| hs.iter().map(|&h| g.houses()[h].to_string()).collect();
        let cells = |cs: &[usize]| cs.iter().map(|&c| g.cell_name(c)).collect();
        StepJson {
            technique: step.technique.name(),
            name: step.title().to_string(),
            rating: step.rating_value(),
            placements: step.placement_strings(g),
            eliminations: step.elimination_strings(g),
            digits: step.digits.clone(),
            cells: cells(&step.cells),
            houses: houses(&step.houses),
            cover: houses(&step.cover),
            fins: cells(&step.fins),
            chain: (!step.chain.is_empty())
                .then(|| logic::step::chain_text(g, &step.chain, &step.strong)),
            line: step.line(g),
            text: step.sentence(g),
        }
    }
}

/// Why a puzzle cannot be explained or rated: the status, a message, and the column
/// of the fault (for one-line puzzles).
pub struct Refusal {
    /// Outcome status.
    pub status: Status,
    /// Message.
    pub message: String,
    /// 1-based column.
    pub column: usize,
}

/// The starting state of a puzzle, or why logic cannot start: conflicting givens, no
/// solution, or several solutions (uniqueness techniques would then be wrong).
pub fn prepare(
    record: &Record,
    style: &SymbolStyle,
    deadline: Option<Instant>,
) -> Result<(State, Grid), Refusal> {
    let grid = &record.grid;
    if let Some(c) = grid.first_conflict() {
        return Err(Refusal {
            status: Status::Invalid,
            message: output::conflict(&c, grid, style),
            column: record.column_of(c.second),
        });
    }
    let limits = Limits {
        deadline,
        ..Limits::solutions(2)
    };
    let Some(verdict) = unique_within(grid, &[], &limits) else {
        return Err(Refusal {
            status: Status::Timeout,
            message: "uniqueness not settled within --timeout".into(),
            column: record.column,
        });
    };
    match verdict {
        Verdict::None => Err(Refusal {
            status: Status::Unsolvable,
            message: "the puzzle has no solution".into(),
            column: record.column,
        }),
        Verdict::Multiple(_) => Err(Refusal {
            status: Status::Multiple,
            message: "the puzzle has several solutions; human techniques need a unique one".into(),
            column: record.column,
        }),
        Verdict::Unique(solution) => Ok((State::from_grid(grid), solution)),
    }
}

/// How `explain` writes its records.
struct Settings {
    format: OutputFormat,
    verbose: bool,
    comments: bool,
    style: SymbolStyle,
    timeout: Option<Duration>,
}

impl Settings {
    /// When the time for one puzzle or state started now runs out.
    fn deadline(&self) -> Option<Instant> {
        self.timeout.map(|t| Instant::now() + t)
    }
}

/// Runs `sudokit explain`; returns the exit code.
///
/// Puzzles are explained in parallel; when a source is a pencil-mark grid (a current
/// state), sources are answered in order one at a time, as `hint` does.
pub fn run(args: ExplainArgs) -> Result<u8> {
    let sources = input::sources(&args.input.sources, Some("lo-shu"))?;
    let options = input::read_options(&args.input)?;
    let settings = Settings {
        format: args.run.format.unwrap_or(if args.verbose {
            OutputFormat::Pretty
        } else {
            OutputFormat::Line
        }),
        verbose: args.verbose,
        comments: args.run.comments,
        style: options.symbols.clone(),
        timeout: args.timeout,
    };
    let givens = match &args.puzzle {
        Some(p) => Some(input::first_puzzle(p, &options)?.grid),
        None => None,
    };
    let inputs = marks::classify(sources, givens.is_some())?;
    let mut out = output::stdout();
    if inputs.iter().all(|i| matches!(i, Input::Puzzles(_))) {
        let sources: Vec<Source> = inputs
            .into_iter()
            .filter_map(|i| match i {
                Input::Puzzles(src) => Some(src),
                Input::Marks(..) => None,
            })
            .collect();
        return batch::run_command(
            &sources,
            &options,
            &args.run,
            "explained",
            |item| explain_item(item, &settings),
            &mut out,
        );
    }
    let puzzle = givens.as_ref().map(|g| output::line(g, &settings.style));
    marks::answer_in_order(
        inputs,
        &options,
        givens.as_ref(),
        &|item| explain_item(item, &settings),
        &|item, first, state| {
            let deadline = settings.deadline();
            match state.map(|s| (marks::solution(&s, deadline), s)) {
                Err(e) => refusal(
                    item,
                    settings.format,
                    None,
                    e.line,
                    e.column,
                    Status::Invalid,
                    &e.message,
                ),
                Ok((Err((status, message)), _)) => {
                    refusal(item, settings.format, None, first, 1, status, message)
                }
                Ok((Ok(solution), state)) => explain_state(
                    item,
                    first,
                    puzzle.clone(),
                    &state,
                    &solution,
                    &settings,
                    deadline,
                ),
            }
        },
    )
}

#[derive(Serialize)]
struct Record_<'a> {
    #[serde(flatten)]
    head: RecordHead<'a>,
    status: &'static str,
    error: Option<String>,
    steps: Vec<StepJson>,
}

/// The explanation of one puzzle read from a source, once it is proven unique.
fn explain_item(item: &Item, settings: &Settings) -> Outcome {
    let deadline = settings.deadline();
    let format = settings.format;
    let r = match &item.record {
        Err(e) => {
            return refusal(
                item,
                format,
                None,
                e.line,
                e.column,
                Status::Invalid,
                &e.message,
            );
        }
        Ok(r) => r,
    };
    match prepare(r, &settings.style, deadline) {
        Err(f) => refusal(
            item,
            format,
            Some(r),
            r.line,
            f.column,
            f.status,
            &f.message,
        ),
        Ok((state, solution)) => {
            let puzzle = output::line(&r.grid, &settings.style);
            explain_state(
                item,
                r.line,
                Some(puzzle),
                &state,
                &solution,
                settings,
                deadline,
            )
        }
    }
}

/// The explanation of a state whose solution is known: the puzzle of the record, when
/// there is one (a pencil-mark grid's records show its placed cells instead).
fn explain_state(
    item: &Item,
    line: usize,
    puzzle: Option<String>,
    state: &State,
    solution: &Grid,
    settings: &Settings,
    deadline: Option<Instant>,
) -> Outcome {
    // The deadline is checked between steps (one step of a large grid can take a while).
    let expired = || deadline.is_some_and(|d| Instant::now() > d);
    let path =
        logic::solver::explain_known(state, Some(solution.cells().to_vec()), &mut |_| expired());
    let timed_out = !path.solved && expired();
    let status = if path.solved {
        Status::Solved
    } else {
        Status::Timeout
    };
    let error = timed_out.then(|| format!("--timeout passed after {} steps", path.steps.len()));
    let g = state.geometry().clone();
    let (format, verbose) = (settings.format, settings.verbose);
    let text = match format {
        OutputFormat::Json => {
            let json = Record_ {
                head: RecordHead::new(item, line, puzzle),
                status: status.name(),
                error: error.clone(),
                steps: path.steps.iter().map(|st| StepJson::new(st, &g)).collect(),
            };
            format!(
                "{}\n",
                serde_json::to_string(&json).expect("records serialise")
            )
        }
        _ => {
            let puzzle = puzzle.unwrap_or_else(|| output::line(&state.grid(), &settings.style));
            let mut s = format!(
                "# {} {}:{} {} ({} steps)\n{}\n",
                item.index,
                item.source,
                line,
                status.name(),
                path.steps.len(),
                output::with_comments(item, puzzle, settings.comments)
            );
            let symbols = output::symbols(&settings.style, g.size());
            let mut replay = state.clone();
            for (i, st) in path.steps.iter().enumerate() {
                if verbose || format == OutputFormat::Pretty {
                    s.push('\n');
                    s.push_str(&format::to_pencilmarks(replay.candidates(), &symbols));
                }
                let digits = Digits::symbols(&symbols);
                s.push_str(&format!("{:>3}. {}\n", i + 1, st.line_in(&g, digits)));
                if verbose || format == OutputFormat::Pretty {
                    s.push_str(&format!("     {}\n", st.sentence_in(&g, digits)));
                }
                replay.apply(st);
            }
            match &error {
                Some(e) => s.push_str(&format!("stopped: {e}\n")),
                None if !path.solved => {
                    s.push_str("no further logical step: the puzzle is not solved\n")
                }
                None => {}
            }
            s
        }
    };
    Outcome {
        text,
        status,
        diagnostic: None,
    }
}

/// The outcome of a puzzle that could not be explained.
pub fn refusal(
    item: &Item,
    format: OutputFormat,
    record: Option<&Record>,
    line: usize,
    column: usize,
    status: Status,
    message: &str,
) -> Outcome {
    let diagnostic = Some(format!("{}:{}:{}: {}", item.source, line, column, message));
    let text = match format {
        OutputFormat::Json => {
            let json = Record_ {
                head: RecordHead::new(
                    item,
                    line,
                    record.map(|r| output::line(&r.grid, &SymbolStyle::Standard)),
                ),
                status: status.name(),
                error: Some(message.to_string()),
                steps: Vec::new(),
            };
            format!(
                "{}\n",
                serde_json::to_string(&json).expect("records serialise")
            )
        }
        _ => format!(
            "# {} {}:{} {}: {}\n",
            item.index,
            item.source,
            line,
            status.name(),
            message
        ),
    };
    Outcome {
        text,
        status,
        diagnostic,
    }
}
