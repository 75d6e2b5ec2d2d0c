//! Writing results: a buffered standard output, grid rendering in each output format,
//! and the quiet end on a closed pipe.

use std::io::{self, IsTerminal, Write};

use sudokit::format::{self, SymbolStyle};
use sudokit::grid::Conflict;
use sudokit::symbols::Digits;
use sudokit::{Grid, Shape, Symbols};

/// Standard output, locked once; block-buffered unless it is a terminal.
pub fn stdout() -> Box<dyn Write> {
    let out = io::stdout();
    if out.is_terminal() {
        Box::new(io::LineWriter::new(out.lock()))
    } else {
        Box::new(io::BufWriter::with_capacity(1 << 16, out.lock()))
    }
}

/// Writes `text` to standard output and flushes it: a write that fails (a full disk)
/// is then an error, not lost in a buffer dropped at exit.
pub fn print(text: &[u8]) -> io::Result<()> {
    let mut out = stdout();
    out.write_all(text)?;
    out.flush()
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

/// `source:line:column: why` when `record`'s givens break the rules (for commands that
/// report outside the batch runner), else `None`.
pub fn located_conflict(
    source: &str,
    record: &sudokit::Record,
    style: &SymbolStyle,
) -> Option<String> {
    let c = record.grid.first_conflict()?;
    Some(format!(
        "{source}:{}:{}: {}",
        record.line,
        error_column(record),
        conflict(&c, &record.grid, style)
    ))
}

/// The column an error about `record`'s puzzle points at: the second of its first two
/// conflicting givens when it has them, else where the puzzle starts.
pub fn error_column(record: &sudokit::Record) -> usize {
    record
        .grid
        .first_conflict()
        .map_or(record.column, |c| record.column_of(c.second))
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
    /// The puzzle's variant, when not plain sudoku.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// A jigsaw's region map, one label per cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regions: Option<String>,
    /// The text before the puzzle on its line (an id), when present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<&'a str>,
    /// The text after the puzzle on its line, when present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<&'a str>,
}

/// `body` with the item's id before it and its trailing comment after it, when asked
/// (`--comments`).
pub fn with_comments(item: &crate::input::Item, body: String, comments: bool) -> String {
    match (&item.record, comments) {
        (Ok(r), true) => [r.prefix.as_str(), body.as_str(), r.comment.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" "),
        _ => body,
    }
}

impl<'a> RecordHead<'a> {
    /// The head of `item`'s record.
    pub fn new(item: &'a crate::input::Item, line: usize, puzzle: Option<String>) -> Self {
        let record = item.record.as_ref().ok();
        let nonempty = |s: &'a str| Some(s).filter(|s| !s.is_empty());
        let grid = record.map(|r| &r.grid);
        RecordHead {
            index: item.index,
            file: &item.source,
            line,
            puzzle,
            variant: grid.and_then(variant_name),
            regions: grid.and_then(region_map),
            id: record.and_then(|r| nonempty(&r.prefix)),
            comment: record.and_then(|r| nonempty(&r.comment)),
        }
    }
}

/// The comment lines that make a file carry a grid's geometry for the next reader:
/// `# variant: x`, for a jigsaw `# regions: <labels>`, and `# shape: 3x2` for boxes
/// other than those a reader infers from the side (`# variant: standard` alone for
/// plain sudoku, which [`Headers`] leaves out until something else came before).
pub fn variant_header(grid: &Grid) -> String {
    geometry_fields(grid)
        .iter()
        .map(|(key, value)| format!("# {key}: {value}\n"))
        .collect()
}

/// What a reader needs besides the cells to read `grid` as it is: its variant, a
/// jigsaw's region map, and box shapes other than the one inferred from the side, as
/// (key, value) pairs named as the header lines and the options are.
pub fn geometry_fields(grid: &Grid) -> Vec<(&'static str, String)> {
    let g = grid.geometry();
    let mut fields = vec![("variant", g.variant().to_string())];
    if let Some(map) = region_map(grid) {
        fields.push(("regions", map));
    }
    if let Some(shape) = g.shape().filter(|&s| Some(s) != Shape::for_size(g.size())) {
        fields.push(("shape", shape.to_string()));
    }
    fields
}

/// The name of `grid`'s variant, `None` for plain sudoku (the JSON records' `variant`).
pub fn variant_name(grid: &Grid) -> Option<String> {
    let v = grid.geometry().variant();
    (!v.is_standard()).then(|| v.to_string())
}

/// A jigsaw grid's region map, one label per cell, row by row.
pub fn region_map(grid: &Grid) -> Option<String> {
    grid.geometry().variant().region_labels()
}

/// A writer that passes text through but drops a block of `# variant:` / `# regions:`
/// lines equal to the last block written (at first: plain sudoku's), so records can
/// each carry their variant and the output names it only where it changes.
pub struct Headers<W: Write> {
    inner: W,
    line: Vec<u8>,
    block: Vec<u8>,
    last: Vec<u8>,
}

impl<W: Write> Headers<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> Headers<W> {
        Headers {
            inner,
            line: Vec::new(),
            block: Vec::new(),
            last: b"# variant: standard\n".to_vec(),
        }
    }

    fn end_block(&mut self) -> io::Result<()> {
        if !self.block.is_empty() {
            if self.block != self.last {
                self.inner.write_all(&self.block)?;
                self.last = std::mem::take(&mut self.block);
            }
            self.block.clear();
        }
        Ok(())
    }

    fn end_line(&mut self) -> io::Result<()> {
        let line = std::mem::take(&mut self.line);
        if line.starts_with(b"# variant:")
            || line.starts_with(b"# regions:")
            || line.starts_with(b"# shape:")
        {
            self.block.extend_from_slice(&line);
        } else {
            self.end_block()?;
            self.inner.write_all(&line)?;
        }
        self.line = line;
        self.line.clear();
        Ok(())
    }
}

impl<W: Write> Write for Headers<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while let Some(i) = rest.iter().position(|&b| b == b'\n') {
            self.line.extend_from_slice(&rest[..=i]);
            self.end_line()?;
            rest = &rest[i + 1..];
        }
        self.line.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.line.is_empty() {
            self.end_line()?;
        }
        self.end_block()?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for Headers<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_appear_where_the_variant_changes() {
        let mut out = Headers::new(Vec::new());
        for text in [
            "# variant: standard\nA\n",
            "# variant: x\nB\n",
            "# variant: x\nC\n",
            "# variant: standard\nD\n",
            "# variant: jigsaw\n# regions: 1122\nE\n",
            "# variant: jigsaw\n# regions: 1212\nF\n",
        ] {
            out.write_all(text.as_bytes()).unwrap();
        }
        out.flush().unwrap();
        let text = String::from_utf8(out.inner.clone()).unwrap();
        assert_eq!(
            text,
            "A\n# variant: x\nB\nC\n# variant: standard\nD\n# variant: jigsaw\n# regions: 1122\nE\n# variant: jigsaw\n# regions: 1212\nF\n"
        );
    }
}
