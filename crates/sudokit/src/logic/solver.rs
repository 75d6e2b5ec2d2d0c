//! The human solving path: techniques tried easiest first, in HoDoKu's order (its
//! default solver steps: naked singles before hidden ones, the strong-link patterns,
//! wings and unique rectangles before finned fish), the first step found applied, until
//! the puzzle is solved. Our own order before (hidden singles first, finned fish before
//! the strong-link patterns) agreed with hodoku-py's level on 220 of 250 puzzles and
//! its score within 5% on 12; this one on 234 and 121. Along a path the singles come
//! from HoDoKu's queues ([`singles::Queues`]), in the order it would take them; a
//! single step from a position ([`next_step`], [`hint`]) scans for them.
//! After Sudoku Explainer's forcing chains up to one level of nesting come trial
//! forcing nets of depth 1 and 2 ([`nets`]): as strong as SE's deeper nesting on the
//! hardest puzzles known, and thousands of times faster.
//! When no technique applies, one cell is set from the solution and the step says so
//! (`brute-force`): never silently.
//!
//! In debug builds every step is checked against the puzzle's solution as it is found
//! (when the puzzle has a unique solution that agrees with the given candidates).

use super::board::{Board, Huge, Wide};
use super::forcing::Mode;
use super::{Emit, State, Step, Technique};
use super::{
    als, bug, chains, coloring, exclusion, fish, intersections, nets, singles, strong_links,
};
use super::{subsets, tabling, uniqueness, wings};
use crate::solve::{self, Verdict};

/// A technique finder of the human path that needs only the state.
type StateFinder = fn(&State, Emit) -> bool;

/// A technique finder of the human path that works on the bitboard.
type Finder = fn(&State, Bitboard, Emit) -> bool;

/// The position as a bitboard, at the width its grid needs: up to 9x9, up to 16x16, up
/// to 32x32, or none (larger grids get the techniques that work on the [`State`] alone).
#[derive(Clone, Copy)]
enum Bitboard<'a> {
    Narrow(&'a Board),
    Wide(&'a Board<Wide>),
    Huge(&'a Board<Huge>),
    None,
}

impl<'a> Bitboard<'a> {
    /// The board when it is classic sudoku: the techniques that lean on the 3x3 box
    /// layout (SE's chaining engine and forcing nets) run on it only.
    fn classic(self) -> Option<&'a Board> {
        match self {
            Bitboard::Narrow(b) if b.classic => Some(b),
            _ => None,
        }
    }
}

/// Runs a finder written once over the board width on whichever board there is (true,
/// "keep looking", when there is none).
macro_rules! on_board {
    ($b:expr, |$x:ident| $body:expr) => {
        match $b {
            Bitboard::Narrow($x) => $body,
            Bitboard::Wide($x) => $body,
            Bitboard::Huge($x) => $body,
            Bitboard::None => true,
        }
    };
}

/// The human path's techniques that work on the state alone, easiest first (the board
/// is built only when they find nothing).
const STATE_FINDERS: &[(Technique, StateFinder)] = &[
    (Technique::FullHouse, |s, e| singles::full_house(s, e)),
    (Technique::NakedSingle, |s, e| singles::naked_single(s, e)),
    (Technique::HiddenSingle, |s, e| {
        singles::hidden_single(s, false, e)
    }),
    (Technique::HiddenSingle, |s, e| {
        singles::hidden_single(s, true, e)
    }),
    (Technique::LockedPair, |s, e| subsets::locked(s, 2, e)),
    (Technique::LockedTriple, |s, e| subsets::locked(s, 3, e)),
    (Technique::LockedCandidatesPointing, |s, e| {
        intersections::locked_candidates(s, true, e)
    }),
    (Technique::LockedCandidatesClaiming, |s, e| {
        intersections::locked_candidates(s, false, e)
    }),
    (Technique::NakedPair, |s, e| subsets::naked(s, 2, false, e)),
    (Technique::NakedTriple, |s, e| {
        subsets::naked(s, 3, false, e)
    }),
    (Technique::HiddenPair, |s, e| {
        subsets::hidden(s, 2, false, e)
    }),
    (Technique::HiddenTriple, |s, e| {
        subsets::hidden(s, 3, false, e)
    }),
    (Technique::NakedQuad, |s, e| subsets::naked(s, 4, false, e)),
    (Technique::HiddenQuad, |s, e| {
        subsets::hidden(s, 4, false, e)
    }),
    (Technique::XWing, |s, e| basic_in_order(s, 2, e)),
    (Technique::Swordfish, |s, e| basic_in_order(s, 3, e)),
    (Technique::Jellyfish, |s, e| basic_in_order(s, 4, e)),
];

/// The human path's harder techniques, easiest first, after [`STATE_FINDERS`].
const FINDERS: &[(Technique, Finder)] = &[
    (Technique::RemotePair, |_, b, e| {
        on_board!(b, |b| chains::find(
            b,
            chains::Kind::RemotePair,
            chains::Order::MostEliminations,
            e
        ))
    }),
    (Technique::BugPlusOne, |_, b, e| {
        on_board!(b, |b| bug::bug_plus_one(b, e))
    }),
    (Technique::Skyscraper, |_, b, e| {
        on_board!(b, |b| two_links(b, Technique::Skyscraper, e))
    }),
    (Technique::TwoStringKite, |_, b, e| {
        on_board!(b, |b| two_links(b, Technique::TwoStringKite, e))
    }),
    (Technique::TurbotFish, |_, b, e| {
        on_board!(b, |b| chains::every_x_chain(b, Technique::TurbotFish, 4, e))
    }),
    (Technique::EmptyRectangle, |_, b, e| match b {
        Bitboard::Narrow(b) if b.classic => strong_links::empty_rectangles_hodoku(b, e),
        _ => on_board!(b, |b| two_links(b, Technique::EmptyRectangle, e)),
    }),
    (Technique::WWing, |_, b, e| {
        on_board!(b, |b| wings::w_wing(b, e))
    }),
    (Technique::XYWing, |_, b, e| {
        on_board!(b, |b| first_wing(b, false, e))
    }),
    (Technique::XYZWing, |_, b, e| {
        on_board!(b, |b| first_wing(b, true, e))
    }),
    (Technique::UniqueRectangle1, |_, b, e| match b {
        Bitboard::Narrow(b) if b.classic => in_order(
            |e| uniqueness::rectangles_hodoku(b, e),
            |st| st.technique,
            e,
        ),
        _ => on_board!(b, |b| in_order(
            |e| uniqueness::rectangles(b, e),
            |st| st.technique,
            e
        )),
    }),
    (Technique::AvoidableRectangle1, |s, b, e| match b {
        Bitboard::Narrow(b) if b.classic => uniqueness::avoidable_rectangles(s, b, false, e),
        _ => true,
    }),
    (Technique::AvoidableRectangle2, |s, b, e| match b {
        Bitboard::Narrow(b) if b.classic => uniqueness::avoidable_rectangles(s, b, true, e),
        _ => true,
    }),
    (Technique::FinnedXWing, |_, b, e| {
        on_board!(b, |b| finned_in_order(b, 2, e))
    }),
    (Technique::FinnedSwordfish, |_, b, e| {
        on_board!(b, |b| finned_in_order(b, 3, e))
    }),
    (Technique::FinnedJellyfish, |_, b, e| {
        on_board!(b, |b| finned_in_order(b, 4, e))
    }),
    (Technique::SueDeCoq, |_, b, e| {
        on_board!(b, |b| als::sue_de_coq(b, e))
    }),
    (Technique::SimpleColors, |_, b, e| {
        on_board!(b, |b| coloring::simple_colors(b, e))
    }),
    (Technique::MultiColors, |_, b, e| {
        on_board!(b, |b| coloring::multi_colors(b, e))
    }),
    (Technique::XChain, |_, b, e| {
        on_board!(b, |b| chains::find(
            b,
            chains::Kind::X,
            chains::Order::MostEliminations,
            e
        ))
    }),
    (Technique::XYChain, |_, b, e| {
        on_board!(b, |b| chains::find(
            b,
            chains::Kind::XY,
            chains::Order::MostEliminations,
            e
        ))
    }),
    (Technique::Aic, |_, b, e| match b {
        Bitboard::Narrow(b) if b.classic => tabling::nice_loops(b, false, e),
        _ => on_board!(b, |b| chains::find(
            b,
            chains::Kind::Aic,
            chains::Order::MostEliminations,
            e
        )),
    }),
    (Technique::GroupedAic, |_, b, e| match b {
        Bitboard::Narrow(b) if b.classic => tabling::nice_loops(b, true, e),
        _ => on_board!(b, |b| chains::find(
            b,
            chains::Kind::Grouped,
            chains::Order::MostEliminations,
            e
        )),
    }),
    (Technique::AlsXz, |_, b, e| {
        on_board!(b, |b| als::als_xz(b, e))
    }),
    (Technique::AlsXyWing, |_, b, e| {
        on_board!(b, |b| als::als_xy_wing(b, e))
    }),
    (Technique::AlsXyChain, |_, b, e| {
        on_board!(b, |b| als::als_xy_chain(b, e))
    }),
    // Off in HoDoKu's default configuration: the classic grid goes without.
    (Technique::DeathBlossom, |_, b, e| match b {
        Bitboard::Narrow(b) if b.classic => true,
        _ => on_board!(b, |b| als::death_blossom(b, e)),
    }),
    (Technique::FrankenXWing, |_, b, e| {
        on_board!(b, |b| fish::franken(b, 2, false, e))
    }),
    (Technique::FrankenSwordfish, |_, b, e| {
        on_board!(b, |b| fish::franken(b, 3, false, e))
    }),
    (Technique::FinnedFrankenXWing, |_, b, e| {
        on_board!(b, |b| fish::franken(b, 2, true, e))
    }),
    (Technique::FinnedFrankenSwordfish, |_, b, e| {
        on_board!(b, |b| fish::franken(b, 3, true, e))
    }),
    (Technique::AlignedPairExclusion, |_, b, e| {
        on_board!(b, |b| exclusion::aligned_pairs(b, e))
    }),
    // HoDoKu's forcing chains (classic grid), then Sudoku Explainer's where they fail.
    (Technique::ContradictionForcingChain, |_, b, e| match b {
        Bitboard::Narrow(b) if b.classic => tabling::forcing_chains(b, e),
        _ => true,
    }),
    (Technique::NishioForcingChain, |_, b, e| {
        b.classic().is_none_or(|b| engine(b, Mode::NISHIO, e))
    }),
    (Technique::CellForcingChain, |_, b, e| {
        b.classic().is_none_or(|b| engine(b, Mode::MULTIPLE, e))
    }),
    // Other geometries: forcing chains through singles (the classic grid has SE's).
    (Technique::ContradictionForcingChain, |s, b, e| {
        b.classic().is_some() || super::trials::contradiction(s, false, e)
    }),
    (Technique::CellForcingChain, |s, b, e| {
        b.classic().is_some() || super::trials::cell_forcing(s, false, e)
    }),
    (Technique::RegionForcingChain, |s, b, e| {
        b.classic().is_some() || super::trials::region_forcing(s, false, e)
    }),
    (Technique::ContradictionForcingChain, |s, b, e| {
        b.classic().is_some() || super::trials::contradiction(s, true, e)
    }),
    (Technique::CellForcingChain, |s, b, e| {
        b.classic().is_some() || super::trials::cell_forcing(s, true, e)
    }),
    (Technique::RegionForcingChain, |s, b, e| {
        b.classic().is_some() || super::trials::region_forcing(s, true, e)
    }),
    // HoDoKu's forcing nets (classic grid), then Sudoku Explainer's.
    (Technique::ForcingNet, |_, b, e| match b {
        Bitboard::Narrow(b) if b.classic => tabling::forcing_nets(b, e),
        _ => true,
    }),
    (Technique::ForcingNet, |_, b, e| {
        b.classic().is_none_or(|b| engine(b, Mode::dynamic(0), e))
    }),
    (Technique::ForcingNet, |_, b, e| {
        b.classic().is_none_or(|b| nets::trial_nets(b, 1, e))
    }),
    (Technique::ForcingNet, |_, b, e| {
        b.classic().is_none_or(|b| nets::trial_nets(b, 2, e))
    }),
    (Technique::ForcingNet, |_, b, e| {
        b.classic().is_none_or(|b| engine(b, Mode::dynamic(1), e))
    }),
];

/// A finder's steps emitted in HoDoKu's order (`order`, smallest first; ties keep the
/// finder's order): HoDoKu takes the first step it meets where we would take the best,
/// or asks for unique rectangles type by type (a type 3 anywhere before a type 4).
fn in_order<K: Ord>(
    find: impl FnOnce(Emit) -> bool,
    order: impl FnMut(&Step) -> K,
    emit: Emit,
) -> bool {
    let mut all = Vec::new();
    find(&mut |st| {
        all.push(st);
        true
    });
    all.sort_by_key(order);
    all.into_iter().all(emit)
}

/// Basic fish of size `k` in the order HoDoKu meets them: by digit, rows as base before
/// columns, then base lines (Sudoku Explainer's order, which [`fish::basic`] follows,
/// has columns first).
fn basic_in_order(s: &State, k: usize, emit: Emit) -> bool {
    let n = s.geometry().size();
    let order = |st: &Step| (st.digits[0], st.houses[0] >= n, st.houses.clone());
    in_order(|e| fish::basic(s, k, false, e), order, emit)
}

/// Finned fish of size `k` in the order HoDoKu meets them: every finned fish before
/// any sashimi one (they are two techniques there), then by digit, rows as base before
/// columns, base lines, cover lines.
fn finned_in_order<S: super::board::Bits>(b: &Board<S>, k: usize, emit: Emit) -> bool {
    let n = b.tables().n;
    let order = |st: &Step| {
        let sashimi = matches!(
            st.technique,
            Technique::SashimiXWing | Technique::SashimiSwordfish | Technique::SashimiJellyfish
        );
        let mut base = st.houses.clone();
        base.sort_unstable();
        let mut cover = st.cover.clone();
        cover.sort_unstable();
        (sashimi, st.digits[0], base[0] >= n, base, cover)
    };
    in_order(|e| fish::finned(b, k, e), order, emit)
}

/// XY- or XYZ-wings in the order HoDoKu meets them: XY-wings by their three cells in
/// order (the first of them as the pivot first), XYZ-wings by pivot, then pincers.
fn first_wing<S: super::board::Bits>(b: &Board<S>, xyz: bool, emit: Emit) -> bool {
    let find = |e: Emit| {
        if xyz {
            wings::xyz_wing(b, e)
        } else {
            wings::xy_wing(b, e)
        }
    };
    let order = |st: &Step| {
        let (pivot, x, y) = (st.cells[0], st.cells[1], st.cells[2]);
        if xyz {
            (pivot, x.min(y), x.max(y), 0)
        } else {
            let mut three = [pivot, x, y];
            three.sort_unstable();
            let rank = three.iter().position(|&c| c == pivot).unwrap_or(0);
            (three[0], three[1], three[2], rank)
        }
    };
    in_order(find, order, emit)
}

fn two_links<S: super::board::Bits>(b: &Board<S>, which: Technique, emit: Emit) -> bool {
    if matches!(which, Technique::Skyscraper | Technique::TwoStringKite) {
        // In HoDoKu's order: skyscrapers on rows (every digit) before columns, then by
        // digit and the two lines; kites by digit, row and column.
        let n = b.tables().n;
        let find = |e: Emit| strong_links::every_of(b, 2, which).into_iter().all(e);
        let order = |st: &Step| {
            let (lo, hi) = (
                st.houses[0].min(st.houses[1]),
                st.houses[0].max(st.houses[1]),
            );
            (
                which == Technique::Skyscraper && lo >= n,
                st.digits[0],
                lo,
                hi,
            )
        };
        return in_order(find, order, emit);
    }
    match strong_links::best_of(b, 2, which) {
        Some(st) => emit(st),
        None => true,
    }
}

fn engine(b: &Board, mode: Mode, emit: Emit) -> bool {
    match super::se::chains(b, mode, &super::se::Options::default()) {
        Some(st) => emit(st),
        None => true,
    }
}

/// Whether the human path can take `technique`, on the classic grid (`classic`) or on
/// the other geometries. Sudoku Explainer's own steps (direct intersections and hidden
/// subsets, cycles and static forcing chains, aligned triples, unique loops, BUG types
/// 2-4, strong links and wings of four cells or more) are its rating's alone; avoidable
/// rectangles, HoDoKu's nice loops, Nishio and double forcing chains and forcing nets
/// are the classic grid's; the death blossom is the others' (off in HoDoKu's defaults).
pub fn can_take(technique: Technique, classic: bool) -> bool {
    use Technique::*;
    match technique {
        DirectPointing
        | DirectClaiming
        | DirectHiddenPair
        | DirectHiddenTriple
        | XCycle
        | YCycle
        | XYCycle
        | ForcingXChain
        | ForcingChain
        | AlignedTripleExclusion
        | UniqueLoop
        | BugType2
        | BugType3
        | BugType4
        | StrongLinks
        | WXYZWing
        | VWXYZWing
        | UVWXYZWing
        | TUVWXYZWing => false,
        DeathBlossom => !classic,
        AvoidableRectangle1
        | AvoidableRectangle2
        | DiscontinuousNiceLoop
        | GroupedContinuousNiceLoop
        | GroupedDiscontinuousNiceLoop
        | NishioForcingChain
        | DoubleForcingChain
        | ForcingNet => classic,
        _ => true,
    }
}

/// The easiest step available on `state`, or None when no logical technique applies
/// (the puzzle is solved, broken, or beyond the techniques).
pub fn next_step(state: &State) -> Option<Step> {
    next_step_from(state, 0)
}

/// The singles at the head of [`STATE_FINDERS`]: a path takes them from HoDoKu's
/// queues instead ([`singles::Queues`]).
const SINGLES: usize = 4;

/// [`next_step`] with the techniques from `first` on (in [`STATE_FINDERS`], then
/// [`FINDERS`]).
fn next_step_from(state: &State, first: usize) -> Option<Step> {
    if state.is_solved() || state.is_broken() {
        return None;
    }
    let mut found = None;
    let mut keep = |st: Step| {
        let useful = st.is_useful();
        if useful {
            found = Some(st);
        }
        !useful
    };
    if STATE_FINDERS[first..]
        .iter()
        .any(|(_, finder)| !finder(state, &mut keep))
    {
        return found;
    }
    let narrow = Board::for_state(state);
    let wide = narrow
        .is_none()
        .then(|| Board::<Wide>::for_state(state))
        .flatten();
    let huge = (narrow.is_none() && wide.is_none())
        .then(|| Board::<Huge>::for_state(state))
        .flatten();
    let board = match (&narrow, &wide, &huge) {
        (Some(b), _, _) => Bitboard::Narrow(b),
        (_, Some(b), _) => Bitboard::Wide(b),
        (_, _, Some(b)) => Bitboard::Huge(b),
        _ => Bitboard::None,
    };
    if FINDERS
        .iter()
        .any(|(_, finder)| !finder(state, board, &mut keep))
    {
        return found;
    }
    None
}

/// A solving path.
#[derive(Clone, Debug)]
pub struct Path {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// Whether the puzzle ended solved.
    pub solved: bool,
    /// The final state.
    pub end: State,
}

/// Solves `start` step by step, easiest first. Steps that need brute force (no logical
/// step left) set one cell from the solution and are marked [`Technique::BruteForce`].
pub fn explain(start: &State) -> Path {
    explain_until(start, &mut |_| false)
}

/// [`explain`], stopping early after the first step for which `stop` says so (then the
/// path is unsolved): a caller that only needs to know whether some bound is passed
/// need not finish the path.
pub fn explain_until(start: &State, stop: &mut dyn FnMut(&Step) -> bool) -> Path {
    explain_known(start, solution_of(start), stop)
}

/// [`explain_until`] for a state whose unique solution the caller already has (or
/// knows there is none: `None`), so it is not searched for again.
pub fn explain_known(
    start: &State,
    solution: Option<Vec<u8>>,
    stop: &mut dyn FnMut(&Step) -> bool,
) -> Path {
    let mut s = start.clone();
    let mut steps = Vec::new();
    let mut queues = singles::Queues::new(start);
    while !s.is_solved() && !s.is_broken() {
        let Some(step) = path_step(&mut queues, &s, || solution.clone()) else {
            break;
        };
        if cfg!(debug_assertions) {
            if let Some(sol) = solution.as_deref() {
                if let Err(e) = super::check_step(&step, sol, s.geometry()) {
                    panic!("unsound step: {e}\n{}", step.line(s.geometry()));
                }
            }
        }
        queues.apply(&s, &step);
        s.apply(&step);
        let done = stop(&step);
        steps.push(step);
        if done {
            break;
        }
    }
    Path {
        solved: s.is_solved(),
        steps,
        end: s,
    }
}

/// The unique solution of a state, if it has one (within its candidates).
pub fn solution_of(s: &State) -> Option<Vec<u8>> {
    match verdict(s) {
        Verdict::Unique(g) => Some(g.cells().to_vec()),
        _ => None,
    }
}

/// How many solutions a state has within its candidates (none, one, several): a
/// pencil-mark grid a person typed may have lost the solution to a wrong elimination,
/// or allow several.
pub fn verdict(s: &State) -> Verdict {
    verdict_within(s, None).expect("no deadline")
}

/// [`verdict`] by `deadline`: None when it passed first.
pub fn verdict_within(s: &State, deadline: Option<std::time::Instant>) -> Option<Verdict> {
    let excluded: Vec<(usize, u8)> = (0..s.geometry().cell_count())
        .filter(|&c| s.value(c) == 0)
        .flat_map(|c| {
            (1..=s.geometry().size() as u8)
                .filter(move |&d| !s.cands(c).contains(d))
                .map(move |d| (c, d))
        })
        .collect();
    let limits = solve::Limits {
        deadline,
        ..solve::Limits::solutions(2)
    };
    solve::unique_within(&s.grid(), &excluded, &limits)
}

/// The next step of the human path: the first step [`explain`] takes from `state`,
/// a brute-force step (marked as such) when no technique applies; None when solved,
/// broken or unsolvable.
pub fn hint(state: &State) -> Option<Step> {
    path_step(&mut singles::Queues::new(state), state, || {
        solution_of(state)
    })
}

/// [`hint`] for a state whose unique `solution` is already known (from [`verdict`]):
/// the brute-force step takes its value without proving uniqueness again.
pub fn hint_known(state: &State, solution: &[u8]) -> Option<Step> {
    path_step(&mut singles::Queues::new(state), state, || {
        Some(solution.to_vec())
    })
}

/// The step the human path takes from `s`: its singles in HoDoKu's order from
/// `queues`, else the first technique's, else brute force with the `solution` (asked
/// for only then); None when solved, broken or unsolvable.
fn path_step(
    queues: &mut singles::Queues,
    s: &State,
    solution: impl FnOnce() -> Option<Vec<u8>>,
) -> Option<Step> {
    if s.is_solved() || s.is_broken() {
        return None;
    }
    queues
        .next(s)
        .or_else(|| next_step_from(s, SINGLES))
        .or_else(|| brute_force(s, solution().as_deref()))
}

/// The brute-force step: the first unsolved cell with the fewest candidates takes its
/// value from the solution.
fn brute_force(s: &State, solution: Option<&[u8]>) -> Option<Step> {
    if s.is_solved() || s.is_broken() {
        return None;
    }
    let sol = match solution {
        Some(sol) => sol.to_vec(),
        None => match solve::solve(&s.grid()) {
            Some(g) => g.cells().to_vec(),
            None => return None,
        },
    };
    let cell = (0..s.geometry().cell_count())
        .filter(|&c| s.value(c) == 0)
        .min_by_key(|&c| s.cands(c).len())?;
    if !s.cands(cell).contains(sol[cell]) {
        return None;
    }
    let mut st = Step::new(Technique::BruteForce);
    st.cells = vec![cell];
    st.digits = vec![sol[cell]];
    st.placements = vec![(cell, sol[cell])];
    st.rating = 200;
    Some(st)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{SAMPLES, state};

    #[test]
    fn explains_samples_soundly() {
        for p in SAMPLES {
            let path = explain(&state(p));
            assert!(path.solved, "{p}");
        }
    }

    /// A hint is the step explain takes next, from a puzzle and from the pencil marks
    /// of a position part way along its path (read afresh, with no path behind them).
    #[test]
    fn a_hint_is_the_first_step_of_the_path() {
        for p in SAMPLES {
            let start = state(p);
            let path = explain(&start);
            assert_eq!(
                hint(&start).map(|st| st.line(start.geometry())),
                path.steps.first().map(|st| st.line(start.geometry())),
                "{p}"
            );
            let mut middle = start.clone();
            for st in path.steps.iter().take(path.steps.len() / 2) {
                middle.apply(st);
            }
            let marks = State::from_candidates(middle.candidates().clone());
            let rest = explain(&marks);
            let sol = solution_of(&marks).expect("unique");
            assert_eq!(
                hint_known(&marks, &sol).map(|st| st.line(marks.geometry())),
                rest.steps.first().map(|st| st.line(marks.geometry())),
                "{p}"
            );
        }
    }

    #[test]
    fn shidoku_is_solved_by_singles() {
        let path = explain(&state("1....2....3....4"));
        assert!(path.solved);
    }

    /// A 9x9 jigsaw map: regions of nine cells, not all boxes.
    const JIGSAW: &str =
        "AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII";

    /// The geometry of a variant (`x`, `windoku`, `jigsaw` with `regions`...) of side `n`.
    fn variant_geometry(
        name: &str,
        regions: Option<&str>,
        n: usize,
    ) -> std::sync::Arc<crate::Geometry> {
        let mut v: crate::Variant = name.parse().expect("variant");
        v.regions = regions.map(|r| crate::Variant::parse_regions(r, n).expect("map"));
        std::sync::Arc::new(crate::Geometry::for_variant(n, None, &v).expect("geometry"))
    }

    #[test]
    fn variants_of_9x9_get_wings_and_chains_soundly() {
        // Debug builds check every step against the solution, so a technique that is
        // unsound on extra houses (diagonals, windows, irregular regions) fails here.
        let jigsaw = JIGSAW;
        let mut used = std::collections::BTreeSet::new();
        for (name, regions) in [
            ("x", None),
            ("windoku", None),
            ("x,windoku", None),
            ("disjoint", None),
            ("centre-dot,asterisk", None),
            ("girandola", None),
            ("jigsaw", Some(jigsaw)),
            ("x,jigsaw", Some(jigsaw)),
            ("latin", None),
        ] {
            let g = variant_geometry(name, regions, 9);
            let mut rng = crate::rng::Rng::new(11);
            for _ in 0..4 {
                let options = crate::generate::Options::default();
                let made = crate::generate::generate(&g, &options, &mut rng).unwrap();
                let path = explain(&State::from_grid(&made.puzzle));
                assert!(path.solved, "{name}");
                used.extend(path.steps.iter().map(|st| st.technique));
            }
        }
        for t in [Technique::SimpleColors, Technique::Aic, Technique::AlsXz] {
            assert!(used.contains(&t), "{t:?} never used: {used:?}");
        }
        // The strong-link patterns run along the variants' rows, columns and boxes too.
        assert!(used.contains(&Technique::EmptyRectangle), "{used:?}");
    }

    #[test]
    fn grids_below_9x9_get_wings_and_chains_soundly() {
        // 6x6 X-sudoku (2x3 boxes) and 8x8 (2x4 boxes): the board holds them in its
        // first 36 or 64 bits; debug builds check every step against the solution.
        let x6 =
            crate::Geometry::for_variant(6, crate::Shape::new(2, 3).ok(), &"x".parse().unwrap())
                .unwrap();
        let eight = crate::Geometry::new(crate::Shape::new(2, 4).unwrap());
        let mut board_steps = 0;
        for g in [x6, eight] {
            let g = std::sync::Arc::new(g);
            let mut rng = crate::rng::Rng::new(3);
            for _ in 0..6 {
                let options = crate::generate::Options::default();
                let made = crate::generate::generate(&g, &options, &mut rng).unwrap();
                let path = explain(&State::from_grid(&made.puzzle));
                assert!(path.solved, "{}", g.name());
                board_steps += path
                    .steps
                    .iter()
                    .filter(|st| {
                        st.technique >= Technique::XYWing
                            && st.technique < Technique::ContradictionForcingChain
                    })
                    .count();
            }
        }
        assert!(board_steps > 0);
    }

    #[test]
    fn the_path_takes_only_what_can_take_allows() {
        // Every step of the paths of the samples and of the pencil-mark test's puzzles
        // (an X-sudoku, a windoku, a jigsaw, a 6x6 X-sudoku, a 16x16) on each geometry.
        let mut seen = std::collections::BTreeSet::new();
        for grid in pencil_puzzles() {
            let classic = grid.geometry().is_classic();
            for st in explain(&State::from_grid(grid)).steps {
                assert!(can_take(st.technique, classic), "{:?}", st.technique);
                seen.insert((st.technique, classic));
            }
        }
        assert!(seen.contains(&(Technique::ForcingNet, true)), "{seen:?}");
        assert!(!can_take(Technique::DeathBlossom, true));
        assert!(can_take(Technique::DeathBlossom, false));
    }

    #[test]
    fn the_path_skips_exactly_the_singles_finders() {
        let singles = [
            Technique::FullHouse,
            Technique::NakedSingle,
            Technique::HiddenSingle,
        ];
        assert!(
            STATE_FINDERS[..SINGLES]
                .iter()
                .all(|(t, _)| singles.contains(t))
        );
        assert!(
            STATE_FINDERS[SINGLES..]
                .iter()
                .all(|(t, _)| !singles.contains(t))
        );
    }

    #[test]
    fn grids_up_to_16x16_get_wings_and_chains_soundly() {
        // 16x16 boards are 256-bit wide; debug builds check every step against the
        // solution, so a technique with a 9x9 assumption left in it fails here.
        let g = std::sync::Arc::new(crate::Geometry::new(crate::Shape::new(4, 4).unwrap()));
        let mut rng = crate::rng::Rng::new(5);
        let mut used = std::collections::BTreeSet::new();
        for _ in 0..2 {
            let made =
                crate::generate::generate(&g, &crate::generate::Options::default(), &mut rng)
                    .unwrap();
            let path = explain(&State::from_grid(&made.puzzle));
            assert!(path.solved);
            used.extend(path.steps.iter().map(|st| st.technique));
        }
        // A finned X-wing comes after the strong-link patterns (HoDoKu's order), which
        // take most of them here; the finned swordfish runs the same code.
        for t in [Technique::Aic, Technique::FinnedSwordfish] {
            assert!(used.contains(&t), "{t:?} never used: {used:?}");
        }
    }

    /// Every step the techniques written over the board width find on `b`, in order.
    fn width_generic_steps<S: crate::logic::board::Bits>(b: &Board<S>) -> Vec<Step> {
        let mut out = Vec::new();
        let mut keep = |st: Step| {
            out.push(st);
            true
        };
        for k in 2..=4 {
            fish::finned(b, k, &mut keep);
        }
        wings::xy_wing(b, &mut keep);
        wings::xyz_wing(b, &mut keep);
        wings::w_wing(b, &mut keep);
        coloring::simple_colors(b, &mut keep);
        coloring::multi_colors(b, &mut keep);
        for kind in [
            chains::Kind::X,
            chains::Kind::XY,
            chains::Kind::RemotePair,
            chains::Kind::Aic,
            chains::Kind::Grouped,
        ] {
            chains::find(b, kind, chains::Order::Shortest, &mut keep);
        }
        uniqueness::rectangles(b, &mut keep);
        bug::bug_plus_one(b, &mut keep);
        bug::se_bug(b, &mut keep);
        als::als_xz(b, &mut keep);
        als::als_xy_wing(b, &mut keep);
        als::als_xy_chain(b, &mut keep);
        als::sue_de_coq(b, &mut keep);
        als::death_blossom(b, &mut keep);
        exclusion::aligned_pairs(b, &mut keep);
        out.extend((3..=5).filter_map(|k| wings::als_wing_best(b, k)));
        out.extend((2..=4).filter_map(|n| strong_links::best(b, n)));
        out
    }

    #[test]
    fn both_board_widths_find_the_same_steps() {
        // A 9x9 grid fits the 256- and 1,024-bit boards too, so the three compiled
        // copies of every technique written over the width must agree step for step: a
        // check of the wide sets' arithmetic on positions with known answers.
        let mut states = Vec::new();
        for p in SAMPLES.iter().take(4) {
            for after in [0, 20, 40] {
                let mut n = 0;
                let path = explain_until(&state(p), &mut |_| {
                    n += 1;
                    n > after
                });
                states.push(path.end);
            }
        }
        let g = std::sync::Arc::new(
            crate::Geometry::for_variant(9, None, &"x".parse().unwrap()).unwrap(),
        );
        let mut rng = crate::rng::Rng::new(2);
        let made =
            crate::generate::generate(&g, &crate::generate::Options::default(), &mut rng).unwrap();
        states.push(State::from_grid(&made.puzzle));
        let mut steps = 0;
        for s in &states {
            let narrow = width_generic_steps(&Board::<u128>::for_state(s).unwrap());
            let wide = width_generic_steps(&Board::<Wide>::for_state(s).unwrap());
            assert_eq!(narrow, wide);
            let huge = width_generic_steps(&Board::<Huge>::for_state(s).unwrap());
            assert_eq!(narrow, huge);
            steps += narrow.len();
        }
        assert!(steps > 100, "{steps}");
    }

    /// Every finder of the human path on `state`, each up to `per_finder` steps.
    fn every_finders_steps(state: &State, per_finder: usize) -> Vec<Step> {
        let mut steps = Vec::new();
        let mut take = |finder: &dyn Fn(Emit) -> bool| {
            let mut found = 0;
            finder(&mut |st: Step| {
                steps.push(st);
                found += 1;
                found < per_finder
            });
        };
        for (_, finder) in STATE_FINDERS {
            take(&|e| finder(state, e));
        }
        let narrow = Board::for_state(state);
        let wide = narrow
            .is_none()
            .then(|| Board::<Wide>::for_state(state))
            .flatten();
        let board = match (&narrow, &wide) {
            (Some(b), _) => Bitboard::Narrow(b),
            (_, Some(b)) => Bitboard::Wide(b),
            _ => panic!("a grid up to 16x16"),
        };
        for (_, finder) in FINDERS {
            take(&|e| finder(state, board, e));
        }
        steps
    }

    /// The puzzles of the pencil-mark test: the samples, then an X-sudoku, a windoku,
    /// a jigsaw, a 6x6 X-sudoku and a 16x16 made by the generator (unique by
    /// construction).
    fn pencil_puzzles() -> &'static [crate::Grid] {
        static PUZZLES: std::sync::OnceLock<Vec<crate::Grid>> = std::sync::OnceLock::new();
        PUZZLES.get_or_init(|| {
            let mut all: Vec<crate::Grid> = SAMPLES
                .iter()
                .map(|p| crate::format::parse_grid(p).expect("sample"))
                .collect();
            for (name, regions, n) in [
                ("x", None, 9),
                ("windoku", None, 9),
                ("jigsaw", Some(JIGSAW), 9),
                ("x", None, 6),
                ("standard", None, 16),
            ] {
                let g = variant_geometry(name, regions, n);
                let options = crate::generate::Options::default();
                let made = crate::generate::generate(&g, &options, &mut crate::rng::Rng::new(7));
                all.push(made.expect("a puzzle").puzzle);
            }
            all
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

        /// A player's pencil marks strike candidates the techniques never struck (at
        /// random here, but never the solution's digit): every step every finder
        /// takes from such a state still agrees with the solution, and the path from
        /// it solves the puzzle.
        #[test]
        fn every_finder_is_sound_on_random_pencil_marks(
            which in 0..SAMPLES.len() + 5,
            seed in proptest::prelude::any::<u64>(),
            sixty_fourths in 1u64..24,
        ) {
            let puzzle = &pencil_puzzles()[which];
            let mut s = State::from_grid(puzzle);
            let solution = solution_of(&s).expect("a unique puzzle");
            let mut rng = crate::rng::Rng::new(seed);
            for (c, &right) in solution.iter().enumerate() {
                for d in s.cands(c).iter() {
                    if d != right && rng.below(64) < sixty_fourths {
                        s.eliminate(c, d);
                    }
                }
            }
            let g = s.geometry().clone();
            for step in every_finders_steps(&s, 4) {
                if let Err(e) = crate::logic::check_step(&step, &solution, &g) {
                    panic!("{e}\n{}\n{} ({}) seed {seed}, {sixty_fourths}/64", step.line(&g), puzzle.cells().iter().map(|d| d.to_string()).collect::<String>(), g.name());
                }
            }
            let path = explain_known(&s, Some(solution.clone()), &mut |_| false);
            proptest::prop_assert!(path.solved);
            proptest::prop_assert_eq!(path.end.values(), &solution[..]);
        }
    }
}
