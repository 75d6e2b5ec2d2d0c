//! Human-style logic: techniques a strong solver uses, each finding [`Step`]s on a
//! [`State`] (placed values plus the shared [`Candidates`](crate::Candidates)), a solver
//! that applies the easiest available step until the puzzle is solved, and ratings.
//!
//! * [`Step`] is data (technique, pattern, placements, eliminations, rating); its text
//!   comes from that data ([`Step::line`], [`Step::sentence`]).
//! * Each technique lives in its own module and reports steps to an [`Emit`] callback in
//!   a fixed order, so "the first step" is deterministic and no step list is built when
//!   only one is wanted. House-based techniques (singles, intersections, subsets, basic
//!   fish) work on every geometry; wings, chains, colouring, ALS, unique rectangles,
//!   BUG+1 and the strong-link patterns on every one up to 32x32 (X, windoku, jigsaw,
//!   Latin, 6x6, 16x16, 25x25...) through [`board::Board`] bitboards (SE's BUG types 2-4 too);
//!   SE's unique loops and chain engine on classic 9x9 only. Other geometries
//!   get forcing chains through singles ([`trials`]) where classic 9x9 has that engine.
//! * [`solver`] runs the techniques easiest first (HoDoKu's order) for `explain` and
//!   `hint`; [`se`] runs Sudoku Explainer's producer order with its difficulty values for
//!   the ER/EP/ED rating; [`rate()`] combines both into a [`rate::Rating`].
//! * Soundness: in debug builds the solver checks every step against the puzzle's
//!   solution as it goes, because a wrong elimination is the worst bug a logic engine
//!   can have and the cheapest to catch where it happens.

pub mod als;
pub mod board;
pub mod bug;
pub mod chains;
pub mod coloring;
pub mod exclusion;
pub mod fish;
pub mod forcing;
pub mod intersections;
pub mod nets;
pub mod rate;
pub mod se;
pub mod singles;
pub mod solver;
pub mod state;
pub mod step;
pub mod strong_links;
pub mod subsets;
pub mod tabling;
pub mod trials;
pub mod uniqueness;
pub mod wings;

pub use rate::{Rating, rate};
pub use solver::{Path, explain, hint, hint_known, next_step, verdict, verdict_within};
pub use state::State;
pub use step::{Level, Node, Step, Technique};

/// Where a technique reports a step; returns `false` to stop the search.
pub type Emit<'a> = &'a mut dyn FnMut(Step) -> bool;

/// Calls `f` with every `k`-subset of `items` (in lexicographic order of positions);
/// stops and returns false as soon as `f` does.
pub fn combinations<T: Copy + Default>(
    items: &[T],
    k: usize,
    f: &mut dyn FnMut(&[T]) -> bool,
) -> bool {
    combinations_pruned(items, k, None, f)
}

/// A test on a subset's items, or on a prefix of them.
pub type SubsetTest<'a, T> = &'a mut dyn FnMut(&[T]) -> bool;

/// [`combinations`] that skips every subset extending a proper prefix (in the same
/// order, from one item up) that `prefix_ok` refuses: for searches whose subsets can
/// only get worse as they grow.
pub fn combinations_pruned<T: Copy + Default>(
    items: &[T],
    k: usize,
    mut prefix_ok: Option<SubsetTest<T>>,
    f: &mut dyn FnMut(&[T]) -> bool,
) -> bool {
    fn go<T: Copy>(
        items: &[T],
        start: usize,
        buf: &mut [T],
        len: usize,
        prefix_ok: &mut Option<SubsetTest<T>>,
        f: &mut dyn FnMut(&[T]) -> bool,
    ) -> bool {
        if len == buf.len() {
            return f(buf);
        }
        let need = buf.len() - len;
        for i in start..items.len() {
            if items.len() - i < need {
                break;
            }
            buf[len] = items[i];
            if len + 1 < buf.len()
                && let Some(ok) = prefix_ok
                && !ok(&buf[..=len])
            {
                continue;
            }
            if !go(items, i + 1, buf, len + 1, prefix_ok, f) {
                return false;
            }
        }
        true
    }
    if k == 0 || k > items.len() {
        return true;
    }
    // Searches call this per house and digit: small subsets need no allocation.
    if k <= 16 {
        let mut buf = [T::default(); 16];
        go(items, 0, &mut buf[..k], 0, &mut prefix_ok, f)
    } else {
        let mut buf = vec![T::default(); k];
        go(items, 0, &mut buf, 0, &mut prefix_ok, f)
    }
}

/// Checks a step against a known solution: no placement differs from it and no
/// elimination removes its digit. Returns a description of the first fault.
pub fn check_step(step: &Step, solution: &[u8], g: &crate::Geometry) -> Result<(), String> {
    for &(c, d) in &step.placements {
        if solution[c] != d {
            return Err(format!(
                "{} places {}={} but the solution has {}",
                step.title(),
                g.cell_name(c),
                d,
                solution[c]
            ));
        }
    }
    for &(c, d) in &step.eliminations {
        if solution[c] == d {
            return Err(format!(
                "{} eliminates {}<>{}, the solution's digit",
                step.title(),
                g.cell_name(c),
                d
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod testing {
    //! Helpers for the technique tests.

    use super::*;
    use crate::format::parse_grid;
    use crate::solve::{Verdict, solve_unique};

    /// Puzzles with a unique solution that exercise many techniques (SE 3-9).
    pub const SAMPLES: &[&str] = &[
        // top1465 #1-#3 (magictour), SE 9+ / 8+.
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
        "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5...........",
        // sudoku-exchange diabolical, SE 5.5-7.2.
        "083020090000800100029300008000098700070000060006740000300006980002005000010030540",
        "200050006010000090600801003007090600000703000900080002100000005060902010003060200",
        "590000007040010083008034900001402000069000820000109300004670200980040030700000016",
        // HoDoKu X-Wing example.
        "1.....569492.561.8.561.924...964.8.1.64.1....218.356.4.4.5...169.5.614.2621.....5",
    ];

    /// The state of a puzzle given as one line.
    pub fn state(puzzle: &str) -> State {
        State::from_grid(&parse_grid(puzzle).expect("puzzle"))
    }

    /// Every step a finder emits.
    pub fn collect(s: &State, finder: impl Fn(&State, Emit) -> bool) -> Vec<Step> {
        let mut out = Vec::new();
        finder(s, &mut |st| {
            out.push(st);
            true
        });
        out
    }

    /// Panics when a step contradicts the puzzle's unique solution.
    pub fn check_sound(puzzle: &str, step: &Step) {
        let grid = parse_grid(puzzle).expect("puzzle");
        let Verdict::Unique(sol) = solve_unique(&grid) else {
            panic!("test puzzle must be unique: {puzzle}");
        };
        if let Err(e) = check_step(step, sol.cells(), grid.geometry()) {
            panic!("{e}\n{}", step.line(grid.geometry()));
        }
    }

    #[test]
    fn combinations_in_order() {
        let mut seen = Vec::new();
        combinations(&[1, 2, 3, 4], 2, &mut |c| {
            seen.push(c.to_vec());
            true
        });
        assert_eq!(seen.len(), 6);
        assert_eq!(seen[0], vec![1, 2]);
        assert_eq!(seen[5], vec![3, 4]);
    }

    #[test]
    fn pruned_combinations_skip_exactly_the_refused_prefixes() {
        // Prefixes summing over 7 are refused: the subsets left are, in the same order,
        // those none of whose proper prefixes sums over 7.
        let items = [1, 2, 3, 4, 5, 6];
        let mut all = Vec::new();
        combinations(&items, 3, &mut |c| {
            if c[0] <= 7 && c[0] + c[1] <= 7 {
                all.push(c.to_vec());
            }
            true
        });
        let mut pruned = Vec::new();
        let mut ok = |p: &[i32]| p.iter().sum::<i32>() <= 7;
        combinations_pruned(&items, 3, Some(&mut ok), &mut |c| {
            pruned.push(c.to_vec());
            true
        });
        assert_eq!(pruned, all);
        assert!(pruned.len() < 20);
    }
}
