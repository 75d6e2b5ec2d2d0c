//! Writing results: a buffered standard output, grid rendering in each output format,
//! and the quiet end on a closed pipe.

use std::io::{self, IsTerminal, Write};

use sudokit::format::{self, SymbolStyle};
use sudokit::grid::Conflict;
use sudokit::symbols::Digits;
use sudokit::{Grid, Symbols};

/// Standard output, locked once; block-buffered unless it is a terminal.
pub fn stdout() -> Box<dyn Write> {
    let out = io::stdout();
    if out.is_terminal() {
        Box::new(io::LineWriter::new(out.lock()))
    } else {
        Box::new(io::BufWriter::with_capacity(1 << 16, out.lock()))
    }
}

/// Whether an error chain is a closed pipe (`sudokit ... | head`), which ends the run
/// quietly with success.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

/// The alphabet for a grid of side `n` (falls back to the standard one when a custom
/// alphabet does not fit that side).
pub fn symbols(style: &SymbolStyle, n: usize) -> Symbols {
    style.symbols(n).unwrap_or_else(|_| Symbols::standard(n))
}

/// Why `grid`'s givens break the rules, the digit in the puzzle's symbols.
pub fn conflict(c: &Conflict, grid: &Grid, style: &SymbolStyle) -> String {
    let symbols = symbols(style, grid.size());
    c.describe_in(grid.geometry(), Digits::symbols(&symbols))
}

/// One grid on one line.
pub fn line(grid: &Grid, style: &SymbolStyle) -> String {
    format::to_line(grid, &symbols(style, grid.size()))
}

/// Two grids side by side with box separators (puzzle and result).
pub fn side_by_side(left: &Grid, right: Option<&Grid>, style: &SymbolStyle) -> String {
    let symbols = symbols(style, left.size());
    let a = format::to_pretty(left, &symbols);
    let Some(right) = right else { return a };
    let b = format::to_pretty(right, &symbols);
    let width = a.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    let mut s = String::new();
    for (x, y) in a.lines().zip(b.lines()) {
        s.push_str(&format!("{x:<width$}    {y}\n"));
    }
    s
}

/// The fields every per-puzzle JSON record starts with: where the puzzle came from and
/// the puzzle as read (null when it could not be read). Commands flatten it into their
/// records.
#[derive(serde::Serialize)]
pub struct RecordHead<'a> {
    /// 1-based position among all puzzles of the run.
    pub index: u64,
    /// Display name of the source.
    pub file: &'a str,
    /// Line of the source the puzzle starts on.
    pub line: usize,
    /// The puzzle on one line.
    pub puzzle: Option<String>,
}

impl<'a> RecordHead<'a> {
    /// The head of `item`'s record.
    pub fn new(item: &'a crate::input::Item, line: usize, puzzle: Option<String>) -> Self {
        RecordHead {
            index: item.index,
            file: &item.source,
            line,
            puzzle,
        }
    }
}
