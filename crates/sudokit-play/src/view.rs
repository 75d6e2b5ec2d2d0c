//! The ratatui view: draws a [`Game`] into a frame, and maps mouse positions back to
//! cells. It reads the game and never changes it.
//!
//! The grid takes the roomiest [`Layout`] that fits beside (or above) the side panel:
//! cells big enough to show candidates as a small grid of digits, then one line per cell
//! with a line between every two cells, then lines between boxes only, then two-column
//! cells (16x16 in a small terminal). Region borders are heavy lines wherever two
//! neighbouring cells lie in different boxes or regions, read from the geometry, so
//! jigsaw regions draw themselves. The cells of an X-sudoku's diagonals, of windoku's
//! windows and of the named extra houses (centre dot, asterisk, girandola) are shaded
//! (a cyan background, or `░` without colour).
//!
//! Colours follow Moler's `sudoku` figures: givens blue, the hint's cells highlighted
//! (its placements green, the cells it clears magenta), and conflicts and wrong values
//! red. Without colour (`NO_COLOR`) the same roles use bold, underline, reverse and
//! crossed-out text.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Paragraph, Wrap};
use sudokit::geometry::{Cell, Geometry};
use sudokit::grid::DigitSet;

use crate::game::{Game, Mode};

/// Narrowest side panel worth showing beside the grid.
const PANEL_MIN_WIDTH: u16 = 28;
/// Fewest panel lines worth showing under the grid.
const PANEL_MIN_HEIGHT: u16 = 7;

/// Where the grid sits on screen and how big its cells are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Left column of the frame.
    pub x: u16,
    /// Top row of the frame.
    pub y: u16,
    /// Side of the grid.
    pub n: usize,
    /// Box rows (lines between bands in the boxes-only layouts).
    pub box_rows: usize,
    /// Box columns.
    pub box_cols: usize,
    /// Columns inside a cell.
    pub cell_w: u16,
    /// Rows inside a cell.
    pub cell_h: u16,
    /// Lines between every two cells (else between boxes only).
    pub all_lines: bool,
    /// Candidates drawn as a small grid inside each cell.
    pub big: bool,
}

impl Layout {
    /// The candidates' small grid in a big cell: (rows, columns).
    fn mini(n: usize, box_rows: usize, box_cols: usize) -> (usize, usize) {
        if box_rows * box_cols == n {
            (box_rows, box_cols)
        } else {
            let cols = (1..=n).find(|c| c * c >= n).unwrap_or(n);
            (n.div_ceil(cols), cols)
        }
    }

    /// The layouts to try, roomiest first, placed at the origin.
    fn candidates(g: &Geometry) -> Vec<Layout> {
        let n = g.size();
        let (box_rows, box_cols) = g.shape().map_or((n, n), |s| (s.box_rows(), s.box_cols()));
        let (mr, mc) = Layout::mini(n, box_rows, box_cols);
        let base = Layout {
            x: 0,
            y: 0,
            n,
            box_rows,
            box_cols,
            cell_w: 3,
            cell_h: 1,
            all_lines: true,
            big: false,
        };
        vec![
            Layout {
                cell_w: mc as u16 + 2,
                cell_h: mr as u16,
                big: true,
                ..base
            },
            base,
            Layout {
                all_lines: false,
                ..base
            },
            Layout {
                all_lines: false,
                cell_w: 2,
                ..base
            },
        ]
    }

    /// Whether a line runs before column (or row) `i` of `per` cells per box.
    fn line_before(&self, i: usize, per: usize) -> bool {
        i == 0 || i == self.n || self.all_lines || i % per == 0
    }

    /// Lines before column `c` (counting the frame).
    fn lines_before(&self, c: usize, per: usize) -> u16 {
        (0..=c).filter(|&i| self.line_before(i, per)).count() as u16
    }

    /// Left column of the inside of cell column `c`.
    pub fn col_x(&self, c: usize) -> u16 {
        self.x + c as u16 * self.cell_w + self.lines_before(c, self.box_cols)
    }

    /// Top row of the inside of cell row `r`.
    pub fn row_y(&self, r: usize) -> u16 {
        self.y + r as u16 * self.cell_h + self.lines_before(r, self.box_rows)
    }

    /// Width of the grid with its frame.
    pub fn width(&self) -> u16 {
        self.n as u16 * self.cell_w + self.lines_before(self.n, self.box_cols)
    }

    /// Height of the grid with its frame.
    pub fn height(&self) -> u16 {
        self.n as u16 * self.cell_h + self.lines_before(self.n, self.box_rows)
    }

    /// The cell drawn at a screen position, if any (lines belong to no cell).
    pub fn cell_at(&self, x: u16, y: u16) -> Option<Cell> {
        let col =
            (0..self.n).find(|&c| (self.col_x(c)..self.col_x(c) + self.cell_w).contains(&x))?;
        let row =
            (0..self.n).find(|&r| (self.row_y(r)..self.row_y(r) + self.cell_h).contains(&y))?;
        Some(row * self.n + col)
    }

    /// The cell and candidate drawn at a screen position of a big cell's keypad.
    pub fn candidate_at(&self, x: u16, y: u16) -> Option<(Cell, u8)> {
        if !self.big {
            return None;
        }
        let cell = self.cell_at(x, y)?;
        let (mr, mc) = Layout::mini(self.n, self.box_rows, self.box_cols);
        let dx = (x - self.col_x(cell % self.n)).checked_sub(1)? as usize;
        let dy = (y - self.row_y(cell / self.n)) as usize;
        let d = dy * mc + dx + 1;
        (dx < mc && dy < mr && d <= self.n).then_some((cell, d as u8))
    }

    /// The grid's layout and the panel's area in `area`; None when nothing fits.
    pub fn fit(g: &Geometry, area: Rect) -> Option<(Layout, Rect)> {
        for mut l in Layout::candidates(g) {
            let (w, h) = (l.width(), l.height());
            if w + 1 + PANEL_MIN_WIDTH <= area.width && h <= area.height {
                l.x = area.x;
                l.y = area.y;
                let panel = Rect::new(area.x + w + 1, area.y, area.width - w - 1, area.height);
                return Some((l, panel));
            }
            if w <= area.width && h + PANEL_MIN_HEIGHT <= area.height {
                l.x = area.x;
                l.y = area.y;
                let panel = Rect::new(area.x, area.y + h, area.width, area.height - h);
                return Some((l, panel));
            }
        }
        None
    }
}

/// The role of a cell on screen, for its colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellLook {
    /// A given.
    pub given: bool,
    /// In a diagonal or window: a house with no line around it.
    pub extra: bool,
    /// Repeats a digit of one of its houses, or the last check found it wrong.
    pub bad: bool,
    /// Under the cursor.
    pub cursor: bool,
    /// Part of the hint's pattern.
    pub hint: bool,
    /// The hint places a value here.
    pub hint_place: bool,
    /// The hint removes a candidate here.
    pub hint_clear: bool,
}

/// The roles of every cell.
pub fn looks(game: &Game) -> Vec<CellLook> {
    let g = game.geometry();
    let conflicts = game.conflicts();
    let mut looks: Vec<CellLook> = (0..g.cell_count())
        .map(|c| CellLook {
            given: game.is_given(c),
            extra: g.is_shaded(c),
            bad: conflicts[c],
            cursor: c == game.cursor(),
            ..CellLook::default()
        })
        .collect();
    for &c in game.wrong() {
        looks[c].bad = true;
    }
    if let Some(step) = game.hint() {
        let nodes = step.chain.iter().flat_map(|n| n.cells.iter());
        for &c in step.cells.iter().chain(&step.fins).chain(nodes) {
            looks[c].hint = true;
        }
        for &(c, _) in &step.placements {
            looks[c].hint_place = true;
        }
        for &(c, _) in &step.eliminations {
            looks[c].hint_clear = true;
        }
    }
    looks
}

/// The style of a cell's text.
pub fn cell_style(look: CellLook, color: bool) -> Style {
    let mut s = Style::default();
    if color {
        if look.extra {
            s = s.bg(Color::Cyan).fg(Color::Black);
        }
        if look.given {
            s = s.fg(Color::Blue).add_modifier(Modifier::BOLD);
        }
        if look.hint {
            s = s.bg(Color::Yellow).fg(Color::Black);
        }
        if look.hint_clear {
            s = s.bg(Color::Magenta).fg(Color::Black);
        }
        if look.hint_place {
            s = s.bg(Color::Green).fg(Color::Black);
        }
        if look.bad {
            s = s.fg(Color::Red).add_modifier(Modifier::BOLD);
        }
    } else {
        if look.given {
            s = s.add_modifier(Modifier::BOLD);
        }
        if look.hint || look.hint_clear || look.hint_place {
            s = s.add_modifier(Modifier::UNDERLINED);
        }
        if look.bad {
            s = s.add_modifier(Modifier::CROSSED_OUT);
        }
    }
    if look.cursor {
        s = s.add_modifier(Modifier::REVERSED);
    }
    s
}

/// The style of pencil marks.
fn mark_style(base: Style, color: bool) -> Style {
    if color && base.bg.is_none() {
        base.fg(Color::DarkGray).remove_modifier(Modifier::BOLD)
    } else {
        base.add_modifier(Modifier::DIM)
            .remove_modifier(Modifier::BOLD)
    }
}

/// Line weight.
#[derive(Clone, Copy, PartialEq, Eq)]
enum W {
    None,
    Light,
    Heavy,
}

/// The box-drawing character joining four arms.
fn junction(up: W, down: W, left: W, right: W) -> char {
    let v = (up == W::Heavy || down == W::Heavy) as usize;
    let h = (left == W::Heavy || right == W::Heavy) as usize;
    let set: [char; 4] = match (
        up != W::None,
        down != W::None,
        left != W::None,
        right != W::None,
    ) {
        (true, true, true, true) => ['┼', '╂', '┿', '╋'],
        (false, true, true, true) => ['┬', '┰', '┯', '┳'],
        (true, false, true, true) => ['┴', '┸', '┷', '┻'],
        (true, true, false, true) => ['├', '┠', '┝', '┣'],
        (true, true, true, false) => ['┤', '┨', '┥', '┫'],
        (false, true, false, true) => ['┌', '┎', '┍', '┏'],
        (false, true, true, false) => ['┐', '┒', '┑', '┓'],
        (true, false, false, true) => ['└', '┖', '┕', '┗'],
        (true, false, true, false) => ['┘', '┚', '┙', '┛'],
        (true, true, false, false) => return if v == 1 { '┃' } else { '│' },
        (false, false, true, true) => return if h == 1 { '━' } else { '─' },
        _ => return ' ',
    };
    set[v + 2 * h]
}

/// The box or region of every cell (None in latin squares).
fn regions(g: &Geometry) -> Vec<Option<usize>> {
    (0..g.cell_count()).map(|c| g.region_of(c)).collect()
}

/// Draws the grid.
fn draw_grid(game: &Game, l: &Layout, color: bool, buf: &mut Buffer) {
    let g = game.geometry();
    let n = l.n;
    let region = regions(g);
    // Weight of the line between two neighbouring cells: heavy across regions when
    // lines run between all cells; boxes-only layouts draw every line light.
    let between = |a: Cell, b: Cell| {
        if l.all_lines && region[a] != region[b] {
            W::Heavy
        } else {
            W::Light
        }
    };
    let frame = if l.all_lines { W::Heavy } else { W::Light };
    // Vertical line weight before column i (0..=n) in row r.
    let vline = |i: usize, r: usize| {
        if !l.line_before(i, l.box_cols) {
            W::None
        } else if i == 0 || i == n {
            frame
        } else {
            between(r * n + i - 1, r * n + i)
        }
    };
    let hline = |j: usize, c: usize| {
        if !l.line_before(j, l.box_rows) {
            W::None
        } else if j == 0 || j == n {
            frame
        } else {
            between((j - 1) * n + c, j * n + c)
        }
    };
    let line_style = Style::default();
    let mut put = |x: u16, y: u16, ch: char, style: Style| {
        if let Some(cell) = buf.cell_mut((x, y)) {
            cell.set_char(ch).set_style(style);
        }
    };
    for j in 0..=n {
        if !l.line_before(j, l.box_rows) {
            continue;
        }
        let y = if j == n {
            l.row_y(n - 1) + l.cell_h
        } else {
            l.row_y(j) - 1
        };
        for c in 0..n {
            let ch = if hline(j, c) == W::Heavy {
                '━'
            } else {
                '─'
            };
            for dx in 0..l.cell_w {
                put(l.col_x(c) + dx, y, ch, line_style);
            }
        }
        for i in 0..=n {
            if !l.line_before(i, l.box_cols) {
                continue;
            }
            let x = if i == n {
                l.col_x(n - 1) + l.cell_w
            } else {
                l.col_x(i) - 1
            };
            let up = if j > 0 { vline(i, j - 1) } else { W::None };
            let down = if j < n { vline(i, j) } else { W::None };
            let left = if i > 0 { hline(j, i - 1) } else { W::None };
            let right = if i < n { hline(j, i) } else { W::None };
            put(x, y, junction(up, down, left, right), line_style);
        }
    }
    for r in 0..n {
        for i in 0..=n {
            if !l.line_before(i, l.box_cols) {
                continue;
            }
            let x = if i == n {
                l.col_x(n - 1) + l.cell_w
            } else {
                l.col_x(i) - 1
            };
            let ch = if vline(i, r) == W::Heavy {
                '┃'
            } else {
                '│'
            };
            for dy in 0..l.cell_h {
                put(x, l.row_y(r) + dy, ch, line_style);
            }
        }
    }
    let looks = looks(game);
    let sym = game.symbols();
    let (mr, mc) = Layout::mini(n, l.box_rows, l.box_cols);
    for (cell, &look) in looks.iter().enumerate() {
        let (x0, y0) = (l.col_x(g.col(cell)), l.row_y(g.row(cell)));
        let style = cell_style(look, color);
        let filler = if look.extra && !color { '░' } else { ' ' };
        for dy in 0..l.cell_h {
            for dx in 0..l.cell_w {
                put(x0 + dx, y0 + dy, filler, style);
            }
        }
        let v = game.value(cell);
        if v != 0 {
            put(
                x0 + l.cell_w / 2,
                y0 + (l.cell_h - 1) / 2,
                sym.char(v),
                style,
            );
            continue;
        }
        let shown = game.shown_candidates(cell);
        let ms = mark_style(style, color);
        if l.big {
            let cleared: DigitSet = game
                .hint()
                .map(|h| {
                    h.eliminations
                        .iter()
                        .filter(|e| e.0 == cell)
                        .map(|e| e.1)
                        .collect()
                })
                .unwrap_or_default();
            for d in shown.iter() {
                let i = d as usize - 1;
                let (rr, cc) = (i / mc, i % mc);
                if rr < mr {
                    let s = if cleared.contains(d) && color {
                        ms.fg(Color::Red).add_modifier(Modifier::BOLD)
                    } else if cleared.contains(d) {
                        ms.add_modifier(Modifier::CROSSED_OUT)
                    } else {
                        ms
                    };
                    put(x0 + 1 + cc as u16, y0 + rr as u16, sym.char(d), s);
                }
            }
        } else {
            let text: Vec<char> = match (shown.len(), l.cell_w) {
                (1, 3) => vec!['(', sym.char(shown.first().unwrap_or(1)), ')'],
                (2, 3) => {
                    let mut it = shown.iter();
                    let (a, b) = (it.next().unwrap_or(1), it.next().unwrap_or(1));
                    vec![sym.char(a), '/', sym.char(b)]
                }
                (0, _) => vec![],
                (_, 3) => vec![' ', '·', ' '],
                _ => vec![' ', '·'],
            };
            for (dx, ch) in text.into_iter().enumerate() {
                if ch != ' ' {
                    put(x0 + dx as u16, y0, ch, ms);
                }
            }
        }
    }
}

/// What a variant adds to the rules, for the panel (None for plain sudoku).
fn variant_rule(g: &Geometry) -> Option<String> {
    let v = g.variant();
    let rules = [
        (v.latin, "Latin square: rows and columns only, no boxes."),
        (
            v.jigsaw,
            "Jigsaw: the outlined regions take the place of boxes.",
        ),
        (
            v.diagonals,
            "X: each shaded diagonal also holds every digit once.",
        ),
        (
            v.windows,
            "Windoku: each shaded window also holds every digit once.",
        ),
        (
            v.disjoint,
            "Disjoint groups: the cells at one position of every box hold every digit once.",
        ),
        (
            v.centre_dot,
            "Centre dot: the shaded box centres hold every digit once.",
        ),
        (
            v.asterisk,
            "Asterisk: the nine shaded cells hold every digit once.",
        ),
        (
            v.girandola,
            "Girandola: the nine shaded cells hold every digit once.",
        ),
        (
            !v.extra.is_empty(),
            "Extra houses: each shaded house of the map holds every digit once.",
        ),
    ];
    let on: Vec<&str> = rules
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, r)| *r)
        .collect();
    (!on.is_empty()).then(|| on.join(" "))
}

/// Minutes and seconds.
fn clock(game: &Game) -> String {
    let s = game.elapsed().as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// The side panel's text.
pub fn panel_text(game: &Game) -> Text<'static> {
    let g = game.geometry();
    let sym = game.symbols();
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut lines: Vec<Line> = Vec::new();
    let mut title = format!("sudokit play: {}", game.title());
    if let Some(level) = game.level() {
        title.push_str(&format!(" ({})", level.name()));
    }
    lines.push(Line::styled(title, bold));
    if let Some(rule) = variant_rule(g) {
        lines.push(Line::from(rule));
    }
    lines.push(Line::from(format!(
        "Time {}   Filled {}/{}",
        clock(game),
        game.filled(),
        g.cell_count()
    )));
    lines.push(Line::from(format!(
        "Mode: {}   Candidates: {}",
        if game.pencil() { "PENCIL" } else { "digits" },
        if game.auto_candidates() {
            "auto"
        } else {
            "marks"
        }
    )));
    let cur = game.cursor();
    let cands = game.effective(cur);
    let about = if game.value(cur) != 0 {
        format!(
            "{}: {}{}",
            g.cell_name(cur),
            sym.char(game.value(cur)),
            if game.is_given(cur) { " (given)" } else { "" }
        )
    } else {
        let list: Vec<String> = cands.iter().map(|d| sym.char(d).to_string()).collect();
        format!("{}: candidates {}", g.cell_name(cur), list.join(" "))
    };
    lines.push(Line::from(about));
    let conflicts: Vec<String> = game
        .conflicts()
        .iter()
        .enumerate()
        .filter(|c| *c.1)
        .map(|c| g.cell_name(c.0))
        .collect();
    if !conflicts.is_empty() {
        lines.push(Line::from(format!("Conflicts: {}", conflicts.join(" "))));
    }
    lines.push(Line::from(""));
    if let Some(sentence) = game.hint_sentence() {
        lines.push(Line::from(vec![
            Span::styled("Hint: ", bold),
            Span::raw(sentence),
        ]));
        lines.push(Line::from("Enter applies it, Esc hides it."));
    }
    if !game.message().is_empty() {
        lines.push(Line::styled(game.message().to_string(), bold));
    }
    lines.push(Line::from(""));
    let dim = Style::default().add_modifier(Modifier::DIM);
    if game.mode() == Mode::ChooseLevel {
        lines.push(Line::styled(
            "e easy  m medium  h hard  u unfair  x extreme",
            dim,
        ));
        lines.push(Line::styled("Esc: keep playing", dim));
    } else {
        let n = g.size() as u8;
        let range = format!("{}-{}", sym.char(1), sym.char(n));
        for help in [
            "arrows hjkl mouse: move".to_string(),
            format!("{range} place (again: clear)  0 Del: clear"),
            "p pencil mode  a auto candidates".into(),
            "? hint  Enter apply it  Esc hide it".into(),
            "u undo  r redo  c check  x restart".into(),
            "n new puzzle  s save  o load  q quit".into(),
        ] {
            lines.push(Line::styled(help, dim));
        }
    }
    Text::from(lines)
}

/// Draws the whole screen; returns the grid's layout (for mouse clicks), or None when
/// the terminal is too small.
pub fn draw(game: &Game, frame: &mut Frame, color: bool) -> Option<Layout> {
    let area = frame.area();
    let Some((layout, panel)) = Layout::fit(game.geometry(), area) else {
        let need = Layout::candidates(game.geometry())
            .last()
            .map(|l| (l.width() + 1 + PANEL_MIN_WIDTH, l.height()))
            .unwrap_or((0, 0));
        let msg = format!(
            "Terminal too small: {}x{} needed (q quits).",
            need.0, need.1
        );
        frame.render_widget(Paragraph::new(msg).wrap(Wrap { trim: true }), area);
        return None;
    };
    draw_grid(game, &layout, color, frame.buffer_mut());
    frame.render_widget(
        Paragraph::new(panel_text(game)).wrap(Wrap { trim: true }),
        panel,
    );
    Some(layout)
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use sudokit::puzzles::builtin;
    use sudokit::{Grid, Shape, Symbols};

    use super::*;
    use crate::game::Key;

    fn lo_shu() -> Game {
        Game::new(
            builtin("lo-shu").unwrap().grid(),
            Symbols::standard(9),
            "lo-shu",
        )
    }

    fn empty(r: usize, c: usize) -> Game {
        let shape = Shape::new(r, c).unwrap();
        let g = Geometry::standard(shape);
        Game::new(Grid::empty(g), Symbols::standard(shape.size()), "empty")
    }

    /// Draws a game on a `w` x `h` test terminal.
    fn screen(game: &Game, w: u16, h: u16, color: bool) -> (Vec<String>, Option<Layout>, Buffer) {
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        let mut layout = None;
        t.draw(|f| layout = draw(game, f, color)).unwrap();
        let buf = t.backend().buffer().clone();
        let lines = (0..h)
            .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>())
            .collect();
        (lines, layout, buf)
    }

    #[test]
    fn lo_shu_in_a_100x30_terminal() {
        let (lines, layout, _) = screen(&lo_shu(), 100, 30, true);
        let l = layout.unwrap();
        assert!(l.all_lines && !l.big);
        assert_eq!((l.width(), l.height()), (37, 19));
        assert!(lines[0].starts_with("┏━━━┯━━━┯━━━┳━━━┯"), "{}", lines[0]);
        assert!(
            lines[1].starts_with("┃ 8 │ 1 │ 6 ┃   │   │   ┃   │   │ 3 ┃"),
            "{}",
            lines[1]
        );
        assert!(lines[2].starts_with("┠───┼───┼───╂───┼"), "{}", lines[2]);
        assert!(lines[6].starts_with("┣━━━┿━━━┿━━━╋━━━┿"), "{}", lines[6]);
        assert!(
            lines[17].starts_with("┃ 1 │   │   ┃   │   │   ┃ 4 │ 9 │ 2 ┃"),
            "{}",
            lines[17]
        );
        assert!(lines[18].starts_with("┗━━━┷━━━┷━━━┻━━━┷"), "{}", lines[18]);
        assert!(lines[0].contains("sudokit play: lo-shu"), "{}", lines[0]);
        let all = lines.join("\n");
        assert!(all.contains("Filled 35/81"), "{all}");
        assert!(all.contains("r1c4: candidates"), "{all}");
    }

    #[test]
    fn the_roomiest_layout_that_fits() {
        let fit =
            |game: &Game, w, h| Layout::fit(game.geometry(), Rect::new(0, 0, w, h)).map(|f| f.0);
        let big = fit(&lo_shu(), 120, 45).unwrap();
        assert!(big.big);
        assert_eq!((big.width(), big.height()), (55, 37));
        let lined = fit(&lo_shu(), 80, 24).unwrap();
        assert!(lined.all_lines && !lined.big);
        let four = fit(&empty(2, 2), 80, 24).unwrap();
        assert!(four.big, "4x4 shows candidates in 80x24");
        let sixteen = fit(&empty(4, 4), 80, 24).unwrap();
        assert!(!sixteen.all_lines);
        assert_eq!(sixteen.cell_w, 2);
        assert!(sixteen.width() + 1 + PANEL_MIN_WIDTH <= 80);
        assert!(fit(&empty(4, 4), 100, 30).unwrap().cell_w == 3);
        assert!(fit(&lo_shu(), 20, 10).is_none());
    }

    #[test]
    fn a_terminal_too_small_says_so() {
        let (lines, layout, _) = screen(&lo_shu(), 30, 10, true);
        assert!(layout.is_none());
        assert!(lines.join(" ").contains("Terminal too small"));
    }

    #[test]
    fn clicks_map_back_to_cells_in_every_layout() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4)] {
            let game = empty(r, c);
            for mut l in Layout::candidates(game.geometry()) {
                l.x = 2;
                l.y = 1;
                let n = l.n;
                for cell in 0..n * n {
                    let (x, y) = (l.col_x(cell % n), l.row_y(cell / n));
                    assert_eq!(l.cell_at(x, y), Some(cell));
                    assert_eq!(l.cell_at(x + l.cell_w - 1, y + l.cell_h - 1), Some(cell));
                }
                assert_eq!(l.cell_at(2, 1), None, "the frame's corner");
                assert_eq!(l.cell_at(l.col_x(0) - 1, l.row_y(0)), None, "the frame");
                assert_eq!(
                    l.cell_at(l.x + l.width(), l.row_y(0)),
                    None,
                    "right of the grid"
                );
            }
        }
    }

    #[test]
    fn clicks_on_big_cells_find_candidates() {
        let game = lo_shu();
        let (l, _) = Layout::fit(game.geometry(), Rect::new(0, 0, 120, 45)).unwrap();
        assert!(l.big);
        let (x, y) = (l.col_x(8), l.row_y(2));
        // The keypad: 1 2 3 on the first line, 5 in the middle, 9 bottom right.
        assert_eq!(l.candidate_at(x + 1, y), Some((26, 1)));
        assert_eq!(l.candidate_at(x + 2, y + 1), Some((26, 5)));
        assert_eq!(l.candidate_at(x + 3, y + 2), Some((26, 9)));
        assert_eq!(l.candidate_at(x, y), None, "the cell's left margin");
        assert_eq!(l.candidate_at(x + 4, y), None, "the cell's right margin");
        let (small, _) = Layout::fit(game.geometry(), Rect::new(0, 0, 100, 30)).unwrap();
        assert_eq!(small.candidate_at(small.col_x(0), small.row_y(0)), None);
    }

    #[test]
    fn no_color_means_no_colour() {
        let mut game = lo_shu();
        game.handle(Key::Char('?'));
        game.handle(Key::Char('8')); // a conflict with r1c1
        let (_, _, buf) = screen(&game, 100, 30, false);
        for cell in buf.content() {
            assert_eq!(cell.fg, Color::Reset);
            assert_eq!(cell.bg, Color::Reset);
        }
        // Roles still show: givens bold, the cursor reversed, the conflict crossed out.
        let (_, layout, buf) = screen(&game, 100, 30, false);
        let l = layout.unwrap();
        let given = &buf[(l.col_x(0) + 1, l.row_y(0))];
        assert!(given.modifier.contains(Modifier::BOLD));
        assert!(given.modifier.contains(Modifier::CROSSED_OUT));
        let cursor = &buf[(l.col_x(3) + 1, l.row_y(0))];
        assert!(cursor.modifier.contains(Modifier::REVERSED));
    }

    #[test]
    fn moler_s_colours() {
        let mut game = lo_shu();
        game.handle(Key::Char('?'));
        let step = game.hint().unwrap().clone();
        let (lines, layout, buf) = screen(&game, 100, 30, true);
        let l = layout.unwrap();
        let at = |cell: Cell| &buf[(l.col_x(cell % 9) + 1, l.row_y(cell / 9))];
        assert_eq!(at(0).fg, Color::Blue, "givens are blue");
        for &(c, _) in &step.placements {
            assert_eq!(at(c).bg, Color::Green, "the hint's placement");
        }
        for &c in &step.cells {
            assert_ne!(at(c).bg, Color::Reset, "the hint's cells are highlighted");
        }
        let all = lines.join(" ");
        assert!(all.contains("Hint:"), "{all}");
        game.handle(Key::Esc);
        game.click(3);
        game.handle(Key::Char('8'));
        let (_, _, buf) = screen(&game, 100, 30, true);
        let at = |cell: Cell| &buf[(l.col_x(cell % 9) + 1, l.row_y(cell / 9))];
        assert_eq!(at(3).fg, Color::Red, "conflicts are red");
        assert_eq!(at(0).fg, Color::Red, "on both sides");
    }

    #[test]
    fn big_cells_show_candidates_in_place() {
        let mut game = lo_shu();
        game.handle(Key::Char('a'));
        let (_, layout, buf) = screen(&game, 120, 45, true);
        let l = layout.unwrap();
        assert!(l.big);
        // Moler's singleton: the 5 at (3,9), drawn where 5 sits in a 3x3 keypad.
        let (x, y) = (l.col_x(8), l.row_y(2));
        let cell: String = (0..3)
            .map(|dy| {
                (1..4)
                    .map(|dx| buf[(x + dx, y + dy)].symbol())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("|");
        assert_eq!(cell, "   | 5 |   ");
    }

    #[test]
    fn letters_are_drawn_as_letters() {
        let sym = Symbols::custom("ABCDEFGHI", 9).unwrap();
        let game = Game::new(builtin("lo-shu").unwrap().grid(), sym, "letters");
        let (lines, _, _) = screen(&game, 100, 30, true);
        assert!(lines[1].starts_with("┃ H │ A │ F ┃"), "{}", lines[1]);
    }

    #[test]
    fn junctions() {
        assert_eq!(junction(W::None, W::Heavy, W::None, W::Heavy), '┏');
        assert_eq!(junction(W::Light, W::Light, W::Heavy, W::Heavy), '┿');
        assert_eq!(junction(W::Heavy, W::Heavy, W::Light, W::Light), '╂');
        assert_eq!(junction(W::Light, W::None, W::Light, W::Light), '┴');
        assert_eq!(junction(W::Light, W::Light, W::None, W::None), '│');
    }

    fn variant(name: &str, regions: Option<&str>) -> Game {
        let mut v: sudokit::Variant = name.parse().unwrap();
        v.regions = regions.map(|r| sudokit::Variant::parse_regions(r, 9).unwrap());
        let g = std::sync::Arc::new(Geometry::for_variant(9, None, &v).unwrap());
        Game::new(Grid::empty(g), Symbols::standard(9), name)
    }

    #[test]
    fn diagonals_and_windows_are_shaded() {
        let x = variant("x", None);
        let (_, layout, buf) = screen(&x, 100, 30, true);
        let l = layout.unwrap();
        let bg = |cell: usize| buf[(l.col_x(cell % 9), l.row_y(cell / 9))].bg;
        // r1c1 and r1c9 lie on the diagonals, r1c2 on neither.
        assert_eq!(bg(0), Color::Cyan);
        assert_eq!(bg(8), Color::Cyan);
        assert_ne!(bg(1), Color::Cyan);
        let (lines, _, _) = screen(&x, 100, 30, false);
        assert!(lines[1].starts_with("┃░░░│   │"), "{}", lines[1]);
        assert!(lines.join("\n").contains("X: each shaded diagonal"));
        // Windoku: r2c2 is in the first window, r1c1 is not.
        let w = variant("windoku", None);
        let (lines, _, _) = screen(&w, 100, 30, false);
        assert!(lines[1].starts_with("┃   │   │"), "{}", lines[1]);
        assert!(
            lines[3].starts_with("┃   │░░░│░░░┃░░░│   │"),
            "{}",
            lines[3]
        );
    }

    #[test]
    fn jigsaw_regions_are_outlined() {
        let map =
            "AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII";
        let (lines, _, _) = screen(&variant("jigsaw", Some(map)), 100, 30, false);
        // Row 1: regions A (4 cells), B (2), C (3).
        assert!(
            lines[1].starts_with("┃   │   │   │   ┃   │   ┃   │   │   ┃"),
            "{}",
            lines[1]
        );
        assert!(lines.join("\n").contains("Jigsaw: the outlined regions"));
    }
}
