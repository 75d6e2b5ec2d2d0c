//! `sudokit transform`: applies a list of validity-preserving operations to every
//! puzzle, in input order, in parallel.
//!
//! Line, matrix and pretty output name a variant's puzzles with `# variant:` (and
//! `# regions:`) lines where the variant changes ([`output::Headers`]), so the next
//! command reads them as they are.
//!
//! This module also renders the per-puzzle records of `shuffle` and `canon`, which differ
//! only in the grid they compute and a few JSON keys: one renderer serves the three.
//!
//! JSON Lines records (`--format json`), a contract other tools rely on:
//!
//! | key | meaning |
//! |---|---|
//! | `index`, `file`, `line`, `id`, `puzzle`, `shape`, `comment` | as for `sudokit solve` |
//! | `variant`, `regions` | the variant and a jigsaw's region map, only for variants |
//! | `status` | `ok`, or `invalid` (unreadable, or the operations do not fit the shape) |
//! | `result` | the transformed puzzle on one line, or null |
//! | `error` | why the puzzle is `invalid`, else null |

use std::io::{self, IsTerminal};

use anyhow::{Result, bail};
use sudokit::format::SymbolStyle;
use sudokit::transform::{Transform, TransformError};
use sudokit::{Grid, Shape};

use crate::batch::{self, Outcome, Status, Summary};
use crate::cli::{InputArgs, OutputFormat, RunArgs, TransformArgs};
use crate::input::{self, Item};
use crate::output;

/// Runs `sudokit transform`.
pub fn run(args: TransformArgs) -> Result<u8> {
    // Unknown operation names are usage errors, found before any input is read; what
    // depends on each puzzle's shape (list lengths, square boxes) is checked per puzzle.
    if let Err(TransformError::Syntax(e)) =
        Transform::parse(args.input.shape.unwrap_or(Shape::CLASSIC), &args.op)
    {
        bail!("--op: {e}");
    }
    run_each(
        &args.input,
        &args.run,
        ("result", "transformed"),
        |_, grid| {
            // Named as the option's fault, with the side it did not fit (other puzzles of
            // the run may have another).
            let n = grid.size();
            let t = Transform::parse(operations_shape(grid), &args.op)
                .map_err(|e| format!("--op {:?} on a {n}x{n} puzzle: {e}", args.op))?;
            let result = t.apply(grid).map_err(|e| e.to_string())?;
            Ok(Made {
                grid: result,
                json: Vec::new(),
            })
        },
    )
}

/// Runs a grid-producing command (transform, shuffle, canon): `make` makes each
/// puzzle's grid, printed under the JSON key `names.0`; the summary counts the
/// puzzles as `names.1`.
pub fn run_each(
    input: &InputArgs,
    run: &RunArgs,
    names: (&'static str, &str),
    make: impl Fn(&Item, &Grid) -> Result<Made, String> + Sync,
) -> Result<u8> {
    let sources = input::sources(&input.sources, None)?;
    let options = input::read_options(input)?;
    let view = View::new(run, &options.symbols, names.0);
    let mut out = output::Headers::new(output::stdout());
    let summary = batch::run(
        &sources,
        &options,
        crate::threads(run.threads),
        |item| view.outcome(item, |grid| make(item, grid)),
        &mut out,
    )?;
    report(run, &summary, names.1);
    Ok(summary.exit_code())
}

/// The shape `transform`'s operations are read in: the grid's boxes, or for a grid
/// without boxes (a Latin square) `1xN`, whose bands and stacks are single rows and
/// the whole width, so that any row or column permutation is allowed. Whether the
/// operations keep a variant's houses is checked when they are applied.
fn operations_shape(grid: &Grid) -> Shape {
    let g = grid.geometry();
    g.shape()
        .or_else(|| Shape::new(1, g.size()).ok())
        .expect("a geometry's side is a valid 1xN shape")
}

/// Prints the summary line on standard error when asked, or when it is a terminal.
pub fn report(run: &RunArgs, summary: &Summary, word: &str) {
    if run.summary || (io::stderr().is_terminal() && summary.puzzles > 1) {
        eprintln!("{}", summary.line(word));
    }
}

/// What a command made of one puzzle: the grid to show and its extra JSON keys (values
/// already in JSON).
pub struct Made {
    /// The grid to print (transformed, shuffled or canonical).
    pub grid: Grid,
    /// Extra `(key, JSON value)` pairs, in order, after the result key.
    pub json: Vec<(&'static str, String)>,
}

/// How the grid-producing commands print their records.
pub struct View {
    format: OutputFormat,
    style: SymbolStyle,
    comments: bool,
    /// The JSON key of the grid made (`result`, `canonical`).
    key: &'static str,
}

impl View {
    /// The view the run arguments ask for.
    pub fn new(run: &RunArgs, style: &SymbolStyle, key: &'static str) -> View {
        View {
            format: run.format.unwrap_or(OutputFormat::Line),
            style: style.clone(),
            comments: run.comments,
            key,
        }
    }

    /// Runs `job` on the item's puzzle and renders the record (or the error).
    pub fn outcome(&self, item: &Item, job: impl FnOnce(&Grid) -> Result<Made, String>) -> Outcome {
        let (made, error, line, column) = match &item.record {
            Err(e) => (None, Some(e.message.clone()), e.line, e.column),
            Ok(r) => match job(&r.grid) {
                Ok(m) => (Some(m), None, r.line, r.column),
                Err(e) => (None, Some(e), r.line, output::error_column(r)),
            },
        };
        let status = if made.is_some() {
            Status::Solved
        } else {
            Status::Invalid
        };
        let diagnostic = error
            .as_ref()
            .map(|e| format!("{}:{}:{}: {}", item.source, line, column, e));
        Outcome {
            text: self.text(item, made.as_ref(), error.as_deref(), line),
            status,
            diagnostic,
        }
    }

    fn text(&self, item: &Item, made: Option<&Made>, error: Option<&str>, line: usize) -> String {
        let record = item.record.as_ref().ok();
        let puzzle = record.map(|r| &r.grid);
        match self.format {
            OutputFormat::Json => {
                let mut fields: Vec<(&str, String)> = vec![
                    ("index", item.index.to_string()),
                    ("file", json_str(&item.source)),
                    ("line", line.to_string()),
                ];
                if let Some(id) = record.map(|r| r.prefix.as_str()).filter(|s| !s.is_empty()) {
                    fields.push(("id", json_str(id)));
                }
                fields.push((
                    "puzzle",
                    puzzle.map_or("null".into(), |p| json_str(&output::line(p, &self.style))),
                ));
                fields.push((
                    "shape",
                    puzzle.map_or("null".into(), |p| json_str(p.geometry().name())),
                ));
                if let Some(p) = puzzle.filter(|p| !p.geometry().variant().is_standard()) {
                    fields.push(("variant", json_str(&p.geometry().variant().to_string())));
                    if let Some(map) = output::region_map(p) {
                        fields.push(("regions", json_str(&map)));
                    }
                }
                fields.push((
                    "status",
                    json_str(if made.is_some() { "ok" } else { "invalid" }),
                ));
                fields.push((
                    self.key,
                    made.map_or("null".into(), |m| {
                        json_str(&output::line(&m.grid, &self.style))
                    }),
                ));
                if let Some(m) = made {
                    fields.extend(m.json.iter().map(|(k, v)| (*k, v.clone())));
                }
                fields.push(("error", error.map_or("null".into(), json_str)));
                if let Some(c) = record.map(|r| r.comment.as_str()).filter(|s| !s.is_empty()) {
                    fields.push(("comment", json_str(c)));
                }
                let body: Vec<String> = fields
                    .iter()
                    .map(|(k, v)| format!("{}:{v}", json_str(k)))
                    .collect();
                format!("{{{}}}\n", body.join(","))
            }
            OutputFormat::Line => match made {
                Some(m) => format!(
                    "{}{}\n",
                    output::variant_header(&m.grid),
                    output::with_comments(item, output::line(&m.grid, &self.style), self.comments)
                ),
                None => {
                    let shown = puzzle.map_or(item.text.clone(), |p| output::line(p, &self.style));
                    format!("{shown} # error: {}\n", error.unwrap_or("invalid"))
                }
            },
            OutputFormat::Matrix | OutputFormat::Pretty => {
                let head = format!(
                    "{}# {} {}:{}",
                    made.map_or(String::new(), |m| output::variant_header(&m.grid)),
                    item.index,
                    item.source,
                    line
                );
                match (made, puzzle) {
                    (Some(m), Some(p)) if self.format == OutputFormat::Pretty => format!(
                        "{head}\n{}\n",
                        output::side_by_side(p, Some(&m.grid), &self.style)
                    ),
                    (Some(m), _) => {
                        format!("{head}\n{}\n", sudokit::format::to_matrix(&m.grid))
                    }
                    _ => format!("{head}: {}\n\n", error.unwrap_or("invalid")),
                }
            }
        }
    }
}

/// A JSON string literal.
pub fn json_str(s: &str) -> String {
    serde_json::to_string(s).expect("strings serialise")
}
