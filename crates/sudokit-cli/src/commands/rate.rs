//! `sudokit rate`: per puzzle, Sudoku Explainer's ratings (ER: hardest step on SE's
//! easiest-first path, EP: hardest up to the first placement, ED: the first step; SE's
//! technique values and chain-length increments) and a HoDoKu-style level and score,
//! with the techniques used on the human path. Ratings come from solving.
//!
//! Line output: `PUZZLE ER/EP/ED LEVEL SCORE` (`20.0` when SE's techniques do not
//! solve the puzzle, as `serate` prints it).
//!
//! JSON Lines records (`--format json`), a contract other tools rely on:
//!
//! | key | meaning |
//! |---|---|
//! | `index`, `file`, `line`, `id` | where the puzzle came from (as in `sudokit solve`) |
//! | `puzzle` | the puzzle on one line |
//! | `status` | `solved` (rated), `unsolvable`, `multiple`, `invalid`, `timeout` (`--timeout` passed) |
//! | `er`, `ep`, `ed` | Sudoku Explainer ratings (numbers; null when SE's techniques do not finish) |
//! | `level` | `easy`, `medium`, `hard`, `unfair`, `extreme` (HoDoKu's rules) |
//! | `score` | HoDoKu-style score (sum of the techniques' base scores) |
//! | `techniques` | techniques used on the human path: `{"technique": name, "count": n}`, easiest first |
//! | `brute_force` | whether the human path needed brute force |
//! | `error` | why the puzzle was not rated, else null |

use anyhow::Result;
use serde::Serialize;
use std::time::{Duration, Instant};
use sudokit::format::SymbolStyle;

use sudokit::logic::rate::{Rating, rate_with, tenths};
use sudokit::logic::se;

use crate::batch::{self, Outcome, Status};
use crate::cli::{OutputFormat, RateArgs};
use crate::commands::explain::{Refusal, prepare};
use crate::input::{self, Item};
use crate::output;

#[derive(Serialize)]
struct TechniqueCount {
    technique: &'static str,
    count: u32,
}

#[derive(Serialize)]
struct RateJson<'a> {
    #[serde(flatten)]
    head: output::RecordHead<'a>,
    status: &'static str,
    er: Option<f64>,
    ep: Option<f64>,
    ed: Option<f64>,
    level: Option<&'static str>,
    score: Option<u32>,
    techniques: Vec<TechniqueCount>,
    brute_force: Option<bool>,
    error: Option<String>,
}

/// Runs `sudokit rate`; returns the exit code.
pub fn run(args: RateArgs) -> Result<u8> {
    let sources = input::sources(&args.input.sources, Some("lo-shu"))?;
    let options = input::read_options(&args.input)?;
    let format = args.run.format.unwrap_or(OutputFormat::Line);
    let style = options.symbols.clone();
    let comments = args.run.comments;
    let timeout = args.timeout;
    let mut out = output::stdout();
    batch::run_command(
        &sources,
        &options,
        &args.run,
        "rated",
        |item| rate_item(item, format, &style, comments, timeout),
        &mut out,
    )
}

fn number(t: Option<u16>) -> Option<f64> {
    t.map(|t| f64::from(t) / 10.0)
}

fn rate_item(
    item: &Item,
    format: OutputFormat,
    style: &SymbolStyle,
    comments: bool,
    timeout: Option<Duration>,
) -> Outcome {
    let record = match &item.record {
        Err(e) => {
            let refusal = Refusal {
                status: Status::Invalid,
                message: e.message.clone(),
                column: e.column,
            };
            return render(item, format, None, e.line, Err(refusal), style, comments);
        }
        Ok(r) => r,
    };
    let options = se::Options {
        deadline: timeout.map(|t| Instant::now() + t),
        ..se::Options::default()
    };
    let rating = prepare(record, style, options.deadline).and_then(|(state, _)| {
        let rating = rate_with(&state, &options);
        if rating.timed_out {
            return Err(Refusal {
                status: Status::Timeout,
                message: format!(
                    "not rated within {:?} (--timeout)",
                    timeout.unwrap_or_default()
                ),
                column: record.column,
            });
        }
        Ok(rating)
    });
    render(
        item,
        format,
        Some(record),
        record.line,
        rating,
        style,
        comments,
    )
}

fn render(
    item: &Item,
    format: OutputFormat,
    record: Option<&sudokit::Record>,
    line: usize,
    rating: Result<Rating, Refusal>,
    style: &SymbolStyle,
    comments: bool,
) -> Outcome {
    let puzzle = record.map(|r| output::line(&r.grid, style));
    let (status, diagnostic) = match &rating {
        Ok(_) => (Status::Solved, None),
        Err(f) => (
            f.status,
            Some(format!(
                "{}:{}:{}: {}",
                item.source, line, f.column, f.message
            )),
        ),
    };
    let text = match format {
        OutputFormat::Json => {
            let r = rating.as_ref().ok();
            let json = RateJson {
                head: output::RecordHead::new(item, line, puzzle),
                status: status.name(),
                er: r.and_then(|r| number(r.er)),
                ep: r.and_then(|r| number(r.ep)),
                ed: r.and_then(|r| number(r.ed)),
                level: r.map(|r| r.level.name()),
                score: r.map(|r| r.score),
                techniques: r
                    .map(|r| {
                        r.techniques
                            .iter()
                            .map(|&(t, count)| TechniqueCount {
                                technique: t.name(),
                                count,
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                brute_force: r.map(|r| r.brute_force),
                error: rating.as_ref().err().map(|f| f.message.clone()),
            };
            format!(
                "{}\n",
                serde_json::to_string(&json).expect("records serialise")
            )
        }
        OutputFormat::Pretty => match &rating {
            Ok(r) => {
                let techniques: Vec<String> = r
                    .techniques
                    .iter()
                    .map(|(t, n)| format!("{} x{}", t.name(), n))
                    .collect();
                format!(
                    "# {} {}:{}\n{}\nER/EP/ED {}  level {}  score {}\ntechniques: {}\n\n",
                    item.index,
                    item.source,
                    line,
                    puzzle.unwrap_or_default(),
                    se_triple(r),
                    r.level.name(),
                    r.score,
                    techniques.join(", ")
                )
            }
            Err(f) => format!(
                "# {} {}:{} {}: {}\n\n",
                item.index,
                item.source,
                line,
                status.name(),
                f.message
            ),
        },
        _ => {
            let shown = puzzle.unwrap_or_else(|| item.text.clone());
            let body = match &rating {
                Ok(r) => output::with_comments(
                    item,
                    format!("{} {} {} {}", shown, se_triple(r), r.level.name(), r.score),
                    comments,
                ),
                Err(f) => format!(
                    "{} # {}: {}",
                    output::with_comments(item, shown, comments),
                    status.name(),
                    f.message
                ),
            };
            format!("{body}\n")
        }
    };
    Outcome {
        text,
        status,
        diagnostic,
    }
}

fn se_triple(r: &Rating) -> String {
    match (r.er, r.ep, r.ed) {
        (Some(er), Some(ep), Some(ed)) => format!("{}/{}/{}", tenths(er), tenths(ep), tenths(ed)),
        _ => "20.0/20.0/20.0".to_string(),
    }
}
