//! Exact solving: first solution, solution counts up to a limit, and enumeration.
//!
//! One search primitive, [`search`], serves all three: it reports each solution to a
//! callback and stops at a solution limit, a node limit or a deadline. Classic 9x9
//! puzzles go to the specialised band engine ([`classic`]); every other geometry to the
//! house-based engine ([`general`]) on a small budget, and then to the clause-learning
//! engine ([`cdcl`]). All are tested to agree.
//!
//! Counting and enumerating puzzles with very many solutions is a different job:
//! [`count`] and [`enumerate`] first probe with [`search`] and, when the probe finds
//! many solutions quickly, try the row-by-row engine ([`rows`]), which counts with
//! memoisation and digit symmetry instead of visiting every solution. It has no
//! propagation, so on sparse scattered clues it can be hopeless where the search takes
//! milliseconds: it first gets a small budget of nodes, and continues only if it finds
//! solutions faster per node than the probe did; otherwise the search takes over.
//! Empty grids have methods of their own ([`count_every_grid`]; the 9x9 grid's count
//! does not fit a `u64`): the band method ([`bands`]) for standard shapes, for Latin
//! squares up to order 8 a meeting in the middle ([`latin`]), beyond it reduced squares.

pub mod bands;
pub mod cdcl;
pub mod classes;
pub mod classic;
pub mod general;
pub mod latin;
pub mod rows;
mod union;

pub use union::{GeneralSolution, general_solution};

use std::time::Instant;

use crate::construct;
use crate::geometry::Geometry;
use crate::grid::Grid;
use crate::perm;
use crate::rng::Rng;
use crate::transform::{self, Transform};

/// Bounds on one search.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Stop after this many solutions (`u64::MAX`: find them all).
    pub solutions: u64,
    /// Stop after this many branching nodes.
    pub nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
}

impl Limits {
    /// Stop at the `n`th solution, no other bound.
    pub fn solutions(n: u64) -> Limits {
        Limits {
            solutions: n,
            nodes: None,
            deadline: None,
        }
    }

    /// The same bounds with room for one solution more: a count run under them, then
    /// [`Report::capped`], tells "exactly the limit" (complete) from "more".
    pub fn one_past(self) -> Limits {
        Limits {
            solutions: self.solutions.saturating_add(1),
            ..self
        }
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The whole search space was explored.
    Exhausted,
    /// The solution limit was reached (or the callback asked to stop).
    SolutionLimit,
    /// The node limit was reached.
    NodeLimit,
    /// The deadline passed.
    Timeout,
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// Solutions found.
    pub solutions: u64,
    /// Branching nodes (guesses) made.
    pub guesses: u64,
    /// Why it stopped.
    pub stop: Stop,
}

impl Report {
    /// A report of a search run under [`Limits::one_past`] of `limit` solutions, as
    /// one under `limit` that knows whether it stopped short: one solution past the
    /// limit is a cut at the limit; otherwise the report stands (exactly `limit`
    /// solutions and an exhausted search: complete).
    pub fn capped(self, limit: u64) -> Report {
        match self.solutions > limit {
            true => Report {
                solutions: limit,
                stop: Stop::SolutionLimit,
                ..self
            },
            false => self,
        }
    }
}

/// Searches `grid`, calling `on_solution` with each solution's cells (row-major digits);
/// the callback returns `false` to stop early.
///
/// A grid whose givens conflict has no solution.
pub fn search(grid: &Grid, limits: &Limits, on_solution: &mut dyn FnMut(&[u8]) -> bool) -> Report {
    search_excluding(grid, &[], limits, on_solution)
}

/// [`search`] for the solutions in which no empty cell holds the digit `excluded`
/// pairs it with (`(cell, digit)`): the solutions of a pencil-mark state.
pub fn search_excluding(
    grid: &Grid,
    excluded: &[(usize, u8)],
    limits: &Limits,
    on_solution: &mut dyn FnMut(&[u8]) -> bool,
) -> Report {
    if grid.geometry().is_classic() {
        classic::search_excluding(grid.cells(), excluded, limits, on_solution)
    } else {
        budgeted_search(grid, excluded, limits, on_solution)
    }
}

/// Branching nodes the house-based engine gets per cell before the clause-learning
/// engine takes over (sparse grids with many solutions are quicker without learning).
/// Plain backtracking solves none of the 25x25 benchmark puzzles within seconds, and
/// needs minutes for some grids of any size (an empty 9x9 jigsaw whose first three
/// rows hold three whole regions) that clause learning solves at once.
/// Wider grids get more: a learned clause's reasons list a row or a cell's `n - 1`
/// other places, so a clause-learning decision costs more against a node as `n` grows
/// (25x25: ~45 us against ~20 us; 64x64: ~100 us against ~26 us), and an empty 64x64
/// grid takes the house-based engine 19,700 nodes (0.5 s) and clause learning 6 s.
const GENERAL_NODES_PER_CELL: u64 = 4;

/// Grids 30x30 and wider get one node per cell for this many digits of their side
/// instead of [`GENERAL_NODES_PER_CELL`] (64x64: 10).
const GENERAL_DIGITS_PER_NODE: u64 = 6;

/// Branching nodes the house-based engine gets on `grid` before clause learning takes
/// over (see [`GENERAL_NODES_PER_CELL`]).
fn general_budget(grid: &Grid) -> u64 {
    let per_cell = GENERAL_NODES_PER_CELL.max(grid.size() as u64 / GENERAL_DIGITS_PER_NODE);
    per_cell * grid.geometry().cell_count() as u64
}

/// The house-based engine on a budget, then clause learning from scratch. When the
/// budgeted run already reported solutions, it is making progress: the same
/// deterministic search runs again without the budget and passes on only the solutions
/// after those.
///
/// `excluded` rules digits out of cells (`(cell, digit)`) in both engines.
fn budgeted_search(
    grid: &Grid,
    excluded: &[(usize, u8)],
    limits: &Limits,
    on_solution: &mut dyn FnMut(&[u8]) -> bool,
) -> Report {
    let budget = general_budget(grid);
    if limits.nodes.is_some_and(|n| n <= budget) {
        return general::search_excluding(grid, excluded, limits, on_solution);
    }
    let first = general::search_excluding(
        grid,
        excluded,
        &Limits {
            nodes: Some(budget),
            ..*limits
        },
        on_solution,
    );
    if first.stop != Stop::NodeLimit {
        return first;
    }
    if first.solutions == 0 {
        return after_budget(grid, excluded, limits, first.guesses, on_solution);
    }
    // Solutions already reported: the same deterministic search again, unbudgeted,
    // passing on only the solutions after them.
    let mut seen = 0;
    let again = general::search_excluding(grid, excluded, limits, &mut |cells| {
        seen += 1;
        seen <= first.solutions || on_solution(cells)
    });
    Report {
        guesses: first.guesses + again.guesses,
        ..again
    }
}

/// What a search or count does when the house-based engine spent its budget (`spent`
/// nodes) without a solution: an empty grid's [`built_solutions`], or else clause
/// learning from scratch with the nodes left.
fn after_budget(
    grid: &Grid,
    excluded: &[(usize, u8)],
    limits: &Limits,
    spent: u64,
    on_solution: &mut dyn FnMut(&[u8]) -> bool,
) -> Report {
    if let Some(built) = built_solutions(grid, excluded, limits, on_solution) {
        return Report {
            guesses: spent,
            ..built
        };
    }
    let rest = Limits {
        nodes: limits.nodes.map(|n| n - spent),
        ..*limits
    };
    let second = cdcl::search_excluding(grid, excluded, &rest, on_solution);
    Report {
        guesses: spent + second.guesses,
        ..second
    }
}

/// The first solutions (up to [`BUILT_SOLUTIONS`]) of an empty or nearly empty grid,
/// built by formula ([`construct::complete_grid`]) rather than searched for: both
/// engines lose their way on some empty grids (36x36 windoku or disjoint groups: no
/// solution in 20 s, nor with four givens). A built grid is a solution once relabelled
/// to agree with the givens, which takes one whose cells under equal givens hold equal
/// digits and under different givens different ones; built grids, and grids moved from
/// them by the geometry's group ([`moved_fit`]), are drawn until one does
/// ([`BUILT_DRAWS`], [`BUILT_TIME`]). It comes first, then the relabellings of
/// the digits the givens leave free, in lexicographic order, each another solution
/// (for uniqueness checks and counts to a limit). `None` (search as usual) when the
/// grid has exclusions or more than `n` givens, more solutions are asked for than the
/// free relabellings make, or no built grid fits.
fn built_solutions(
    grid: &Grid,
    excluded: &[(usize, u8)],
    limits: &Limits,
    on_solution: &mut dyn FnMut(&[u8]) -> bool,
) -> Option<Report> {
    let n = grid.size();
    let givens: Vec<(usize, u8)> = grid.givens().collect();
    let mut given_digits: Vec<u8> = givens.iter().map(|&(_, d)| d).collect();
    given_digits.sort_unstable();
    given_digits.dedup();
    let free = n - given_digits.len();
    // With fewer solutions wanted than relabellings, the list never runs out.
    let relabellings = (1..=free as u64)
        .try_fold(1u64, |f, k| f.checked_mul(k))
        .unwrap_or(u64::MAX);
    let wanted = limits.solutions;
    if givens.len() > n
        || !excluded.is_empty()
        || wanted > BUILT_SOLUTIONS
        || wanted >= relabellings
    {
        return None;
    }
    let mut rng = Rng::new(0);
    let start = Instant::now();
    let until = limits
        .deadline
        .map_or(start + BUILT_TIME, |d| d.min(start + BUILT_TIME));
    // The geometry's moves, found when a built grid as it is does not fit.
    let mut moves: Option<Moves> = None;
    let (built, mut labels) = (0..BUILT_DRAWS).find_map(|draw| {
        if draw > 0 && Instant::now() >= until {
            return Some(None);
        }
        // A draw that builds nothing means no formula fits: no point in drawing again.
        let Some(built) = construct::complete_grid(grid.geometry(), &mut rng) else {
            return Some(None);
        };
        if let Some(labels) = relabelling(n, givens.iter().map(|&(c, d)| (built.get(c), d))) {
            return Some(Some((built, labels)));
        }
        // Equal givens where the built grid has different digits (or the reverse): the
        // grid moved by members of the geometry's group may fit where it does not.
        let moves = moves.get_or_insert_with(|| Moves::of(grid.geometry()));
        moved_fit(&built, &givens, moves, until, &mut rng).map(Some)
    })??;
    let mut cells = built.cells().to_vec();
    let mut solutions = 0;
    while solutions < limits.solutions {
        if limits.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Report {
                solutions,
                guesses: 0,
                stop: Stop::Timeout,
            });
        }
        let table = labels.table();
        for (cell, &d) in cells.iter_mut().zip(built.cells()) {
            *cell = table[d as usize];
        }
        solutions += 1;
        if !on_solution(&cells) {
            break;
        }
        perm::next_permutation(&mut labels.free_targets);
    }
    Some(Report {
        solutions,
        guesses: 0,
        stop: Stop::SolutionLimit,
    })
}

/// Built grids [`built_solutions`] draws looking for one the givens relabel, within
/// [`BUILT_TIME`]: with a few givens of different digits the first or second draw fits
/// (36x36 windoku, with or without disjoint groups); one digit on two cells fitted
/// none of 1,000 draws of windoku as built (the family's structure), but the grids
/// [`moved_fit`] walks to from the first draw or the first few do. Draws take 40 us
/// (36x36 windoku) to 100 ms (36x36 windoku with disjoint groups).
const BUILT_DRAWS: u64 = 64;

/// The time [`built_solutions`] draws for (after the first draw, which always runs).
const BUILT_TIME: std::time::Duration = std::time::Duration::from_secs(1);

/// A relabelling of a built grid's digits: the givens' digits fixed, the rest free.
struct Relabelling {
    /// The digit each built digit becomes (0 for a free one), indexed by built digit.
    fixed: Vec<u8>,
    /// The built digits no given fixes, in order.
    free_sources: Vec<u8>,
    /// The digits they become, permuted from one solution to the next.
    free_targets: Vec<usize>,
}

impl Relabelling {
    /// The digit each built digit becomes, indexed by built digit (0 unused).
    fn table(&self) -> Vec<u8> {
        let mut table = self.fixed.clone();
        for (&s, &t) in self.free_sources.iter().zip(&self.free_targets) {
            table[s as usize] = t as u8;
        }
        table
    }
}

/// The members of a geometry's group that [`moved_fit`] tries on a built grid.
enum Moves {
    /// The whole group, when small (36x36 windoku with disjoint groups: the square's
    /// eight symmetries): each member once.
    Members(Vec<Transform>),
    /// The simple moves of a larger group ([`transform::kept_moves`]), for a random walk
    /// (36x36 windoku: 83 moves, rows of a band in one window swapping freely).
    Walk(Vec<Transform>),
}

impl Moves {
    fn of(geometry: &Geometry) -> Moves {
        let moves = transform::kept_moves(geometry);
        match geometry.shape() {
            Some(shape) => match transform::generated(shape, &moves, MOVED_TRIES / 64) {
                Some(members) => Moves::Members(members),
                None => Moves::Walk(moves),
            },
            None => Moves::Members(Vec::new()),
        }
    }
}

/// A built grid moved by members of its geometry's group (so every grid tried is a
/// solution of the empty grid) until the givens relabel it, within [`MOVED_TRIES`]
/// members and `until`: each member of a small group, else a random walk over the
/// simple moves. The moved grid and its relabelling.
fn moved_fit(
    built: &Grid,
    givens: &[(usize, u8)],
    moves: &Moves,
    until: Instant,
    rng: &mut Rng,
) -> Option<(Grid, Relabelling)> {
    let n = built.size();
    let fits = |t: &Transform| {
        let source = |cell: usize| built.cells()[t.source_cell(cell / n, cell % n)];
        relabelling(n, givens.iter().map(|&(c, d)| (source(c), d)))
    };
    let mut found = None;
    match moves {
        // The identity, first, is the built grid as it is: tried already.
        Moves::Members(members) => {
            found = members
                .iter()
                .skip(1)
                .find_map(|t| Some((t.clone(), fits(t)?)));
        }
        Moves::Walk(moves) => {
            let mut walk = Transform::identity(built.geometry().shape()?);
            for step in 0..MOVED_TRIES {
                if step % 1024 == 1023 && Instant::now() >= until {
                    break;
                }
                walk = walk.then(&moves[rng.below(moves.len() as u64) as usize]);
                if let Some(labels) = fits(&walk) {
                    found = Some((walk, labels));
                    break;
                }
            }
        }
    }
    let (t, labels) = found?;
    Some((t.apply(built).ok()?, labels))
}

/// Steps of [`moved_fit`]'s walk for one built grid, at most: a few tenths of a
/// microsecond each. A group of at most a 64th of that is tried member by member.
const MOVED_TRIES: usize = 20_000;

/// The relabelling that turns a built grid into a solution with the givens, if one
/// does: `pairs` gives each given's digit with the built digit under it; equal givens
/// must be over equal built digits, different over different.
fn relabelling(n: usize, pairs: impl Iterator<Item = (u8, u8)>) -> Option<Relabelling> {
    let mut fixed = vec![0u8; n + 1];
    let mut used = vec![false; n + 1];
    for (source, d) in pairs {
        let source = source as usize;
        match fixed[source] {
            0 if !used[d as usize] => {
                fixed[source] = d;
                used[d as usize] = true;
            }
            t if t == d => {}
            _ => return None,
        }
    }
    let free_sources = (1..=n as u8).filter(|&s| fixed[s as usize] == 0).collect();
    let free_targets = (1..=n).filter(|&t| !used[t]).collect();
    Some(Relabelling {
        fixed,
        free_sources,
        free_targets,
    })
}

/// The most solutions [`built_solutions`] lists: a count to a million (which asks for
/// one more) takes ~1 s on 36x36.
const BUILT_SOLUTIONS: u64 = 1_000_001;

/// Whether `puzzle` has a solution other than `solution` in which some cell of `cells`
/// (empty in the puzzle) differs from it. Cheaper than counting to two: each search
/// rules out the known value of one cell, so a unique puzzle fails at once by
/// propagation instead of being searched to exhaustion.
pub fn differs_somewhere(puzzle: &Grid, solution: &Grid, cells: &[usize]) -> bool {
    differs_within(puzzle, solution, cells, None, None).expect("no node limit")
}

/// Grids this wide and wider check within a node budget by clause learning alone (a
/// [`cdcl::Checker`] made for the call; digs keep one for all their checks). When the
/// generator still checked this way (2026-11-25), 100 decisions a check on 25x25
/// (seeds 1-4) left as many empty cells or more (345-354) as 1,000 nodes of the plain
/// search, in a third to a fifth of the time (1.0-1.5 s against 3.0-5.1 s); 36x36,
/// 10 s against 29 s.
const CDCL_CHECK_SIDE: usize = 25;

/// [`differs_somewhere`] within `nodes` search nodes (guesses) for each cell's search
/// and before `deadline`: `None` when one of them ran out before answering.
pub fn differs_within(
    puzzle: &Grid,
    solution: &Grid,
    cells: &[usize],
    nodes: Option<u64>,
    deadline: Option<Instant>,
) -> Option<bool> {
    if let Some(nodes) = nodes.filter(|_| puzzle.size() >= CDCL_CHECK_SIDE) {
        let givens: Vec<(usize, u8)> = puzzle.givens().collect();
        return cdcl::Checker::new(puzzle)
            .differs_within(&givens, solution, cells, nodes, deadline);
    }
    // Some cell differs = the first differs, or it agrees and a later one differs: each
    // search fixes the cells before its own, so the searches shrink as they go.
    let limits = Limits {
        nodes,
        deadline,
        ..Limits::solutions(1)
    };
    let mut cur = puzzle.clone();
    for &c in cells {
        let v = solution.get(c);
        let report = search_excluding(&cur, &[(c, v)], &limits, &mut |_| true);
        match report.stop {
            Stop::NodeLimit | Stop::Timeout => return None,
            _ if report.solutions > 0 => return Some(true),
            _ => {}
        }
        cur.set(c, v);
    }
    Some(false)
}

/// Search nodes the probe of [`count`] and [`enumerate`] may spend.
const PROBE_NODES: u64 = 1_000;
/// Solutions the probe must find for the puzzle to count as having "many".
const PROBE_MANY: u64 = 100;

/// Row-engine nodes after which its pace is compared with the probe's (the empty 6x6
/// finishes before; `kron(eye(3),magic(3))` needs about 120,000 in all).
const ROWS_TRIAL: u64 = 32_768;

/// Whether the row engine finds solutions at least as fast per node as the probe's
/// search did (compared without division).
fn keeps_pace(probe: &Report) -> impl Fn(u64, u64) -> bool + '_ {
    move |solutions, nodes| {
        solutions as u128 * probe.guesses.max(1) as u128
            >= probe.solutions as u128 * nodes.max(1) as u128
    }
}

/// How a probe of the propagating search ended.
enum Probe {
    /// The probe answered the whole question.
    Done(Report),
    /// Many solutions: the row engine may do better (the probe's report).
    Many(Report),
    /// Few solutions so far: keep to the propagating search.
    Few,
}

fn probe(grid: &Grid, limits: &Limits) -> Probe {
    if !rows::supports(grid.geometry()) || limits.solutions <= PROBE_MANY {
        return Probe::Few;
    }
    let nodes = limits.nodes.map_or(PROBE_NODES, |n| n.min(PROBE_NODES));
    let probe_limits = Limits {
        nodes: Some(nodes),
        ..*limits
    };
    let report = search(grid, &probe_limits, &mut |_| true);
    if report.stop != Stop::NodeLimit || limits.nodes.is_some_and(|n| n <= PROBE_NODES) {
        Probe::Done(report)
    } else if report.solutions >= PROBE_MANY {
        Probe::Many(report)
    } else {
        Probe::Few
    }
}

/// Counts solutions within `limits` without materialising them: the fastest way to a
/// count, whatever the number (283,576 for `kron(eye(3),magic(3))` in milliseconds).
pub fn count(grid: &Grid, limits: &Limits) -> Report {
    let report = match probe(grid, limits) {
        Probe::Done(report) => report,
        Probe::Many(probe) => rows::count_on_trial(grid, limits, ROWS_TRIAL, &keeps_pace(&probe))
            .unwrap_or_else(|| search(grid, limits, &mut |_| true)),
        Probe::Few if rows::supports(grid.geometry()) => search(grid, limits, &mut |_| true),
        Probe::Few => count_other_geometry(grid, limits),
    };
    // Symmetric counts go up in steps: a limit is a limit.
    Report {
        solutions: report.solutions.min(limits.solutions),
        ..report
    }
}

/// Counts on a geometry the row engine does not take (jigsaw, X, windoku, wider than
/// 16) with digit symmetry ([`general::count_interchangeable`]): an empty 6x6 jigsaw
/// of the standard boxes counted its 28,200,960 grids in 42 s one by one. Within the
/// same node budget as [`budgeted_search`], then [`after_budget`] when that found
/// nothing, as a search does.
fn count_other_geometry(grid: &Grid, limits: &Limits) -> Report {
    if general::interchangeable_digits(grid).count_ones() < 2 {
        return search(grid, limits, &mut |_| true);
    }
    let budget = general_budget(grid);
    if limits.nodes.is_some_and(|n| n <= budget) {
        return general::count_interchangeable(grid, limits);
    }
    let first = general::count_interchangeable(
        grid,
        &Limits {
            nodes: Some(budget),
            ..*limits
        },
    );
    match first.stop {
        Stop::NodeLimit if first.solutions == 0 => {
            after_budget(grid, &[], limits, first.guesses, &mut |_| true)
        }
        // Making progress: the same deterministic count again, unbudgeted.
        Stop::NodeLimit => general::count_interchangeable(grid, limits),
        _ => first,
    }
}

/// Reports every solution within `limits` to `on_solution` (which returns `false` to
/// stop), choosing the engine as [`count`] does. The order of solutions is the chosen
/// engine's.
pub fn enumerate(
    grid: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&[u8]) -> bool,
) -> Report {
    match probe(grid, limits) {
        // The row engine enumerates where it keeps pace counting (a trial count first:
        // solutions cannot be taken back once reported).
        Probe::Many(probe)
            if rows::count_on_trial(grid, limits, ROWS_TRIAL, &keeps_pace(&probe)).is_some() =>
        {
            rows::enumerate(grid, limits, on_solution)
        }
        _ => search(grid, limits, on_solution),
    }
}

/// The first solution found, if any.
pub fn solve(grid: &Grid) -> Option<Grid> {
    let mut found = None;
    search(grid, &Limits::solutions(1), &mut |cells| {
        found = Some(cells.to_vec());
        false
    });
    found.map(|cells| {
        Grid::from_cells(grid.geometry().clone(), cells).expect("solution fits its grid")
    })
}

/// The number of solutions of an empty puzzle, every grid of its shape, when a method
/// better than counting them is known: for standard grids the band method ([`bands`]):
/// 9x9 (6,670,903,752,021,072,936,960, more than a `u64` holds) in about two seconds,
/// boxes two cells wide or high up to 8x8 (the 29,136,487,207,403,520 grids of 2x4
/// boxes) in half a second; for Latin squares up to order 8 a meeting in the middle
/// ([`latin`]: order 8's 108,776,032,459,082,956,800 in 25 s on two cores), up to 16
/// the reduced squares (first row and column in order) times `n! (n-1)!`, counted by
/// [`count`] (order 9's 3.8 x 10^17 reduced squares would take centuries). `None` for
/// any other puzzle; when the deadline passes first, a lower bound and `Stop::Timeout`.
pub fn count_every_grid(grid: &Grid, deadline: Option<Instant>) -> Option<(u128, Stop)> {
    if grid.filled() != 0 {
        return None;
    }
    let geometry = grid.geometry();
    if geometry.variant().is_latin_square() {
        return count_latin_squares(geometry, deadline);
    }
    let shape = geometry.shape()?;
    if !geometry.is_standard() {
        return None;
    }
    if geometry.is_classic() {
        return Some(match bands::count_classic_grids(deadline) {
            Some(n) => (n, Stop::Exhausted),
            None => (0, Stop::Timeout),
        });
    }
    bands::count_two_band_grids(shape.box_rows(), shape.box_cols()).map(|n| (n, Stop::Exhausted))
}

/// The number of solutions when a method better than searching is known: every grid
/// of an empty puzzle ([`count_every_grid`]), and the completions of a Latin square up
/// to order 8 whose givens are whole rows, or whole columns ([`latin`]: order 8 with
/// one row given, 2,697,818,265,354,240 in the time of the empty square; the row
/// engine took minutes for order 7), or lie in few rows, columns or symbols (up to
/// `n - 2` of them, 3 for order 8: [`latin::count_partial`]; order 7 with three givens
/// on the diagonal 0.17 s, where the search took over 100 s). `None` for any other
/// puzzle, and for givens that clash (the search reports those); when the deadline
/// passes first, a lower bound and `Stop::Timeout`.
pub fn count_by_method(grid: &Grid, deadline: Option<Instant>) -> Option<(u128, Stop)> {
    if grid.filled() == 0 {
        return count_every_grid(grid, deadline);
    }
    let geometry = grid.geometry();
    let n = geometry.size();
    if !geometry.variant().is_latin_square() || n > latin::MAX_ORDER {
        return None;
    }
    let cells = grid.cells();
    // Whole rows, or whole columns read as rows (a square's transpose is Latin too).
    let whole = |at: &dyn Fn(usize, usize) -> u8| {
        let mut columns = vec![0u8; n];
        let mut given = 0;
        for r in 0..n {
            let filled = (0..n).filter(|&c| at(r, c) != 0).count();
            if filled == 0 {
                continue;
            }
            if filled < n {
                return None;
            }
            given += 1;
            let mut row = 0u8;
            for (c, mask) in columns.iter_mut().enumerate() {
                let bit = 1u8 << (at(r, c) - 1);
                if *mask & bit != 0 || row & bit != 0 {
                    return None;
                }
                *mask |= bit;
                row |= bit;
            }
        }
        Some((columns, given))
    };
    let outcome = |count: Option<u128>| match count {
        Some(squares) => (squares, Stop::Exhausted),
        None => (0, Stop::Timeout),
    };
    if let Some((columns, given)) =
        whole(&|r, c| cells[r * n + c]).or_else(|| whole(&|r, c| cells[c * n + r]))
    {
        return Some(outcome(latin::count_completions(
            n, &columns, given, deadline,
        )));
    }
    // Any other givens, if none clash: the rows, columns or symbols trading roles (the
    // conjugates of a Latin square are Latin squares), whichever puts the givens in the
    // fewest lines, taken as rows.
    let givens: Vec<[usize; 3]> = (0..n * n)
        .filter(|&i| cells[i] != 0)
        .map(|i| [i / n, i % n, cells[i] as usize - 1])
        .collect();
    // Two givens clash when they agree in two of row, column and symbol.
    let clash = |a: &[usize; 3], b: &[usize; 3]| (0..3).filter(|&x| a[x] == b[x]).count() >= 2;
    if givens
        .iter()
        .enumerate()
        .any(|(i, a)| givens[..i].iter().any(|b| clash(a, b)))
    {
        return None;
    }
    let conjugate = |roles: [usize; 3]| {
        let mut square = vec![0u8; n * n];
        for g in &givens {
            square[g[roles[0]] * n + g[roles[1]]] = g[roles[2]] as u8 + 1;
        }
        let lines = |x: usize| {
            let mut seen = vec![false; n];
            givens.iter().for_each(|g| seen[g[x]] = true);
            seen.iter().filter(|&&s| s).count()
        };
        ((lines(roles[0]), lines(roles[1])), square)
    };
    let ((lines, _), square) = [[0, 1, 2], [1, 0, 2], [2, 1, 0]]
        .into_iter()
        .map(conjugate)
        .min_by_key(|(lines, _)| *lines)
        .expect("three conjugates");
    // Each row of givens multiplies the states the method keeps: with givens on the
    // diagonal, order 7 took 0.17 s for three rows, 2 s for five, 14 s for six (the
    // search 11 s) and 47 s for seven (the search 2 s); order 8, 62 s for three and
    // over 100 s for four. The search, with givens in every line, is the quicker.
    let most = if n == latin::MAX_ORDER {
        3
    } else {
        n.saturating_sub(2)
    };
    if lines > most {
        return None;
    }
    Some(outcome(latin::count_partial(n, &square, deadline)))
}

/// Sums `work` over `items`, which the cores take one at a time from a shared queue (up
/// to eight threads); `None` as soon as any item gives `None` (a deadline passed).
pub(crate) fn sum_on_cores<T: Sync>(
    items: &[T],
    work: impl Fn(&T) -> Option<u128> + Sync,
) -> Option<u128> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let worker = || -> Option<u128> {
        let mut sum = 0;
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return Some(sum);
            };
            sum += work(item)?;
        }
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(worker)).collect();
        let mine = worker();
        helpers
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .chain([mine])
            .sum()
    })
}

/// Latin squares of the geometry's order: up to 8 by meeting in the middle over the
/// columns' contents ([`latin`]: order 8's 1.09 x 10^20 in 25 s on two cores);
/// beyond, permuting columns puts any square's first row in order and then permuting
/// the other rows its first column, in exactly one way, so there are `n! (n-1)!`
/// squares for each reduced one, counted by [`count`].
fn count_latin_squares(
    geometry: &std::sync::Arc<crate::Geometry>,
    deadline: Option<Instant>,
) -> Option<(u128, Stop)> {
    let n = geometry.size();
    if !(2..=rows::MAX_SIDE).contains(&n) {
        return None;
    }
    if n <= latin::MAX_ORDER {
        return Some(match latin::count(n, deadline) {
            Some(squares) => (squares, Stop::Exhausted),
            None => (0, Stop::Timeout),
        });
    }
    let mut cells = vec![0u8; n * n];
    for i in 0..n {
        cells[i] = i as u8 + 1;
        cells[i * n] = i as u8 + 1;
    }
    let reduced = Grid::from_cells(geometry.clone(), cells).expect("an n*n grid");
    let report = count(
        &reduced,
        &Limits {
            solutions: u64::MAX,
            nodes: None,
            deadline,
        },
    );
    let factorial = |k: usize| (1..=k as u128).product::<u128>();
    let squares = (report.solutions as u128)
        .checked_mul(factorial(n))?
        .checked_mul(factorial(n - 1))?;
    Some((squares, report.stop))
}

/// A solution count, possibly cut short.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Solutions found.
    pub count: u64,
    /// Whether that is all of them (false when a limit stopped the search).
    pub complete: bool,
}

/// Counts solutions, stopping at `limit` (then `complete` is false unless the search
/// space happened to end there too).
pub fn count_solutions(grid: &Grid, limit: u64) -> Count {
    let report = count(grid, &Limits::solutions(limit));
    Count {
        count: report.solutions,
        complete: report.stop == Stop::Exhausted,
    }
}

/// The verdict on a puzzle's solutions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No solution.
    None,
    /// Exactly one, given.
    Unique(Grid),
    /// Two or more; the first found is given.
    Multiple(Grid),
}

/// Solves and checks uniqueness in one search (count up to 2).
pub fn solve_unique(grid: &Grid) -> Verdict {
    solve_unique_excluding(grid, &[])
}

/// [`solve_unique`] with some digits ruled out of some cells (see [`search_excluding`]).
pub fn solve_unique_excluding(grid: &Grid, excluded: &[(usize, u8)]) -> Verdict {
    unique_within(grid, excluded, &Limits::solutions(2)).expect("no node or time limit")
}

/// [`solve_unique_excluding`] within the node and time limits of `limits` (its
/// solution count is ignored): `None` when they stopped the search first.
pub fn unique_within(grid: &Grid, excluded: &[(usize, u8)], limits: &Limits) -> Option<Verdict> {
    let limits = Limits {
        solutions: 2,
        ..*limits
    };
    let mut first = None;
    let report = search_excluding(grid, excluded, &limits, &mut |cells| {
        if first.is_none() {
            first = Some(cells.to_vec());
        }
        true
    });
    let to_grid =
        |cells: Vec<u8>| Grid::from_cells(grid.geometry().clone(), cells).expect("solution fits");
    if matches!(report.stop, Stop::NodeLimit | Stop::Timeout) && report.solutions < 2 {
        return None;
    }
    Some(match (report.solutions, first) {
        (0, _) | (_, None) => Verdict::None,
        (1, Some(c)) => Verdict::Unique(to_grid(c)),
        (_, Some(c)) => Verdict::Multiple(to_grid(c)),
    })
}

/// Checks limits every this many nodes (reading the clock is not free).
const CLOCK_EVERY: u64 = 256;

/// Node and time budget shared by the engines.
#[derive(Debug)]
pub(crate) struct Budget {
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: Option<Stop>,
}

impl Budget {
    pub(crate) fn new(limits: &Limits) -> Budget {
        Budget {
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.deadline,
            stopped: None,
        }
    }

    /// Counts one node; returns false when the search must stop.
    #[inline]
    pub(crate) fn node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = Some(Stop::NodeLimit);
            return false;
        }
        if self.nodes % CLOCK_EVERY == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = Some(Stop::Timeout);
                    return false;
                }
            }
        }
        true
    }

    /// Whether the deadline has passed (for engines that count work other than nodes);
    /// records the stop.
    pub(crate) fn timed_out(&mut self) -> bool {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = Some(Stop::Timeout);
            return true;
        }
        false
    }

    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    pub(crate) fn stopped(&self) -> Option<Stop> {
        self.stopped
    }
}

#[cfg(test)]
pub(crate) mod tests;
