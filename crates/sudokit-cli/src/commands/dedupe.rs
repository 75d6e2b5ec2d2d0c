//! `sudokit dedupe`: keeps the first puzzle of every equivalence class, in input order.
//!
//! Canonical forms are computed in parallel by the batch pipeline; the decision "seen
//! before?" is taken in input order by the writer, which holds one canonical form per
//! class kept (memory grows with the number of classes, not with the input). Unreadable
//! or conflicting puzzles are reported on standard error and left out (exit 2). A
//! puzzle without a canonical form here (a Latin square of order 11, a Latin puzzle
//! without a unique solution) is kept unless an identical one was, with a note on
//! standard error.
//!
//! Output: each kept puzzle as read (normalised, `--format line|json|matrix|pretty`;
//! `--comments` echoes ids and comments). JSON Lines records:
//!
//! | key | meaning |
//! |---|---|
//! | `index`, `file`, `line`, `id`, `puzzle`, `shape`, `comment` | as for `sudokit solve` |
//! | `canonical` | the class's canonical form (null for a puzzle without one) |
//! | `variant`, `regions` | the variant and a jigsaw's region map, only for variants |

use std::collections::HashSet;
use std::io::{self, IsTerminal, Write};

use anyhow::Result;
use sudokit::canon;

use crate::batch::{self, Outcome, Status};
use crate::cli::{DedupeArgs, OutputFormat};
use crate::commands::transform::json_str;
use crate::input::{self, Item};
use crate::output;

/// Runs `sudokit dedupe`.
pub fn run(args: DedupeArgs) -> Result<u8> {
    let sources = input::sources(&args.input.sources, None)?;
    let options = input::read_options(&args.input)?;
    let format = args.run.format.unwrap_or(OutputFormat::Line);
    let style = options.symbols.clone();
    let mut writer = Deduper {
        inner: Box::new(output::Headers::new(output::stdout())),
        seen: HashSet::new(),
        kept: 0,
    };
    let summary = batch::run(
        &sources,
        &options,
        crate::threads(args.run.threads),
        |item| {
            let (line, column) = match &item.record {
                Ok(r) => (r.line, output::error_column(r)),
                Err(e) => (e.line, e.column),
            };
            let record = match &item.record {
                Ok(r) => r,
                Err(e) => {
                    return dropped(format!("{}:{line}:{column}: {}", item.source, e.message));
                }
            };
            let g = record.grid.geometry();
            match canon::canonical(&record.grid) {
                Ok(c) => {
                    let form = output::line(&c.grid, &Default::default());
                    let text = render(item, Some(&form), format, &style, args.run.comments);
                    // Classes of different variants (or region maps) never merge.
                    let key = format!("{}{:?}\u{1e}{form}", g.name(), g.variant().regions);
                    kept(&key, &text, None)
                }
                Err(canon::CanonError::Conflict(e)) => {
                    dropped(format!("{}:{line}:{column}: {e}", item.source))
                }
                // No canonical form (a Latin square of order 11, a Latin puzzle without
                // one solution): kept, and compared with identical puzzles only, rather
                // than lost from the output.
                Err(e) => {
                    let text = render(item, None, format, &style, args.run.comments);
                    let own = output::line(&record.grid, &Default::default());
                    let key = format!("{}{:?}\u{1d}{own}", g.name(), g.variant().regions);
                    let note = format!(
                        "{}:{line}:{column}: kept, compared with identical puzzles only: {e}",
                        item.source
                    );
                    kept(&key, &text, Some(note))
                }
            }
        },
        &mut writer,
    )?;
    if args.run.summary || (io::stderr().is_terminal() && summary.puzzles > 1) {
        let valid = summary.count(Status::Solved);
        eprintln!(
            "puzzles: {}  kept: {}  duplicates: {}  invalid: {}  seconds: {:.3}",
            summary.puzzles,
            writer.kept,
            valid - writer.kept,
            summary.count(Status::Invalid),
            summary.elapsed.as_secs_f64()
        );
    }
    Ok(summary.exit_code())
}

/// A puzzle for the writer to pass on unless its `key` (its class) was seen before,
/// with a `note` for standard error.
fn kept(key: &str, text: &str, note: Option<String>) -> Outcome {
    Outcome {
        text: format!("{KEEP}{key}{SEP}{text}"),
        status: Status::Solved,
        diagnostic: note,
    }
}

/// A puzzle left out (unreadable, or its givens clash), reported by `diagnostic`.
fn dropped(diagnostic: String) -> Outcome {
    Outcome {
        text: DROP.to_string(),
        status: Status::Invalid,
        diagnostic: Some(diagnostic),
    }
}

/// Record markers between the workers and the writer: `KEEP key SEP text` or `DROP`.
const KEEP: char = '\u{1}';
const DROP: &str = "\u{2}";
const SEP: char = '\u{1f}';

/// The kept puzzle in the output format.
fn render(
    item: &Item,
    canonical: Option<&str>,
    format: OutputFormat,
    style: &sudokit::format::SymbolStyle,
    comments: bool,
) -> String {
    let r = item
        .record
        .as_ref()
        .expect("only readable puzzles are kept");
    match format {
        OutputFormat::Json => {
            let mut fields = vec![
                ("index", item.index.to_string()),
                ("file", json_str(&item.source)),
                ("line", r.line.to_string()),
            ];
            if !r.prefix.is_empty() {
                fields.push(("id", json_str(&r.prefix)));
            }
            fields.push(("puzzle", json_str(&output::line(&r.grid, style))));
            fields.push(("shape", json_str(r.grid.geometry().name())));
            if !r.grid.geometry().variant().is_standard() {
                fields.push((
                    "variant",
                    json_str(&r.grid.geometry().variant().to_string()),
                ));
                if let Some(map) = output::region_map(&r.grid) {
                    fields.push(("regions", json_str(&map)));
                }
            }
            fields.push(("canonical", canonical.map_or("null".into(), json_str)));
            if !r.comment.is_empty() {
                fields.push(("comment", json_str(&r.comment)));
            }
            let body: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{}:{v}", json_str(k)))
                .collect();
            format!("{{{}}}\n", body.join(","))
        }
        OutputFormat::Line => format!(
            "{}{}\n",
            output::variant_header(&r.grid),
            output::with_comments(item, output::line(&r.grid, style), comments)
        ),
        OutputFormat::Matrix => format!(
            "{}# {} {}:{}\n{}\n",
            output::variant_header(&r.grid),
            item.index,
            item.source,
            r.line,
            sudokit::format::to_matrix(&r.grid)
        ),
        OutputFormat::Pretty => format!(
            "{}# {} {}:{}\n{}\n",
            output::variant_header(&r.grid),
            item.index,
            item.source,
            r.line,
            output::side_by_side(&r.grid, None, style)
        ),
    }
}

/// The in-order writer end: passes on the first record of each canonical form. The
/// batch pipeline hands it one whole record per `write` call.
struct Deduper {
    inner: Box<dyn Write>,
    seen: HashSet<Box<str>>,
    kept: u64,
}

impl Write for Deduper {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let text = std::str::from_utf8(buf).map_err(io::Error::other)?;
        if let Some(rest) = text.strip_prefix(KEEP) {
            let (key, record) = rest
                .split_once(SEP)
                .ok_or_else(|| io::Error::other("bad record"))?;
            if !self.seen.contains(key) {
                self.seen.insert(key.into());
                self.kept += 1;
                self.inner.write_all(record.as_bytes())?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
