//! [`Game`]: the player's game as a pure state machine. Key presses and clicks go in
//! ([`Game::handle`], [`Game::click`]), state comes out; nothing here touches the
//! terminal, the clock or files, so every behaviour is a unit test of events -> state.
//!
//! What the driver must do itself comes back as a [`Request`] (quit, save, load, make a
//! new puzzle): those need files, randomness or seconds of work, and keeping them out
//! keeps the machine deterministic.
//!
//! Every change to the board is an [`Action`]: the cells it touched with their state
//! before and after. Undo and redo replay actions backwards and forwards without limit,
//! and the same list is what a saved game stores as its history.
//!
//! Candidates: the player's pencil marks are kept as typed. What the board shows in an
//! empty cell (with automatic candidates on) and what the hint engine starts from is the
//! cell's *effective* candidates: the digits no peer holds, narrowed to the pencil marks
//! when the cell has any. So eliminations the player (or an applied hint) made are kept,
//! and the hint engine never repeats a step that was already applied.

use std::time::Duration;

use sudokit::geometry::{Cell, Geometry};
use sudokit::grid::{Candidates, DigitSet, Grid, open_digits};
use sudokit::logic::{self, Level, State, Step};
use sudokit::solve::{Verdict, solve_unique};
use sudokit::{Symbols, generate::Generated};

/// A key press, independent of the terminal library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// A printable character.
    Char(char),
    /// A character with Control held.
    Ctrl(char),
    /// Backspace.
    Backspace,
    /// Delete.
    Delete,
    /// Enter.
    Enter,
    /// Escape.
    Esc,
}

/// Work the driver must do after a key press.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    /// Nothing.
    None,
    /// Leave the game.
    Quit,
    /// Write [`Game::to_save`] to the save file.
    Save,
    /// Read the save file and replace the game with it.
    Load,
    /// Make a new puzzle of this level and give it to [`Game::start`].
    NewPuzzle(Level),
}

/// What keys mean at the moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Playing.
    Play,
    /// Waiting for the level of a new puzzle (after `n`).
    ChooseLevel,
}

/// The player's part of one cell: an entered value (0 = none) and pencil marks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellState {
    /// Entered value, 0 when empty (always 0 on givens).
    pub value: u8,
    /// Pencil marks.
    pub marks: DigitSet,
}

/// One cell's change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// The cell.
    pub cell: Cell,
    /// Its state before.
    pub before: CellState,
    /// Its state after.
    pub after: CellState,
}

/// One undoable move: the cells it changed.
pub type Action = Vec<Change>;

/// The levels a new puzzle can be asked for, with the key that picks each.
pub const LEVEL_KEYS: &[(char, Level)] = &[
    ('e', Level::Easy),
    ('m', Level::Medium),
    ('h', Level::Hard),
    ('u', Level::Unfair),
    ('x', Level::Extreme),
];

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) puzzle: Grid,
    pub(crate) solution: Option<Grid>,
    pub(crate) symbols: Symbols,
    pub(crate) cells: Vec<CellState>,
    pub(crate) cursor: Cell,
    pub(crate) pencil: bool,
    pub(crate) auto: bool,
    pub(crate) mode: Mode,
    pub(crate) level: Option<Level>,
    pub(crate) title: String,
    pub(crate) hint: Option<Step>,
    pub(crate) wrong: Vec<Cell>,
    pub(crate) done: Vec<Action>,
    pub(crate) undone: Vec<Action>,
    pub(crate) elapsed: Duration,
    pub(crate) message: String,
}

impl Game {
    /// A fresh game of `puzzle`, written with `symbols`; `title` names it on screen.
    pub fn new(puzzle: Grid, symbols: Symbols, title: &str) -> Game {
        let solution = match solve_unique(&puzzle) {
            Verdict::Unique(g) => Some(g),
            _ => None,
        };
        let message = if solution.is_some() {
            "Welcome! Arrows or hjkl move, ? gives a hint.".to_string()
        } else {
            "This puzzle has no unique solution: check and hints may not help.".to_string()
        };
        let cursor = (0..puzzle.geometry().cell_count())
            .find(|&c| puzzle.get(c) == 0)
            .unwrap_or(0);
        Game {
            cells: vec![CellState::default(); puzzle.geometry().cell_count()],
            puzzle,
            solution,
            symbols,
            cursor,
            pencil: false,
            auto: false,
            mode: Mode::Play,
            level: None,
            title: title.to_string(),
            hint: None,
            wrong: Vec::new(),
            done: Vec::new(),
            undone: Vec::new(),
            elapsed: Duration::ZERO,
            message,
        }
    }

    /// A fresh game of a generated puzzle of level `got`, made for a player who asked
    /// for `asked` (the message says so when they differ).
    pub fn from_generated(
        generated: Generated,
        asked: Level,
        got: Level,
        symbols: Symbols,
    ) -> Game {
        let mut game = Game::new(
            generated.puzzle,
            symbols,
            &format!("new {} puzzle", got.name()),
        );
        game.solution = Some(generated.solution);
        game.level = Some(got);
        game.message = if asked == got {
            format!("A new {} puzzle. Good luck!", got.name())
        } else {
            format!(
                "No {} puzzle came quickly for this shape; here is {} {} one.",
                asked.name(),
                if got.name().starts_with(['e', 'u']) {
                    "an"
                } else {
                    "a"
                },
                got.name()
            )
        };
        game
    }

    /// Starts a generated puzzle in place of the current one (see
    /// [`Game::from_generated`]), keeping the symbols and display settings.
    pub fn start(&mut self, generated: Generated, asked: Level, got: Level) {
        let mut next = Game::from_generated(generated, asked, got, self.symbols.clone());
        next.auto = self.auto;
        *self = next;
    }

    /// The puzzle (givens).
    pub fn puzzle(&self) -> &Grid {
        &self.puzzle
    }

    /// The geometry.
    pub fn geometry(&self) -> &Geometry {
        self.puzzle.geometry()
    }

    /// The symbols digits are written with.
    pub fn symbols(&self) -> &Symbols {
        &self.symbols
    }

    /// The unique solution, when the puzzle has one.
    pub fn solution(&self) -> Option<&Grid> {
        self.solution.as_ref()
    }

    /// The title shown on screen.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The level, when the puzzle was generated for one.
    pub fn level(&self) -> Option<Level> {
        self.level
    }

    /// The cell under the cursor.
    pub fn cursor(&self) -> Cell {
        self.cursor
    }

    /// Whether digits toggle pencil marks instead of placing values.
    pub fn pencil(&self) -> bool {
        self.pencil
    }

    /// Whether empty cells show their candidates automatically.
    pub fn auto_candidates(&self) -> bool {
        self.auto
    }

    /// What keys mean now.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The hint on show, if any.
    pub fn hint(&self) -> Option<&Step> {
        self.hint.as_ref()
    }

    /// The sentence of the hint on show.
    pub fn hint_sentence(&self) -> Option<String> {
        self.hint.as_ref().map(|h| h.sentence(self.geometry()))
    }

    /// Cells the last check found wrong (until the next change).
    pub fn wrong(&self) -> &[Cell] {
        &self.wrong
    }

    /// The status message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Replaces the status message (the driver reports saves, loads and errors).
    pub fn set_message(&mut self, message: impl Into<String>) {
        self.message = message.into();
    }

    /// Time played.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    /// Actions that undo can take back, oldest first.
    pub fn history(&self) -> &[Action] {
        &self.done
    }

    /// Actions that redo can replay, the next one last.
    pub fn redo_stack(&self) -> &[Action] {
        &self.undone
    }

    /// The player's state of every cell.
    pub fn cell_states(&self) -> &[CellState] {
        &self.cells
    }

    /// Whether the cell is a given.
    pub fn is_given(&self, cell: Cell) -> bool {
        self.puzzle.get(cell) != 0
    }

    /// The value shown in a cell (given or entered), 0 when empty.
    pub fn value(&self, cell: Cell) -> u8 {
        match self.puzzle.get(cell) {
            0 => self.cells[cell].value,
            given => given,
        }
    }

    /// Every cell's value (givens and entries), row-major.
    pub fn values(&self) -> Vec<u8> {
        (0..self.cells.len()).map(|c| self.value(c)).collect()
    }

    /// The pencil marks of a cell, as typed.
    pub fn marks(&self, cell: Cell) -> DigitSet {
        self.cells[cell].marks
    }

    /// The candidates of an empty cell: the digits no peer holds, narrowed to the
    /// pencil marks when it has any. Empty for a filled cell.
    pub fn effective(&self, cell: Cell) -> DigitSet {
        if self.value(cell) != 0 {
            return DigitSet::EMPTY;
        }
        let open = open_digits(self.geometry(), &self.values(), cell);
        let marks = self.cells[cell].marks;
        if marks.is_empty() { open } else { open & marks }
    }

    /// What an empty cell shows as small digits: the effective candidates with
    /// automatic candidates on, else the pencil marks.
    pub fn shown_candidates(&self, cell: Cell) -> DigitSet {
        if self.value(cell) != 0 {
            DigitSet::EMPTY
        } else if self.auto {
            self.effective(cell)
        } else {
            self.cells[cell].marks
        }
    }

    /// For every cell, whether its value is repeated in one of its houses.
    pub fn conflicts(&self) -> Vec<bool> {
        let values = self.values();
        let g = self.geometry();
        (0..values.len())
            .map(|c| values[c] != 0 && g.peers(c).iter().any(|&p| values[p as usize] == values[c]))
            .collect()
    }

    /// Filled cells (givens and entries).
    pub fn filled(&self) -> usize {
        (0..self.cells.len())
            .filter(|&c| self.value(c) != 0)
            .count()
    }

    /// Whether every cell is filled and no house repeats a digit.
    pub fn is_solved(&self) -> bool {
        let values = self.values();
        values.iter().all(|&v| v != 0) && !self.conflicts().iter().any(|&x| x)
    }

    /// Adds playing time (the driver's clock); the clock stops once solved.
    pub fn tick(&mut self, dt: Duration) {
        if !self.is_solved() {
            // Saturating: a save file may claim any time.
            self.elapsed = self.elapsed.saturating_add(dt);
        }
    }

    /// Handles one key press.
    pub fn handle(&mut self, key: Key) -> Request {
        if self.mode == Mode::ChooseLevel {
            self.mode = Mode::Play;
            if let Key::Char(c) = key {
                if let Some(&(_, level)) = LEVEL_KEYS.iter().find(|(k, _)| *k == c) {
                    self.message = format!("Making a new {} puzzle...", level.name());
                    return Request::NewPuzzle(level);
                }
            }
            self.message = "No new puzzle.".into();
            return Request::None;
        }
        if let Key::Char(c) = key {
            if let Some(d) = self.exact_digit(c) {
                self.digit(d);
                return Request::None;
            }
        }
        match key {
            Key::Up | Key::Char('k') => self.step_cursor(-1, 0),
            Key::Down | Key::Char('j') => self.step_cursor(1, 0),
            Key::Left | Key::Char('h') => self.step_cursor(0, -1),
            Key::Right | Key::Char('l') => self.step_cursor(0, 1),
            Key::Backspace | Key::Delete | Key::Char(' ' | '.') => self.clear_cell(),
            Key::Char('p') => {
                self.pencil = !self.pencil;
                self.message = if self.pencil {
                    "Pencil mode: digits toggle pencil marks.".into()
                } else {
                    "Digit mode: digits place values.".into()
                };
            }
            Key::Char('a') => {
                self.auto = !self.auto;
                self.message = if self.auto {
                    "Candidates shown automatically.".into()
                } else {
                    "Only your pencil marks are shown.".into()
                };
            }
            Key::Char('?') => self.show_hint(),
            Key::Enter | Key::Char('!') => self.apply_hint(),
            Key::Char('u') | Key::Ctrl('z') => self.undo(),
            Key::Char('r') | Key::Ctrl('r') | Key::Ctrl('y') => self.redo(),
            Key::Char('c') => self.check(),
            Key::Char('x') => self.restart(),
            Key::Char('n') => {
                self.mode = Mode::ChooseLevel;
                self.message =
                    "New puzzle: e easy, m medium, h hard, u unfair, x extreme (Esc: no)".into();
            }
            Key::Char('s') => return Request::Save,
            Key::Char('o') => return Request::Load,
            // Esc only hides things: a stray Esc must not throw a game away.
            Key::Esc => {
                self.hint = None;
                self.wrong.clear();
                self.message.clear();
            }
            Key::Char('q') | Key::Ctrl('c') => return Request::Quit,
            Key::Char(c) => {
                // Case-insensitive symbols (`A`..`I` typed as `a`..`i`) that are not keys.
                match self.symbols.digit(c as u8).filter(|_| c.is_ascii()) {
                    Some(0) => self.clear_cell(),
                    Some(d) if (d as usize) <= self.geometry().size() => self.digit(d),
                    _ => self.message = format!("{c:?} is not a key here (q quits)."),
                }
            }
            _ => {}
        }
        Request::None
    }

    /// A click on a cell moves the cursor there.
    pub fn click(&mut self, cell: Cell) {
        if cell < self.cells.len() {
            self.cursor = cell;
        }
    }

    /// A click on a candidate's place in a cell that shows candidates as a keypad:
    /// moves the cursor there and, in pencil mode, toggles that pencil mark.
    pub fn click_candidate(&mut self, cell: Cell, d: u8) {
        self.click(cell);
        if self.pencil && cell < self.cells.len() && self.value(cell) == 0 {
            self.digit(d);
        }
    }

    /// The digit a character is, when it is exactly one of the symbols (so a symbol
    /// such as `h` wins over the key).
    fn exact_digit(&self, c: char) -> Option<u8> {
        if !c.is_ascii() {
            return None;
        }
        match self.symbols.digit(c as u8) {
            Some(d) if d != 0 && self.symbols.char(d) == c => Some(d),
            _ => None,
        }
    }

    fn step_cursor(&mut self, dr: isize, dc: isize) {
        let g = self.geometry();
        let n = g.size() as isize;
        let r = (g.row(self.cursor) as isize + dr).rem_euclid(n) as usize;
        let c = (g.col(self.cursor) as isize + dc).rem_euclid(n) as usize;
        self.cursor = g.cell(r, c);
    }

    /// A digit typed on the cursor cell: places it (typing the same value again
    /// clears it) or, in pencil mode, toggles the pencil mark.
    fn digit(&mut self, d: u8) {
        let cell = self.cursor;
        let name = self.geometry().cell_name(cell);
        if self.is_given(cell) {
            self.message = format!("{name} is a given.");
            return;
        }
        let before = self.cells[cell];
        let mut after = before;
        if self.pencil {
            if before.value != 0 {
                self.message = format!("{name} holds a value; clear it to pencil in.");
                return;
            }
            // With automatic candidates the board shows the effective candidates, so
            // toggling acts on what the player sees.
            if self.auto && after.marks.is_empty() {
                after.marks = self.effective(cell);
            }
            if !after.marks.remove(d) {
                after.marks.insert(d);
            }
        } else {
            after.value = if before.value == d { 0 } else { d };
        }
        self.message.clear();
        self.commit(vec![Change {
            cell,
            before,
            after,
        }]);
    }

    fn clear_cell(&mut self) {
        let cell = self.cursor;
        if self.is_given(cell) {
            self.message = format!("{} is a given.", self.geometry().cell_name(cell));
            return;
        }
        let before = self.cells[cell];
        let after = if before.value != 0 {
            CellState { value: 0, ..before }
        } else {
            CellState::default()
        };
        if after != before {
            self.message.clear();
            self.commit(vec![Change {
                cell,
                before,
                after,
            }]);
        }
    }

    /// Records and applies an action; a new action forgets the redo stack.
    fn commit(&mut self, action: Action) {
        if action.is_empty() {
            return;
        }
        for ch in &action {
            self.cells[ch.cell] = ch.after;
        }
        self.done.push(action);
        self.undone.clear();
        self.changed();
    }

    /// After any change to the board: stale hints and check marks go, and a finished
    /// grid is announced.
    fn changed(&mut self) {
        self.hint = None;
        self.wrong.clear();
        if self.is_solved() {
            let s = self.elapsed.as_secs();
            self.message = format!("Solved in {}:{:02}! n for a new puzzle.", s / 60, s % 60);
        }
    }

    /// Takes back the last action.
    pub fn undo(&mut self) {
        match self.done.pop() {
            None => self.message = "Nothing to undo.".into(),
            Some(action) => {
                for ch in action.iter().rev() {
                    self.cells[ch.cell] = ch.before;
                }
                self.message = format!("Undone ({} more).", self.done.len());
                self.undone.push(action);
                self.changed();
            }
        }
    }

    /// Replays the last undone action.
    pub fn redo(&mut self) {
        match self.undone.pop() {
            None => self.message = "Nothing to redo.".into(),
            Some(action) => {
                for ch in &action {
                    self.cells[ch.cell] = ch.after;
                }
                self.message = format!("Redone ({} more).", self.undone.len());
                self.done.push(action);
                self.changed();
            }
        }
    }

    /// Entries that differ from the solution, and cells whose pencil marks exclude
    /// their solution digit.
    fn mistakes(&self) -> (Vec<Cell>, Vec<Cell>) {
        let Some(sol) = &self.solution else {
            return (Vec::new(), Vec::new());
        };
        let wrong = (0..self.cells.len())
            .filter(|&c| self.cells[c].value != 0 && self.cells[c].value != sol.get(c))
            .collect();
        let marks = (0..self.cells.len())
            .filter(|&c| {
                self.value(c) == 0
                    && !self.cells[c].marks.is_empty()
                    && !self.cells[c].marks.contains(sol.get(c))
            })
            .collect();
        (wrong, marks)
    }

    /// Compares the entries with the solution and marks the wrong ones.
    pub fn check(&mut self) {
        if self.solution.is_none() {
            self.message = "No unique solution to check against.".into();
            return;
        }
        let (wrong, marks) = self.mistakes();
        let g = self.geometry();
        self.message = if !wrong.is_empty() {
            format!("Wrong: {}.", names(g, &wrong))
        } else if !marks.is_empty() {
            format!(
                "No wrong values, but pencil marks rule out the answer in {}.",
                names(g, &marks)
            )
        } else if self.is_solved() {
            "Solved, and correct.".into()
        } else {
            let left = self.cells.len() - self.filled();
            format!("All correct so far; {left} cells to go.")
        };
        self.wrong = wrong.into_iter().chain(marks).collect();
    }

    /// The state the hint engine starts from: the values, with every empty cell's
    /// candidates narrowed to its pencil marks.
    pub fn logic_state(&self) -> State {
        let grid = Grid::from_cells(self.puzzle.geometry().clone(), self.values())
            .expect("values are digits of the grid");
        // A cell without pencil marks is not narrowed: all its digits stay marked.
        let mut marks = Candidates::full(grid.geometry().clone());
        for (c, cs) in self.cells.iter().enumerate() {
            if !cs.marks.is_empty() {
                marks.set(c, cs.marks);
            }
        }
        State::from_entries(&grid, &marks)
    }

    /// Finds the next logical step and shows it (its cells highlighted, its sentence
    /// in the panel). Mistakes are pointed out instead: no sound step follows from them.
    pub fn show_hint(&mut self) {
        self.hint = None;
        if self.is_solved() {
            self.message = "Already solved.".into();
            return;
        }
        let (wrong, marks) = self.mistakes();
        let g = self.geometry();
        if !wrong.is_empty() {
            self.message = format!("First fix the wrong values: {}.", names(g, &wrong));
            self.wrong = wrong;
            return;
        }
        if !marks.is_empty() {
            self.message = format!("First fix the pencil marks of {}.", names(g, &marks));
            self.wrong = marks;
            return;
        }
        if self.conflicts().iter().any(|&x| x) {
            self.message = "Some houses repeat a digit: fix the red cells first.".into();
            return;
        }
        match logic::hint(&self.logic_state()) {
            Some(step) => {
                self.message = step.line(self.geometry());
                self.hint = Some(step);
            }
            None => self.message = "No hint: the puzzle cannot be solved from here.".into(),
        }
    }

    /// Applies the hint on show (finding one first when none is): its values are
    /// placed and its eliminations struck from the pencil marks, as one action.
    pub fn apply_hint(&mut self) {
        if self.hint.is_none() {
            self.show_hint();
        }
        let Some(step) = self.hint.take() else {
            return;
        };
        let line = step.line(self.geometry());
        let mut after: Vec<(Cell, CellState)> = Vec::new();
        for &(cell, d) in &step.eliminations {
            if self.value(cell) != 0 {
                continue;
            }
            let i = slot(&mut after, cell, self.cells[cell]);
            if after[i].1.marks.is_empty() {
                // Materialise the candidates the engine saw, so the elimination sticks.
                after[i].1.marks = self.effective(cell);
            }
            after[i].1.marks.remove(d);
        }
        for &(cell, d) in &step.placements {
            if self.is_given(cell) {
                continue;
            }
            let i = slot(&mut after, cell, self.cells[cell]);
            after[i].1.value = d;
        }
        let action: Action = after
            .into_iter()
            .filter(|&(cell, a)| a != self.cells[cell])
            .map(|(cell, a)| Change {
                cell,
                before: self.cells[cell],
                after: a,
            })
            .collect();
        self.commit(action);
        if !self.is_solved() {
            self.message = format!("Applied: {line}");
        }
    }

    /// Clears every entry and pencil mark (one action, so undo brings them back) and
    /// restarts the clock.
    pub fn restart(&mut self) {
        let action: Action = (0..self.cells.len())
            .filter(|&c| self.cells[c] != CellState::default())
            .map(|c| Change {
                cell: c,
                before: self.cells[c],
                after: CellState::default(),
            })
            .collect();
        self.commit(action);
        self.elapsed = Duration::ZERO;
        self.message = "Restarted (u brings your entries back).".into();
    }
}

/// The index of `cell` in a list of pending cell states, added with `state` if absent.
fn slot(list: &mut Vec<(Cell, CellState)>, cell: Cell, state: CellState) -> usize {
    match list.iter().position(|&(c, _)| c == cell) {
        Some(i) => i,
        None => {
            list.push((cell, state));
            list.len() - 1
        }
    }
}

/// Cell names joined with commas, at most eight.
fn names(g: &Geometry, cells: &[Cell]) -> String {
    let mut s: Vec<String> = cells.iter().take(8).map(|&c| g.cell_name(c)).collect();
    if cells.len() > 8 {
        s.push(format!("and {} more", cells.len() - 8));
    }
    s.join(", ")
}

#[cfg(test)]
mod tests;
