//! The terminal driver: raw mode, the alternate screen and mouse capture around an
//! event loop that feeds key presses and clicks to the [`Game`] and does what it
//! [`Request`]s (files, new puzzles). The only part of the player that touches the
//! terminal, the clock or the disk.

use std::io::{self, IsTerminal as _};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, KeyEventKind,
    KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::crossterm::execute;
use sudokit::rng::Rng;

use crate::game::{Game, Key, Request};
use crate::levels;
use crate::view::{self, Layout};

/// How the player runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Draw in colour (false when `NO_COLOR` is set).
    pub color: bool,
    /// Where `s` saves and `o` loads.
    pub save_path: PathBuf,
    /// Seed of the new puzzles made with `n`.
    pub seed: u64,
}

/// Whether colour is wanted: the `NO_COLOR` convention (set and not empty: no colour).
pub fn color_wanted() -> bool {
    color_for(std::env::var_os("NO_COLOR").as_deref())
}

/// Colour for a value of `NO_COLOR`.
fn color_for(no_color: Option<&std::ffi::OsStr>) -> bool {
    no_color.is_none_or(|v| v.is_empty())
}

/// Plays `game` in the terminal until the player quits.
pub fn run(mut game: Game, options: &Options) -> io::Result<()> {
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        return Err(io::Error::other(
            "play needs a terminal (standard input and output)",
        ));
    }
    let mut terminal = ratatui::try_init()?;
    // Terminals without mouse support ignore the request; keys still work.
    let _ = execute!(io::stdout(), EnableMouseCapture);
    let result = event_loop(&mut terminal, &mut game, options);
    let _ = execute!(io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result
}

fn event_loop(
    terminal: &mut DefaultTerminal,
    game: &mut Game,
    options: &Options,
) -> io::Result<()> {
    let mut rng = Rng::new(options.seed);
    let mut layout: Option<Layout> = None;
    let mut last = Instant::now();
    loop {
        terminal.draw(|f| layout = view::draw(game, f, options.color))?;
        if event::poll(Duration::from_millis(250))? {
            match event::read()? {
                Event::Key(k) if k.kind != KeyEventKind::Release => {
                    if let Some(key) = key_of(k) {
                        match game.handle(key) {
                            Request::None => {}
                            Request::Quit => return Ok(()),
                            Request::Save => save(game, options),
                            Request::Load => load(game, options),
                            Request::NewPuzzle(level) => {
                                terminal.draw(|f| layout = view::draw(game, f, options.color))?;
                                let geometry = Arc::clone(game.puzzle().geometry());
                                match levels::new_puzzle(&geometry, level, &mut rng, levels::BUDGET)
                                {
                                    Ok((made, got)) => game.start(made, level, got),
                                    Err(e) => game.set_message(format!("No new puzzle: {e}.")),
                                }
                                // Waiting for the generator is not playing time.
                                last = Instant::now();
                            }
                        }
                    }
                }
                Event::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => {
                    if let Some(l) = layout {
                        if let Some((cell, d)) = l.candidate_at(m.column, m.row) {
                            game.click_candidate(cell, d);
                        } else if let Some(cell) = l.cell_at(m.column, m.row) {
                            game.click(cell);
                        }
                    }
                }
                _ => {}
            }
        }
        let now = Instant::now();
        game.tick(now - last);
        last = now;
    }
}

fn save(game: &mut Game, options: &Options) {
    let path = options.save_path.display();
    let message = match std::fs::write(&options.save_path, game.to_save()) {
        Ok(()) => format!("Saved to {path}."),
        Err(e) => format!("Cannot write {path}: {e}."),
    };
    game.set_message(message);
}

fn load(game: &mut Game, options: &Options) {
    let path = options.save_path.display();
    match std::fs::read_to_string(&options.save_path) {
        Err(e) => game.set_message(format!("Cannot read {path}: {e}.")),
        Ok(text) => match Game::from_save(&text) {
            Err(e) => game.set_message(format!("{path}: {e}.")),
            Ok(loaded) => {
                *game = loaded;
                game.set_message(format!("Loaded {path}."));
            }
        },
    }
}

/// The game's key for a terminal key event.
pub fn key_of(k: KeyEvent) -> Option<Key> {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    Some(match k.code {
        KeyCode::Char(c) if ctrl => Key::Ctrl(c.to_ascii_lowercase()),
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Delete => Key::Delete,
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_keys_become_game_keys() {
        let k = |code, modifiers| key_of(KeyEvent::new(code, modifiers));
        assert_eq!(
            k(KeyCode::Char('5'), KeyModifiers::NONE),
            Some(Key::Char('5'))
        );
        assert_eq!(
            k(KeyCode::Char('A'), KeyModifiers::SHIFT),
            Some(Key::Char('A'))
        );
        assert_eq!(
            k(KeyCode::Char('r'), KeyModifiers::CONTROL),
            Some(Key::Ctrl('r'))
        );
        assert_eq!(k(KeyCode::Up, KeyModifiers::NONE), Some(Key::Up));
        assert_eq!(k(KeyCode::Enter, KeyModifiers::NONE), Some(Key::Enter));
        assert_eq!(k(KeyCode::F(1), KeyModifiers::NONE), None);
    }

    #[test]
    fn no_color_convention() {
        use std::ffi::OsStr;
        assert!(color_for(None));
        assert!(color_for(Some(OsStr::new(""))), "set but empty: colour");
        assert!(!color_for(Some(OsStr::new("1"))));
    }
}
