//! `sudokit hint`: the next step for each puzzle, or for a current state given as a
//! pencil-mark grid or a 729-character candidates line (read whole; errors name the
//! line and column). When no technique applies the hint is a brute-force step, marked
//! as such.
//!
//! JSON Lines records (`--format json`), one per puzzle or pencil-mark grid in input
//! order: `index`, `file`, `line`, `puzzle` (null for a pencil-mark grid), `status` (`solved`
//! when a step was found, `unsolvable`, `multiple`, `invalid`, `timeout` when none or
//! when `--timeout` passed before uniqueness was settled),
//! `step` (as in `sudokit explain`, or null) and `error`.

use std::time::Instant;

use anyhow::Result;
use serde::Serialize;
use sudokit::Grid;
use sudokit::format::SymbolStyle;
use sudokit::logic::step::Digits;
use sudokit::logic::{self, State};

use crate::batch::{Outcome, Status};
use crate::cli::{HintArgs, OutputFormat};
use crate::commands::explain::{StepJson, prepare, refusal};
use crate::input::{self, Item};
use crate::marks;
use crate::output::{self, RecordHead};

#[derive(Serialize)]
struct HintJson<'a> {
    #[serde(flatten)]
    head: RecordHead<'a>,
    status: &'static str,
    step: Option<StepJson>,
    error: Option<String>,
}

/// Runs `sudokit hint`; returns the exit code.
///
/// Sources are answered in order, one puzzle or pencil-mark grid at a time, numbered
/// across the whole input: a pencil-mark grid is one state (read whole), any other
/// source a stream of puzzles.
pub fn run(args: HintArgs) -> Result<u8> {
    let sources = input::sources(&args.input.sources, Some("lo-shu"))?;
    let options = input::read_options(&args.input)?;
    let format = args.format.unwrap_or(OutputFormat::Line);
    let deadline = || args.timeout.map(|t| Instant::now() + t);
    let givens = match &args.puzzle {
        Some(p) => Some(input::first_puzzle(p, &options)?.grid),
        None => None,
    };
    let inputs = marks::classify(sources, givens.is_some())?;
    marks::answer_in_order(
        inputs,
        &options,
        givens.as_ref(),
        &|item| hint_puzzle(item, format, &options.symbols, deadline()),
        &|item, first, state| match state {
            Err(e) => unreadable(item, format, &e),
            Ok(state) => hint_state(
                item,
                first,
                givens
                    .as_ref()
                    .map(|g| output::line(g, &SymbolStyle::Standard)),
                &state,
                format,
                &options.symbols,
                marks::solution(&state, deadline()),
            ),
        },
    )
}

/// The hint for one puzzle read from a source, once it is proven unique.
fn hint_puzzle(
    item: &Item,
    format: OutputFormat,
    style: &SymbolStyle,
    deadline: Option<Instant>,
) -> Outcome {
    let r = match &item.record {
        Err(e) => return unreadable(item, format, e),
        Ok(r) => r,
    };
    let puzzle = Some(output::line(&r.grid, style));
    match prepare(r, style, deadline) {
        Err(f) => refused(item, format, puzzle, r.line, f.column, f.status, &f.message),
        Ok((state, solution)) => {
            hint_state(item, r.line, puzzle, &state, format, style, Ok(solution))
        }
    }
}

/// The record of text that could not be read as a puzzle or pencil-mark grid.
fn unreadable(item: &Item, format: OutputFormat, e: &sudokit::format::ParseError) -> Outcome {
    refused(
        item,
        format,
        None,
        e.line,
        e.column,
        Status::Invalid,
        &e.message,
    )
}

/// A record for a puzzle that gets no hint (unreadable, no or several solutions, out of
/// time), with its diagnostic: the line as `explain` writes it, JSON as every hint.
#[allow(clippy::too_many_arguments)]
fn refused(
    item: &Item,
    format: OutputFormat,
    puzzle: Option<String>,
    line: usize,
    column: usize,
    status: Status,
    message: &str,
) -> Outcome {
    let mut outcome = refusal(item, format, None, line, column, status, message);
    if format == OutputFormat::Json {
        outcome.text = json_record(item, line, puzzle, status, None, Some(message.to_string()));
    }
    outcome
}

/// One JSON record of `hint`.
fn json_record(
    item: &Item,
    line: usize,
    puzzle: Option<String>,
    status: Status,
    step: Option<StepJson>,
    error: Option<String>,
) -> String {
    let json = HintJson {
        head: RecordHead::new(item, line, puzzle),
        status: status.name(),
        step,
        error,
    };
    format!(
        "{}\n",
        serde_json::to_string(&json).expect("records serialise")
    )
}

/// The hint for one state, given its solution (or the status and message of a state
/// without one).
fn hint_state(
    item: &Item,
    line: usize,
    puzzle: Option<String>,
    state: &State,
    format: OutputFormat,
    style: &SymbolStyle,
    solution: Result<Grid, (Status, &'static str)>,
) -> Outcome {
    let g = state.geometry().clone();
    let (step, status, refusal) = match solution {
        Err((status, message)) => (None, status, Some(message)),
        Ok(solution) => {
            let step = logic::hint_known(state, solution.cells());
            let status = if step.is_some() || state.is_solved() {
                Status::Solved
            } else if state.is_broken() {
                Status::Unsolvable
            } else {
                Status::Timeout
            };
            (step, status, None)
        }
    };
    let text = match format {
        OutputFormat::Json => json_record(
            item,
            line,
            puzzle,
            status,
            step.as_ref().map(|st| StepJson::new(st, &g)),
            refusal.map(str::to_string),
        ),
        _ => match &step {
            Some(st) => {
                // People read the step in the puzzle's own symbols (letters under
                // --symbols); JSON keeps numbers.
                let symbols = output::symbols(style, g.size());
                let digits = Digits::symbols(&symbols);
                format!(
                    "{}\n{}\n",
                    st.line_in(&g, digits),
                    st.sentence_in(&g, digits)
                )
            }
            None if state.is_solved() => "the puzzle is solved\n".to_string(),
            None if refusal.is_some() => format!("no step: {}\n", refusal.unwrap_or_default()),
            None => "no step: the candidates contradict each other\n".to_string(),
        },
    };
    Outcome {
        text,
        status,
        diagnostic: None,
    }
}
