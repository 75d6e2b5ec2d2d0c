//! Difficulty ratings: Sudoku Explainer's ER/EP/ED (from SE's own path, [`se`]) and a
//! HoDoKu-style level and score (from the human path, [`solver`]).
//!
//! The HoDoKu score is the sum of the base scores of the steps applied; the level is
//! the highest level among them, raised while the score exceeds its cap (800, 1000,
//! 1600, 1800 on 9x9; in proportion to the cell count on other sizes). Brute force
//! counts as Extreme with 10000 points, as in HoDoKu.

use std::collections::BTreeMap;

use super::se::{self, Options};
use super::solver::{self, Path};
use super::{Level, State, Technique};

/// A rating of one puzzle.
#[derive(Clone, Debug)]
pub struct Rating {
    /// Sudoku Explainer rating (ER), in tenths; None when SE's techniques do not solve
    /// the puzzle (serate prints 20.0).
    pub er: Option<u16>,
    /// Pearl rating (EP), in tenths.
    pub ep: Option<u16>,
    /// Diamond rating (ED), in tenths.
    pub ed: Option<u16>,
    /// HoDoKu-style level.
    pub level: Level,
    /// HoDoKu-style score.
    pub score: u32,
    /// Techniques used on the human path, with counts, easiest first.
    pub techniques: Vec<(Technique, u32)>,
    /// Whether the human path needed brute force.
    pub brute_force: bool,
    /// The human path.
    pub path: Path,
    /// Whether `Options::deadline` passed before the rating was complete (then the
    /// ratings are partial and should not be reported as the puzzle's).
    pub timed_out: bool,
}

/// Rates a puzzle: the SE path for ER/EP/ED, the human path for level, score and
/// techniques.
pub fn rate(start: &State) -> Rating {
    rate_with(start, &Options::default())
}

/// [`rate`] with explicit SE options.
pub fn rate_with(start: &State, opts: &Options) -> Rating {
    let expired = || {
        opts.deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
    };
    let human = || solver::explain_until(start, &mut |_| expired());
    // The two paths are independent: on an idle core, the human one runs beside SE's.
    let idle = opts.helper.then(se::IdleCore::reserve).flatten();
    let (se, path) = if let Some(core) = idle {
        std::thread::scope(|scope| {
            let path = std::thread::Builder::new().spawn_scoped(scope, move || {
                let _busy = core.occupy();
                human()
            });
            let se = se::rate(start, opts);
            // Without a thread (the system may refuse one), the paths run in turn.
            let path = match path {
                Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
                Err(_) => human(),
            };
            (se, path)
        })
    } else {
        let se = se::rate(start, opts);
        let path = if se.timed_out {
            Path {
                steps: Vec::new(),
                solved: false,
                end: start.clone(),
            }
        } else {
            human()
        };
        (se, path)
    };
    let timed_out = se.timed_out || (!path.solved && expired());
    let (level, score, techniques) = hodoku(&path);
    let ok = se.solved;
    Rating {
        er: ok.then_some(se.er),
        ep: ok.then_some(se.ep),
        ed: ok.then_some(se.ed),
        level,
        score,
        brute_force: techniques.iter().any(|t| t.0 == Technique::BruteForce),
        techniques,
        path,
        timed_out,
    }
}

/// HoDoKu's level and score of a path, and the techniques it used.
pub fn hodoku(path: &Path) -> (Level, u32, Vec<(Technique, u32)>) {
    let mut counts: BTreeMap<Technique, u32> = BTreeMap::new();
    let mut score = 0;
    let mut level = Level::Easy;
    for st in &path.steps {
        *counts.entry(st.technique).or_default() += 1;
        score += st.technique.score();
        level = level.max(st.technique.level());
    }
    (
        Level::from_score(level, score, path.end.geometry().cell_count()),
        score,
        counts.into_iter().collect(),
    )
}

/// Formats tenths as `7.2`.
pub fn tenths(t: u16) -> String {
    format!("{}.{}", t / 10, t % 10)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::state;

    #[test]
    fn easy_puzzle_is_easy() {
        let r = rate(&state(
            "816.....3357....8.4921.......3816......357......4921.......3816.2....3571.....492",
        ));
        assert!(r.path.solved);
        assert_eq!(r.level, Level::Easy);
        assert!(r.er.is_some());
    }
}
