//! Reading and writing puzzles as text.
//!
//! Input formats, detected line by line so that a file may mix them:
//!
//! * **one line per puzzle**: `n*n` cell characters row by row (`1-9`, `A-Z`, ... per
//!   [`Symbols`]; empty as `0`, `.`, `_` or `*`). Text before the puzzle on its line (an
//!   id, as in numbered collections) is kept as [`Record::prefix`], text after it (ratings,
//!   solutions, notes) as [`Record::comment`];
//! * **matrix**: `n` lines of `n` whitespace-separated integers, 0 = empty (the Octave
//!   article's `load` format);
//! * **grid**: `n` lines of `n` cell characters, optionally with `|`, `-`, `+` separators
//!   and blanks between cells (SadMan `.sdk`, Simple Sudoku, our own pretty output).
//!
//! Lines starting with `#` are comments, `[...]` lines are section headers (`.sdk`),
//! blank lines are skipped. Three comment lines carry the geometry for the puzzles after
//! them: `# variant: x` (see [`Variant`]), `# regions: <n*n labels>` (a jigsaw map) and
//! `# shape: 3x2` (a box shape other than the one inferred for the side: one-line 6x6
//! puzzles are read as 2x3 otherwise; a `# variant:` line clears it). A
//! jigsaw puzzle with no map known is followed by its map: a line of `n*n` labels or `n`
//! lines of `n` labels. The side is taken from the options, else inferred: from the
//! length of a one-line puzzle (16, 36, 81, 144, 256, 625 cells...) or from the number
//! of cells in a grid's first row.
//!
//! The [`Reader`] is push-based: the caller feeds it lines, so the library does no I/O and
//! the CLI can stream files of any length in constant memory.

use std::fmt::{self, Write as _};
use std::sync::Arc;

use crate::geometry::Geometry;
use crate::grid::{Candidates, DigitSet, Grid};
use crate::shape::{MAX_SIZE, Shape};
use crate::symbols::{Symbols, SymbolsError};
use crate::variant::{Variant, is_map_label};

/// Which alphabet digits are written in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SymbolStyle {
    /// `1-9A-Z...` ([`Symbols::standard`]).
    #[default]
    Standard,
    /// `0-9A-Z...` ([`Symbols::zero_based`]); `0` is a digit.
    ZeroBased,
    /// An explicit alphabet such as `ABCDEFGHI` or `1-9A-G`.
    Custom(String),
}

impl SymbolStyle {
    /// The alphabet for side `n`.
    pub fn symbols(&self, n: usize) -> Result<Symbols, SymbolsError> {
        match self {
            SymbolStyle::Standard => Ok(Symbols::standard(n)),
            SymbolStyle::ZeroBased => Ok(Symbols::zero_based(n)),
            SymbolStyle::Custom(spec) => Symbols::custom(spec, n),
        }
    }

    /// The largest alphabet of the style, used to find cell characters before the side
    /// is known.
    fn widest(&self) -> Symbols {
        match self {
            SymbolStyle::Standard => Symbols::standard(MAX_SIZE),
            SymbolStyle::ZeroBased => Symbols::zero_based(MAX_SIZE),
            SymbolStyle::Custom(spec) => {
                // The custom alphabet fixes the side by its length.
                let n = (2..=MAX_SIZE)
                    .find(|&n| Symbols::custom(spec, n).is_ok())
                    .unwrap_or(9);
                Symbols::custom(spec, n).unwrap_or_else(|_| Symbols::standard(9))
            }
        }
    }
}

/// How to read puzzles.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// The geometry of every puzzle (a variant); overrides `shape`.
    pub geometry: Option<Arc<Geometry>>,
    /// The box shape of every puzzle; inferred per puzzle when `None`.
    pub shape: Option<Shape>,
    /// The variant of every puzzle (until a `# variant:` line changes it).
    pub variant: Variant,
    /// The alphabet.
    pub symbols: SymbolStyle,
}

/// A puzzle read from text, with where it came from.
#[derive(Clone, Debug)]
pub struct Record {
    /// The puzzle.
    pub grid: Grid,
    /// 1-based line on which the puzzle starts.
    pub line: usize,
    /// 1-based column of its first cell (1 for grid formats).
    pub column: usize,
    /// Whether the puzzle came from one line (so cell `k` is at column `column + k`).
    pub single_line: bool,
    /// Text before the puzzle on its line (one-line format only), trimmed.
    pub prefix: String,
    /// Text after the puzzle on its line, trimmed.
    pub comment: String,
}

impl Record {
    /// The 1-based column of cell `cell` in the text: its own column when the puzzle
    /// came from one line, else the record's column (a grid block has no single one).
    pub fn column_of(&self, cell: usize) -> usize {
        if self.single_line {
            self.column + cell
        } else {
            self.column
        }
    }
}

/// A syntax error, located by 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// The cells of one grid row before the side's alphabet is applied: (1-based column,
/// value) for matrix rows, (1-based column, byte) for character rows.
#[derive(Clone, Debug)]
enum Row {
    Numbers(Vec<(usize, u8)>),
    Chars(Vec<(usize, u8)>),
}

impl Row {
    fn len(&self) -> usize {
        match self {
            Row::Numbers(c) | Row::Chars(c) => c.len(),
        }
    }
}

/// A grid whose rows are still arriving.
#[derive(Debug)]
struct PendingBlock {
    first_line: usize,
    side: usize,
    cells: Vec<u8>,
    rows: usize,
    /// The first row's cells as read (column, byte or number), to point at one should
    /// the row turn out to be a one-line puzzle with a bad digit.
    first_row: Row,
}

/// Streaming puzzle reader: feed it lines with [`Reader::push`], then call
/// [`Reader::finish`]. Each puzzle or error comes out exactly once, in input order.
#[derive(Debug)]
pub struct Reader {
    options: ReadOptions,
    /// Every character that can be a cell in some side of the style.
    widest: Symbols,
    /// Per byte: if it is a cell character of `widest`, its digit with letters folded to
    /// one case where the style allows (for guessing the side from the largest digit on
    /// a line), else `u8::MAX`. One load per character in the scan for one-line puzzles.
    run_digit: [u8; 256],
    /// Alphabets and geometries by side, built on first use (a vector, not a map: the
    /// lookup is on every line's path).
    symbols: Vec<Option<Symbols>>,
    geometries: Vec<Option<Arc<Geometry>>>,
    pending: Option<PendingBlock>,
    /// The variant in force (the options', until a header line changes it).
    variant: Variant,
    /// The box shape a `# shape:` line gave, for puzzles of its side (the options' shape
    /// comes first).
    shape_header: Option<Shape>,
    /// A jigsaw puzzle waiting for its region map, and the labels read so far.
    awaiting: Option<(Record, String)>,
    /// After a bad row of a grid: the grid's side and how many of its rows are still to
    /// come. They are passed over, so that one broken grid makes one error.
    skipping: Option<(usize, usize)>,
}

/// The result of one puzzle's text.
pub type ReadResult = Result<Record, ParseError>;

impl Reader {
    /// A reader with the given options.
    pub fn new(options: ReadOptions) -> Reader {
        let widest = options.symbols.widest();
        let folded = match options.symbols {
            SymbolStyle::Standard => Symbols::standard(35),
            SymbolStyle::ZeroBased => Symbols::zero_based(36),
            SymbolStyle::Custom(_) => widest.clone(),
        };
        let variant = options.variant.clone();
        let run_digit = std::array::from_fn(|b| {
            let b = b as u8;
            widest
                .digit(b)
                .map_or(u8::MAX, |d| folded.digit(b).unwrap_or(d))
        });
        Reader {
            options,
            widest,
            run_digit,
            symbols: Vec::new(),
            geometries: Vec::new(),
            pending: None,
            variant,
            shape_header: None,
            awaiting: None,
            skipping: None,
        }
    }

    /// Whether puzzles need a region map that has not been given yet.
    fn needs_regions(&self) -> bool {
        self.options.geometry.is_none() && self.variant.jigsaw && self.variant.regions.is_none()
    }

    /// Whether a side inferred from the text is acceptable for the variant.
    fn side_ok(&self, n: usize) -> bool {
        if self.variant.latin {
            // Order 2 too: xkcd's binary sudoku (found by QA: `....` was refused).
            n >= 2
        } else if self.variant.jigsaw {
            n >= 3
        } else {
            Shape::for_size(n).is_some()
        }
    }

    /// The cell counts a one-line puzzle may have, for messages: those of
    /// [`Reader::side_ok`].
    fn one_line_sizes(&self) -> &'static str {
        if self.variant.latin {
            "a square number of cells (4, 9, 16, 25, ...)"
        } else if self.variant.jigsaw {
            "a square number of cells (9, 16, 25, 36, ...)"
        } else {
            "16, 36, 81, 144, 256 or 625 cells"
        }
    }

    /// The side every puzzle must have, when the options fix it.
    fn fixed_side(&self) -> Option<usize> {
        match (&self.options.geometry, self.options.shape) {
            (Some(g), _) => Some(g.size()),
            (None, Some(s)) => Some(s.size()),
            (None, None) => match (&self.variant.regions, &self.options.symbols) {
                (Some(r), _) => Some((r.len() as f64).sqrt().round() as usize),
                (None, SymbolStyle::Custom(_)) => Some(self.widest.len()),
                _ => None,
            },
        }
    }

    /// What fixes the side ([`Reader::fixed_side`]), as messages name it.
    fn side_source(&self) -> &'static str {
        match (
            &self.options.geometry,
            self.options.shape,
            &self.variant.regions,
        ) {
            (Some(_), _, _) => "the puzzle type",
            (None, Some(_), _) => "--shape",
            (None, None, Some(_)) => "the region map",
            (None, None, None) => "the symbols",
        }
    }

    fn symbols_for(&mut self, n: usize) -> Result<&Symbols, String> {
        if self.symbols.len() <= n {
            self.symbols.resize(n + 1, None);
        }
        if self.symbols[n].is_none() {
            self.symbols[n] = Some(self.options.symbols.symbols(n).map_err(|e| e.to_string())?);
        }
        Ok(self.symbols[n].as_ref().expect("just built"))
    }

    fn geometry_for(&mut self, n: usize) -> Result<Arc<Geometry>, String> {
        if let Some(g) = &self.options.geometry {
            return Ok(g.clone());
        }
        if self.options.shape.is_none()
            && let Some(header) = self.shape_header
            && header.size() != n
        {
            let m = header.size();
            return Err(format!(
                "a `# shape: {header}` line is in force (boxes for {m}x{m} puzzles), but \
                 this puzzle is {n}x{n}; a `# variant:` line ends it"
            ));
        }
        if let Some(Some(g)) = self.geometries.get(n) {
            return Ok(g.clone());
        }
        let shape = self
            .options
            .shape
            .or(self.shape_header.filter(|s| s.size() == n));
        let g = if self.variant.is_standard() {
            let shape = match shape {
                Some(s) => s,
                None => Shape::for_size(n).ok_or_else(|| {
                    format!("a side of {n} has no box shape; give one with --shape RxC")
                })?,
            };
            Geometry::standard(shape)
        } else {
            // A jigsaw whose map follows the puzzle is read on a Latin square first and
            // moved to its own geometry when the map arrives.
            let variant = if self.needs_regions() {
                Variant {
                    latin: true,
                    ..Variant::default()
                }
            } else {
                self.variant.clone()
            };
            Arc::new(Geometry::for_variant(n, shape, &variant).map_err(|e| e.to_string())?)
        };
        if self.geometries.len() <= n {
            self.geometries.resize(n + 1, None);
        }
        self.geometries[n] = Some(g.clone());
        Ok(g)
    }

    /// Ends a grid still being read, or a jigsaw puzzle still waiting for its map, when
    /// a header line comes first: the header would change the rules under that puzzle
    /// (a `# variant: x` after a grid's third row applied to neither it nor the
    /// puzzles after it), so the puzzle is an error and the header holds from the next.
    fn interrupt(&mut self, line_no: usize, header: &str, out: &mut impl FnMut(ReadResult)) {
        let key = header_fields(header)
            .map(|(key, _)| key)
            .unwrap_or_default();
        if let Some(p) = self.pending.take() {
            let first = p.first_line;
            // Its rows still to come are skipped (the header is none of them).
            self.skipping = Some((p.side, p.side - p.rows)).filter(|&(_, left)| left > 0);
            out(Err(ParseError {
                line: line_no,
                column: 1,
                message: format!(
                    "a `# {key}:` line inside the grid from line {first}; headers go before the puzzles they are for (that grid is left out)"
                ),
            }));
        }
        if let Some((record, _)) = self.awaiting.take() {
            out(Err(ParseError {
                line: record.line,
                column: 1,
                message: format!(
                    "jigsaw puzzle without a region map (a `# {key}:` line on line {line_no} came before its map)"
                ),
            }));
        }
    }

    /// Applies a `# variant:`, `# regions:` or `# shape:` comment line; other comments
    /// are ignored.
    fn header(&mut self, line_no: usize, comment: &str, out: &mut impl FnMut(ReadResult)) {
        let Some((key, value)) = header_fields(comment) else {
            return;
        };
        let result = match key.as_str() {
            "shape" => match value.parse::<Shape>() {
                Ok(shape) => {
                    self.shape_header = Some(shape);
                    Ok(())
                }
                Err(e) => {
                    out(Err(ParseError {
                        line: line_no,
                        column: 1,
                        message: format!("bad shape {value:?}: {e}"),
                    }));
                    return;
                }
            },
            "variant" => value.parse::<Variant>().map(|v| {
                self.shape_header = None;
                let regions = self.variant.regions.take();
                self.variant = Variant {
                    regions: if v.jigsaw { regions } else { None },
                    ..v
                };
            }),
            "regions" => {
                let labels = value.chars().filter(|c| !c.is_whitespace()).count();
                let n = (labels as f64).sqrt().round() as usize;
                Variant::parse_regions(value, n).map(|r| self.variant.set_regions(r))
            }
            _ => return,
        };
        self.geometries.clear();
        if let Err(e) = result {
            out(Err(ParseError {
                line: line_no,
                column: 1,
                message: e.to_string(),
            }));
        }
    }

    /// Hands a finished puzzle on, or keeps it until its region map has been read.
    fn emit(&mut self, result: ReadResult, out: &mut impl FnMut(ReadResult)) {
        match result {
            Ok(record) if self.needs_regions() => self.awaiting = Some((record, String::new())),
            other => out(other),
        }
    }

    /// Adds a line of region labels to the awaiting puzzle; emits it once the map is
    /// complete.
    fn add_region_line(&mut self, line_no: usize, line: &str, out: &mut impl FnMut(ReadResult)) {
        let Some((record, labels)) = self.awaiting.as_mut() else {
            return;
        };
        let here = line.chars().filter(|&c| is_map_label(c)).count();
        let n = record.grid.size();
        // A map is one line of n * n labels or n lines of n: a line of another length
        // is named itself, rather than run on into the lines after it (the next
        // puzzle's, or its map).
        let fits = here == n || (labels.is_empty() && here == n * n);
        if here > 0 && !fits {
            let (record, _) = self.awaiting.take().expect("awaiting puzzle");
            out(Err(ParseError {
                line: line_no,
                column: 1,
                message: format!(
                    "region map after the puzzle of line {}: {here} labels on this line; a map of a {n}x{n} grid is one line of {} labels or {n} lines of {n}",
                    record.line,
                    n * n
                ),
            }));
            return;
        }
        labels.extend(line.chars().filter(|&c| is_map_label(c)));
        if labels.chars().count() < n * n {
            return;
        }
        let (record, labels) = self.awaiting.take().expect("awaiting puzzle");
        let err = |message: String| ParseError {
            line: record.line,
            column: 1,
            message,
        };
        let result = Variant::parse_regions(&labels, n)
            .map_err(|e| err(format!("region map after the puzzle: {e}")))
            .and_then(|regions| {
                let variant = Variant {
                    regions: Some(regions),
                    ..self.variant.clone()
                };
                let g = Geometry::for_variant(n, self.options.shape, &variant)
                    .map_err(|e| err(e.to_string()))?;
                let grid = Grid::from_cells(Arc::new(g), record.grid.cells().to_vec())
                    .map_err(|e| err(e.to_string()))?;
                Ok(Record { grid, ..record })
            });
        out(result);
    }

    /// Feeds one line (without its line ending); calls `out` for each puzzle or error
    /// it completes (at most two: an unfinished grid and the line itself).
    pub fn push(&mut self, line_no: usize, line: &str, out: &mut impl FnMut(ReadResult)) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let trimmed = line.trim();
        if trimmed.starts_with('#') {
            if header_fields(trimmed).is_some() {
                self.interrupt(line_no, trimmed, out);
                self.header(line_no, trimmed, out);
            }
            return;
        }
        if trimmed.is_empty() || trimmed.starts_with('[') {
            return;
        }
        if self.awaiting.is_some() {
            self.add_region_line(line_no, line, out);
            return;
        }
        if let Some((side, left)) = self.skipping.take() {
            let width = match self.grid_row(line) {
                Ok(None) => {
                    // A separator inside the broken grid.
                    self.skipping = Some((side, left));
                    return;
                }
                Ok(Some(row)) => row.len(),
                Err(_) => rough_width(line),
            };
            if width == side {
                if left > 1 {
                    self.skipping = Some((side, left - 1));
                }
                return;
            }
        }
        // One-line puzzles first: they are the common case, and their tokens can never
        // be read as a grid row of the pending block's side by accident.
        if self.pending.is_none() || !self.is_row_of_pending(line) {
            if let Some(found) = self.find_line_puzzle(line) {
                self.flush_pending(out);
                let result = self.line_record(line_no, line, found);
                self.emit(result, out);
                return;
            }
        }
        let spaced = line.trim().contains([' ', '\t', '|']);
        match self.grid_row(line) {
            Ok(None) => {} // a separator line such as ------+-------+------
            Ok(Some(row)) => self.add_row(line_no, row, spaced, out),
            Err((column, message)) => {
                // The bad row stands for its whole grid: the rows before it (pending)
                // and after it (skipped) make no errors of their own. A bad first row
                // is taken for a grid's when it reads as one, cells apart.
                let width = rough_width(line);
                let side_fits = self
                    .fixed_side()
                    .map_or(self.side_ok(width), |n| n == width);
                self.abandon_grid((spaced && side_fits).then_some(width));
                out(Err(ParseError {
                    line: line_no,
                    column,
                    message,
                }));
            }
        }
    }

    /// Reports a grid left unfinished at the end of the input.
    pub fn finish(&mut self, out: &mut impl FnMut(ReadResult)) {
        self.flush_pending(out);
        if let Some((record, _)) = self.awaiting.take() {
            out(Err(ParseError {
                line: record.line,
                column: 1,
                message: "jigsaw puzzle without a region map (give --regions, a `# regions:` line, or the map after the puzzle)".to_string(),
            }));
        }
    }

    /// The side of a puzzle written as `count` numbers on one line: `count` is the
    /// square of the fixed side, or of a valid side when the line is too long to be a
    /// grid row; a shorter square line is a row until no rows follow it.
    fn numbers_on_one_line(&self, count: usize) -> Option<usize> {
        let k = count.isqrt();
        let fits = match self.fixed_side() {
            Some(n) => n == k,
            None => count > MAX_SIZE && self.side_ok(k),
        };
        (k * k == count && fits).then_some(k)
    }

    fn flush_pending(&mut self, out: &mut impl FnMut(ReadResult)) {
        if let Some(p) = self.pending.take() {
            let k = p.side.isqrt();
            let too_big = p.cells.iter().position(|&d| d as usize > k);
            if p.rows == 1
                && k * k == p.side
                && self.fixed_side().is_none()
                && self.side_ok(k)
                && too_big.is_none()
            {
                // No rows came after it, and its digits fit: a one-line puzzle written
                // with blanks between the cells (`1 0 0 4 ...`, 16 or 36 of them).
                let result = self.finish_block(PendingBlock {
                    first_line: p.first_line,
                    side: k,
                    cells: p.cells,
                    rows: k,
                    first_row: Row::Chars(Vec::new()),
                });
                self.emit(result, out);
                return;
            }
            let (column, message) = if p.rows == 1
                && k * k == p.side
                && self.side_ok(k)
                && let Some(i) = too_big
            {
                // A perfect-square line whose digits do not fit its side: most likely
                // a one-line puzzle with a stray digit, so point at it.
                let (column, shown) = match &p.first_row {
                    Row::Numbers(c) => (c[i].0, c[i].1.to_string()),
                    Row::Chars(c) => (c[i].0, (c[i].1 as char).to_string()),
                };
                (
                    column,
                    format!(
                        "'{shown}' is not a digit of a {k}x{k} puzzle (and as the first row \
                         of a {}x{} grid the line has no rows after it)",
                        p.side, p.side
                    ),
                )
            } else if p.rows == 1 {
                (
                    1,
                    format!(
                        "found {} cells: a one-line puzzle needs {} (or --shape), and as the \
                         first row of a {}x{} grid the line has no rows after it",
                        p.side,
                        self.one_line_sizes(),
                        p.side,
                        p.side
                    ),
                )
            } else {
                (
                    1,
                    format!(
                        "grid of side {} ended after {} of its {} rows",
                        p.side, p.rows, p.side
                    ),
                )
            };
            out(Err(ParseError {
                line: p.first_line,
                column,
                message,
            }));
        }
    }

    /// Gives up the grid whose row just failed (the pending one, else a new one of
    /// `new_side` that this row would have started): its remaining rows are skipped.
    fn abandon_grid(&mut self, new_side: Option<usize>) {
        self.skipping = match self.pending.take() {
            Some(p) => Some((p.side, p.side - p.rows - 1)),
            None => new_side.map(|n| (n, n - 1)),
        }
        .filter(|&(_, left)| left > 0);
    }

    fn is_row_of_pending(&self, line: &str) -> bool {
        let Some(p) = &self.pending else { return false };
        matches!(self.grid_row(line), Ok(Some(ref row)) if row.len() == p.side)
    }

    /// Finds a one-line puzzle on the line: the first whitespace-separated token that
    /// starts with a run of cell characters of a valid puzzle length. Returns (byte
    /// offset, side).
    fn find_line_puzzle(&self, line: &str) -> Option<(usize, usize)> {
        let bytes = line.as_bytes();
        let fixed = self.fixed_side();
        let mut i = 0;
        while i < bytes.len() {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            let start = i;
            let mut run = 0;
            let mut max_digit = 0;
            // Eight characters at a time while all are cells: one branch per chunk.
            while let Some(chunk) = bytes.get(i..i + 8) {
                let digits: [u8; 8] = std::array::from_fn(|k| self.run_digit[chunk[k] as usize]);
                let top = digits.iter().fold(0, |m, &d| m.max(d));
                if top == u8::MAX {
                    break;
                }
                max_digit = max_digit.max(top as usize);
                run += 8;
                i += 8;
            }
            while i < bytes.len() {
                let d = self.run_digit[bytes[i] as usize];
                if d == u8::MAX {
                    break;
                }
                max_digit = max_digit.max(d as usize);
                run += 1;
                i += 1;
            }
            if run > 0 {
                let side = match fixed {
                    // More cells than the fixed side holds is an error, not a
                    // comment: the puzzle is of another size.
                    Some(n) => (run == n * n).then_some(n),
                    None => {
                        let n = (run as f64).sqrt().round() as usize;
                        // An unknown side: a perfect-square run. Runs of at most 64
                        // cells may also be a grid row (16 cells: a 4x4 puzzle or a
                        // 16x16 row); the digits decide: above 4, it is a row.
                        let fits = max_digit <= n || run > MAX_SIZE;
                        (n * n == run && self.side_ok(n) && fits).then_some(n)
                    }
                };
                if let Some(n) = side {
                    let followed_ok = start + run == bytes.len()
                        || self.widest.digit(bytes[start + run]).is_none();
                    if followed_ok {
                        return Some((start, n));
                    }
                }
            }
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                i += 1;
            }
        }
        None
    }

    fn line_record(
        &mut self,
        line_no: usize,
        line: &str,
        (start, n): (usize, usize),
    ) -> ReadResult {
        let err = |column: usize, message: String| ParseError {
            line: line_no,
            column,
            message,
        };
        let column_of = |byte: usize| line[..byte].chars().count() + 1;
        let geometry = self.geometry_for(n).map_err(|m| err(column_of(start), m))?;
        let symbols = self.symbols_for(n).map_err(|m| err(column_of(start), m))?;
        let bytes = &line.as_bytes()[start..start + n * n];
        let cells: Vec<u8> = bytes
            .iter()
            .map(|&b| symbols.digit(b).unwrap_or(u8::MAX))
            .collect();
        if let Some(k) = cells.iter().position(|&d| d == u8::MAX) {
            return Err(err(
                column_of(start + k),
                format!(
                    "'{}' is not a digit of a {n}x{n} puzzle",
                    line[start + k..].chars().next().unwrap_or('?')
                ),
            ));
        }
        let grid =
            Grid::from_cells(geometry, cells).map_err(|e| err(column_of(start), e.to_string()))?;
        Ok(Record {
            grid,
            line: line_no,
            column: column_of(start),
            single_line: true,
            prefix: line[..start].trim().to_string(),
            comment: line[start + n * n..].trim().to_string(),
        })
    }

    /// Splits a grid row into cells: `Ok(None)` for a separator line, an error with a
    /// 1-based column for a character that is neither a cell nor a separator.
    fn grid_row(&self, line: &str) -> Result<Option<Row>, (usize, String)> {
        let tokens: Vec<(usize, &str)> = line
            .split_whitespace()
            .map(|t| (t.as_ptr() as usize - line.as_ptr() as usize, t))
            .collect();
        let numeric = tokens.len() >= 2
            && tokens
                .iter()
                .all(|(_, t)| t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit()));
        if numeric {
            // Matrix row: whitespace-separated integers, 0 = empty.
            let cells = tokens
                .iter()
                .map(|&(at, t)| {
                    (
                        line[..at].chars().count() + 1,
                        t.parse::<u8>().unwrap_or(u8::MAX),
                    )
                })
                .collect();
            return Ok(Some(Row::Numbers(cells)));
        }
        // Simple Sudoku's top and bottom frames, `*-----------*`: its stars are corners,
        // not empty cells.
        if line.contains("--")
            && line
                .chars()
                .all(|c| c.is_whitespace() || "|-+=:*".contains(c))
        {
            return Ok(None);
        }
        // A sign stuck to a cell (`-3`, `+3`, `3-`) is no separator: matrix rows would
        // otherwise lose the sign and read the number.
        if let Some(&(at, t)) = tokens.iter().find(|(_, t)| {
            t.contains(['-', '+'])
                && t.bytes()
                    .any(|b| b != b'-' && b != b'+' && self.widest.digit(b).is_some())
        }) {
            // Point at the sign; name the token when it is short enough to read (`-3`),
            // the sign alone in a long one (a puzzle line with a stray sign).
            let sign = t.find(['-', '+']).unwrap_or(0);
            let what = if t.len() <= 8 {
                format!("{t:?}")
            } else {
                format!("'{}'", &t[sign..sign + 1])
            };
            return Err((
                line[..at + sign].chars().count() + 1,
                format!(
                    "{what} is not a cell: a cell is a digit, or '.', '0', '_' or '*' when empty"
                ),
            ));
        }
        let mut cells = Vec::new();
        // Our side-by-side pretty form (`solve -f pretty`): puzzle and solution rows with
        // the same number of cells, four blanks apart. The puzzle is the left one.
        let line = match line.trim_start().find("    ") {
            Some(at) => {
                let at = at + line.len() - line.trim_start().len();
                let count = |part: &str| {
                    part.chars()
                        .filter(|&c| u8::try_from(c).is_ok_and(|b| self.widest.digit(b).is_some()))
                        .count()
                };
                let (left, right) = line.split_at(at);
                if count(left) > 0 && count(left) == count(right) {
                    left
                } else {
                    line
                }
            }
            None => line,
        };
        for (column, ch) in line.chars().enumerate() {
            if ch.is_whitespace() || matches!(ch, '|' | '-' | '+' | '=' | ':') {
                continue;
            }
            match u8::try_from(ch)
                .ok()
                .filter(|&b| self.widest.digit(b).is_some())
            {
                Some(b) => cells.push((column + 1, b)),
                None => {
                    return Err((
                        column + 1,
                        format!(
                            "unexpected {ch:?}: expected a digit, or '.', '0', '_' or '*' for an empty cell"
                        ),
                    ));
                }
            }
        }
        Ok((!cells.is_empty()).then_some(Row::Chars(cells)))
    }

    /// Adds a grid row (`spaced`: written with blanks or bars between cells).
    fn add_row(
        &mut self,
        line_no: usize,
        row: Row,
        spaced: bool,
        out: &mut impl FnMut(ReadResult),
    ) {
        let side = row.len();
        if let Some(p) = self.pending.as_ref().filter(|p| p.side != side) {
            // A row a cell or two off after two rows that agree is that grid's bad row (a
            // typo), not the end of one grid and the start of another: one error, at the
            // row, and the grid's other rows skipped, as for a bad character.
            if p.rows >= 2 && side.abs_diff(p.side) <= 2 {
                let (first, want) = (p.first_line, p.side);
                self.abandon_grid(None);
                // At the first cell too many, when there are too many.
                let (Row::Numbers(cells) | Row::Chars(cells)) = &row;
                let column = cells.get(want).map_or(1, |&(column, _)| column);
                out(Err(ParseError {
                    line: line_no,
                    column,
                    message: format!(
                        "found {side} cells on this row of the grid from line {first}, whose rows have {want}"
                    ),
                }));
                return;
            }
            self.flush_pending(out);
        }
        if self.pending.is_none()
            && let Some(k) = self.numbers_on_one_line(side)
        {
            // A puzzle on one line with blanks between its cells: numbers (`4 0 0 0 3 0
            // ...`) or symbols (`. 8 3 . 2 ...`, as a hint's state may be written).
            let err = |column: usize, message: String| ParseError {
                line: line_no,
                column,
                message,
            };
            let cells: Result<Vec<u8>, ParseError> = match &row {
                Row::Numbers(cells) => cells
                    .iter()
                    .map(|&(column, v)| {
                        (v as usize <= k).then_some(v).ok_or_else(|| {
                            err(
                                column,
                                format!("{v} is larger than the side {k} of this puzzle"),
                            )
                        })
                    })
                    .collect(),
                Row::Chars(cells) => match self.symbols_for(k) {
                    Ok(symbols) => cells
                        .iter()
                        .map(|&(column, b)| {
                            symbols.digit(b).ok_or_else(|| {
                                err(
                                    column,
                                    format!("'{}' is not a digit of a {k}x{k} puzzle", b as char),
                                )
                            })
                        })
                        .collect(),
                    Err(message) => Err(err(1, message)),
                },
            };
            let result = cells.and_then(|cells| {
                self.finish_block(PendingBlock {
                    first_line: line_no,
                    side: k,
                    cells,
                    rows: k,
                    first_row: Row::Chars(Vec::new()),
                })
            });
            self.emit(result, out);
            return;
        }
        if self.pending.is_none() {
            let fixed = self.fixed_side();
            let shapeless = fixed.is_none() && !self.side_ok(side);
            if fixed.is_some_and(|n| n != side) || !(2..=MAX_SIZE).contains(&side) || shapeless {
                let expected = match fixed {
                    Some(n) => format!(
                        "{} cells (one-line puzzle) or a grid row of {n}, the side {} sets",
                        n * n,
                        self.side_source()
                    ),
                    None => format!(
                        "a one-line puzzle of {} (or --shape), or a grid row of 4 to 64 cells",
                        self.one_line_sizes()
                    ),
                };
                out(Err(ParseError {
                    line: line_no,
                    column: 1,
                    message: format!("found {side} cells on the line; expected {expected}"),
                }));
                return;
            }
            let first_row = row.clone();
            self.pending = Some(PendingBlock {
                first_line: line_no,
                side,
                cells: Vec::with_capacity(side * side),
                rows: 0,
                first_row,
            });
        }
        let symbols = match self.symbols_for(side) {
            Ok(s) => s,
            Err(message) => {
                self.pending = None;
                out(Err(ParseError {
                    line: line_no,
                    column: 1,
                    message,
                }));
                return;
            }
        };
        let mut values = Vec::with_capacity(side);
        let mut bad = None;
        match row {
            Row::Numbers(cells) => {
                for (column, v) in cells {
                    if v as usize > side {
                        bad = Some((
                            column,
                            format!("{v} is larger than the side {side} of this grid"),
                        ));
                        break;
                    }
                    values.push(v);
                }
            }
            Row::Chars(cells) => {
                for (column, b) in cells {
                    match symbols.digit(b) {
                        Some(d) => values.push(d),
                        None => {
                            bad = Some((
                                column,
                                format!("'{}' is not a digit of a {side}x{side} grid", b as char),
                            ));
                            break;
                        }
                    }
                }
            }
        }
        if let Some((column, message)) = bad {
            // A bad first row written without blanks is no grid's yet (a one-line 4x4
            // puzzle with a typo reads as a 16x16 row): the lines after it are read
            // afresh rather than skipped as the rest of its grid, as with a bad
            // first row that reads as no row at all.
            if !spaced && self.pending.as_ref().is_some_and(|p| p.rows == 0) {
                self.pending = None;
            } else {
                self.abandon_grid(None);
            }
            out(Err(ParseError {
                line: line_no,
                column,
                message,
            }));
            return;
        }
        let p = self.pending.as_mut().expect("pending block");
        p.cells.extend_from_slice(&values);
        p.rows += 1;
        if p.rows == p.side {
            let p = self.pending.take().expect("pending block");
            let result = self.finish_block(p);
            self.emit(result, out);
        }
    }

    fn finish_block(&mut self, p: PendingBlock) -> ReadResult {
        let err = |message: String| ParseError {
            line: p.first_line,
            column: 1,
            message,
        };
        // Numbers need no alphabet, but a custom one fixes the side of every puzzle read
        // with it (rows of symbols check it as they come; numbers on one line, here).
        self.symbols_for(p.side).map_err(err)?;
        let geometry = self.geometry_for(p.side).map_err(err)?;
        let grid = Grid::from_cells(geometry, p.cells).map_err(|e| err(e.to_string()))?;
        Ok(Record {
            grid,
            line: p.first_line,
            column: 1,
            single_line: false,
            prefix: String::new(),
            comment: String::new(),
        })
    }
}

/// The key and value of a header comment (`# variant: x` -> `variant`, `x`), or `None`
/// for any other comment.
fn header_fields(comment: &str) -> Option<(String, &str)> {
    let (key, value) = comment.trim_start_matches('#').split_once(':')?;
    let key = key.trim().to_ascii_lowercase();
    matches!(key.as_str(), "shape" | "variant" | "regions").then_some((key, value.trim()))
}

/// Reads exactly one puzzle from a text (a command-line argument, a small file).
pub fn parse_one(text: &str, options: &ReadOptions) -> Result<Record, ParseError> {
    let mut reader = Reader::new(options.clone());
    let mut results = Vec::new();
    let mut out = |r: ReadResult| results.push(r);
    for (i, line) in text.lines().enumerate() {
        reader.push(i + 1, line, &mut out);
    }
    reader.finish(&mut out);
    match results.len() {
        0 => Err(ParseError {
            line: 1,
            column: 1,
            message: "no puzzle found".to_string(),
        }),
        1 => results.pop().expect("one result"),
        _ => {
            let first = results.into_iter().next().expect("results");
            match first {
                Err(e) => Err(e),
                Ok(r) => Err(ParseError {
                    line: r.line,
                    column: 1,
                    message: "expected one puzzle, found more".to_string(),
                }),
            }
        }
    }
}

/// Reads one puzzle with default options (shape inferred, standard symbols).
pub fn parse_grid(text: &str) -> Result<Grid, ParseError> {
    parse_one(text, &ReadOptions::default()).map(|r| r.grid)
}

/// Output formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// One line of `n*n` characters.
    #[default]
    Line,
    /// `n` lines of integers, 0 = empty, as Octave's `disp` prints them.
    Matrix,
    /// A grid with `|`, `-` and `+` box separators.
    Pretty,
}

/// Writes a grid on one line (`.` for empty cells).
pub fn to_line(grid: &Grid, symbols: &Symbols) -> String {
    grid.cells().iter().map(|&d| symbols.char(d)).collect()
}

/// How many cells a grid row that could not be read seems to have: its tokens when
/// they are short (numbers), else its characters other than separators.
fn rough_width(line: &str) -> usize {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.len() >= 2 && tokens.iter().all(|t| t.len() <= 3) && !line.contains('|') {
        tokens.len()
    } else {
        line.chars()
            .filter(|&c| !c.is_whitespace() && !"|-+=:".contains(c))
            .count()
    }
}

/// Writes a grid as `n` lines of right-aligned integers (0 = empty), like Octave's `disp`.
pub fn to_matrix(grid: &Grid) -> String {
    let n = grid.size();
    let width = if n >= 10 { 5 } else { 4 };
    let mut s = String::with_capacity(n * n * width + n);
    for r in 0..n {
        for c in 0..n {
            let _ = write!(s, "{:>width$}", grid.get(r * n + c));
        }
        s.push('\n');
    }
    s
}

/// The box separators of a grid: (rows per band, columns per stack), or no separators
/// for geometries without boxes.
fn box_dims(grid: &Grid) -> (usize, usize) {
    match grid.geometry().shape() {
        Some(s) => (s.box_rows(), s.box_cols()),
        None => (grid.size(), grid.size()),
    }
}

/// Writes a grid with `|`, `-` and `+` between boxes (Simple Sudoku style; readable back).
/// Jigsaw grids get the same marks along region borders; Latin squares none.
pub fn to_pretty(grid: &Grid, symbols: &Symbols) -> String {
    if let Some(regions) = &grid.geometry().variant().regions {
        return to_pretty_regions(grid, symbols, regions);
    }
    let n = grid.size();
    let (br, bc) = box_dims(grid);
    let stacks = n / bc;
    let rule = vec!["-".repeat(2 * bc + 1); stacks].join("+");
    let rule = &rule[1..rule.len() - 1];
    let mut s = String::new();
    for r in 0..n {
        if r > 0 && r % br == 0 {
            s.push_str(rule);
            s.push('\n');
        }
        for c in 0..n {
            if c > 0 {
                s.push_str(if c % bc == 0 { " | " } else { " " });
            }
            s.push(symbols.char(grid.get(r * n + c)));
        }
        s.push('\n');
    }
    s
}

/// Jigsaw layout: cells four columns apart, ` | ` between horizontal neighbours of
/// different regions (`   ` otherwise), and between rows a rule with `-` under every cell
/// whose region differs from the cell below (`+` where borders meet). The grid reader
/// skips rules and separators, so the output reads back.
fn to_pretty_regions(grid: &Grid, symbols: &Symbols, regions: &[u8]) -> String {
    let n = grid.size();
    let side = |r: usize, c: usize| c + 1 < n && regions[r * n + c] != regions[r * n + c + 1];
    let mut s = String::new();
    for r in 0..n {
        if r > 0 {
            let under = |c: usize| regions[r * n + c] != regions[(r - 1) * n + c];
            let mut rule = String::new();
            for c in 0..n {
                rule.push(if under(c) { '-' } else { ' ' });
                if c + 1 < n {
                    let wall = side(r - 1, c) || side(r, c);
                    let dash = |x: bool| if x { '-' } else { ' ' };
                    rule.push(dash(under(c)));
                    rule.push(match (wall, under(c) || under(c + 1)) {
                        (true, true) => '+',
                        (true, false) => '|',
                        (false, true) => '-',
                        (false, false) => ' ',
                    });
                    rule.push(dash(under(c + 1)));
                }
            }
            if rule.contains('-') {
                s.push_str(rule.trim_end());
                s.push('\n');
            }
        }
        for c in 0..n {
            s.push(symbols.char(grid.get(r * n + c)));
            if c + 1 < n {
                s.push_str(if side(r, c) { " | " } else { "   " });
            }
        }
        s.push('\n');
    }
    s
}

/// Writes candidates as a pencil-mark grid: each cell's digits, columns aligned, boxes
/// separated as in [`to_pretty`].
pub fn to_pencilmarks(cands: &Candidates, symbols: &Symbols) -> String {
    let g = cands.geometry();
    let n = g.size();
    let (br, bc) = match g.shape() {
        Some(s) => (s.box_rows(), s.box_cols()),
        None => (n, n),
    };
    let text: Vec<String> = cands
        .sets()
        .iter()
        .map(|set| set.iter().map(|d| symbols.char(d)).collect())
        .collect();
    let widths: Vec<usize> = (0..n)
        .map(|c| {
            (0..n)
                .map(|r| text[r * n + c].len())
                .max()
                .unwrap_or(1)
                .max(1)
        })
        .collect();
    let mut lines = Vec::new();
    for r in 0..n {
        let mut line = String::new();
        for c in 0..n {
            if c > 0 {
                line.push_str(if c % bc == 0 { " | " } else { " " });
            }
            let _ = write!(line, "{:<w$}", text[r * n + c], w = widths[c]);
        }
        lines.push(line.trim_end().to_string());
    }
    let mut s = String::new();
    let width = lines.iter().map(|l| l.len()).max().unwrap_or(0);
    for (r, line) in lines.iter().enumerate() {
        if r > 0 && r % br == 0 {
            // Put a '+' under every box separator of the first line.
            let first = &lines[0];
            let rule: String = (0..width)
                .map(|i| {
                    if first.as_bytes().get(i) == Some(&b'|') {
                        '+'
                    } else {
                        '-'
                    }
                })
                .collect();
            s.push_str(&rule);
            s.push('\n');
        }
        s.push_str(line);
        s.push('\n');
    }
    s
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Line => "line",
            Format::Matrix => "matrix",
            Format::Pretty => "pretty",
        })
    }
}

/// Characters that draw the frame of a pencil-mark grid (HoDoKu and Sudoku Explainer
/// close theirs with a line of `'`), never part of a cell.
const FRAME: &str = "|-+.:*='";

/// Whether a text looks like a candidates state rather than a puzzle: a 729-character
/// line (nine places per cell), or cells separated by blanks or frames whose number is
/// a square (16, 36, 81, ...) with some cell holding several digits. Cells of a
/// pencil-mark grid stand apart, so text whose lines have no blank between groups of
/// digits is a puzzle (its dots are empty cells, not frames); and a `0` on its own is
/// an empty cell of a puzzle written in numbers (`10 0 3 ...`), never a set of candidates.
pub fn looks_like_candidates(text: &str) -> bool {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if lines.len() == 1 && lines[0].len() == 729 {
        return true;
    }
    let spaced = lines.iter().any(|l| {
        l.split_whitespace()
            .filter(|t| t.chars().any(|c| c.is_alphanumeric()))
            .nth(1)
            .is_some()
    });
    let tokens: Vec<&str> = lines
        .iter()
        .flat_map(|l| l.split(|c: char| c.is_whitespace() || FRAME.contains(c)))
        .filter(|t| !t.is_empty())
        .collect();
    let n = tokens.len();
    // Rows of cells holding three or more candidates (no number in a puzzle has three
    // digits): a pencil-mark grid even when a cell is wrong or missing, so that its
    // reader can say where.
    let pencil_rows = lines
        .iter()
        .filter(|l| {
            let cells: Vec<&str> = l
                .split(|c: char| c.is_whitespace() || (FRAME.contains(c) && c != '.'))
                .filter(|t| !t.is_empty())
                .collect();
            cells.len() >= 4
                && cells
                    .iter()
                    .all(|t| t.len() <= MAX_SIZE && t.chars().all(|c| c.is_alphanumeric()))
                && cells.iter().any(|t| t.len() >= 3)
        })
        .count();
    pencil_rows >= 2
        || (spaced
            && (4..=MAX_SIZE).any(|k| k * k == n)
            && tokens.iter().any(|t| t.len() >= 2)
            && !tokens.iter().any(|t| t.bytes().all(|b| b == b'0')))
}

/// The geometry of a pencil-mark grid of side `n`: the options' (their variant and
/// region map too, as puzzles are read).
fn candidates_geometry(n: usize, options: &ReadOptions) -> Result<Arc<Geometry>, String> {
    if let Some(g) = &options.geometry {
        return Ok(g.clone());
    }
    Geometry::for_variant(n, options.shape, &options.variant)
        .map(Arc::new)
        .map_err(|e| e.to_string())
}

/// Reads candidates: a 729-character line (for each cell in row order, nine places
/// holding its digits 1-9 where possible and `.` or `0` where not, as Sudoku
/// Explainer's `%m` writes them), or a pencil-mark grid: one group of candidate digits
/// per cell, separated by blanks, with optional frame characters (`|`, `-`, `+`, `.`,
/// `:`, `*`, `=`, `'`) as HoDoKu, Simple Sudoku and [`to_pencilmarks`] write them. The side comes
/// from the number of cells (16, 36, 81, ...) unless `options` fix it. Errors name the
/// 1-based line and column.
pub fn parse_candidates(text: &str, options: &ReadOptions) -> Result<Candidates, ParseError> {
    let err = |line: usize, column: usize, message: String| ParseError {
        line,
        column,
        message,
    };
    let first = text
        .lines()
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some((first_no, first_line)) = first else {
        return Err(err(1, 1, "no candidates found".into()));
    };
    // The 729-character line.
    let trimmed = first_line.trim();
    if trimmed.chars().count() == 729 && !trimmed.contains(' ') {
        let offset = first_line.chars().count() - first_line.trim_start().chars().count();
        let geometry = candidates_geometry(9, options).map_err(|m| err(first_no + 1, 1, m))?;
        let mut sets = vec![DigitSet::EMPTY; 81];
        for (k, ch) in trimmed.chars().enumerate() {
            let (cell, place) = (k / 9, k % 9);
            let column = offset + k + 1;
            match ch {
                '.' | '0' => {}
                '1'..='9' if ch as usize - '0' as usize == place + 1 => {
                    sets[cell].insert(place as u8 + 1);
                }
                _ => {
                    return Err(err(
                        first_no + 1,
                        column,
                        format!(
                            "expected {} or '.' for digit {} of {}, found {:?}",
                            place + 1,
                            place + 1,
                            geometry.cell_name(cell),
                            ch
                        ),
                    ));
                }
            }
        }
        // A cell with no candidate cannot be written as a pencil-mark grid, and no state
        // reached by sound steps has one.
        if let Some(cell) = sets.iter().position(|s| s.is_empty()) {
            return Err(err(
                first_no + 1,
                offset + 9 * cell + 1,
                format!("{} has no candidate", geometry.cell_name(cell)),
            ));
        }
        return Candidates::from_sets(geometry, sets)
            .map_err(|e| err(first_no + 1, offset + 1, e.to_string()));
    }
    // A pencil-mark grid: tokens of symbols.
    let mut tokens: Vec<(usize, usize, &str)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        let mut start = None;
        for (j, ch) in line
            .char_indices()
            .chain(std::iter::once((line.len(), ' ')))
        {
            let frame = ch.is_whitespace() || FRAME.contains(ch);
            match (frame, start) {
                (false, None) => start = Some(j),
                (true, Some(st)) => {
                    tokens.push((i + 1, line[..st].chars().count() + 1, &line[st..j]));
                    start = None;
                }
                _ => {}
            }
        }
    }
    let count = tokens.len();
    let n = match options.geometry.as_ref() {
        Some(g) => g.size(),
        None => match options.shape {
            Some(s) => s.size(),
            None => (2..=MAX_SIZE).find(|&n| n * n == count).unwrap_or(0),
        },
    };
    // The rows as written: line, first column, cells. Rows of uneven length would
    // otherwise be read as the cells run on, shifted into other cells.
    let mut rows: Vec<(usize, usize, usize)> = Vec::new();
    for &(line, column, _) in &tokens {
        match rows.last_mut() {
            Some(row) if row.0 == line => row.2 += 1,
            _ => rows.push((line, column, 1)),
        }
    }
    // The side when known, else the length most rows have, for naming the odd row.
    let usual = if n > 0 {
        n
    } else {
        let many = |len: usize| rows.iter().filter(|r| r.2 == len).count();
        rows.iter()
            .map(|r| r.2)
            .max_by_key(|&len| many(len))
            .unwrap_or(0)
    };
    if rows.len() > 1
        && let Some(&(line, column, cells)) = rows.iter().find(|r| r.2 != usual)
    {
        return Err(err(
            line,
            column,
            format!(
                "found {cells} cells of candidates on this row; the rows of this pencil-mark grid have {usual}"
            ),
        ));
    }
    if n == 0 || n * n != count {
        let (line, column) = tokens.last().map_or((1, 1), |t| (t.0, t.1));
        return Err(err(
            line,
            column,
            format!(
                "found {count} cells of candidates; a pencil-mark grid needs 16, 36, 81, 256, ... (or --shape)"
            ),
        ));
    }
    let geometry = candidates_geometry(n, options).map_err(|m| err(first_no + 1, 1, m))?;
    let symbols = options
        .symbols
        .symbols(n)
        .map_err(|e| err(first_no + 1, 1, e.to_string()))?;
    let mut sets = Vec::with_capacity(count);
    for (line, column, tok) in tokens {
        let mut set = DigitSet::EMPTY;
        // By characters, not bytes: a character outside ASCII is named as written.
        for (k, ch) in tok.chars().enumerate() {
            match u8::try_from(ch).ok().and_then(|b| symbols.digit(b)) {
                // A digit written twice is a slip (a typo for another digit, perhaps):
                // reading the set as if it were once would hide it.
                Some(d) if d > 0 && set.contains(d) => {
                    return Err(err(
                        line,
                        column + k,
                        format!("{ch:?} is written twice among the candidates of this cell"),
                    ));
                }
                Some(d) if d > 0 => set.insert(d),
                _ => {
                    return Err(err(
                        line,
                        column + k,
                        format!("{ch:?} is not a digit of a {n}x{n} grid"),
                    ));
                }
            }
        }
        sets.push(set);
    }
    Candidates::from_sets(geometry, sets).map_err(|e| err(1, 1, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LO_SHU: &str =
        "816000003357000080492100000003816000000357000000492100000003816020000357100000492";

    fn read_all(text: &str, options: ReadOptions) -> Vec<ReadResult> {
        let mut reader = Reader::new(options);
        let mut results = Vec::new();
        let mut out = |r| results.push(r);
        for (i, line) in text.lines().enumerate() {
            reader.push(i + 1, line, &mut out);
        }
        reader.finish(&mut out);
        results
    }

    #[test]
    fn one_line_puzzles_in_numbers_and_stray_digits() {
        // Numbers on one line: 81 of them (too many for a grid row), or 16 with no rows
        // after them.
        let numbers: Vec<String> = LO_SHU
            .chars()
            .map(|c| c.to_digit(10).unwrap_or(0).to_string())
            .collect();
        let r = parse_one(&numbers.join(" "), &ReadOptions::default()).unwrap();
        assert_eq!(r.grid, parse_grid(LO_SHU).unwrap());
        let r = parse_one("1 0 0 0 0 0 3 0 0 2 0 0 0 1 0 4", &ReadOptions::default()).unwrap();
        assert_eq!(r.grid, parse_grid("1.....3..2...1.4").unwrap());
        let mut bad = numbers.clone();
        bad[3] = "12".into();
        let e = parse_one(&bad.join(" "), &ReadOptions::default()).unwrap_err();
        assert_eq!(e.column, 7, "{}", e.message);
        // Symbols with blanks between them, dots for empty cells: found by use (a hint's
        // state written out), refused as "found 81 cells on the line; expected ... 81".
        let spaced: Vec<String> = LO_SHU.replace('0', ".").chars().map(String::from).collect();
        let r = parse_one(&spaced.join(" "), &ReadOptions::default()).unwrap();
        assert_eq!(r.grid, parse_grid(LO_SHU).unwrap());
        let letters = "G . . . . . . . . . . . . . . 1 ".repeat(16);
        let r = parse_one(&letters, &ReadOptions::default()).unwrap();
        assert_eq!((r.grid.size(), r.grid.get(0)), (16, 16));
        let mut typo = spaced.clone();
        typo[40] = "x".into();
        let e = parse_one(&typo.join(" "), &ReadOptions::default()).unwrap_err();
        assert_eq!(
            (e.column, e.message.as_str()),
            (81, "'x' is not a digit of a 9x9 puzzle")
        );
        // A one-line puzzle with a digit too large for its side: the error points at
        // it instead of counting cells.
        let e = parse_one("1.4..7...1.2....", &ReadOptions::default()).unwrap_err();
        assert_eq!(e.column, 6);
        assert!(
            e.message.starts_with("'7' is not a digit of a 4x4 puzzle"),
            "{}",
            e.message
        );
        // A Latin square of any order reads: its size message says so (it listed the
        // sudoku sizes only).
        let latin = ReadOptions {
            variant: "latin".parse().unwrap(),
            ..ReadOptions::default()
        };
        let e = parse_one("1234567", &latin).unwrap_err();
        assert!(
            e.message.contains("a square number of cells (4, 9,"),
            "{}",
            e.message
        );
        // Order 2 as well (xkcd's binary sudoku without `--symbols 01`).
        assert_eq!(parse_one("1...", &latin).unwrap().grid.size(), 2);
    }

    #[test]
    fn simple_sudoku_frames_are_frames() {
        let text = "*-----------*\n|816|...|..3|\n|357|...|.8.|\n|492|1..|...|\n|---+---+---|\n\
                    |..3|816|...|\n|...|357|...|\n|...|492|1..|\n|---+---+---|\n\
                    |...|..3|816|\n|.2.|...|357|\n|1..|...|492|\n*-----------*\n";
        let r = read_all(text, ReadOptions::default());
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].as_ref().unwrap().grid, parse_grid(LO_SHU).unwrap());
    }

    #[test]
    fn the_side_by_side_pretty_form_reads_as_its_puzzle() {
        // `solve -f pretty`: the puzzle, four blanks, the solution.
        let text = concat!(
            "8 1 6 | . . . | . . 3    8 1 6 | 5 7 9 | 2 4 3\n",
            "3 5 7 | . . . | . 8 .    3 5 7 | 6 2 4 | 9 8 1\n",
            "4 9 2 | 1 . . | . . .    4 9 2 | 1 3 8 | 7 6 5\n",
            "------+-------+------    ------+-------+------\n",
            ". . 3 | 8 1 6 | . . .    2 4 3 | 8 1 6 | 5 7 9\n",
            ". . . | 3 5 7 | . . .    9 8 1 | 3 5 7 | 6 2 4\n",
            ". . . | 4 9 2 | 1 . .    7 6 5 | 4 9 2 | 1 3 8\n",
            "------+-------+------    ------+-------+------\n",
            ". . . | . . 3 | 8 1 6    5 7 9 | 2 4 3 | 8 1 6\n",
            ". 2 . | . . . | 3 5 7    6 2 4 | 9 8 1 | 3 5 7\n",
            "1 . . | . . . | 4 9 2    1 3 8 | 7 6 5 | 4 9 2\n",
        );
        let r = parse_one(text, &ReadOptions::default()).unwrap();
        assert_eq!(r.grid, parse_grid(LO_SHU).unwrap());
    }

    #[test]
    fn a_fixed_side_does_not_cut_a_longer_puzzle() {
        // Found by use: with --shape 2x2, 33 cells were read as 16 and a "comment" of 17
        // dots. A comment after a blank still follows the puzzle.
        let options = ReadOptions {
            shape: Some(Shape::new(2, 2).unwrap()),
            ..ReadOptions::default()
        };
        let e = parse_one("1.4......1.2.....................", &options).unwrap_err();
        assert!(e.message.contains("found 33 cells"), "{}", e.message);
        let r = parse_one("1.4......1.2.... 17 dots", &options).unwrap();
        assert_eq!(r.comment, "17 dots");
    }

    #[test]
    fn one_line_puzzles_with_ids_and_comments() {
        let text = format!(
            "# a comment\n{LO_SHU}\n00015097c6c3 {} 7.2\n34 {}\n\n",
            LO_SHU.replace('0', "."),
            LO_SHU
        );
        let results = read_all(&text, ReadOptions::default());
        assert_eq!(results.len(), 3);
        let r: Vec<&Record> = results.iter().map(|r| r.as_ref().unwrap()).collect();
        assert_eq!(r[0].line, 2);
        assert_eq!(r[1].prefix, "00015097c6c3");
        assert_eq!(r[1].comment, "7.2");
        assert_eq!(r[2].prefix, "34");
        assert!(r.iter().all(|x| x.grid.cells() == r[0].grid.cells()));
        assert_eq!(
            to_line(&r[0].grid, &Symbols::standard(9)),
            LO_SHU.replace('0', ".")
        );
    }

    #[test]
    fn matrix_and_pretty_round_trip() {
        let grid = parse_grid(LO_SHU).unwrap();
        let symbols = Symbols::standard(9);
        for text in [to_matrix(&grid), to_pretty(&grid, &symbols)] {
            let back = parse_grid(&text).unwrap();
            assert_eq!(back, grid, "{text}");
        }
        // The Octave article's matrix as printed.
        let octave = "   7   0   0   0   0   0   0   0   0\n   0   2   0   0   6   0   0   3   0\n";
        let results = read_all(octave, ReadOptions::default());
        assert_eq!(results.len(), 1);
        assert!(
            results[0]
                .as_ref()
                .unwrap_err()
                .message
                .contains("2 of its 9 rows")
        );
    }

    #[test]
    fn sixteen_by_sixteen_lines_and_rows() {
        let line16 = "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2...C....B7.......AE.964..G......F9.5.7.4............29....A.C..........645D.1......D....1.C.B7F.....E.C2G...8A9B..9.G52.....EF6.256..F.....D.B.E13.6.D........7A...8BC3....954.";
        let g = parse_grid(line16).unwrap();
        assert_eq!(g.size(), 16);
        assert_eq!(g.get(0), 13);
        // The same grid as 16 rows of 16 characters.
        let rows: String = line16
            .as_bytes()
            .chunks(16)
            .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
            .collect();
        assert_eq!(parse_grid(&rows).unwrap(), g);
        // A Shidoku line is not mistaken for a 16x16 row.
        assert_eq!(parse_grid("1..........3...4").unwrap().size(), 4);
    }

    #[test]
    fn errors_name_line_and_column() {
        let bad = LO_SHU.replace("816", "81x");
        let results = read_all(
            &format!("{LO_SHU}\n{bad}\n{LO_SHU}\n"),
            ReadOptions::default(),
        );
        assert_eq!(results.len(), 3);
        let e = results[1].as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert!(results[0].is_ok() && results[2].is_ok());
        let short = &LO_SHU[..80];
        let e = parse_grid(short).unwrap_err();
        assert!(e.message.contains("80 cells"), "{}", e.message);
        // A stray sign in a puzzle line is named and located itself, not the line.
        for sign in ["-", "+"] {
            let signed = format!("{}{sign}{}", &LO_SHU[..40], &LO_SHU[41..]);
            let e = parse_grid(&signed).unwrap_err();
            assert_eq!(e.column, 41);
            assert!(
                e.message.starts_with(&format!("'{sign}' is not a cell")),
                "{}",
                e.message
            );
        }
    }

    #[test]
    fn a_bad_row_makes_one_error_for_its_whole_grid() {
        // A bad cell in the first, a middle or the last row, a letter too large for the
        // side, and a signed number in a matrix: one error each, at the bad cell, and
        // the puzzles after them read (once three errors came for one grid).
        let grid = to_pretty(&parse_grid(LO_SHU).unwrap(), &Symbols::standard(9));
        let rows: Vec<&str> = grid.lines().collect();
        let with = |row: usize, bad: &str| {
            let mut r = rows.clone();
            let broken = r[row].replacen(['1', '2', '3', '.'], bad, 1);
            r[row] = &broken;
            r.join("\n")
        };
        let text = [
            with(0, "?"),
            grid.trim_end().to_string(),
            with(4, "?"),
            with(10, "?"),
            with(6, "x"),
            "1 0 0 0\n0 0 0 0\n0 0 -3 0\n0 0 0 0".to_string(),
            LO_SHU.to_string(),
        ]
        .join("\n");
        let results = read_all(&text, ReadOptions::default());
        let lines: Vec<Result<usize, (usize, usize)>> = results
            .iter()
            .map(|r| match r {
                Ok(rec) => Ok(rec.line),
                Err(e) => Err((e.line, e.column)),
            })
            .collect();
        assert_eq!(
            lines,
            // Grids of 11 lines from lines 1, 12, 23, 34 and 45; the first of 1, 2, 3
            // and '.' in rows 1, 5, 11 and 7 of them is at column 3, 1, 1 and 1.
            [
                Err((1, 3)),
                Ok(12),
                Err((27, 1)),
                Err((44, 1)),
                Err((51, 1)),
                Err((58, 5)),
                Ok(60)
            ]
        );
    }

    #[test]
    fn a_shape_header_names_the_boxes_until_the_next_variant_line() {
        // The same 6x6 line: 3x2 boxes after `# shape: 3x2` (no clash: r1c6 and r2c4
        // share a 2x3 box, not a 3x2 one), 2x3 again after `# variant: standard`.
        let line = ".....1.6.1......34..6...14.5.......3";
        let text = format!("# shape: 3x2\n{line}\n# variant: standard\n{line}\n# shape: 3y2\n");
        let mut reader = Reader::new(ReadOptions::default());
        let mut results = Vec::new();
        for (i, l) in text.lines().enumerate() {
            reader.push(i + 1, l, &mut |r| results.push(r));
        }
        reader.finish(&mut |r| results.push(r));
        let first = results[0].as_ref().unwrap();
        assert_eq!(first.grid.geometry().shape(), Shape::new(3, 2).ok());
        assert!(first.grid.first_conflict().is_none());
        let second = results[1].as_ref().unwrap();
        assert_eq!(second.grid.geometry().shape(), Shape::new(2, 3).ok());
        assert!(second.grid.first_conflict().is_some());
        assert_eq!(results[2].as_ref().unwrap_err().line, 5);
        // A shape line for another side is an error on the puzzle, not ignored.
        let results = read_all("# shape: 3x2\n1.4......1.2....\n", ReadOptions::default());
        let e = results[0].as_ref().unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("# shape: 3x2"), "{}", e.message);
    }

    #[test]
    fn variant_headers_and_region_maps() {
        // A 4x4 jigsaw whose map follows the puzzle as a grid, then one given by a header.
        let text = "# variant: jigsaw\n1...\n....\n....\n...2\naabb\naabb\nccdd\nccdd\n";
        let results = read_all(text, ReadOptions::default());
        assert_eq!(results.len(), 1, "{results:?}");
        let r = results[0].as_ref().unwrap();
        assert_eq!(r.grid.geometry().variant().to_string(), "jigsaw");
        assert_eq!(r.grid.geometry().name(), "jigsaw 4");
        // The pretty form of a jigsaw reads back.
        let pretty = to_pretty(&r.grid, &Symbols::standard(4));
        let options = ReadOptions {
            variant: r.grid.geometry().variant().clone(),
            ..ReadOptions::default()
        };
        assert_eq!(
            parse_one(&pretty, &options).unwrap().grid,
            r.grid,
            "{pretty}"
        );
        // x-sudoku via a header; a bad variant name is an error on its line.
        let results = read_all(
            "# variant: x\n1...............\n# variant: nope\n",
            ReadOptions::default(),
        );
        assert_eq!(results[0].as_ref().unwrap().grid.geometry().name(), "2x2 x");
        assert_eq!(results[1].as_ref().unwrap_err().line, 3);
        // A jigsaw with no map at the end of the input is reported.
        let results = read_all(
            "# variant: jigsaw\n1...............\n",
            ReadOptions::default(),
        );
        assert!(
            results[0]
                .as_ref()
                .unwrap_err()
                .message
                .contains("region map")
        );
        // A map line of the wrong length is named at its line, and the puzzle after it
        // reads with its own map (the short line ran on into that puzzle's line).
        let results = read_all(
            "# variant: jigsaw\n1...............\n111122223333444\n1...............\n1122112233443344\n",
            ReadOptions::default(),
        );
        assert_eq!(results.len(), 2, "{results:?}");
        let e = results[0].as_ref().unwrap_err();
        assert_eq!(e.line, 3);
        assert!(
            e.message.contains("15 labels on this line"),
            "{}",
            e.message
        );
        assert_eq!(results[1].as_ref().unwrap().line, 4);
    }

    #[test]
    fn a_row_a_cell_off_is_one_error_for_its_grid() {
        // It made three: the grid "ended" before it, the row itself, and the rows after
        // it as a grid of their own. The next puzzle still reads.
        let rows: Vec<String> = LO_SHU
            .as_bytes()
            .chunks(9)
            .map(|r| {
                r.iter()
                    .map(|&b| (b as char).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        // (row, a cell more or a cell less)
        for (row, longer) in [(4, false), (4, true), (0, true)] {
            let mut grid = rows.clone();
            grid[row] = if longer {
                format!("{} 5", grid[row])
            } else {
                grid[row][..grid[row].len() - 2].to_string()
            };
            let text = format!("{}\n{LO_SHU}\n", grid.join("\n"));
            let results = read_all(&text, ReadOptions::default());
            let got: Vec<Result<usize, (usize, usize)>> = results
                .iter()
                .map(|r| {
                    r.as_ref()
                        .map(|rec| rec.line)
                        .map_err(|e| (e.line, e.column))
                })
                .collect();
            // A 10-cell first row has no rows to disagree with yet: that grid ends at
            // once, and the eight rows after it are a grid ended early.
            let expected: Vec<Result<usize, (usize, usize)>> = match (row, longer) {
                (4, false) => vec![Err((5, 1)), Ok(10)],
                (4, true) => vec![Err((5, 19)), Ok(10)],
                _ => vec![Err((1, 1)), Err((2, 1)), Ok(10)],
            };
            assert_eq!(got, expected, "{text}");
        }
    }

    #[test]
    fn a_header_inside_a_grid_is_an_error_and_holds_from_the_next_puzzle() {
        // It was dropped: neither the grid nor the X-sudoku after it had the X rule.
        let rows: Vec<&str> = (0..9).map(|r| &LO_SHU[9 * r..9 * r + 9]).collect();
        let x = "1...............";
        let text = format!(
            "{}\n# variant: x\n{}\n{x}\n",
            rows[..3].join("\n"),
            rows[3..].join("\n")
        );
        let results = read_all(&text, ReadOptions::default());
        assert_eq!(results.len(), 2, "{results:?}");
        let e = results[0].as_ref().unwrap_err();
        assert_eq!(e.line, 4);
        assert!(
            e.message.contains("inside the grid from line 1"),
            "{}",
            e.message
        );
        let r = results[1].as_ref().unwrap();
        assert_eq!((r.line, r.grid.geometry().name()), (11, "2x2 x"));
        // Between a jigsaw puzzle and its map: the puzzle has no map.
        let text = "# variant: jigsaw\n1...............\n# variant: x\n1...............\n";
        let results = read_all(text, ReadOptions::default());
        assert_eq!(results.len(), 2, "{results:?}");
        assert!(
            results[0]
                .as_ref()
                .unwrap_err()
                .message
                .contains("without a region map")
        );
        assert_eq!(results[1].as_ref().unwrap().grid.geometry().name(), "2x2 x");
    }

    #[test]
    fn a_side_fixed_by_a_region_map_is_named() {
        let options = ReadOptions {
            variant: Variant {
                jigsaw: true,
                regions: Some(Variant::parse_regions("1122112233443344", 4).unwrap()),
                ..Variant::default()
            },
            ..ReadOptions::default()
        };
        let e = parse_one(LO_SHU, &options).unwrap_err();
        assert!(
            e.message.contains("the side the region map sets"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_bad_four_by_four_line_does_not_swallow_the_lines_after_it() {
        // 'x' made the line a 16x16 grid's first row, and the next 4x4 puzzles were
        // skipped as the rest of that grid without a word.
        let text = "1....2....3....4\n1....2....x....4\n1....2....3....4\n.1..2....3....4.\n";
        let results = read_all(text, ReadOptions::default());
        let lines: Vec<Result<usize, usize>> = results
            .iter()
            .map(|r| r.as_ref().map(|rec| rec.line).map_err(|e| e.line))
            .collect();
        assert_eq!(lines, [Ok(1), Err(2), Ok(3), Ok(4)]);
    }

    #[test]
    fn latin_squares_of_any_side() {
        let options = ReadOptions {
            variant: "latin".parse().unwrap(),
            ..ReadOptions::default()
        };
        let r = parse_one("1....2....3....4.....5...", &options).unwrap();
        assert_eq!(r.grid.size(), 5);
        assert_eq!(r.grid.geometry().name(), "latin 5");
        let binary = ReadOptions {
            variant: "latin".parse().unwrap(),
            symbols: SymbolStyle::Custom("01".into()),
            ..ReadOptions::default()
        };
        assert_eq!(
            parse_one("0...", &binary).unwrap().grid.cells(),
            &[1, 0, 0, 0]
        );
    }

    #[test]
    fn fixed_shape_and_symbols() {
        let options = ReadOptions {
            shape: Some(Shape::new(2, 3).unwrap()),
            ..Default::default()
        };
        let r = parse_one("123456456123..............6.........", &options).unwrap();
        assert_eq!(r.grid.geometry().shape().unwrap().box_cols(), 3);
        let letters = ReadOptions {
            symbols: SymbolStyle::Custom("ABCDEFGHI".into()),
            ..Default::default()
        };
        let moler = LO_SHU
            .bytes()
            .map(|b| {
                if b == b'0' {
                    '.'
                } else {
                    (b'A' + b - b'1') as char
                }
            })
            .collect::<String>();
        assert_eq!(
            parse_one(&moler, &letters).unwrap().grid,
            parse_grid(LO_SHU).unwrap()
        );
        // A custom alphabet fixes the side whatever the form, numbers on one line too
        // (here a region map asks for 2x2: found by fuzzing).
        let sixteen = ReadOptions {
            symbols: SymbolStyle::Custom("1-9A-G".into()),
            ..Default::default()
        };
        let e = parse_one("# regions: 0011\n0 0 0 0\n", &sixteen).unwrap_err();
        assert!(e.message.contains("has 16 symbols"), "{e:?}");
        assert!(parse_one("# regions: 0011\n0 0 0 0\n", &ReadOptions::default()).is_ok());
    }

    #[test]
    fn candidates_round_trip_through_pencil_marks() {
        let grid = parse_grid(LO_SHU).unwrap();
        let cands = Candidates::from_grid(&grid);
        let text = to_pencilmarks(&cands, &Symbols::standard(9));
        assert!(looks_like_candidates(&text));
        let back = parse_candidates(&text, &ReadOptions::default()).unwrap();
        assert_eq!(back, cands);
    }

    #[test]
    fn the_sudopedia_pencil_mark_grid_reads() {
        // Sudopedia's example, verbatim: HoDoKu and Sudoku Explainer close the frame
        // with a line of `'`, which was read as 4 more cells ("found 85 cells").
        let text = ".------------------.------------------.------------------.
| 19    7     169  | 2     156   3    | 459   8     49   |
| 3     4     5    | 7     9     8    | 1     2     6    |
| 2     169   8    | 16    4     156  | 3579  35    379  |
:------------------+------------------+------------------:
| 4     136   1367 | 5     1367  9    | 8     36    2    |
| 17    5     12367| 8     12367 4    | 367   9     37   |
| 8     369   23679| 36    2367  26   | 34567 3456  1    |
:------------------+------------------+------------------:
| 1579  139   13479| 13469 12356 1256 | 23469 346   8    |
| 159   8     1349 | 13469 12356 1256 | 23469 7     349  |
| 6     2     349  | 349   8     7    | 349   1     5    |
'------------------'------------------'------------------'
";
        assert!(looks_like_candidates(text));
        let c = parse_candidates(text, &ReadOptions::default()).unwrap();
        assert_eq!(c.get(80).iter().collect::<Vec<_>>(), vec![5]);
        assert_eq!(c.get(0).iter().collect::<Vec<_>>(), vec![1, 9]);
        // A digit written twice in a cell is named where it repeats (it was read as once).
        let twice = text.replacen("| 1579  ", "| 15799 ", 1);
        let e = parse_candidates(&twice, &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line, e.column), (10, 7), "{e:?}");
        assert!(e.message.contains("'9' is written twice"), "{}", e.message);
    }

    #[test]
    fn puzzles_do_not_look_like_candidates() {
        // Found by use: the dots of a one-line puzzle split it into groups whose number
        // can be a square (49 for top1465 #2), and a 16x16 puzzle in numbers has
        // two-digit cells; `hint` read both as pencil marks.
        for p in [
            "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........\n\
             7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
        ] {
            assert!(!looks_like_candidates(p), "{p}");
        }
        let numbers: Vec<String> = (0..256).map(|i| ((i * 7) % 17).to_string()).collect();
        assert!(!looks_like_candidates(&numbers.join(" ")));
        // A pencil-mark grid with a cell too many or a 0 is still one, so that its
        // reader names the line and column (it was read as a flood of puzzles).
        let pm = to_pencilmarks(
            &Candidates::from_grid(&parse_grid(LO_SHU).unwrap()),
            &Symbols::standard(9),
        );
        assert!(looks_like_candidates(&pm));
        let extra = pm.replacen('\n', " 5\n", 1);
        assert!(looks_like_candidates(&extra));
        let e = parse_candidates(&extra, &ReadOptions::default()).unwrap_err();
        assert!(e.message.contains("found 10 cells"), "{}", e.message);
        // A row a cell short and the next a cell long make 81 cells: the short row is
        // named (it was read as cells shifted into the next row); so is a short row alone.
        let mut lines: Vec<String> = pm.lines().map(str::to_string).collect();
        let rows: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].chars().any(|c| c.is_ascii_digit()))
            .collect();
        let short = lines[rows[3]]
            .trim_end()
            .rsplit_once(' ')
            .unwrap()
            .0
            .to_string();
        let last = lines[rows[3]]
            .trim_end()
            .rsplit_once(' ')
            .unwrap()
            .1
            .to_string();
        lines[rows[3]] = short;
        let shifted = lines.clone();
        lines[rows[4]] = format!("{last} {}", lines[rows[4]]);
        for text in [lines.join("\n"), shifted.join("\n")] {
            let e = parse_candidates(&text, &ReadOptions::default()).unwrap_err();
            assert_eq!(e.line, rows[3] + 1, "{}", e.message);
            assert!(e.message.contains("found 8 cells"), "{}", e.message);
        }
    }

    #[test]
    fn candidates_from_a_729_line() {
        let mut line = String::new();
        for cell in 0..81 {
            for d in 1..=9 {
                line.push(if (cell + d) % 3 == 0 {
                    (b'0' + d as u8) as char
                } else {
                    '.'
                });
            }
        }
        assert!(looks_like_candidates(&line));
        let c = parse_candidates(&line, &ReadOptions::default()).unwrap();
        assert_eq!(c.get(0).iter().collect::<Vec<_>>(), vec![3, 6, 9]);
        let mut bad = line.clone();
        bad.replace_range(10..11, "5");
        let e = parse_candidates(&bad, &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line, e.column), (1, 11));
        // Found by fuzzing: a cell with no candidate used to be accepted, and its
        // pencil-mark grid then did not read back.
        let mut empty = line.clone();
        empty.replace_range(18..27, ".........");
        let e = parse_candidates(&empty, &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line, e.column), (1, 19));
        assert!(e.message.contains("r1c3 has no candidate"), "{}", e.message);
        let short = parse_candidates("12 34\n5", &ReadOptions::default()).unwrap_err();
        assert!(short.message.contains("found"));
        // Characters outside ASCII are named as written, at their column in characters.
        let mut accented = line.clone();
        accented.replace_range(10..11, "é");
        let e = parse_candidates(&accented, &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line, e.column), (1, 11));
        assert!(e.message.contains("'é'"), "{}", e.message);
        let text = to_pencilmarks(
            &Candidates::from_grid(&parse_grid(LO_SHU).unwrap()),
            &Symbols::standard(9),
        )
        .replacen("2579", "25é9", 1);
        let e = parse_candidates(&text, &ReadOptions::default()).unwrap_err();
        assert!(e.message.starts_with("'é' is not a digit"), "{}", e.message);
    }

    #[test]
    fn a_cell_is_located_by_its_column_on_a_single_line_only() {
        // "id7 " takes four columns, so cell 0 is at column 5 and cell 10 at 15.
        let line = format!("id7 {}", ".".repeat(81));
        let one = parse_one(&line, &ReadOptions::default()).unwrap();
        assert_eq!((one.column_of(0), one.column_of(10)), (5, 15));
        let block = (0..9).map(|_| ".........\n").collect::<String>();
        let grid = parse_one(&block, &ReadOptions::default()).unwrap();
        assert!(!grid.single_line);
        assert_eq!(grid.column_of(10), grid.column);
    }
}
