//! `sudokit general`: the general solution of each puzzle in Gubin's sense, every value
//! each cell takes over all solutions, and the empty cells that are the same in all
//! solutions (Moler's exercise 14.8).
//!
//! Default output: a header line, the pencil-mark grid, and a `fixed:` line listing
//! `r1c1=5`-style cells. `--format line`: one line per puzzle, the cells' value sets
//! separated by spaces. JSON Lines records, a contract:
//!
//! | key | meaning |
//! |---|---|
//! | `index` | 1-based number of the puzzle in the whole input |
//! | `file` | source name |
//! | `line` | 1-based line where the puzzle starts |
//! | `puzzle` | the puzzle on one line; null when unreadable |
//! | `general` | array of `n*n` strings (row-major): the digits each cell takes over all solutions; null when there is no solution |
//! | `fixed` | empty cells with the same value in every solution, as `r3c9=5`; null when a limit stopped the search (`general` then holds the values of the solutions found) |
//! | `complete` | false when `--timeout` or `--node-limit` left candidates untested |
//! | `error` | why the puzzle is invalid, else null |
//! | `depleted` | with `--engine gubin`: the cells' values after depletion and the template phase, before the exact test (a superset of `general`) |
//! | `outcome` | with `--engine gubin`: the paper's outcome after depletion, `none`, `unique` or `uncertain` |
//!
//! Exit codes: 0 every puzzle has a solution, 1 some has none (or hit a limit), 2 input
//! errors.

use anyhow::{Result, bail};
use serde::Serialize;
use sudokit::engines::gubin;
use sudokit::format::{self, SymbolStyle};
use sudokit::solve::{self, GeneralSolution};
use sudokit::{Candidates, DigitSet, Grid, Symbols};

use crate::batch::{self, Outcome, Status};
use crate::cli::{EngineName, GeneralArgs, LimitArgs, OutputFormat};
use crate::input::{self, Item};
use crate::output::{self, RecordHead};

/// Runs `sudokit general`; returns the exit code.
pub fn run(args: GeneralArgs) -> Result<u8> {
    if !matches!(args.engine, EngineName::Fast | EngineName::Gubin) {
        bail!("general takes --engine fast or --engine gubin");
    }
    let sources = input::sources(&args.input.sources, None)?;
    let options = input::read_options(&args.input)?;
    let job = Job {
        gubin: args.engine == EngineName::Gubin,
        format: args.run.format.unwrap_or(OutputFormat::Pretty),
        style: options.symbols.clone(),
        limits: args.limits.clone(),
        comments: args.run.comments,
    };
    let mut out = output::stdout();
    batch::run_command(
        &sources,
        &options,
        &args.run,
        "solvable",
        |item| job.run(item),
        &mut out,
    )
}

struct Job {
    gubin: bool,
    format: OutputFormat,
    style: SymbolStyle,
    limits: LimitArgs,
    comments: bool,
}

#[derive(Serialize)]
struct JsonRecord<'a> {
    #[serde(flatten)]
    head: RecordHead<'a>,
    general: Option<Vec<String>>,
    fixed: Option<Vec<String>>,
    complete: bool,
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depleted: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<&'static str>,
}

/// Each cell's digits as a string (`"357"`).
fn strings(sets: &[DigitSet], symbols: &Symbols) -> Vec<String> {
    sets.iter()
        .map(|s| s.iter().map(|d| symbols.char(d)).collect())
        .collect()
}

impl Job {
    fn run(&self, item: &Item) -> Outcome {
        let json = self.format == OutputFormat::Json;
        let record = match &item.record {
            Ok(r) => r,
            Err(e) => {
                return self.invalid(item, e.line, e.column, None, &e.message);
            }
        };
        let grid = &record.grid;
        if let Some(c) = grid.first_conflict() {
            let column = record.column_of(c.second);
            return self.invalid(
                item,
                record.line,
                column,
                Some(grid),
                &output::conflict(&c, grid, &self.style),
            );
        }
        if self.gubin && !grid.geometry().is_classic() {
            return self.invalid(
                item,
                record.line,
                record.column,
                Some(grid),
                "the gubin engine handles classic 9x9 puzzles only",
            );
        }
        let (general, depleted) = if self.gubin {
            let analysis = gubin::analyse(grid);
            let union = gubin::general_solution(grid).map(|sets| {
                Candidates::from_sets(grid.geometry().clone(), sets).expect("81 cells")
            });
            let outcome = match analysis.outcome {
                gubin::Outcome::NoSolution => "none",
                gubin::Outcome::Unique(_) => "unique",
                gubin::Outcome::Uncertain => "uncertain",
            };
            (
                GeneralSolution {
                    union,
                    complete: true,
                },
                Some((analysis.candidates, outcome)),
            )
        } else {
            let limits = self.limits.for_puzzle(u64::MAX);
            (solve::general_solution(grid, &limits), None)
        };
        let g = grid.geometry();
        let symbols = output::symbols(&self.style, g.size());
        let fixed: Vec<String> = general
            .fixed_cells(grid)
            .iter()
            .map(|&(c, d)| format!("{}={}", g.cell_name(c), symbols.char(d)))
            .collect();
        let status = match (&general.union, general.complete) {
            (_, false) => Status::Timeout,
            (None, true) => Status::Unsolvable,
            (Some(_), true) => Status::Solved,
        };
        let text = if json {
            let mut text = serde_json::to_string(&JsonRecord {
                head: RecordHead::new(item, record.line, Some(output::line(grid, &self.style))),
                general: general.union.as_ref().map(|u| strings(u.sets(), &symbols)),
                fixed: general.complete.then_some(fixed),
                complete: general.complete,
                error: None,
                depleted: depleted.as_ref().map(|(d, _)| strings(d, &symbols)),
                outcome: depleted.as_ref().map(|(_, o)| *o),
            })
            .expect("records serialise");
            text.push('\n');
            text
        } else if self.format == OutputFormat::Line {
            match &general.union {
                Some(u) => {
                    let sets = strings(u.sets(), &symbols).join(" ");
                    format!("{}\n", output::with_comments(item, sets, self.comments))
                }
                None if !general.complete => {
                    format!("{} # timeout\n", output::line(grid, &self.style))
                }
                None => format!("{} # no solution\n", output::line(grid, &self.style)),
            }
        } else {
            let mut text = format!("# {} {}:{} ", item.index, item.source, record.line);
            match &general.union {
                // A limit that stopped the search before its first solution proved nothing.
                None if !general.complete => {
                    text.push_str("no solution found before a limit stopped the search\n\n")
                }
                None => text.push_str("no solution\n\n"),
                Some(u) => {
                    let open = (0..grid.cells().len())
                        .filter(|&c| grid.get(c) == 0)
                        .count();
                    if general.complete {
                        text.push_str(&format!("{} of {open} empty cells fixed\n", fixed.len()));
                    } else {
                        text.push_str(&format!(
                            "{open} empty cells, the values of the solutions found (incomplete: \
                             a limit stopped it)\n"
                        ));
                    }
                    if let Some((_, outcome)) = &depleted {
                        text.push_str(&format!("# depletion outcome: {outcome}\n"));
                    }
                    text.push_str(&format::to_pencilmarks(u, &symbols));
                    text.push_str(&format!(
                        "fixed: {}\n\n",
                        if !general.complete {
                            "unknown".to_string()
                        } else if fixed.is_empty() {
                            "none".to_string()
                        } else {
                            fixed.join(" ")
                        }
                    ));
                }
            }
            text
        };
        Outcome {
            text,
            status,
            diagnostic: None,
        }
    }

    fn invalid(
        &self,
        item: &Item,
        line: usize,
        column: usize,
        grid: Option<&Grid>,
        message: &str,
    ) -> Outcome {
        let text = if self.format == OutputFormat::Json {
            let mut text = serde_json::to_string(&JsonRecord {
                head: RecordHead::new(item, line, grid.map(|g| output::line(g, &self.style))),
                general: None,
                fixed: None,
                complete: false,
                error: Some(message),
                depleted: None,
                outcome: None,
            })
            .expect("records serialise");
            text.push('\n');
            text
        } else {
            let shown = grid.map_or_else(|| item.text.clone(), |g| output::line(g, &self.style));
            format!("{shown} # error: {message}\n")
        };
        Outcome {
            text,
            status: Status::Invalid,
            diagnostic: Some(format!("{}:{line}:{column}: {message}", item.source)),
        }
    }
}
