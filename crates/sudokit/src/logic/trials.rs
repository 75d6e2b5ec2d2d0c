//! Forcing chains on any geometry: an assumption followed through singles.
//!
//! The 9x9 chain engine ([`super::forcing`]) works on bitboards of the classic grid.
//! Variants (X-sudoku, windoku, jigsaw) and larger grids get these instead, built on
//! the shared [`State`] alone: place a digit, then every naked and hidden single it
//! forces, in the order they arise, until the grid is full, nothing more follows, or
//! something breaks (a cell without candidates, a digit without a place in a house).
//!
//! * **Contradiction**: an assumption that breaks the grid is false.
//! * **Cell**: whatever follows from every candidate of one cell is true.
//! * **Region**: whatever follows from every place of one digit in one house is true.
//!
//! These are Sudoku Explainer's dynamic forcing chains restricted to singles, and are
//! rated as its are: 8.5 plus its length increment, the length being the number of
//! placements the chains make. Each technique reports its shortest finds first. Grids
//! above 16x16 are left out: one search follows every candidate, thousands of chains of
//! hundreds of placements each.

use super::forcing::length_increment;
use super::{Emit, State, Step, Technique};
use crate::geometry::Cell;
use crate::grid::DigitSet;

/// The largest side searched.
const MAX_SIDE: usize = 16;

/// Why a chain placed a digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Why {
    Assumed,
    NakedSingle,
    HiddenSingle(usize),
}

/// What follows from an assumption.
struct Outcome {
    /// Placements in order, with their reasons.
    placed: Vec<(Cell, u8, Why)>,
    /// The grid after them.
    end: State,
    /// What broke, if anything.
    broken: Option<String>,
}

/// Places `assume` in a copy of `s` and every single that follows.
fn follow(s: &State, assume: &[(Cell, u8)]) -> Outcome {
    let g = s.geometry().clone();
    let n = g.size();
    let mut t = s.clone();
    let mut queue: std::collections::VecDeque<(Cell, u8, Why)> =
        assume.iter().map(|&(c, d)| (c, d, Why::Assumed)).collect();
    let mut placed = Vec::new();
    let cell = |c: Cell| g.cell_name(c);
    let broken = 'run: loop {
        let Some((c, d, why)) = queue.pop_front() else {
            break None;
        };
        match t.value(c) {
            0 => {}
            v if v == d => continue,
            v => break Some(format!("{} would hold both {v} and {d}", cell(c))),
        }
        if !t.cands(c).contains(d) {
            break Some(format!("{d} is no longer possible in {}", cell(c)));
        }
        let others = t.cands(c) & !DigitSet::single(d);
        t.place(c, d);
        placed.push((c, d, why));
        for &p in g.peers(c) {
            let p = p as usize;
            if t.value(p) != 0 {
                continue;
            }
            let k = t.cands(p);
            match k.len() {
                0 => break 'run Some(format!("{} has no candidate left", cell(p))),
                1 => queue.push_back((p, k.first().expect("one"), Why::NakedSingle)),
                _ => {}
            }
        }
        // `d` left the peers' houses; the cell's other digits left its own houses.
        let mut check = |h: usize, e: u8, t: &State| -> Option<String> {
            let m = t.pos(h, e);
            if m == 0 && !t.is_placed_in(h, e) {
                return Some(format!(
                    "{e} has no place left in {}",
                    super::step::house_name(&g, h)
                ));
            }
            if m.count_ones() == 1 {
                let at = t.house_cells(h)[m.trailing_zeros() as usize];
                queue.push_back((at, e, Why::HiddenSingle(h)));
            }
            None
        };
        for h in 0..g.houses().len() {
            if let Some(why) = check(h, d, &t) {
                break 'run Some(why);
            }
        }
        for e in others.iter() {
            for h in g.houses_of(c) {
                if let Some(why) = check(h, e, &t) {
                    break 'run Some(why);
                }
            }
        }
        debug_assert!(placed.len() <= n * n);
    };
    Outcome {
        placed,
        end: t,
        broken,
    }
}

/// The chain as text: `r1c1=5 => r1c4=3 (naked single) => ...`.
fn chain_text(s: &State, o: &Outcome) -> String {
    let g = s.geometry();
    let mut text = String::new();
    for (i, &(c, d, why)) in o.placed.iter().enumerate() {
        if i > 0 {
            text.push_str(" => ");
        }
        text.push_str(&format!("{}={d}", g.cell_name(c)));
        match why {
            Why::Assumed => {}
            Why::NakedSingle => text.push_str(" (naked single)"),
            Why::HiddenSingle(h) => {
                text.push_str(&format!(
                    " (hidden single in {})",
                    super::step::house_name(g, h)
                ));
            }
        }
    }
    if let Some(b) = &o.broken {
        text.push_str(&format!(" => {b}"));
    }
    text
}

fn rating(length: usize) -> u16 {
    85 + length_increment(length as u32 + 1)
}

/// Emits the finds in order of length, shortest first.
fn emit_sorted(mut found: Vec<(usize, Step)>, emit: Emit) -> bool {
    found.sort_by_key(|(len, _)| *len);
    found.into_iter().all(|(_, st)| emit(st))
}

/// The unplaced cells with two or more candidates; None above [`MAX_SIDE`].
fn open_cells(s: &State) -> Option<impl Iterator<Item = Cell> + '_> {
    (s.size() <= MAX_SIDE).then(|| {
        (0..s.geometry().cell_count()).filter(|&c| s.value(c) == 0 && s.cands(c).len() >= 2)
    })
}

/// Candidates whose assumption breaks the grid: each is false.
pub fn contradiction(s: &State, emit: Emit) -> bool {
    let Some(cells) = open_cells(s) else {
        return true;
    };
    let mut found = Vec::new();
    for c in cells {
        for d in s.cands(c).iter() {
            let o = follow(s, &[(c, d)]);
            if o.broken.is_none() {
                continue;
            }
            let mut st = Step::new(Technique::ContradictionForcingChain);
            st.digits = vec![d];
            st.cells = vec![c];
            st.eliminations = vec![(c, d)];
            st.rating = rating(o.placed.len());
            st.detail = vec![chain_text(s, &o)];
            found.push((o.placed.len(), st));
        }
    }
    emit_sorted(found, emit)
}

/// Candidates as (cell, digit).
type Marks = Vec<(Cell, u8)>;

/// What holds at the end of every branch that does not break: placements, and
/// candidates of `s` gone in all of them.
fn common(s: &State, branches: &[Outcome]) -> (Marks, Marks) {
    let alive: Vec<&Outcome> = branches.iter().filter(|o| o.broken.is_none()).collect();
    let (mut placements, mut eliminations) = (Vec::new(), Vec::new());
    if alive.len() < 2 {
        return (placements, eliminations);
    }
    for c in 0..s.geometry().cell_count() {
        if s.value(c) != 0 {
            continue;
        }
        let v = alive[0].end.value(c);
        if v != 0 && alive.iter().all(|o| o.end.value(c) == v) {
            placements.push((c, v));
            continue;
        }
        for e in s.cands(c).iter() {
            if alive
                .iter()
                .all(|o| o.end.value(c) != e && !o.end.cands(c).contains(e))
            {
                eliminations.push((c, e));
            }
        }
    }
    (placements, eliminations)
}

/// A step from branches that agree, or None.
fn agreement(
    s: &State,
    technique: Technique,
    digits: Vec<u8>,
    cells: Vec<Cell>,
    houses: Vec<usize>,
    branches: &[Outcome],
) -> Option<(usize, Step)> {
    let (placements, eliminations) = common(s, branches);
    if placements.is_empty() && eliminations.is_empty() {
        return None;
    }
    let length: usize = branches.iter().map(|o| o.placed.len()).sum();
    let mut st = Step::new(technique);
    st.digits = digits;
    st.cells = cells;
    st.houses = houses;
    st.placements = placements;
    st.eliminations = eliminations;
    st.rating = rating(length);
    st.detail = branches.iter().map(|o| chain_text(s, o)).collect();
    Some((length, st))
}

/// Cells all of whose candidates lead to the same placements or eliminations.
pub fn cell_forcing(s: &State, emit: Emit) -> bool {
    let Some(cells) = open_cells(s) else {
        return true;
    };
    let mut found = Vec::new();
    for c in cells {
        let digits: Vec<u8> = s.cands(c).iter().collect();
        let branches: Vec<Outcome> = digits.iter().map(|&d| follow(s, &[(c, d)])).collect();
        if let Some(f) = agreement(
            s,
            Technique::CellForcingChain,
            digits,
            vec![c],
            Vec::new(),
            &branches,
        ) {
            found.push(f);
        }
    }
    emit_sorted(found, emit)
}

/// Digits of a house all of whose places lead to the same placements or eliminations.
pub fn region_forcing(s: &State, emit: Emit) -> bool {
    let g = s.geometry().clone();
    if g.size() > MAX_SIDE {
        return true;
    }
    let mut found = Vec::new();
    for h in 0..g.houses().len() {
        for d in 1..=g.size() as u8 {
            let places: Vec<Cell> = s.positions(h, d).collect();
            if places.len() < 2 {
                continue;
            }
            let branches: Vec<Outcome> = places.iter().map(|&c| follow(s, &[(c, d)])).collect();
            if let Some(f) = agreement(
                s,
                Technique::RegionForcingChain,
                vec![d],
                places,
                vec![h],
                &branches,
            ) {
                found.push(f);
            }
        }
    }
    emit_sorted(found, emit)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::{Geometry, Grid, Variant};

    fn state(spec: &str, text: &str) -> State {
        let v: Variant = spec.parse().unwrap();
        let g = Arc::new(Geometry::for_variant(9, None, &v).unwrap());
        let cells = text
            .bytes()
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
            .collect();
        State::from_grid(&Grid::from_cells(g, cells).unwrap())
    }

    #[test]
    fn an_x_sudoku_beyond_subsets_is_solved_without_guessing() {
        // Singles, intersections and subsets stall on this X-sudoku (it was rated 20.0,
        // brute force, before these chains); every step is checked against the solution
        // as the solver goes (debug builds).
        let s = state(
            "x",
            ".2..........4....143....7.9....5.2..........38................6.8...2.5...6.18...",
        );
        let path = super::super::explain(&s);
        assert!(path.solved);
        assert!(
            path.steps
                .iter()
                .all(|st| st.technique != Technique::BruteForce)
        );
        assert!(
            path.steps
                .iter()
                .any(|st| st.technique == Technique::ContradictionForcingChain)
        );
    }

    #[test]
    fn a_wrong_assumption_breaks_and_a_right_one_does_not() {
        let s = state(
            "x",
            ".2..........4....143....7.9....5.2..........38................6.8...2.5...6.18...",
        );
        let solution = crate::solve::solve(&s.grid()).expect("unique");
        let c = (0..81)
            .find(|&c| s.value(c) == 0 && s.cands(c).len() > 1)
            .unwrap();
        let right = solution.get(c);
        let o = follow(&s, &[(c, right)]);
        assert!(o.broken.is_none());
        for &(x, d, _) in &o.placed {
            assert_eq!(solution.get(x), d, "what follows from the truth is true");
        }
        let mut found = Vec::new();
        contradiction(&s, &mut |st| {
            found.push(st);
            true
        });
        assert!(!found.is_empty());
        for st in &found {
            let (c, d) = st.eliminations[0];
            assert_ne!(solution.get(c), d, "{}", st.detail[0]);
        }
        assert!(found.windows(2).all(|w| w[0].rating <= w[1].rating));
    }
}
