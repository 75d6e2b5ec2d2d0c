//! `sudokit hint`: the next step for each puzzle, or for a current state given as a
//! pencil-mark grid or a 729-character candidates line (read whole; errors name the
//! line and column). When no technique applies the hint is a brute-force step, marked
//! as such.
//!
//! JSON Lines records (`--format json`): `index`, `file`, `line`, `status` (`solved`
//! when a step was found, `unsolvable`, `multiple`, `invalid`, `timeout` when none or
//! when `--timeout` passed before uniqueness was settled),
//! `step` (as in `sudokit explain`, or null) and `error`.

use std::io::Read as _;
use std::time::Instant;

use anyhow::{Context, Result};
use serde::Serialize;
use sudokit::format::{SymbolStyle, looks_like_candidates, parse_candidates};
use sudokit::logic::step::Digits;
use sudokit::logic::{self, State};
use sudokit::solve::Verdict;

use crate::batch::{self, Outcome, Status};
use crate::cli::{HintArgs, OutputFormat};
use crate::commands::explain::{StepJson, prepare, print, refusal};
use crate::input::{self, Item, Source};
use crate::output;

#[derive(Serialize)]
struct HintJson<'a> {
    index: u64,
    file: &'a str,
    line: usize,
    status: &'static str,
    step: Option<StepJson>,
    error: Option<String>,
}

/// Runs `sudokit hint`; returns the exit code.
pub fn run(args: HintArgs) -> Result<u8> {
    let sources = input::sources(&args.input.sources, Some("lo-shu"))?;
    let options = input::read_options(&args.input)?;
    let format = args.format.unwrap_or(OutputFormat::Line);
    let mut code = 0;
    let mut puzzles: Vec<Source> = Vec::new();
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
            puzzles.push(Source::Text(src.name().to_string(), text));
            continue;
        }
        match parse_candidates(&text, &options) {
            Err(e) => {
                eprintln!("{}:{}:{}: {}", src.name(), e.line, e.column, e.message);
                code = 2;
            }
            Ok(cands) => {
                let state = State::from_candidates(cands);
                let deadline = args.timeout.map(|t| Instant::now() + t);
                // A typed pencil-mark grid may have lost its solution to a wrong
                // elimination, or allow several: then no technique's step can be trusted.
                let verdict = match state.is_solved() {
                    true => Some(Verdict::Unique(state.grid())),
                    false => logic::verdict_within(&state, deadline),
                };
                let item = Item {
                    index: 1,
                    source: src.name().into(),
                    record: Err(sudokit::format::ParseError {
                        line: 1,
                        column: 1,
                        message: String::new(),
                    }),
                    text: String::new(),
                };
                let outcome = hint_state(&item, 1, &state, format, &options.symbols, verdict);
                print(&outcome.text)?;
                if outcome.status != Status::Solved {
                    code = code.max(1);
                }
            }
        }
    }
    if !puzzles.is_empty() {
        let mut out = output::stdout();
        let summary = batch::run(
            &puzzles,
            &options,
            1,
            |item| match &item.record {
                Err(e) => refusal(
                    item,
                    format,
                    None,
                    e.line,
                    e.column,
                    Status::Invalid,
                    &e.message,
                ),
                Ok(r) => match prepare(
                    r,
                    &options.symbols,
                    args.timeout.map(|t| Instant::now() + t),
                ) {
                    Err(f) => refusal(
                        item,
                        format,
                        Some(r),
                        r.line,
                        f.column,
                        f.status,
                        &f.message,
                    ),
                    Ok((state, solution)) => hint_state(
                        item,
                        r.line,
                        &state,
                        format,
                        &options.symbols,
                        Some(Verdict::Unique(solution)),
                    ),
                },
            },
            &mut out,
        )?;
        code = code.max(summary.exit_code());
    }
    Ok(code)
}

/// The hint for one state, given what its solutions are (`None`: not settled within
/// `--timeout`).
fn hint_state(
    item: &Item,
    line: usize,
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
        OutputFormat::Json => {
            let json = HintJson {
                index: item.index,
                file: &item.source,
                line,
                status: status.name(),
                step: step.as_ref().map(|st| StepJson::new(st, &g)),
                error: refusal.map(str::to_string),
            };
            format!(
                "{}\n",
                serde_json::to_string(&json).expect("records serialise")
            )
        }
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
