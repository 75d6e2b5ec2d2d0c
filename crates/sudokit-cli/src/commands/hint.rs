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

use std::io::Read as _;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde::Serialize;
use sudokit::format::{SymbolStyle, looks_like_candidates, parse_candidates};
use sudokit::logic::step::Digits;
use sudokit::logic::{self, State};
use sudokit::solve::Verdict;
use sudokit::{Candidates, DigitSet, Grid};

use crate::batch::{self, Outcome, Status};
use crate::cli::{HintArgs, OutputFormat};
use crate::commands::explain::{StepJson, prepare, print, refusal};
use crate::input::{self, Item, Source};
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
    let mut code = 0u8;
    let mut index = 0u64;
    let mut answer = |outcome: Outcome| -> Result<()> {
        print(&outcome.text)?;
        if let Some(d) = &outcome.diagnostic {
            eprintln!("{d}");
        }
        code = code.max(outcome.status.exit_code());
        Ok(())
    };
    for src in sources {
        let text = match &src {
            Source::Text(_, t) => t.clone(),
            Source::File(path) => {
                std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?
            }
            Source::Stdin => {
                let mut t = String::new();
                std::io::stdin().read_to_string(&mut t)?;
                t
            }
        };
        if !looks_like_candidates(&text) {
            if args.puzzle.is_some() {
                bail!(
                    "--puzzle goes with pencil marks, and {} does not read as a pencil-mark \
                     grid (a group of candidates for each cell)",
                    src.name()
                );
            }
            let source = Source::Text(src.name().to_string(), text);
            let mut failed = None;
            input::read_items(&[source], &options, &mut |mut item| {
                index += 1;
                item.index = index;
                let outcome = hint_puzzle(&item, format, &options.symbols, deadline());
                failed = answer(outcome).err();
                failed.is_none() && !batch::interrupted()
            })?;
            if let Some(e) = failed {
                return Err(e);
            }
            continue;
        }
        index += 1;
        // The state's record names the line its grid starts on.
        let first = text
            .lines()
            .position(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .map_or(1, |i| i + 1);
        let item = Item {
            index,
            source: src.name().into(),
            record: Err(sudokit::format::ParseError {
                line: first,
                column: 1,
                message: String::new(),
            }),
            text: String::new(),
        };
        let outcome = match parse_candidates(&text, &options) {
            Err(e) => unreadable(&item, format, &e),
            Ok(cands) if let Some(message) = givens.as_ref().and_then(|g| misfit(g, &cands)) => {
                let e = sudokit::format::ParseError {
                    line: first,
                    column: 1,
                    message,
                };
                unreadable(&item, format, &e)
            }
            Ok(cands) => {
                let state = match &givens {
                    Some(g) => on_givens(g, cands),
                    None => State::from_candidates(cands),
                };
                // A typed pencil-mark grid may have lost its solution to a wrong
                // elimination, or allow several: then no technique's step can be trusted.
                let verdict = match state.is_solved() {
                    true => Some(Verdict::Unique(state.grid())),
                    false => logic::verdict_within(&state, deadline()),
                };
                hint_state(
                    &item,
                    first,
                    givens
                        .as_ref()
                        .map(|g| output::line(g, &SymbolStyle::Standard)),
                    &state,
                    format,
                    &options.symbols,
                    verdict,
                )
            }
        };
        answer(outcome)?;
    }
    Ok(if batch::interrupted() { 130 } else { code })
}

/// Why pencil marks cannot have been made on `puzzle`: another grid, or a given whose
/// digit its cell's marks leave out.
fn misfit(puzzle: &Grid, marks: &Candidates) -> Option<String> {
    let g = puzzle.geometry();
    if g.houses() != marks.geometry().houses() {
        return Some("the pencil marks do not fit the grid of --puzzle".into());
    }
    let c = (0..puzzle.cells().len())
        .find(|&c| puzzle.get(c) != 0 && !marks.get(c).contains(puzzle.get(c)))?;
    Some(format!(
        "{} is given {} in --puzzle, but its pencil marks leave it out",
        g.cell_name(c),
        puzzle.get(c)
    ))
}

/// The state of pencil marks made on `puzzle` (which [`misfit`] accepted): its givens
/// are placed (their cells' other marks dropped), as is any other cell with one mark that no peer's marks hold
/// (an entry, as [`State::from_candidates`] reads it); the other cells keep the marks
/// their placed peers allow.
fn on_givens(puzzle: &Grid, marks: Candidates) -> State {
    let sets = (0..puzzle.cells().len())
        .map(|c| match puzzle.get(c) {
            0 => marks.get(c),
            d => DigitSet::single(d),
        })
        .collect();
    let marks = Candidates::from_sets(marks.geometry().clone(), sets).expect("same geometry");
    let mut entries = State::from_candidates(marks.clone()).grid();
    for c in (0..puzzle.cells().len()).filter(|&c| puzzle.get(c) != 0) {
        entries.set(c, puzzle.get(c));
    }
    State::from_entries(&entries, &marks)
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
        Ok((state, solution)) => hint_state(
            item,
            r.line,
            puzzle,
            &state,
            format,
            style,
            Some(Verdict::Unique(solution)),
        ),
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

/// The hint for one state, given what its solutions are (`None`: not settled within
/// `--timeout`).
fn hint_state(
    item: &Item,
    line: usize,
    puzzle: Option<String>,
    state: &State,
    format: OutputFormat,
    style: &SymbolStyle,
    verdict: Option<Verdict>,
) -> Outcome {
    let g = state.geometry().clone();
    let (step, status, refusal) = match verdict {
        None => (
            None,
            Status::Timeout,
            Some("uniqueness not settled within --timeout"),
        ),
        Some(Verdict::None) => (
            None,
            Status::Unsolvable,
            Some("the pencil marks leave no solution: a wrong placement or elimination"),
        ),
        Some(Verdict::Multiple(_)) => (
            None,
            Status::Multiple,
            Some("the pencil marks allow more than one solution"),
        ),
        Some(Verdict::Unique(solution)) => {
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
