//! Pencil-mark input, shared by `hint` and `explain`: which sources hold one
//! pencil-mark grid or 729-character candidates line (a current state, read whole)
//! rather than puzzles (streamed), and the state such a grid describes.

use std::io::Read as _;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use sudokit::format::{ParseError, ReadOptions, looks_like_candidates, parse_candidates};
use sudokit::logic::{self, State};
use sudokit::solve::Verdict;
use sudokit::{Candidates, DigitSet, Grid};

use crate::batch::{self, Outcome, Status};
use crate::input::{self, Item, Source};
use crate::output;

/// Larger sources hold puzzles: a 64x64 pencil-mark grid with every candidate is
/// ~300 KB, and a file of a million puzzles is streamed, not read whole.
const MAX_MARKS: u64 = 4 << 20;

/// One source of the input: puzzles, or a pencil-mark grid and its text.
pub enum Input {
    /// Puzzles, read as a stream.
    Puzzles(Source),
    /// A pencil-mark grid (its source, for messages, and its whole text).
    Marks(Source, String),
}

/// Sorts the sources into puzzles and pencil-mark grids, in order. With `givens` (a
/// `--puzzle` the marks were made on), every source must be a pencil-mark grid.
pub fn classify(sources: Vec<Source>, givens: bool) -> Result<Vec<Input>> {
    let mut inputs = Vec::with_capacity(sources.len());
    for src in sources {
        // Standard input is read once: what was read to look at it is streamed again.
        let (text, src) = match src {
            Source::Text(_, ref t) => (Some(t.clone()), src),
            Source::File(ref path) => match std::fs::metadata(path) {
                Ok(m) if m.len() > MAX_MARKS => (None, src),
                _ => (
                    Some(
                        std::fs::read(path)
                            .map(|b| String::from_utf8_lossy(&b).into_owned())
                            .with_context(|| format!("cannot read {path}"))?,
                    ),
                    src,
                ),
            },
            Source::Stdin => {
                let mut head = Vec::new();
                std::io::stdin()
                    .lock()
                    .take(MAX_MARKS + 1)
                    .read_to_end(&mut head)
                    .context("cannot read <stdin>")?;
                let text = (head.len() as u64 <= MAX_MARKS)
                    .then(|| String::from_utf8_lossy(&head).into_owned());
                (text, Source::StdinAfter(head))
            }
            Source::StdinAfter(_) => (None, src),
        };
        match text.filter(|t| looks_like_candidates(t)) {
            Some(t) => inputs.push(Input::Marks(src, t)),
            None if givens => bail!(
                "--puzzle goes with pencil marks, and {} does not read as a pencil-mark grid \
                 (a group of candidates for each cell)",
                src.name()
            ),
            None => inputs.push(Input::Puzzles(src)),
        }
    }
    Ok(inputs)
}

/// What answers a pencil-mark grid: given its item, the line its grid starts on, and
/// its state or why the text is not one.
pub type StateAnswer<'a> = dyn Fn(&Item, usize, Result<State, ParseError>) -> Outcome + 'a;

/// Answers the inputs in order, one at a time, numbering items across the run: each
/// puzzle through `puzzle`, each pencil-mark grid through `marks` (given what
/// [`read_state`] makes of it on `givens`); writes each outcome as it comes (its
/// diagnostic on standard error) and returns the exit code.
pub fn answer_in_order(
    inputs: Vec<Input>,
    options: &ReadOptions,
    givens: Option<&Grid>,
    puzzle: &dyn Fn(&Item) -> Outcome,
    marks: &StateAnswer<'_>,
) -> Result<u8> {
    let mut code = 0u8;
    let mut index = 0u64;
    let mut answer = |outcome: Outcome| -> Result<()> {
        output::print(outcome.text.as_bytes())?;
        if let Some(d) = &outcome.diagnostic {
            eprintln!("{d}");
        }
        code = code.max(outcome.status.exit_code());
        Ok(())
    };
    for input in inputs {
        match input {
            Input::Puzzles(src) => {
                let mut failed = None;
                input::read_items(&[src], options, &mut |mut item| {
                    index += 1;
                    item.index = index;
                    failed = answer(puzzle(&item)).err();
                    failed.is_none() && !batch::interrupted()
                })?;
                if let Some(e) = failed {
                    return Err(e);
                }
            }
            Input::Marks(src, text) => {
                index += 1;
                let (item, first, state) = read_state(&src, &text, index, options, givens);
                answer(marks(&item, first, state))?;
            }
        }
        if batch::interrupted() {
            break;
        }
    }
    Ok(if batch::interrupted() { 130 } else { code })
}

/// The state a pencil-mark grid describes, as the `index`th item of the run: the item
/// (its record an error whose line is where the grid starts: no puzzle was read), that
/// line, and the state or why the text is not one (on `givens`, when given).
pub fn read_state(
    src: &Source,
    text: &str,
    index: u64,
    options: &ReadOptions,
    givens: Option<&Grid>,
) -> (Item, usize, Result<State, ParseError>) {
    let first = text
        .lines()
        .position(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map_or(1, |i| i + 1);
    let item = Item {
        index,
        source: src.name().into(),
        record: Err(ParseError {
            line: first,
            column: 1,
            message: String::new(),
        }),
        text: String::new(),
    };
    let state = parse_candidates(text, options).and_then(|cands| match givens {
        None => Ok(State::from_candidates(cands)),
        Some(g) => match misfit(g, &cands) {
            Some(message) => Err(ParseError {
                line: first,
                column: 1,
                message,
            }),
            None => Ok(on_givens(g, cands)),
        },
    });
    (item, first, state)
}

/// The solution of a state, or the status and message of a state that has none, or
/// several, or whose uniqueness was not settled by `deadline`. A typed pencil-mark grid
/// may have lost its solution to a wrong elimination, or allow several: then no
/// technique's step can be trusted.
pub fn solution(state: &State, deadline: Option<Instant>) -> Result<Grid, (Status, &'static str)> {
    let verdict = match state.is_solved() {
        true => Some(Verdict::Unique(state.grid())),
        false => logic::verdict_within(state, deadline),
    };
    match verdict {
        None => Err((Status::Timeout, "uniqueness not settled within --timeout")),
        Some(Verdict::None) => Err((
            Status::Unsolvable,
            "the pencil marks leave no solution: a wrong placement or elimination",
        )),
        Some(Verdict::Multiple(_)) => Err((
            Status::Multiple,
            "the pencil marks allow more than one solution",
        )),
        Some(Verdict::Unique(solution)) => Ok(solution),
    }
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
/// are placed (their cells' other marks dropped), as is any other cell with one mark
/// that no peer's marks hold (an entry, as [`State::from_candidates`] reads it); the
/// other cells keep the marks their placed peers allow.
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
