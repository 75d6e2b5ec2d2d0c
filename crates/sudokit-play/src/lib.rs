//! sudokit-play: the terminal player behind `sudokit play`, in the spirit of Moler's
//! `sudoku_assist` ("control the solution process, as you would by hand on paper").
//!
//! * [`game`]: the pure state machine: puzzle, entries, pencil marks, cursor, hints from
//!   the logic engine, unlimited undo and redo, check, restart, timer; key presses in,
//!   state out. Everything the player can do is tested there, without a terminal.
//! * [`save`]: saved games as a small text file (puzzle, entries, marks, history).
//! * [`levels`]: new puzzles of a chosen level (the generator plus the logic rater).
//! * [`view`]: the ratatui drawing of a game, any shape from 4x4 to 16x16 (and larger
//!   when the terminal allows), and the mapping of mouse clicks back to cells.
//! * [`term`]: the event loop that joins them to a real terminal.
//!
//! The split keeps every rule in code that can be unit-tested: only [`term`] touches
//! the terminal, the clock or the disk.

#![deny(missing_docs)]

pub mod game;
pub mod levels;
pub mod save;
pub mod term;
pub mod view;

pub use game::{Game, Key, Mode, Request};
pub use save::LoadError;
pub use term::{Options, run};
