//! Saved games: a small text file a person can read.
//!
//! ```text
//! sudokit-play 1
//! shape 3x3
//! symbols 123456789
//! puzzle 816.....3357....8.4921.......3816......357......4921.......3816.2....3571.....492
//! entries ...4.............................................................................
//! marks r1c5=27 r1c6=27
//! cursor r1c5
//! time 95
//! level easy
//! pencil off
//! auto on
//! done r1c4=+|4+
//! done r1c5=+|+27 r1c6=+|+27
//! undone r2c5=+|6+
//! ```
//!
//! One `key value` line each; `level`, `pencil`, `auto` and the history lines are
//! optional. A variant adds a `variant` line (`x`, `windoku`, `latin`, `jigsaw`...) and
//! a jigsaw its `regions` map (one label per cell); a Latin square or a jigsaw has no
//! `shape` line but a `size` one. Each `done` line is one action (oldest first),
//! `undone` lines are the redo stack (the next redo last). A change is `CELL=BEFORE|AFTER`, a cell state being
//! `VALUE+MARKS` with the value a symbol or nothing and the marks a string of symbols
//! (`+` and `|` cannot be symbols, so the fields split unambiguously).
//!
//! Reading checks everything (sizes, symbols, that the history leads from the empty
//! board to the saved one) and names the line of the first problem.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use sudokit::format::{ReadOptions, SymbolStyle, parse_one};
use sudokit::geometry::{Cell, Geometry, GeometryError};
use sudokit::grid::DigitSet;
use sudokit::shape::MAX_SIZE;
use sudokit::{Shape, Symbols, Variant};

use crate::game::{Action, CellState, Change, Game, LEVEL_KEYS};

/// The first line of every saved game.
const MAGIC: &str = "sudokit-play 1";

/// Why a saved game could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// 1-based line of the problem (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for LoadError {}

fn err(line: usize, message: impl Into<String>) -> LoadError {
    LoadError {
        line,
        message: message.into(),
    }
}

impl Game {
    /// The game as saved-game text.
    pub fn to_save(&self) -> String {
        let g = self.geometry();
        let mut s = String::new();
        let _ = writeln!(s, "{MAGIC}");
        match g.shape() {
            Some(shape) => _ = writeln!(s, "shape {shape}"),
            None => _ = writeln!(s, "size {}", g.size()),
        }
        let variant = g.variant();
        if !variant.is_standard() {
            let _ = writeln!(s, "variant {variant}");
        }
        if let Some(map) = variant.region_labels() {
            let _ = writeln!(s, "regions {map}");
        }
        let sym = &self.symbols;
        let n = g.size();
        let _ = writeln!(
            s,
            "symbols {}",
            (1..=n as u8).map(|d| sym.char(d)).collect::<String>()
        );
        let _ = writeln!(s, "puzzle {}", sudokit::format::to_line(&self.puzzle, sym));
        let entries: String = self.cells.iter().map(|c| sym.char(c.value)).collect();
        let _ = writeln!(s, "entries {entries}");
        let marks: Vec<String> = (0..self.cells.len())
            .filter(|&c| !self.cells[c].marks.is_empty())
            .map(|c| {
                format!(
                    "{}={}",
                    g.cell_name(c),
                    marks_text(sym, self.cells[c].marks)
                )
            })
            .collect();
        let _ = writeln!(s, "marks {}", marks.join(" "));
        let _ = writeln!(s, "cursor {}", g.cell_name(self.cursor));
        let _ = writeln!(s, "time {}", self.elapsed.as_secs());
        if let Some(level) = self.level {
            let _ = writeln!(s, "level {}", level.name());
        }
        let _ = writeln!(s, "pencil {}", on_off(self.pencil));
        let _ = writeln!(s, "auto {}", on_off(self.auto));
        for (key, actions) in [("done", &self.done), ("undone", &self.undone)] {
            for action in actions {
                let changes: Vec<String> = action
                    .iter()
                    .map(|ch| {
                        format!(
                            "{}={}|{}",
                            g.cell_name(ch.cell),
                            state_text(sym, ch.before),
                            state_text(sym, ch.after)
                        )
                    })
                    .collect();
                let _ = writeln!(s, "{key} {}", changes.join(" "));
            }
        }
        s
    }

    /// Reads a saved game.
    pub fn from_save(text: &str) -> Result<Game, LoadError> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
        match lines.next() {
            Some((_, MAGIC)) => {}
            _ => {
                return Err(err(
                    1,
                    format!("not a saved game (the first line is not {MAGIC:?})"),
                ));
            }
        }
        let mut fields: Vec<(usize, &str, &str)> = Vec::new();
        for (no, line) in lines {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            fields.push((no, key, value.trim()));
        }
        let field = |key: &str| -> Result<(usize, &str), LoadError> {
            fields
                .iter()
                .find(|f| f.1 == key)
                .map(|f| (f.0, f.2))
                .ok_or_else(|| err(0, format!("the saved game has no {key:?} line")))
        };
        let mut variant = match field("variant") {
            Ok((no, v)) => v.parse::<Variant>().map_err(|e| err(no, e.to_string()))?,
            Err(_) => Variant::standard(),
        };
        let (n, shape) = match (field("shape"), field("size")) {
            (Ok((no, shape)), _) => {
                let shape: Shape = shape.parse().map_err(|e| err(no, format!("{e}")))?;
                (shape.size(), Some(shape))
            }
            (Err(_), Ok((no, size))) => {
                let n: usize = size
                    .parse()
                    .map_err(|_| err(no, format!("{size:?} is not a size")))?;
                if !(2..=MAX_SIZE).contains(&n) {
                    return Err(err(no, GeometryError::Size(n).to_string()));
                }
                (n, None)
            }
            (Err(e), Err(_)) => return Err(e),
        };
        if let Ok((no, map)) = field("regions") {
            let regions = Variant::parse_regions(map, n).map_err(|e| err(no, e.to_string()))?;
            variant.set_regions(regions);
        }
        let geometry = Geometry::for_variant(n, shape, &variant).map_err(|e| {
            let no = field("variant").or(field("shape")).or(field("size"));
            err(no.map_or(0, |f| f.0), e.to_string())
        })?;
        let (no, alphabet) = field("symbols")?;
        let symbols = Symbols::custom(alphabet, n).map_err(|e| err(no, e.to_string()))?;
        let (no, puzzle) = field("puzzle")?;
        let options = ReadOptions {
            geometry: Some(Arc::new(geometry)),
            symbols: SymbolStyle::Custom(alphabet.to_string()),
            ..ReadOptions::default()
        };
        let record = parse_one(puzzle, &options).map_err(|e| err(no, e.message))?;
        let mut game = Game::new(record.grid, symbols, "saved game");
        let g = game.puzzle.geometry().clone();
        let sym = game.symbols.clone();

        let (no, entries) = field("entries")?;
        if entries.chars().count() != g.cell_count() {
            return Err(err(
                no,
                format!(
                    "{} entries, not {}",
                    entries.chars().count(),
                    g.cell_count()
                ),
            ));
        }
        for (c, ch) in entries.chars().enumerate() {
            let v = value_of(&sym, ch).ok_or_else(|| err(no, format!("{ch:?} is not a symbol")))?;
            if v != 0 && game.is_given(c) {
                return Err(err(
                    no,
                    format!("{} is a given and cannot hold an entry", g.cell_name(c)),
                ));
            }
            game.cells[c].value = v;
        }
        let (no, marks) = field("marks")?;
        for item in marks.split_whitespace() {
            let (cell, digits) = item
                .split_once('=')
                .ok_or_else(|| err(no, format!("{item:?} is not CELL=MARKS")))?;
            let cell = cell_of(&g, cell).ok_or_else(|| err(no, format!("no cell {cell:?}")))?;
            game.cells[cell].marks =
                marks_of(&sym, digits).ok_or_else(|| err(no, format!("bad marks {digits:?}")))?;
        }
        if let Ok((no, cursor)) = field("cursor") {
            game.cursor =
                cell_of(&g, cursor).ok_or_else(|| err(no, format!("no cell {cursor:?}")))?;
        }
        if let Ok((no, time)) = field("time") {
            let secs: u64 = time
                .parse()
                .map_err(|_| err(no, format!("{time:?} is not seconds")))?;
            game.elapsed = Duration::from_secs(secs);
        }
        if let Ok((no, level)) = field("level") {
            let found = LEVEL_KEYS
                .iter()
                .map(|&(_, l)| l)
                .find(|l| l.name() == level);
            game.level = Some(found.ok_or_else(|| err(no, format!("no level {level:?}")))?);
        }
        for (key, target) in [("pencil", &mut game.pencil), ("auto", &mut game.auto)] {
            if let Ok((no, v)) = field(key) {
                *target = match v {
                    "on" => true,
                    "off" => false,
                    _ => return Err(err(no, format!("{key} is on or off, not {v:?}"))),
                };
            }
        }
        // The line of every move, for naming one that does not fit.
        let (mut done_lines, mut undone_lines) = (Vec::new(), Vec::new());
        for &(no, key, value) in &fields {
            let (stack, lines) = match key {
                "done" => (&mut game.done, &mut done_lines),
                "undone" => (&mut game.undone, &mut undone_lines),
                _ => continue,
            };
            lines.push(no);
            let mut action: Action = Vec::new();
            for item in value.split_whitespace() {
                action.push(change_of(&g, &sym, item).ok_or_else(|| {
                    err(no, format!("{item:?} is not CELL=VALUE+MARKS|VALUE+MARKS"))
                })?);
            }
            stack.push(action);
        }
        check_history(&game, &done_lines, &undone_lines)?;
        game.title = "saved game".into();
        game.message = format!("Loaded ({} moves to undo).", game.done.len());
        Ok(game)
    }
}

/// The history must lead from the empty board to the saved one, and the redo stack
/// onwards from there: otherwise undo would corrupt the board.
/// `done_lines` and `undone_lines` are the lines the moves were read from.
fn check_history(
    game: &Game,
    done_lines: &[usize],
    undone_lines: &[usize],
) -> Result<(), LoadError> {
    let mut cells = vec![CellState::default(); game.cells.len()];
    for (action, &no) in game.done.iter().zip(done_lines) {
        replay(&mut cells, action, no)?;
    }
    if cells != game.cells {
        return Err(err(
            0,
            "the history does not lead to the saved entries and marks",
        ));
    }
    for (action, &no) in game.undone.iter().zip(undone_lines).rev() {
        replay(&mut cells, action, no)?;
    }
    for (action, &no) in game.done.iter().zip(done_lines) {
        if action
            .iter()
            .any(|ch| game.is_given(ch.cell) && ch.after.value != 0)
        {
            return Err(err(no, "this move changes a given"));
        }
    }
    Ok(())
}

/// Applies a move read from line `no`, which must start from the cells as they are.
fn replay(cells: &mut [CellState], action: &Action, no: usize) -> Result<(), LoadError> {
    for ch in action {
        if cells[ch.cell] != ch.before {
            return Err(err(
                no,
                "this move does not start from the board the moves before it leave",
            ));
        }
        cells[ch.cell] = ch.after;
    }
    Ok(())
}

fn on_off(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

fn marks_text(sym: &Symbols, marks: DigitSet) -> String {
    marks.iter().map(|d| sym.char(d)).collect()
}

fn state_text(sym: &Symbols, s: CellState) -> String {
    let value = if s.value == 0 {
        String::new()
    } else {
        sym.char(s.value).to_string()
    };
    format!("{value}+{}", marks_text(sym, s.marks))
}

/// A value character: a symbol, or `.` for none.
fn value_of(sym: &Symbols, ch: char) -> Option<u8> {
    if ch == '.' {
        return Some(0);
    }
    exact(sym, ch)
}

/// The digit of a character that is exactly a symbol.
fn exact(sym: &Symbols, ch: char) -> Option<u8> {
    if !ch.is_ascii() {
        return None;
    }
    sym.digit(ch as u8).filter(|&d| d != 0 && sym.char(d) == ch)
}

fn marks_of(sym: &Symbols, text: &str) -> Option<DigitSet> {
    let mut set = DigitSet::EMPTY;
    for ch in text.chars() {
        set.insert(exact(sym, ch)?);
    }
    Some(set)
}

/// `r3c12` -> cell.
fn cell_of(g: &Geometry, name: &str) -> Option<Cell> {
    let rest = name.strip_prefix('r')?;
    let (r, c) = rest.split_once('c')?;
    let (r, c): (usize, usize) = (r.parse().ok()?, c.parse().ok()?);
    let n = g.size();
    (1..=n)
        .contains(&r)
        .then_some(())
        .filter(|_| (1..=n).contains(&c))
        .map(|_| g.cell(r - 1, c - 1))
}

fn state_of(sym: &Symbols, text: &str) -> Option<CellState> {
    let (value, marks) = text.split_once('+')?;
    let mut chars = value.chars();
    let value = match (chars.next(), chars.next()) {
        (None, _) => 0,
        (Some(ch), None) => exact(sym, ch)?,
        _ => return None,
    };
    Some(CellState {
        value,
        marks: marks_of(sym, marks)?,
    })
}

fn change_of(g: &Geometry, sym: &Symbols, item: &str) -> Option<Change> {
    let (cell, rest) = item.split_once('=')?;
    let (before, after) = rest.split_once('|')?;
    Some(Change {
        cell: cell_of(g, cell)?,
        before: state_of(sym, before)?,
        after: state_of(sym, after)?,
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use sudokit::logic::Level;
    use sudokit::puzzles::builtin;
    use sudokit::{Geometry, Grid, Shape, Symbols};

    use super::*;
    use crate::game::Key;

    fn played(symbols: Symbols) -> Game {
        let mut g = Game::new(builtin("lo-shu").unwrap().grid(), symbols, "lo-shu");
        let sym = g.symbols().clone();
        let digit = |d: u8| Key::Char(sym.char(d));
        g.click(3);
        g.handle(digit(5));
        g.handle(Key::Right);
        g.handle(Key::Char('p'));
        g.handle(digit(2));
        g.handle(digit(7));
        g.handle(Key::Char('p'));
        g.handle(Key::Char('?'));
        g.handle(Key::Enter);
        g.handle(Key::Char('a'));
        g.click(74);
        g.handle(digit(9));
        g.handle(digit(1));
        g.handle(Key::Char('u'));
        g.tick(Duration::from_secs(95));
        g
    }

    fn assert_same(a: &Game, b: &Game) {
        assert_eq!(a.puzzle(), b.puzzle());
        assert_eq!(a.cell_states(), b.cell_states());
        assert_eq!(a.history(), b.history());
        assert_eq!(a.redo_stack(), b.redo_stack());
        assert_eq!(a.cursor(), b.cursor());
        assert_eq!(a.elapsed(), b.elapsed());
        assert_eq!(a.pencil(), b.pencil());
        assert_eq!(a.auto_candidates(), b.auto_candidates());
        assert_eq!(a.level(), b.level());
        assert_eq!(a.symbols(), b.symbols());
    }

    #[test]
    fn round_trip() {
        let g = played(Symbols::standard(9));
        let text = g.to_save();
        assert!(
            text.starts_with("sudokit-play 1\nshape 3x3\nsymbols 123456789\n"),
            "{text}"
        );
        let back = Game::from_save(&text).unwrap();
        assert_same(&g, &back);
        assert_eq!(back.to_save(), text);
        // The restored game goes on: undo and redo work from the saved history.
        let mut back = back;
        back.handle(Key::Char('r'));
        assert_eq!(back.value(74), 1);
        for _ in 0..g.history().len() + 1 {
            back.handle(Key::Char('u'));
        }
        assert!(
            back.cell_states()
                .iter()
                .all(|s| *s == CellState::default())
        );
    }

    #[test]
    fn round_trip_with_letters_and_levels() {
        let mut g = played(Symbols::custom("ABCDEFGHI", 9).unwrap());
        g.level = Some(Level::Hard);
        g.pencil = true;
        let text = g.to_save();
        assert!(text.contains("symbols ABCDEFGHI\n"), "{text}");
        assert!(text.contains("puzzle HAF.....CCEG....H.DIBA"), "{text}");
        assert!(text.contains("level hard\n"));
        assert_same(&g, &Game::from_save(&text).unwrap());
    }

    #[test]
    fn round_trip_for_other_shapes() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (4, 4)] {
            let shape = Shape::new(r, c).unwrap();
            let n = shape.size();
            let mut g = Game::new(
                Grid::empty(Geometry::standard(shape)),
                Symbols::standard(n),
                "t",
            );
            for d in 1..=n as u8 {
                g.handle(Key::Char(g.symbols().char(d)));
                g.handle(Key::Down);
                g.handle(Key::Right);
            }
            g.handle(Key::Char('p'));
            g.handle(Key::Char(g.symbols().char(n as u8)));
            let text = g.to_save();
            assert!(text.contains(&format!("shape {shape}\n")), "{text}");
            assert_same(&g, &Game::from_save(&text).unwrap());
        }
    }

    #[test]
    fn the_format_is_as_documented() {
        // The example of the module documentation, read and written back.
        let text = "sudokit-play 1
shape 3x3
symbols 123456789
puzzle 816.....3357....8.4921.......3816......357......4921.......3816.2....3571.....492
entries ...4.............................................................................
marks r1c5=27 r1c6=27
cursor r1c5
time 95
level easy
pencil off
auto on
done r1c4=+|4+
done r1c5=+|+27 r1c6=+|+27
undone r2c5=+|6+
";
        let g = Game::from_save(text).unwrap();
        assert_eq!(g.value(3), 4);
        assert_eq!(g.marks(4), [2, 7].into_iter().collect());
        assert_eq!(g.cursor(), 4);
        assert_eq!(g.elapsed(), Duration::from_secs(95));
        assert_eq!(g.history().len(), 2);
        assert_eq!(g.redo_stack().len(), 1);
        assert_eq!(g.to_save(), text);
    }

    #[test]
    fn errors_name_their_line() {
        let good = played(Symbols::standard(9)).to_save();
        let line_of = |key: &str| good.lines().position(|l| l.starts_with(key)).unwrap() + 1;
        let cases: Vec<(String, usize, &str)> = vec![
            ("hello\n".into(), 1, "not a saved game"),
            (good.replace("shape 3x3", "shape 3x"), line_of("shape"), ""),
            (
                good.replace("symbols 123456789", "symbols 12345678"),
                line_of("symbols"),
                "symbols",
            ),
            // A size whose square overflows, with a region map to check against it.
            (
                good.replace("shape 3x3", "size 9123456789\nregions 111"),
                line_of("shape"),
                "outside the supported range",
            ),
            (
                good.replace("puzzle 816", "puzzle 8X6"),
                line_of("puzzle"),
                "",
            ),
            (
                good.replace("entries ...5", "entries ...5."),
                line_of("entries"),
                "82 entries",
            ),
            (
                good.replace("entries ...5", "entries 5..5"),
                line_of("entries"),
                "given",
            ),
            (
                good.replace("marks ", "marks r10c1=3 "),
                line_of("marks"),
                "no cell",
            ),
            (
                good.replace("time 95", "time soon"),
                line_of("time"),
                "seconds",
            ),
            (
                good.replace("auto on", "auto maybe"),
                line_of("auto"),
                "on or off",
            ),
            (
                good.replace("done r1c4=+|5+", "done r1c4=+5+"),
                line_of("done"),
                "CELL=",
            ),
        ];
        for (text, line, words) in cases {
            let e = Game::from_save(&text).expect_err(&text);
            assert_eq!(e.line, line, "{e}");
            assert!(e.to_string().contains(words), "{e}");
        }
    }

    #[test]
    fn a_history_that_does_not_fit_is_refused() {
        let good = played(Symbols::standard(9)).to_save();
        // The history no longer leads to the saved entries.
        let bad = good.replace("done r1c4=+|5+", "done r1c4=+|6+");
        let e = Game::from_save(&bad).unwrap_err();
        assert!(e.message.contains("history"), "{e}");
        // A move that starts from another board than the moves before it leave is named
        // at its line.
        let skewed = good.replace("done r1c4=+|5+", "done r1c4=7+|5+");
        let e = Game::from_save(&skewed).unwrap_err();
        let line = 1 + good
            .lines()
            .position(|l| l.starts_with("done r1c4="))
            .unwrap();
        assert_eq!(e.line, line, "{e}");
        assert!(e.message.contains("does not start from"), "{e}");
        let missing = good.replace("entries", "entry");
        assert!(
            Game::from_save(&missing)
                .unwrap_err()
                .message
                .contains("\"entries\"")
        );
    }

    #[test]
    fn variants_round_trip() {
        // A jigsaw whose top band's three regions zig-zag.
        let bands =
            "AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII";
        let cases: [(usize, &str, Option<&str>); 4] = [
            (9, "x", None),
            (9, "windoku", None),
            (5, "latin", None),
            (9, "jigsaw", Some(bands)),
        ];
        for (n, name, regions) in cases {
            let mut v: Variant = name.parse().unwrap();
            v.regions = regions.map(|r| Variant::parse_regions(r, n).unwrap());
            let g = std::sync::Arc::new(Geometry::for_variant(n, None, &v).unwrap());
            let options = sudokit::generate::Options::default();
            let made =
                sudokit::generate::generate(&g, &options, &mut sudokit::rng::Rng::new(7)).unwrap();
            let mut game = Game::new(made.puzzle, Symbols::standard(n), name);
            let empty = (0..g.cell_count()).find(|&c| !game.is_given(c)).unwrap();
            game.click(empty);
            game.handle(Key::Char('p'));
            game.handle(Key::Char('1'));
            game.handle(Key::Char('2'));
            game.handle(Key::Char('p'));
            game.handle(Key::Char('?'));
            game.handle(Key::Enter);
            let text = game.to_save();
            assert!(text.contains(&format!("variant {name}\n")), "{text}");
            assert_eq!(
                text.contains("\nshape "),
                name != "latin" && name != "jigsaw",
                "{text}"
            );
            let back = Game::from_save(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.geometry().variant(), g.variant(), "{name}");
            assert_eq!(back.geometry().houses().len(), g.houses().len(), "{name}");
            assert_same(&game, &back);
            assert_eq!(back.to_save(), text);
        }
        // A region map of the wrong size names its line.
        let good = "sudokit-play 1\nsize 4\nvariant jigsaw\nregions 1122112233443344\nsymbols 1234\npuzzle ................\nentries ................\nmarks\n";
        assert!(Game::from_save(good).is_ok());
        let e = Game::from_save(&good.replace("1122112233443344", "112211223344334")).unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        let e = Game::from_save(&good.replace("variant jigsaw", "variant zigzag")).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
    }
}
