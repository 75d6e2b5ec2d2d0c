//! `sudokit check`: the verdict on each puzzle, one record per puzzle in.
//!
//! Line output: the puzzle, the verdict (`none`, `unique`, `multiple`, `invalid`,
//! `timeout`), `needs_guess=true|false` (false when singles alone settle the puzzle: the
//! "fiendish" test of the seed 003 listing for the fast and kronecker engines, "made no
//! tentative move" for the other seed engines) and, with `--minimal`,
//! `minimal=true|false` and the redundant givens. JSON Lines records, a contract:
//!
//! | key | meaning |
//! |---|---|
//! | `index` | 1-based number of the puzzle in the whole input |
//! | `file` | source name |
//! | `line` | 1-based line where the puzzle starts |
//! | `puzzle` | the puzzle on one line; null when unreadable |
//! | `verdict` | `none`, `unique`, `multiple`, `invalid` or `timeout` |
//! | `needs_guess` | true when singles do not settle it; null when invalid |
//! | `minimal` | with `--minimal`, for unique puzzles: whether every given is needed |
//! | `redundant` | with `--minimal`: givens whose removal keeps the puzzle unique (r1c1) |
//! | `solution` | the (first) solution on one line, or null |
//! | `error` | why the puzzle is invalid (e.g. `r1c1 and r1c4 both hold 8`), else null |
//! | `stats` | with `--stats`: the engine's statistics for the count up to two |
//!
//! Exit codes: 0 when every puzzle is unique, 1 when some is not (none, multiple,
//! timeout), 2 when some input is invalid (unreadable, or conflicting givens).

use anyhow::Result;
use serde::Serialize;
use sudokit::check::{self, Options, Verdict};
use sudokit::engines::Engine;
use sudokit::format::SymbolStyle;

use crate::batch::{self, Outcome, Status};
use crate::cli::{CheckArgs, LimitArgs, OutputFormat};
use crate::commands::engine::{self, JsonStats};
use crate::input::{self, Item};
use crate::output::{self, RecordHead};

/// Runs `sudokit check`; returns the exit code.
pub fn run(args: CheckArgs) -> Result<u8> {
    let engine = engine::engine(&args.engine)?;
    if args.engine.trace {
        anyhow::bail!("check has no --trace: use `sudokit solve --unique --trace`");
    }
    let sources = input::sources(&args.input.sources, None)?;
    let options = input::read_options(&args.input)?;
    let checker = Checker {
        engine,
        minimal: args.minimal,
        stats: args.engine.stats,
        json: args.run.format == Some(OutputFormat::Json),
        style: options.symbols.clone(),
        limits: args.limits.clone(),
        comments: args.run.comments,
    };
    let mut out = output::stdout();
    batch::run_command(
        &sources,
        &options,
        &args.run,
        "unique",
        |item| checker.check(item),
        &mut out,
    )
}

struct Checker {
    engine: Engine,
    minimal: bool,
    stats: bool,
    json: bool,
    style: SymbolStyle,
    limits: LimitArgs,
    comments: bool,
}

#[derive(Serialize)]
struct JsonRecord<'a> {
    #[serde(flatten)]
    head: RecordHead<'a>,
    verdict: &'static str,
    needs_guess: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    minimal: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    redundant: Option<Vec<String>>,
    solution: Option<String>,
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<JsonStats>,
}

impl Checker {
    fn check(&self, item: &Item) -> Outcome {
        let record = match &item.record {
            Ok(r) => r,
            Err(e) => {
                let message = &e.message;
                return Outcome {
                    text: if self.json {
                        json(&JsonRecord {
                            head: RecordHead::new(item, e.line, None),
                            verdict: Verdict::Invalid.name(),
                            needs_guess: None,
                            minimal: None,
                            redundant: None,
                            solution: None,
                            error: Some(message),
                            stats: None,
                        })
                    } else {
                        format!("{} # error: {message}\n", item.text)
                    },
                    status: Status::Invalid,
                    diagnostic: Some(format!(
                        "{}:{}:{}: {message}",
                        item.source, e.line, e.column
                    )),
                };
            }
        };
        let grid = &record.grid;
        let shown = output::line(grid, &self.style);
        let unsupported = self.engine.supports(grid.geometry()).err();
        let report = check::check(
            grid,
            &Options {
                engine: self.engine,
                minimal: self.minimal,
                limits: self.limits.for_puzzle(2),
            },
        );
        let error = match (&report.conflict, unsupported) {
            (Some(c), _) => Some(output::conflict(c, grid, &self.style)),
            (None, Some(e)) => Some(e),
            _ => None,
        };
        let verdict = if error.is_some() {
            Verdict::Invalid
        } else {
            report.verdict
        };
        let status = match verdict {
            Verdict::Unique => Status::Solved,
            Verdict::None => Status::Unsolvable,
            Verdict::Multiple => Status::Multiple,
            Verdict::Invalid => Status::Invalid,
            Verdict::Timeout => Status::Timeout,
        };
        let g = grid.geometry();
        let redundant: Option<Vec<String>> = report
            .minimality
            .as_ref()
            .map(|m| m.redundant.iter().map(|&c| g.cell_name(c)).collect());
        let needs_guess = report.needs_guess.filter(|_| error.is_none());
        let text = if self.json {
            json(&JsonRecord {
                head: RecordHead::new(item, record.line, Some(shown)),
                verdict: verdict.name(),
                needs_guess,
                minimal: report.minimality.as_ref().map(|m| m.minimal),
                redundant,
                solution: report
                    .solution
                    .as_ref()
                    .map(|s| output::line(s, &self.style)),
                error: error.as_deref(),
                stats: self.stats.then(|| JsonStats::from(&report.stats)),
            })
        } else {
            let mut text = format!("{shown} {}", verdict.name());
            if error.is_none() {
                if let Some(n) = needs_guess {
                    text.push_str(&format!(" needs_guess={n}"));
                }
                if let Some(m) = &report.minimality {
                    text.push_str(&format!(" minimal={}", m.minimal));
                }
                if let Some(r) = redundant.filter(|r| !r.is_empty()) {
                    text.push_str(&format!(" redundant={}", r.join(",")));
                }
            }
            let mut text = output::with_comments(item, text, self.comments);
            if let Some(e) = &error {
                text.push_str(&format!(" # error: {e}"));
            } else if self.stats {
                text.push_str(&format!(" # {}", engine::stats_text(&report.stats)));
            }
            text.push('\n');
            text
        };
        let diagnostic = error.map(|e| {
            let column = report
                .conflict
                .as_ref()
                .map_or(record.column, |c| record.column_of(c.second));
            format!("{}:{}:{column}: {e}", item.source, record.line)
        });
        Outcome {
            text,
            status,
            diagnostic,
        }
    }
}

fn json(record: &impl Serialize) -> String {
    let mut text = serde_json::to_string(record).expect("records serialise");
    text.push('\n');
    text
}
