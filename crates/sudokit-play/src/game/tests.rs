//! Key events -> state: every behaviour of the player, without a terminal.
//!
//! Figures come from Moler's chapter: the Lo-Shu puzzle's completed grid (figure
//! 14.3) and its one initial singleton, the 5 at (3,9) (the text on figure 14.12).

use std::time::Duration;

use sudokit::grid::DigitSet;
use sudokit::logic::Level;
use sudokit::puzzles::builtin;
use sudokit::{Grid, Symbols, parse_grid};

use super::*;

/// Moler's figure 14.3: the completed Lo-Shu grid.
const LO_SHU_SOLVED: &str =
    "816579243357624981492138765243816579981357624765492138579243816624981357138765492";

fn lo_shu() -> Game {
    Game::new(
        builtin("lo-shu").unwrap().grid(),
        Symbols::standard(9),
        "lo-shu",
    )
}

fn moler(cell: Cell) -> u8 {
    LO_SHU_SOLVED.as_bytes()[cell] - b'0'
}

fn keys(game: &mut Game, text: &str) -> Request {
    let mut last = Request::None;
    for c in text.chars() {
        last = game.handle(Key::Char(c));
    }
    last
}

fn goto(game: &mut Game, row: usize, col: usize) {
    let cell = game.geometry().cell(row - 1, col - 1);
    game.click(cell);
}

fn shidoku() -> Game {
    // Moler's figure 14.4: 4x4, solved by singletons.
    Game::new(
        builtin("shidoku").unwrap().grid(),
        Symbols::standard(4),
        "shidoku",
    )
}

#[test]
fn lo_shu_solution_is_moler_s() {
    let g = lo_shu();
    let sol = g.solution().expect("unique");
    assert_eq!(sol.cells(), parse_grid(LO_SHU_SOLVED).unwrap().cells());
}

#[test]
fn cursor_starts_on_the_first_empty_cell() {
    let g = lo_shu();
    assert_eq!(g.cursor(), 3); // r1c4: 816 are givens
}

#[test]
fn arrows_and_hjkl_move_and_wrap() {
    let mut g = lo_shu();
    goto(&mut g, 1, 1);
    g.handle(Key::Right);
    assert_eq!(g.cursor(), 1);
    keys(&mut g, "l");
    assert_eq!(g.cursor(), 2);
    keys(&mut g, "j");
    assert_eq!(g.cursor(), 11);
    g.handle(Key::Down);
    assert_eq!(g.cursor(), 20);
    g.handle(Key::Up);
    keys(&mut g, "k");
    assert_eq!(g.cursor(), 2);
    keys(&mut g, "hh");
    assert_eq!(g.cursor(), 0);
    g.handle(Key::Left);
    assert_eq!(g.cursor(), 8, "left of column 1 wraps to column 9");
    g.handle(Key::Up);
    assert_eq!(g.cursor(), 80, "up from row 1 wraps to row 9");
    g.handle(Key::Down);
    assert_eq!(g.cursor(), 8);
}

#[test]
fn movement_works_on_every_shape() {
    for (text, n) in [("1....2....3....4", 4), ("", 6), ("", 16)] {
        let puzzle = if text.is_empty() {
            Grid::empty(sudokit::Geometry::standard(
                sudokit::Shape::for_size(n).unwrap(),
            ))
        } else {
            parse_grid(text).unwrap()
        };
        let mut g = Game::new(puzzle, Symbols::standard(n), "t");
        goto(&mut g, 1, 1);
        for _ in 0..n {
            g.handle(Key::Right);
        }
        assert_eq!(g.cursor(), 0, "{n}: a full lap");
        for _ in 0..n - 1 {
            g.handle(Key::Down);
        }
        assert_eq!(g.cursor(), (n - 1) * n);
    }
}

#[test]
fn click_moves_the_cursor_and_ignores_cells_off_the_grid() {
    let mut g = lo_shu();
    g.click(40);
    assert_eq!(g.cursor(), 40);
    g.click(81);
    assert_eq!(g.cursor(), 40);
}

#[test]
fn clicking_candidates_toggles_marks_in_pencil_mode() {
    let mut g = lo_shu();
    g.click_candidate(26, 5);
    assert_eq!(g.cursor(), 26);
    assert_eq!(
        g.marks(26),
        DigitSet::EMPTY,
        "digit mode: the click only moves"
    );
    keys(&mut g, "p");
    g.click_candidate(26, 5);
    g.click_candidate(26, 7);
    assert_eq!(g.marks(26), [5, 7].into_iter().collect());
    g.click_candidate(26, 7);
    assert_eq!(g.marks(26), DigitSet::single(5));
    g.click_candidate(0, 3);
    assert_eq!(g.cursor(), 0);
    assert_eq!(g.history().len(), 3, "a given takes no marks");
}

#[test]
fn digits_place_values_and_typing_again_clears() {
    let mut g = lo_shu();
    goto(&mut g, 1, 4);
    keys(&mut g, "5");
    assert_eq!(g.value(3), 5);
    // 27 cells of kron(eye(3), magic(3)) plus Moler's 8 clues, plus this one.
    assert_eq!(g.filled(), 27 + 8 + 1);
    keys(&mut g, "7");
    assert_eq!(g.value(3), 7, "another digit replaces");
    keys(&mut g, "7");
    assert_eq!(g.value(3), 0, "the same digit clears");
    keys(&mut g, "5");
    g.handle(Key::Backspace);
    assert_eq!(g.value(3), 0);
    keys(&mut g, "50");
    assert_eq!(g.value(3), 0, "0 clears when it is not a symbol");
    keys(&mut g, "5");
    g.handle(Key::Delete);
    assert_eq!(g.value(3), 0);
    keys(&mut g, "5.");
    assert_eq!(g.value(3), 0);
}

#[test]
fn givens_cannot_change() {
    let mut g = lo_shu();
    goto(&mut g, 1, 1);
    keys(&mut g, "3");
    assert_eq!(g.value(0), 8);
    assert!(g.message().contains("r1c1 is a given"), "{}", g.message());
    g.handle(Key::Backspace);
    assert_eq!(g.value(0), 8);
    assert!(g.history().is_empty());
}

#[test]
fn pencil_mode_toggles_marks() {
    let mut g = lo_shu();
    goto(&mut g, 1, 4);
    keys(&mut g, "p");
    assert!(g.pencil());
    keys(&mut g, "572");
    assert_eq!(g.marks(3), [2, 5, 7].into_iter().collect());
    assert_eq!(g.value(3), 0);
    keys(&mut g, "7");
    assert_eq!(g.marks(3), [2, 5].into_iter().collect());
    // Marks stay out of sight under a value and come back when it is cleared.
    keys(&mut g, "p5");
    assert!(!g.pencil());
    assert_eq!(g.value(3), 5);
    assert_eq!(g.shown_candidates(3), DigitSet::EMPTY);
    keys(&mut g, "p2");
    assert!(g.message().contains("holds a value"), "{}", g.message());
    g.handle(Key::Backspace);
    assert_eq!(g.value(3), 0);
    assert_eq!(g.marks(3), [2, 5].into_iter().collect());
    g.handle(Key::Backspace);
    assert_eq!(
        g.marks(3),
        DigitSet::EMPTY,
        "a second clear removes the marks"
    );
}

#[test]
fn initial_candidates_have_moler_s_single_singleton() {
    let g = lo_shu();
    let singles: Vec<Cell> = (0..81)
        .filter(|&c| g.value(c) == 0 && g.effective(c).len() == 1)
        .collect();
    assert_eq!(singles, vec![g.geometry().cell(2, 8)], "(3,9) only");
    assert_eq!(g.effective(26), DigitSet::single(5));
}

#[test]
fn auto_candidates_show_effective_candidates() {
    let mut g = lo_shu();
    assert_eq!(
        g.shown_candidates(26),
        DigitSet::EMPTY,
        "no marks typed yet"
    );
    keys(&mut g, "a");
    assert!(g.auto_candidates());
    assert_eq!(g.shown_candidates(26), DigitSet::single(5));
    for c in 0..81 {
        if g.value(c) == 0 {
            assert!(g.shown_candidates(c).contains(moler(c)), "cell {c}");
        }
    }
    // In auto mode a pencil key strikes a shown candidate.
    goto(&mut g, 1, 4);
    let before = g.effective(3);
    assert!(before.len() > 1);
    let d = before.iter().find(|&d| d != moler(3)).unwrap();
    keys(&mut g, "p");
    g.handle(Key::Char((b'0' + d) as char));
    let mut expected = before;
    expected.remove(d);
    assert_eq!(g.marks(3), expected);
    assert_eq!(g.shown_candidates(3), expected);
    keys(&mut g, "a");
    assert_eq!(
        g.shown_candidates(3),
        expected,
        "typed marks show without auto"
    );
}

#[test]
fn conflicts_are_found_in_rows_columns_and_boxes() {
    let mut g = Game::new(
        Grid::empty(sudokit::Geometry::classic()),
        Symbols::standard(9),
        "t",
    );
    let conflicted = |g: &Game| -> Vec<Cell> { (0..81).filter(|&c| g.conflicts()[c]).collect() };
    goto(&mut g, 1, 1);
    keys(&mut g, "5");
    goto(&mut g, 1, 9);
    keys(&mut g, "5");
    assert_eq!(conflicted(&g), vec![0, 8], "row");
    keys(&mut g, "5");
    goto(&mut g, 9, 1);
    keys(&mut g, "5");
    assert_eq!(conflicted(&g), vec![0, 72], "column");
    keys(&mut g, "5");
    goto(&mut g, 3, 3);
    keys(&mut g, "5");
    assert_eq!(conflicted(&g), vec![0, 20], "box");
    keys(&mut g, "5");
    goto(&mut g, 5, 5);
    keys(&mut g, "5");
    assert!(conflicted(&g).is_empty(), "r5c5 sees nothing of r1c1");
    // Givens count too: Lo-Shu's r1c1 is 8.
    let mut g = lo_shu();
    goto(&mut g, 1, 4);
    keys(&mut g, "8");
    assert!(g.conflicts()[0] && g.conflicts()[3]);
    assert!(!g.is_solved());
}

#[test]
fn undo_and_redo_without_limit() {
    let mut g = lo_shu();
    let empty: Vec<usize> = (0..81).filter(|&c| g.value(c) == 0).collect();
    // 200 moves: fill every empty cell, then clear them again, then marks.
    for &c in &empty {
        g.click(c);
        g.handle(Key::Char((b'0' + moler(c)) as char));
    }
    assert!(g.is_solved());
    for &c in &empty {
        g.click(c);
        g.handle(Key::Backspace);
    }
    keys(&mut g, "p123");
    let n = g.history().len();
    assert_eq!(n, 2 * empty.len() + 3);
    let end = g.cell_states().to_vec();
    for _ in 0..n {
        keys(&mut g, "u");
    }
    assert!(g.cell_states().iter().all(|s| *s == CellState::default()));
    keys(&mut g, "u");
    assert_eq!(g.message(), "Nothing to undo.");
    for _ in 0..empty.len() {
        keys(&mut g, "r");
    }
    assert!(g.is_solved(), "redo replays the solving moves");
    for _ in 0..n {
        g.handle(Key::Ctrl('r'));
    }
    assert_eq!(g.cell_states(), &end[..]);
    assert_eq!(g.message(), "Nothing to redo.");
    g.handle(Key::Ctrl('z'));
    assert_eq!(g.redo_stack().len(), 1);
    // A new move forgets what could be redone.
    goto(&mut g, 1, 4);
    keys(&mut g, "p9"); // back to digit mode first
    assert_eq!(g.value(3), 9);
    assert!(g.redo_stack().is_empty());
}

#[test]
fn hint_shows_a_step_with_its_cells_and_sentence() {
    let mut g = lo_shu();
    keys(&mut g, "?");
    let step = g.hint().expect("a hint").clone();
    assert!(!step.placements.is_empty() || !step.eliminations.is_empty());
    let sentence = g.hint_sentence().unwrap();
    assert!(sentence.ends_with('.'), "{sentence}");
    for &(c, d) in &step.placements {
        assert_eq!(d, moler(c), "the hint agrees with Moler's solution");
    }
    assert_eq!(g.message(), step.line(g.geometry()));
    // Showing a hint changes nothing; Esc hides it and does not quit.
    assert!(g.history().is_empty());
    assert_eq!(g.handle(Key::Esc), Request::None);
    assert!(g.hint().is_none());
}

#[test]
fn enter_applies_the_hint_as_one_undoable_action() {
    let mut g = lo_shu();
    keys(&mut g, "?");
    let step = g.hint().unwrap().clone();
    g.handle(Key::Enter);
    assert!(g.hint().is_none());
    assert_eq!(g.history().len(), 1);
    for &(c, d) in &step.placements {
        assert_eq!(g.value(c), d);
    }
    keys(&mut g, "u");
    assert!(g.cell_states().iter().all(|s| *s == CellState::default()));
}

#[test]
fn applying_hints_solves_the_puzzle_as_moler_did() {
    let mut g = lo_shu();
    for _ in 0..200 {
        if g.is_solved() {
            break;
        }
        g.handle(Key::Char('!'));
    }
    assert!(g.is_solved());
    assert_eq!(g.values(), parse_grid(LO_SHU_SOLVED).unwrap().cells());
    assert!(g.message().starts_with("Solved in"), "{}", g.message());
    g.tick(Duration::from_secs(5));
    assert_eq!(g.elapsed(), Duration::ZERO, "the clock stops once solved");
}

#[test]
fn elimination_hints_stick_and_are_not_repeated() {
    // HoDoKu's X-Wing example and a sudoku-exchange "diabolical" puzzle (SE 5.5-7.2):
    // both need eliminations, which must land in the pencil marks so that the next
    // hint moves on.
    for text in [
        "1.....569492.561.8.561.924...964.8.1.64.1....218.356.4.4.5...169.5.614.2621.....5",
        "083020090000800100029300008000098700070000060006740000300006980002005000010030540",
    ] {
        let mut g = Game::new(parse_grid(text).unwrap(), Symbols::standard(9), "t");
        let sol = g.solution().expect("unique").clone();
        let mut eliminations = 0;
        for _ in 0..400 {
            if g.is_solved() {
                break;
            }
            keys(&mut g, "?");
            let step = g.hint().cloned().expect("a hint");
            let before = g.history().len();
            g.handle(Key::Enter);
            assert_eq!(g.history().len(), before + 1, "{}", step.line(g.geometry()));
            for &(c, d) in &step.eliminations {
                if g.value(c) == 0 {
                    eliminations += 1;
                    assert!(!g.effective(c).contains(d), "elimination kept");
                    assert!(g.effective(c).contains(sol.get(c)), "sound");
                }
            }
        }
        assert!(g.is_solved(), "{text}");
        assert_eq!(g.values(), sol.cells());
        assert!(eliminations > 0, "{text}");
    }
}

#[test]
fn hints_point_at_wrong_values_first() {
    let mut g = lo_shu();
    goto(&mut g, 1, 4);
    let wrong = if moler(3) == 2 { 4 } else { 2 };
    g.handle(Key::Char((b'0' + wrong) as char));
    keys(&mut g, "?");
    assert!(g.hint().is_none());
    assert!(g.message().contains("r1c4"), "{}", g.message());
    assert_eq!(g.wrong(), &[3]);
}

#[test]
fn hints_point_at_pencil_marks_that_exclude_the_answer() {
    let mut g = lo_shu();
    goto(&mut g, 3, 9);
    keys(&mut g, "p4"); // (3,9) must be 5
    keys(&mut g, "?");
    assert!(g.hint().is_none());
    assert!(g.message().contains("r3c9"), "{}", g.message());
}

#[test]
fn check_marks_wrong_entries() {
    let mut g = lo_shu();
    keys(&mut g, "c");
    assert_eq!(g.message(), "All correct so far; 46 cells to go.");
    goto(&mut g, 3, 9);
    keys(&mut g, "5");
    goto(&mut g, 1, 4);
    let wrong = if moler(3) == 2 { 4 } else { 2 };
    g.handle(Key::Char((b'0' + wrong) as char));
    keys(&mut g, "c");
    assert_eq!(g.wrong(), &[3]);
    assert_eq!(g.message(), "Wrong: r1c4.");
    // Any change clears the check's marks.
    g.handle(Key::Backspace);
    assert!(g.wrong().is_empty());
}

#[test]
fn restart_clears_everything_and_undo_brings_it_back() {
    let mut g = lo_shu();
    goto(&mut g, 3, 9);
    keys(&mut g, "5");
    goto(&mut g, 1, 4);
    keys(&mut g, "p12");
    g.tick(Duration::from_secs(42));
    keys(&mut g, "x");
    assert!(g.cell_states().iter().all(|s| *s == CellState::default()));
    assert_eq!(g.elapsed(), Duration::ZERO);
    keys(&mut g, "u");
    assert_eq!(g.value(26), 5);
    assert_eq!(g.marks(3), [1, 2].into_iter().collect());
}

#[test]
fn new_puzzle_asks_for_a_level() {
    let mut g = lo_shu();
    assert_eq!(keys(&mut g, "n"), Request::None);
    assert_eq!(g.mode(), Mode::ChooseLevel);
    assert_eq!(keys(&mut g, "h"), Request::NewPuzzle(Level::Hard));
    assert_eq!(g.mode(), Mode::Play);
    assert_eq!(g.cursor(), 3, "h picked the level, it did not move");
    keys(&mut g, "n");
    assert_eq!(g.handle(Key::Esc), Request::None);
    assert_eq!(g.mode(), Mode::Play);
    for (k, level) in LEVEL_KEYS {
        keys(&mut g, "n");
        assert_eq!(g.handle(Key::Char(*k)), Request::NewPuzzle(*level));
    }
}

#[test]
fn starting_a_generated_puzzle_resets_the_game() {
    let mut g = lo_shu();
    keys(&mut g, "a5");
    let (made, got) = crate::levels::new_puzzle(
        &sudokit::Geometry::classic(),
        Level::Easy,
        &mut sudokit::rng::Rng::new(7),
        Duration::from_secs(600),
    )
    .unwrap();
    assert_eq!(got, Level::Easy);
    g.start(made.clone(), Level::Easy, got);
    assert_eq!(g.message(), "A new easy puzzle. Good luck!");
    assert_eq!(g.puzzle(), &made.puzzle);
    assert_eq!(g.solution(), Some(&made.solution));
    assert_eq!(g.level(), Some(Level::Easy));
    assert!(g.history().is_empty());
    assert!(g.auto_candidates(), "display settings carry over");
    assert!(made.solution.solves(&made.puzzle));
    // Past its budget the generator takes any level, and the player is told.
    let (made, got) = crate::levels::new_puzzle(
        &sudokit::Geometry::standard(sudokit::Shape::new(2, 2).unwrap()),
        Level::Hard,
        &mut sudokit::rng::Rng::new(7),
        Duration::ZERO,
    )
    .unwrap();
    assert_eq!(got, crate::levels::level_of(&made.puzzle));
    g.start(made, Level::Hard, got);
    assert!(
        g.message().starts_with("No hard puzzle came quickly"),
        "{}",
        g.message()
    );
}

#[test]
fn every_level_below_extreme_comes_for_x_sudoku() {
    // Minimal X-sudoku puzzles are seldom easy; digging within the level finds them.
    let v: sudokit::Variant = "x".parse().unwrap();
    let g = std::sync::Arc::new(sudokit::Geometry::for_variant(9, None, &v).unwrap());
    for level in [Level::Easy, Level::Medium, Level::Hard] {
        let (made, got) = crate::levels::new_puzzle(
            &g,
            level,
            &mut sudokit::rng::Rng::new(7),
            Duration::from_secs(600),
        )
        .unwrap();
        assert_eq!(got, level);
        assert_eq!(made.puzzle.geometry().variant(), &v);
    }
}

#[test]
fn quit_save_and_load_are_requests() {
    let mut g = lo_shu();
    assert_eq!(keys(&mut g, "s"), Request::Save);
    assert_eq!(keys(&mut g, "o"), Request::Load);
    assert_eq!(keys(&mut g, "q"), Request::Quit);
    assert_eq!(g.handle(Key::Esc), Request::None, "Esc never quits");
    assert_eq!(g.handle(Key::Ctrl('c')), Request::Quit);
}

#[test]
fn letters_as_symbols() {
    // Moler's exercise 14.13: the letters A-I; lower-case h j k l still move.
    let sym = Symbols::custom("ABCDEFGHI", 9).unwrap();
    let mut g = Game::new(builtin("lo-shu").unwrap().grid(), sym, "letters");
    goto(&mut g, 1, 4);
    keys(&mut g, "E");
    assert_eq!(g.value(3), 5);
    keys(&mut g, "l");
    assert_eq!(g.cursor(), 4);
    keys(&mut g, "H");
    assert_eq!(g.value(4), 8);
    keys(&mut g, "b");
    assert_eq!(
        g.value(4),
        2,
        "lower-case letters that are no key are symbols"
    );
    keys(&mut g, "5");
    assert!(g.message().contains("not a key"), "{}", g.message());
    assert_eq!(g.value(4), 2);
}

#[test]
fn symbols_that_are_keys_win() {
    // A custom alphabet holding `h` and `u`: typing them enters digits.
    let sym = Symbols::custom("abcdefghu", 9).unwrap();
    let mut g = Game::new(Grid::empty(sudokit::Geometry::classic()), sym, "t");
    goto(&mut g, 1, 1);
    keys(&mut g, "h");
    assert_eq!(g.value(0), 8);
    keys(&mut g, "u");
    assert_eq!(g.value(0), 9);
    g.handle(Key::Right);
    assert_eq!(g.cursor(), 1);
}

#[test]
fn sixteen_by_sixteen_takes_letters() {
    let n = 16;
    let geometry = sudokit::Geometry::standard(sudokit::Shape::for_size(n).unwrap());
    let mut g = Game::new(Grid::empty(geometry), Symbols::standard(n), "16");
    keys(&mut g, "G");
    assert_eq!(g.value(0), 16);
    keys(&mut g, "l9");
    assert_eq!(g.value(1), 9);
}

#[test]
fn shidoku_is_solved_by_keys() {
    let mut g = shidoku();
    let sol = g.solution().unwrap().clone();
    for c in 0..16 {
        if g.value(c) == 0 {
            g.click(c);
            g.handle(Key::Char((b'0' + sol.get(c)) as char));
        }
    }
    assert!(g.is_solved());
    keys(&mut g, "c");
    assert_eq!(g.message(), "Solved, and correct.");
}

#[test]
fn the_clock_runs_while_playing() {
    let mut g = lo_shu();
    g.tick(Duration::from_millis(1500));
    g.tick(Duration::from_millis(1500));
    assert_eq!(g.elapsed(), Duration::from_secs(3));
}

#[test]
fn a_puzzle_without_unique_solution_still_plays() {
    let mut g = Game::new(
        builtin("lo-shu-6").unwrap().grid(),
        Symbols::standard(9),
        "t",
    );
    assert!(g.solution().is_none());
    keys(&mut g, "c");
    assert!(g.message().contains("No unique solution"));
    keys(&mut g, "?");
    assert!(g.hint().is_some() || !g.message().is_empty());
}
