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
//! placements the chains make (a cell's or a house's branches counted up to where
//! every conclusion holds, and so written). When they find nothing, the same chains run again with
//! locked candidates applied whenever the singles run out (SE's first nesting level,
//! named with `(+)`, 9.0 plus the increment). Each technique reports its shortest finds
//! first. One search follows every candidate, thousands of chains of hundreds of
//! placements each on a large grid: grids from 17x17 to 32x32 get the plain chains only,
//! and wider grids none. On the 18 gecode 25x25 puzzles the plain chains took the
//! brute-force steps from 564 to 394 (explaining them took 95 s -> 207 s on two
//! threads); with `(+)` too, three of them went from 59 to 56 at twice the time again.

use super::board::{Bits, Huge};
use super::forcing::length_increment;
use super::{Emit, State, Step, Technique};
use crate::geometry::Cell;
use crate::grid::DigitSet;
use crate::symbols::Digits;
use std::cell::RefCell;
use std::rc::Rc;

/// The largest side searched with the plain chains.
const MAX_SIDE: usize = 32;

/// The largest side searched with the `(+)` chains (locked candidates between singles).
const MAX_SIDE_PLUS: usize = 16;

/// Why a chain placed a digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Why {
    Assumed,
    NakedSingle,
    HiddenSingle(usize),
}

/// One link of a followed assumption.
#[derive(Clone, Debug)]
enum Event {
    /// A placement and its reason.
    Place(Cell, u8, Why),
    /// Candidates removed by locked candidates (pointing or claiming), in `plus` chains.
    Locked(Vec<(Cell, u8)>),
}

/// What follows from an assumption.
struct Outcome {
    /// The links in order.
    events: Vec<Event>,
    /// The grid after them.
    end: State,
    /// What broke, if anything.
    broken: Option<String>,
}

/// Queues the hidden single of `e` in house `h`, or says why `e` has no place there.
fn check_house(
    t: &State,
    h: usize,
    e: u8,
    queue: &mut std::collections::VecDeque<(Cell, u8, Why)>,
) -> Option<String> {
    let m = t.pos(h, e);
    if m == 0 && !t.is_placed_in(h, e) {
        return Some(format!(
            "{e} has no place left in {}",
            super::step::house_name(t.geometry(), h)
        ));
    }
    if m.count_ones() == 1 {
        let at = t.house_cells(h)[m.trailing_zeros() as usize];
        queue.push_back((at, e, Why::HiddenSingle(h)));
    }
    None
}

/// The largest side whose outcomes [`followed`] keeps (a 16x16 state is ~9 KB, and
/// there are a thousand candidates or so to follow).
const MEMO_SIDE: usize = 16;

/// The outcomes of single assumptions in one state. The solvers try contradiction,
/// cell and region chains one after another on the same state, and a region's
/// branches are candidates of several houses: without the memo each candidate was
/// followed five times or so. Rating an extreme 16x16 windoku: 1,268,000 follows in
/// 6.6 s before, 482,000 in 5.4 s with it (the `(+)` chains, which scan for locked
/// candidates, are followed mostly after a contradiction was found, so fewer repeat).
struct Memo {
    /// The state followed from.
    state: State,
    /// Whether the chains use locked candidates.
    plus: bool,
    /// The outcome of each candidate (`cell * n + digit - 1`), once followed.
    outcomes: Vec<Option<Rc<Outcome>>>,
}

thread_local! {
    static MEMO: RefCell<Option<Memo>> = const { RefCell::new(None) };
}

/// What follows from `d` in `c` in `s` ([`follow`]), kept while the chains search the
/// same state (up to [`MEMO_SIDE`]).
fn followed(s: &State, c: Cell, d: u8, plus: bool) -> Rc<Outcome> {
    let n = s.size();
    if n > MEMO_SIDE {
        return Rc::new(follow(s, &[(c, d)], plus));
    }
    MEMO.with_borrow_mut(|memo| {
        if memo
            .as_ref()
            .is_none_or(|m| m.plus != plus || m.state != *s)
        {
            *memo = Some(Memo {
                state: s.clone(),
                plus,
                outcomes: vec![None; s.geometry().cell_count() * n],
            });
        }
        let slot = &mut memo.as_mut().expect("just made").outcomes[c * n + d as usize - 1];
        slot.get_or_insert_with(|| Rc::new(follow(s, &[(c, d)], plus)))
            .clone()
    })
}

/// Places `assume` in a copy of `s` and every single that follows; with `plus`, also
/// locked candidates whenever the singles run out.
fn follow(s: &State, assume: &[(Cell, u8)], plus: bool) -> Outcome {
    let g = s.geometry().clone();
    let mut t = s.clone();
    let mut queue: std::collections::VecDeque<(Cell, u8, Why)> =
        assume.iter().map(|&(c, d)| (c, d, Why::Assumed)).collect();
    let mut events = Vec::new();
    let cell = |c: Cell| g.cell_name(c);
    let broken = 'run: loop {
        while let Some((c, d, why)) = queue.pop_front() {
            match t.value(c) {
                0 => {}
                v if v == d => continue,
                v => {
                    break 'run Some(format!(
                        "{} would hold both {} and {}",
                        cell(c),
                        Digits::mark(v),
                        Digits::mark(d)
                    ));
                }
            }
            if !t.cands(c).contains(d) {
                break 'run Some(format!(
                    "{} is no longer possible in {}",
                    Digits::mark(d),
                    cell(c)
                ));
            }
            let others = t.cands(c) & !DigitSet::single(d);
            // Only the houses of the peers that lose `d` can be left with one place for
            // it, or none: the others need no look (most of them on a large grid).
            // A set of houses ([`searched`] keeps their number within its width).
            let mut touched = Huge::ZERO;
            for &p in g.peers(c) {
                let p = p as usize;
                if t.value(p) == 0 && t.cands(p).contains(d) {
                    for h in g.houses_of(p) {
                        touched |= Huge::bit(h);
                    }
                }
            }
            t.place(c, d);
            events.push(Event::Place(c, d, why));
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
            for h in touched.cells() {
                if let Some(why) = check_house(&t, h, d, &mut queue) {
                    break 'run Some(why);
                }
            }
            for e in others.iter() {
                for h in g.houses_of(c) {
                    if let Some(why) = check_house(&t, h, e, &mut queue) {
                        break 'run Some(why);
                    }
                }
            }
        }
        if !plus {
            break None;
        }
        let mut found: Vec<(Cell, u8)> = Vec::new();
        let mut collect = |st: Step| {
            found.extend(st.eliminations);
            true
        };
        super::intersections::pointing(&t, &mut collect);
        super::intersections::claiming(&t, &mut collect);
        let removed: Vec<(Cell, u8)> = found
            .into_iter()
            .filter(|&(c, e)| t.eliminate(c, e))
            .collect();
        if removed.is_empty() {
            break None;
        }
        events.push(Event::Locked(removed.clone()));
        for (c, e) in removed {
            match t.cands(c).len() {
                0 => break 'run Some(format!("{} has no candidate left", cell(c))),
                1 => queue.push_back((c, t.cands(c).first().expect("one"), Why::NakedSingle)),
                _ => {}
            }
            for h in g.houses_of(c) {
                if let Some(why) = check_house(&t, h, e, &mut queue) {
                    break 'run Some(why);
                }
            }
        }
    };
    Outcome {
        events,
        end: t,
        broken,
    }
}

/// The chain as text: `r1c1=5 => r1c4=3 (naked single) => ...`.
fn chain_text(s: &State, o: &Outcome) -> String {
    events_text(s, &o.events, o.broken.as_deref())
}

/// [`chain_text`] of the first `events` of a branch, ending on what broke, if given.
fn events_text(s: &State, events: &[Event], broken: Option<&str>) -> String {
    let g = s.geometry();
    let mut parts: Vec<String> = Vec::new();
    for e in events {
        parts.push(match *e {
            Event::Place(c, d, Why::Assumed) => format!("{}={}", g.cell_name(c), Digits::mark(d)),
            Event::Place(c, d, Why::NakedSingle) => {
                format!("{}={} (naked single)", g.cell_name(c), Digits::mark(d))
            }
            Event::Place(c, d, Why::HiddenSingle(h)) => format!(
                "{}={} (hidden single in {})",
                g.cell_name(c),
                Digits::mark(d),
                super::step::house_name(g, h)
            ),
            Event::Locked(ref removed) => {
                let list: Vec<String> = removed
                    .iter()
                    .map(|&(c, d)| format!("{}<>{}", g.cell_name(c), Digits::mark(d)))
                    .collect();
                format!("locked candidates: {}", list.join(", "))
            }
        });
    }
    if let Some(b) = broken {
        parts.push(b.to_string());
    }
    parts.join(" => ")
}

/// How many of a branch's events it takes for `mark` to hold: a placement `(c, v)`
/// once `v` is placed in `c`; an elimination once `c` holds another digit, a peer of
/// `c` holds the digit, or locked candidates take it out.
fn events_until(s: &State, events: &[Event], placed: bool, (c, v): (Cell, u8)) -> usize {
    let g = s.geometry();
    let holds = |e: &Event| match *e {
        Event::Place(x, d, _) if placed => x == c && d == v,
        Event::Place(x, d, _) => {
            (x == c && d != v) || (d == v && g.peers(c).iter().any(|&p| p as usize == x))
        }
        Event::Locked(ref removed) => !placed && removed.contains(&(c, v)),
    };
    events
        .iter()
        .position(holds)
        .map_or(events.len(), |i| i + 1)
}

/// SE's dynamic chains: 8.5, or 9.0 with locked candidates inside (its first nesting
/// level), plus the length increment.
fn rating(length: usize, plus: bool) -> u16 {
    (if plus { 90 } else { 85 }) + length_increment(length as u32 + 1)
}

/// A step of `technique`, named with `(+)` when its chains use locked candidates.
fn new_step(technique: Technique, plus: bool) -> Step {
    let mut st = Step::new(technique);
    if plus {
        st.name = Some(format!("{} (+)", technique.title()));
    }
    st
}
/// Emits the finds in order of length, shortest first.
fn emit_sorted(mut found: Vec<(usize, Step)>, emit: Emit) -> bool {
    found.sort_by_key(|(len, _)| *len);
    found.into_iter().all(|(_, st)| emit(st))
}

/// Whether the grid is small enough for this search ([`MAX_SIDE`], [`MAX_SIDE_PLUS`]).
fn searched(s: &State, plus: bool) -> bool {
    s.size() <= if plus { MAX_SIDE_PLUS } else { MAX_SIDE }
        && s.geometry().houses().len() <= Huge::CELLS
}

/// The unplaced cells with two or more candidates; None when the grid is too large for
/// the search ([`searched`]).
fn open_cells(s: &State, plus: bool) -> Option<impl Iterator<Item = Cell> + '_> {
    searched(s, plus).then(|| {
        (0..s.geometry().cell_count()).filter(|&c| s.value(c) == 0 && s.cands(c).len() >= 2)
    })
}

/// Candidates whose assumption breaks the grid: each is false.
///
/// `plus`: the chains also use locked candidates (tried when the plain ones find nothing).
pub fn contradiction(s: &State, plus: bool, emit: Emit) -> bool {
    let Some(cells) = open_cells(s, plus) else {
        return true;
    };
    let mut found = Vec::new();
    for c in cells {
        for d in s.cands(c).iter() {
            let o = followed(s, c, d, plus);
            if o.broken.is_none() {
                continue;
            }
            let mut st = new_step(Technique::ContradictionForcingChain, plus);
            st.digits = vec![d];
            st.cells = vec![c];
            st.eliminations = vec![(c, d)];
            st.rating = rating(o.events.len(), plus);
            st.detail = vec![chain_text(s, &o)];
            found.push((o.events.len(), st));
        }
    }
    emit_sorted(found, emit)
}

/// Candidates as (cell, digit).
type Marks = Vec<(Cell, u8)>;

/// What holds at the end of every branch that does not break: placements, and
/// candidates of `s` gone in all of them.
fn common(s: &State, branches: &[Rc<Outcome>]) -> (Marks, Marks) {
    let alive: Vec<&Outcome> = branches
        .iter()
        .map(|o| &**o)
        .filter(|o| o.broken.is_none())
        .collect();
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
    plus: bool,
    digits: Vec<u8>,
    cells: Vec<Cell>,
    houses: Vec<usize>,
    branches: &[Rc<Outcome>],
) -> Option<(usize, Step)> {
    let (placements, eliminations) = common(s, branches);
    if placements.is_empty() && eliminations.is_empty() {
        return None;
    }
    // Each branch that does not break goes on until nothing more follows; it is cut
    // where every conclusion holds (a branch that breaks is needed to its end).
    let needed = |o: &Outcome| -> usize {
        if o.broken.is_some() {
            return o.events.len();
        }
        let marks = placements
            .iter()
            .map(|&m| (true, m))
            .chain(eliminations.iter().map(|&m| (false, m)));
        marks
            .map(|(placed, m)| events_until(s, &o.events, placed, m))
            .max()
            .unwrap_or(0)
    };
    let cuts: Vec<usize> = branches.iter().map(|o| needed(o)).collect();
    let length: usize = cuts.iter().sum();
    let mut st = new_step(technique, plus);
    st.digits = digits;
    st.cells = cells;
    st.houses = houses;
    st.rating = rating(length, plus);
    st.detail = branches
        .iter()
        .zip(&cuts)
        .map(|(o, &cut)| events_text(s, &o.events[..cut], o.broken.as_deref()))
        .collect();
    st.placements = placements;
    st.eliminations = eliminations;
    Some((length, st))
}

/// Cells all of whose candidates lead to the same placements or eliminations
/// (`plus`: as for [`contradiction`]).
pub fn cell_forcing(s: &State, plus: bool, emit: Emit) -> bool {
    let Some(cells) = open_cells(s, plus) else {
        return true;
    };
    let mut found = Vec::new();
    for c in cells {
        let digits: Vec<u8> = s.cands(c).iter().collect();
        let branches: Vec<Rc<Outcome>> = digits.iter().map(|&d| followed(s, c, d, plus)).collect();
        if let Some(f) = agreement(
            s,
            Technique::CellForcingChain,
            plus,
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

/// Digits of a house all of whose places lead to the same placements or eliminations
/// (`plus`: as for [`contradiction`]).
pub fn region_forcing(s: &State, plus: bool, emit: Emit) -> bool {
    let g = s.geometry().clone();
    if !searched(s, plus) {
        return true;
    }
    let mut found = Vec::new();
    for h in 0..g.houses().len() {
        for d in 1..=g.size() as u8 {
            let places: Vec<Cell> = s.positions(h, d).collect();
            if places.len() < 2 {
                continue;
            }
            let branches: Vec<Rc<Outcome>> =
                places.iter().map(|&c| followed(s, c, d, plus)).collect();
            if let Some(f) = agreement(
                s,
                Technique::RegionForcingChain,
                plus,
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

    /// The solving path of `s`, which must end solved with no brute-force step.
    fn solved_without_guessing(s: &State) -> super::super::Path {
        let path = super::super::explain(s);
        assert!(path.solved);
        assert!(
            path.steps
                .iter()
                .all(|st| st.technique != Technique::BruteForce)
        );
        path
    }

    #[test]
    fn forcing_branches_stop_where_the_conclusion_holds() {
        // An X-sudoku from our generator whose path takes r5c5<>1 from the three
        // candidates of r6c6. r6c6=1 takes it at once (both on the main diagonal); the
        // branches of 4 and 6 reach r5c5=2. Each branch used to run on through every
        // single that followed, to placements unrelated to the conclusion.
        let s = state(
            "x",
            ".......7.....9.2...7.2...6..469......5...3...2...5.......1....34....8...8..5....7",
        );
        let path = super::super::explain(&s);
        let step = path
            .steps
            .iter()
            .find(|st| st.technique == Technique::CellForcingChain)
            .expect("a cell forcing chain");
        assert_eq!(step.eliminations, [(4 * 9 + 4, 1)]);
        let branches = step.detail_in(Digits::NUMBERS);
        assert_eq!(branches[0], "r6c6=1");
        for branch in &branches[1..] {
            assert!(
                branch.ends_with("r5c5=2 (hidden single in row 5)"),
                "{branch}"
            );
        }
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
        let path = solved_without_guessing(&s);
        assert!(
            path.steps
                .iter()
                .any(|st| st.technique == Technique::ContradictionForcingChain)
        );
    }

    #[test]
    fn a_16x16_that_singles_chains_leave_unsolved_needs_locked_candidates_inside() {
        // Made by our generator (4x4 boxes, seed 3); the chains through singles left
        // one cell to brute force, the (+) chains none.
        let text = concat!(
            ".569E...FG.1.C.4..FCABD5.....3..8......CD........GA2.1.3......8.",
            ".7.G.9............961G.75A....C.F..E..2...4C...951.3..6...8GE...",
            "....5D.....91E............16F..C.D...C.4...2..A5.F..8.9A.B5.26.3",
            "...8..7..1.5...G.E..C...9..A41.2...7.....3D.B..836....B...2..7..",
        );
        let g = Geometry::standard(crate::Shape::new(4, 4).unwrap());
        let symbols = crate::Symbols::standard(16);
        let cells = text
            .bytes()
            .map(|b| symbols.digit(b).unwrap_or(0))
            .collect();
        let s = State::from_grid(&Grid::from_cells(g, cells).unwrap());
        let path = solved_without_guessing(&s);
        assert!(path.steps.iter().any(|st| st.title().ends_with("(+)")));
    }

    /// The memo answers for the state it was made for only: the same cells under
    /// another geometry (an X-sudoku's diagonal) follow differently.
    #[test]
    fn followed_outcomes_belong_to_their_geometry() {
        let empty = ".".repeat(81);
        let (plain, x) = (state("standard", &empty), state("x", &empty));
        let o = followed(&plain, 0, 1, false);
        assert!(Rc::ptr_eq(&o, &followed(&plain.clone(), 0, 1, false)));
        assert!(o.end.cands(80).contains(1), "r9c9 sees nothing of r1c1");
        let o = followed(&x, 0, 1, false);
        assert!(!o.end.cands(80).contains(1), "r9c9 shares the diagonal");
        assert!(followed(&plain, 0, 1, false).end.cands(80).contains(1));
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
        let o = follow(&s, &[(c, right)], false);
        assert!(o.broken.is_none());
        for e in &o.events {
            if let Event::Place(x, d, _) = *e {
                assert_eq!(solution.get(x), d, "what follows from the truth is true");
            }
        }
        let mut found = Vec::new();
        contradiction(&s, false, &mut |st| {
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
