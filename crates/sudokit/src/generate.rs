//! Generating puzzles: a random complete grid, then clues deleted while the puzzle stays
//! unique (seed 003's idea: "from an initially full array, successively delete an entry
//! while the puzzle implies yet uniquely the initially array").
//!
//! * Complete grids ([`random_grid`]) come from a randomised search: the solver's
//!   propagating search (naked and hidden singles, the first cell with the fewest
//!   candidates) with digits in random order, restarting with growing node budgets
//!   (Luby) so that no early choice can trap it; a standard grid is then moved by a
//!   random symmetry of its shape. This is *not* a uniform sampler (grids reached by
//!   many search paths are favoured); for small shapes [`uniform_grid`] is exact,
//!   choosing each cell's digit with probability proportional to its number of
//!   completions. Where the search fails (large grids with disjoint groups or
//!   windows), the draw is a grid built by formula ([`crate::construct`]), relabelled
//!   at random.
//! * Digging ([`dig`]) removes clues in groups that the chosen [`Symmetry`] maps onto
//!   each other, in random order, keeping a removal only if the solution stays unique.
//!   One pass suffices for minimality: removing clues can only add solutions, so a group
//!   that had to stay when it was tried still has to stay at the end. On 16x16 and
//!   wider grids one clause-learning [`Checker`] answers every removal within a budget
//!   of decisions, 100,000 on 16x16, a few hundred up to 24x24 and a few from 25x25 on
//!   (a removal it does not settle keeps its clue).
//! * [`generate`] adds the knobs: an exact pattern of givens, bounds on the number of
//!   clues, and an acceptance test (difficulty windows, required techniques) supplied by
//!   the caller, retrying with fresh grids until one passes.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

use crate::construct;
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use crate::logic::{self, Level, State, Technique};
use crate::rng::Rng;
use crate::solve::cdcl::Checker;
use crate::solve::{Limits, Stop, count_solutions, differs_within, general, search, solve};
use crate::transform::Transform;

/// What the logical solution of a generated puzzle must look like: a HoDoKu-style level,
/// a Sudoku Explainer rating window, techniques its path must use, or no guessing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Target {
    /// Exactly this level on the human path.
    pub level: Option<Level>,
    /// SE rating (tenths) within `lo..=hi`.
    pub er: Option<(u16, u16)>,
    /// Techniques the human path must use (each at least once).
    pub require: Vec<Technique>,
    /// The human path must not need brute force.
    pub no_guess: bool,
}

/// The difficulty of a puzzle as far as a [`Target`] needed to find out.
#[derive(Clone, Debug, Default)]
pub struct Difficulty {
    /// SE rating in tenths, when computed and SE's techniques finish.
    pub er: Option<u16>,
    /// HoDoKu-style level, when the human path was computed.
    pub level: Option<Level>,
    /// Techniques of the human path, with counts, when computed.
    pub techniques: Vec<(Technique, u32)>,
}

impl Target {
    /// Whether no condition is set.
    pub fn is_any(&self) -> bool {
        *self == Target::default()
    }

    /// Rates `puzzle` only as far as the target needs (the human path for level,
    /// techniques and guessing, SE's path for the rating window, stopped as soon as a step
    /// rates above the window) and says whether it is on target.
    pub fn check(&self, puzzle: &Grid) -> (bool, Difficulty) {
        let start = State::from_grid(puzzle);
        let mut d = Difficulty::default();
        if self.level.is_some() || !self.require.is_empty() || self.no_guess {
            let (path, _) = self.human_path(&start);
            let (level, _, techniques) = logic::rate::hodoku(&path);
            d.level = Some(level);
            d.techniques = techniques;
            let used = |t: Technique| d.techniques.iter().any(|&(u, _)| u == t);
            if self.level.is_some_and(|l| l != level)
                || self.require.iter().any(|&t| !used(t))
                || (self.no_guess && used(Technique::BruteForce))
            {
                return (false, d);
            }
        }
        if let Some((lo, hi)) = self.er {
            let Some(er) = se_rating(&start, hi) else {
                return (false, d);
            };
            d.er = Some(er);
            if er < lo || er > hi {
                return (false, d);
            }
        }
        (true, d)
    }

    /// Whether `puzzle` is no harder than the target: its human path stays within the
    /// level and guesses only where allowed, and SE's rating stays at most the top of
    /// the window (both cut short past the bound). The bound of [`Options::bound`] for
    /// digging to a target: easier than the target is still within it.
    pub fn within(&self, puzzle: &Grid) -> bool {
        let start = State::from_grid(puzzle);
        if (self.level.is_some() || self.no_guess) && self.human_path(&start).1 {
            return false;
        }
        match self.er {
            Some((_, hi)) => se_rating(&start, hi).is_some_and(|er| er <= hi),
            None => true,
        }
    }

    /// The human path of `start`, stopped at the first step past the level or at a guess
    /// when guessing is not allowed; and whether it stopped there.
    fn human_path(&self, start: &State) -> (logic::solver::Path, bool) {
        let (mut level, mut score) = (Level::Easy, 0);
        let cells = start.geometry().cell_count();
        let mut over = false;
        let path = logic::solver::explain_until(start, &mut |step| {
            level = level.max(step.technique.level());
            score += step.technique.score();
            over = self
                .level
                .is_some_and(|l| Level::from_score(level, score, cells) > l)
                || (self.no_guess && step.technique == Technique::BruteForce);
            over
        });
        (path, over)
    }
}

/// SE's rating (tenths) of `start`, its path cut short past `ceiling`; None when SE's
/// techniques do not finish.
fn se_rating(start: &State, ceiling: u16) -> Option<u16> {
    let opts = logic::se::Options {
        ceiling: Some(ceiling),
        ..logic::se::Options::default()
    };
    let rated = logic::se::rate(start, &opts);
    rated.solved.then_some(rated.er)
}

/// A map of a cell (row, column) to its image under a symmetry.
type CellMap = dyn Fn(usize, usize) -> (usize, usize);

/// A test each puzzle must pass while clues are removed (see [`Options::bound`]).
pub type Bound<'a> = dyn Fn(&Grid) -> bool + Sync + 'a;

/// An acceptance test on (puzzle, solution).
pub type Accept<'a> = dyn Fn(&Grid, &Grid) -> bool + Sync + 'a;

/// The symmetry of the pattern of givens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No symmetry: clues are removed one by one.
    #[default]
    None,
    /// Half-turn rotation.
    Rot180,
    /// Quarter-turn rotation.
    Rot90,
    /// Mirror left-right.
    MirrorH,
    /// Mirror top-bottom.
    MirrorV,
    /// Both mirrors (and so the half turn).
    MirrorBoth,
    /// Reflection in the main diagonal.
    Diagonal,
    /// Reflection in the anti-diagonal.
    AntiDiagonal,
    /// Both diagonal reflections (and so the half turn).
    BiDiagonal,
    /// All eight symmetries of the square.
    Dihedral,
}

/// Every symmetry, in the order of [`Symmetry::name`].
pub const SYMMETRIES: [Symmetry; 10] = [
    Symmetry::None,
    Symmetry::Rot180,
    Symmetry::Rot90,
    Symmetry::MirrorH,
    Symmetry::MirrorV,
    Symmetry::MirrorBoth,
    Symmetry::Diagonal,
    Symmetry::AntiDiagonal,
    Symmetry::BiDiagonal,
    Symmetry::Dihedral,
];

impl Symmetry {
    /// Its command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::MirrorH => "mirror-h",
            Symmetry::MirrorV => "mirror-v",
            Symmetry::MirrorBoth => "mirror-both",
            Symmetry::Diagonal => "diagonal",
            Symmetry::AntiDiagonal => "antidiagonal",
            Symmetry::BiDiagonal => "bidiagonal",
            Symmetry::Dihedral => "dihedral",
        }
    }

    /// The cell maps generating the symmetry group, on an `n x n` grid.
    fn generators(self, n: usize) -> Vec<Box<CellMap>> {
        let m = n - 1;
        let rot180 = move |r: usize, c: usize| (m - r, m - c);
        let rot90 = move |r: usize, c: usize| (c, m - r);
        let mirror_h = move |r: usize, c: usize| (r, m - c);
        let mirror_v = move |r: usize, c: usize| (m - r, c);
        let diagonal = |r: usize, c: usize| (c, r);
        let anti = move |r: usize, c: usize| (m - c, m - r);
        match self {
            Symmetry::None => vec![],
            Symmetry::Rot180 => vec![Box::new(rot180)],
            Symmetry::Rot90 => vec![Box::new(rot90)],
            Symmetry::MirrorH => vec![Box::new(mirror_h)],
            Symmetry::MirrorV => vec![Box::new(mirror_v)],
            Symmetry::MirrorBoth => vec![Box::new(mirror_h), Box::new(mirror_v)],
            Symmetry::Diagonal => vec![Box::new(diagonal)],
            Symmetry::AntiDiagonal => vec![Box::new(anti)],
            Symmetry::BiDiagonal => vec![Box::new(diagonal), Box::new(anti)],
            Symmetry::Dihedral => vec![Box::new(rot90), Box::new(mirror_h)],
        }
    }

    /// Every map of the symmetry's group on an `n x n` grid, as cell permutations (the
    /// identity first).
    pub fn group(self, n: usize) -> Vec<Vec<Cell>> {
        let gens: Vec<Vec<Cell>> = self
            .generators(n)
            .iter()
            .map(|g| {
                (0..n * n)
                    .map(|c| {
                        let (r, c) = g(c / n, c % n);
                        r * n + c
                    })
                    .collect()
            })
            .collect();
        let mut group: Vec<Vec<Cell>> = vec![(0..n * n).collect()];
        let mut i = 0;
        while i < group.len() {
            for g in &gens {
                let next: Vec<Cell> = group[i].iter().map(|&c| g[c]).collect();
                if !group.contains(&next) {
                    group.push(next);
                }
            }
            i += 1;
        }
        group
    }

    /// The groups of cells the symmetry maps onto each other (each cell in exactly one
    /// group), in row-major order of their first cell.
    pub fn orbits(self, n: usize) -> Vec<Vec<Cell>> {
        let gens = self.generators(n);
        let mut orbit_of = vec![usize::MAX; n * n];
        let mut orbits: Vec<Vec<Cell>> = Vec::new();
        for start in 0..n * n {
            if orbit_of[start] != usize::MAX {
                continue;
            }
            let id = orbits.len();
            let mut members = vec![start];
            orbit_of[start] = id;
            let mut i = 0;
            while i < members.len() {
                let (r, c) = (members[i] / n, members[i] % n);
                for g in &gens {
                    let (r2, c2) = g(r, c);
                    let cell = r2 * n + c2;
                    if orbit_of[cell] == usize::MAX {
                        orbit_of[cell] = id;
                        members.push(cell);
                    }
                }
                i += 1;
            }
            members.sort_unstable();
            orbits.push(members);
        }
        orbits
    }

    /// Whether a pattern of givens (true = given) has this symmetry.
    pub fn holds(self, pattern: &[bool], n: usize) -> bool {
        self.orbits(n)
            .iter()
            .all(|o| o.iter().all(|&c| pattern[c] == pattern[o[0]]))
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Symmetry {
    type Err = String;

    fn from_str(s: &str) -> Result<Symmetry, String> {
        SYMMETRIES
            .iter()
            .copied()
            .find(|sym| sym.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<&str> = SYMMETRIES.iter().map(|s| s.name()).collect();
                format!("unknown symmetry {s:?}; one of {}", names.join(", "))
            })
    }
}

/// Successful swaps per cell when [`random_regions`] shuffles a map (9x9: 648 swaps of
/// two cells).
const SWAPS_PER_CELL: usize = 8;

/// A random jigsaw region map of side `n`: `n` regions of `n` orthogonally connected
/// cells, numbered in order of first appearance (row-major), laid out with `symmetry`
/// (each of its maps carries every region onto a region) when the starting map has it,
/// else without. It starts from the boxes (the rows when `n` has no box shape, or when
/// only they have the symmetry) and swaps two cells of neighbouring regions (one on
/// each side of their border) many times over, with the swaps at their images under the
/// symmetry, keeping each move that leaves the regions connected, and fewer of those
/// that lengthen the borders. Not every such map has a complete grid
/// ([`random_jigsaw`] draws until one does).
pub fn random_regions(n: usize, symmetry: Symmetry, rng: &mut Rng) -> Vec<u8> {
    let cells = n * n;
    let shape = crate::shape::Shape::for_size(n);
    let boxes: Vec<u8> = (0..cells)
        .map(|c| shape.map_or(c / n, |s| s.box_of(c)) as u8)
        .collect();
    let rows: Vec<u8> = (0..cells).map(|c| (c / n) as u8).collect();
    let group = symmetry.group(n);
    if group.len() > 1 {
        let starts = if boxes == rows { 1 } else { 2 };
        for start in [&boxes, &rows].into_iter().take(starts) {
            if carried(start, &group) {
                let mut map = start.clone();
                if shuffle_regions(&mut map, n, &group, rng) {
                    return first_appearance(map);
                }
            }
        }
    }
    let mut map = boxes;
    shuffle_regions(&mut map, n, &Symmetry::None.group(n), rng);
    first_appearance(map)
}

/// Swaps cells of `map` across region borders, each swap with its images under
/// `group` (see [`random_regions`]); whether it made as many swaps as it aims at and
/// moved away from the start (on some starts a symmetry allows no move: the rows of a
/// 7x7 grid under a mirror).
fn shuffle_regions(map: &mut [u8], n: usize, group: &[Vec<Cell>], rng: &mut Rng) -> bool {
    let cells = n * n;
    let neighbours = |c: Cell| crate::variant::orthogonal_neighbours(c, n);
    let connected = |map: &[u8], region: u8| crate::variant::region_connected(map, n, region);
    let (wanted, mut swaps, mut tries) = (SWAPS_PER_CELL * cells, 0, 0);
    let mut border: Vec<Cell> = Vec::new();
    let mut pairs: Vec<(Cell, Cell)> = Vec::new();
    let mut touched: Vec<Cell> = Vec::new();
    let mut regions: Vec<u8> = Vec::new();
    // Under a large group few moves are possible, and the compact start draws them
    // back: a map that came back to it goes on.
    let start = map.to_vec();
    while (swaps < wanted || map == start) && tries < 20 * wanted {
        tries += 1;
        // A cell, and a neighbour across a border: the region it may join.
        let a = rng.below(cells as u64) as usize;
        let across: Vec<Cell> = neighbours(a).filter(|&e| map[e] != map[a]).collect();
        if across.is_empty() {
            continue;
        }
        let (from, to) = (map[a], map[across[rng.below(across.len() as u64) as usize]]);
        // A cell of that region on its border with `a`'s region goes the other way.
        border.clear();
        border
            .extend((0..cells).filter(|&c| map[c] == to && neighbours(c).any(|e| map[e] == from)));
        let b = border[rng.below(border.len() as u64) as usize];
        // The swap and its images, each once; images that share a cell cannot all be
        // made (a cell on a mirror's axis, say).
        pairs.clear();
        for g in group {
            let (x, y) = (g[a], g[b]);
            if !pairs.contains(&(x, y)) && !pairs.contains(&(y, x)) {
                pairs.push((x, y));
            }
        }
        touched.clear();
        touched.extend(pairs.iter().flat_map(|&(x, y)| [x, y]));
        touched.sort_unstable();
        if touched.windows(2).any(|w| w[0] == w[1]) {
            continue;
        }
        regions.clear();
        regions.extend(touched.iter().map(|&c| map[c]));
        regions.sort_unstable();
        regions.dedup();
        // Region borders around the cells: a move that lengthens them by `k` edges a
        // swap is taken with probability 2^-k, so regions stay compact rather than snake.
        let edges = |map: &[u8]| -> usize {
            touched
                .iter()
                .map(|&c| neighbours(c).filter(|&e| map[e] != map[c]).count())
                .sum()
        };
        let before = edges(map);
        for &(x, y) in &pairs {
            map.swap(x, y);
        }
        let longer = (edges(map).saturating_sub(before) / pairs.len()).min(63);
        if rng.below(1 << longer) == 0 && regions.iter().all(|&r| connected(map, r)) {
            swaps += pairs.len();
        } else {
            for &(x, y) in &pairs {
                map.swap(x, y);
            }
        }
    }
    swaps >= wanted && map != start
}

/// `map` with its labels renumbered in order of first appearance.
fn first_appearance(mut map: Vec<u8>) -> Vec<u8> {
    let mut label = vec![u8::MAX; map.len()];
    let mut next = 0;
    for r in &mut map {
        if label[*r as usize] == u8::MAX {
            label[*r as usize] = next;
            next += 1;
        }
        *r = label[*r as usize];
    }
    map
}

/// Whether each map of `group` (cell permutations) carries every region of `map` onto
/// a region.
fn carried(map: &[u8], group: &[Vec<Cell>]) -> bool {
    group.iter().all(|g| {
        let mut image = vec![u8::MAX; map.len()];
        (0..map.len()).all(|c| {
            let (r, s) = (map[c] as usize, map[g[c]]);
            let fits = image[r] == u8::MAX || image[r] == s;
            image[r] = s;
            fits
        })
    })
}

/// Region maps [`random_jigsaw`] draws before it gives up. Of 100 drawn maps, 97 have
/// a grid on 9x9 (95 with X-sudoku's diagonals), 94 on 6x6 and 92 on 4x4, but only 4
/// on 6x6 with diagonals: one 6x6 X-jigsaw in 60 or so finds none.
const MAP_TRIES: usize = 100;

/// A jigsaw geometry of side `n` with `variant`'s other houses (X-sudoku's diagonals,
/// extra maps) on a random region map ([`random_regions`], with `symmetry` where the
/// boxes or rows have it) that has a complete grid: `generate --variant jigsaw` without
/// a map draws one for each puzzle. An error when
/// the variant does not go with a jigsaw, none of 100 maps has a grid, or `deadline`
/// passes first (large grids: a 49x49 map's grid can take minutes).
pub fn random_jigsaw(
    n: usize,
    variant: &crate::Variant,
    symmetry: Symmetry,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Result<Arc<Geometry>, GenerateError> {
    for _ in 0..MAP_TRIES {
        let mut v = variant.clone();
        v.set_regions(random_regions(n, symmetry, rng));
        let geometry = Geometry::for_variant(n, None, &v)
            .map_err(|e| GenerateError::Impossible(e.to_string()))?;
        let geometry = Arc::new(geometry);
        if random_grid_until(&geometry, rng, deadline)?.is_some() {
            return Ok(geometry);
        }
    }
    Err(GenerateError::Impossible(format!(
        "none of {MAP_TRIES} random region maps has a complete grid"
    )))
}

/// Whether a new puzzle of `variant` draws its region map: a jigsaw without one.
pub fn draws_map(variant: &crate::Variant) -> bool {
    variant.jigsaw && variant.regions.is_none()
}

/// The geometry of a new puzzle of `shape` (its side; 9x9 without) and `variant`: on a
/// map drawn with `rng` when the variant [`draws_map`] ([`random_jigsaw`]), with the
/// `symmetry` of the givens where it can be.
pub fn new_geometry(
    shape: Option<crate::Shape>,
    variant: &crate::Variant,
    symmetry: Symmetry,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Result<Arc<Geometry>, GenerateError> {
    if draws_map(variant) {
        let n = shape.map_or(crate::Shape::CLASSIC.size(), |s| s.size());
        return random_jigsaw(n, variant, symmetry, rng, deadline);
    }
    Geometry::for_new_puzzle(shape, variant).map_err(|e| GenerateError::Impossible(e.to_string()))
}

/// A random complete grid of the geometry (see the module documentation for how it is
/// drawn); `None` only for geometries that have no complete grid at all.
pub fn random_grid(geometry: &Arc<Geometry>, rng: &mut Rng) -> Option<Grid> {
    random_grid_until(geometry, rng, None).ok()?
}

/// [`random_grid`] that gives up at `deadline` (`Err`): drawing a 64x64 grid can take
/// minutes.
fn random_grid_until(
    geometry: &Arc<Geometry>,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Result<Option<Grid>, GenerateError> {
    match sampled_grid(geometry, rng, deadline)? {
        Some(grid) => Ok(Some(grid)),
        None => completed_grid(geometry, rng, deadline),
    }
}

/// Restarts of the randomised search before the solver takes over.
const SAMPLER_RUNS: u64 = 32;

/// A restart's node budget per Luby unit, in quarters of the cell count. A run that
/// finds a grid needs about one node per cell (64x64: 3,600-4,600), one that does not
/// soon gets lost: six 64x64 draws took 0.14-0.42 s with 5/4 of the cells, 0.18-1.9 s
/// with twice and 0.08-1.7 s with four times as many.
const SAMPLER_QUARTERS: u64 = 5;

/// The randomised search of the module documentation; `None` when it gives up (or the
/// geometry has no grid), `Err` at the deadline.
fn sampled_grid(
    geometry: &Arc<Geometry>,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Result<Option<Grid>, GenerateError> {
    let cells = geometry.cell_count() as u64;
    let empty = Grid::empty(geometry.clone());
    // Restarts with growing budgets; a geometry with no grid at all is found out when a
    // run exhausts its whole tree, or given up after many runs.
    for run in 0..SAMPLER_RUNS {
        let limits = Limits {
            solutions: 1,
            nodes: Some(crate::solve::cdcl::luby(run) * cells * SAMPLER_QUARTERS / 4),
            deadline,
        };
        let (found, report) = general::random_solution(&empty, &limits, rng);
        if let Some(cells) = found {
            return Ok(Grid::from_cells(geometry.clone(), cells)
                .ok()
                .map(|grid| random_symmetry(grid, rng)));
        }
        match report.stop {
            Stop::Exhausted => return Ok(None),
            Stop::Timeout => return Err(GenerateError::OutOfTime),
            _ => {}
        }
    }
    Ok(None)
}

/// A standard grid moved by a random symmetry of its shape (relabelling, bands, stacks,
/// rows and columns within them, transposition): the search fills cells in reading
/// order and favours some placements, which the symmetry spreads evenly (on 4x4, 28,800
/// draws: chi-square 3,687 without, 1,166 with, on 287 degrees of freedom). Variants
/// keep the grid as drawn: their extra houses are not kept by every such move.
fn random_symmetry(grid: Grid, rng: &mut Rng) -> Grid {
    let geometry = grid.geometry().clone();
    let Some(shape) = geometry.shape().filter(|_| geometry.is_standard()) else {
        return grid;
    };
    let moved = Transform::random(shape, &mut || rng.next_u64()).apply(&grid);
    match moved.map(|m| Grid::from_cells(geometry, m.cells().to_vec())) {
        Ok(Ok(moved)) => moved,
        _ => grid,
    }
}

/// A complete grid from the solver, for geometries the randomised search seldom fills
/// (16x16 windoku: four draws in five ran out of every restart; clause learning gets
/// through its windows): a random first row (any order of one row's digits can start a
/// grid, since relabelling maps grids onto grids), then one random digit in each of `n`
/// random cells, each kept while a solution remains; the solver's solution of that
/// start. Some geometries defeat both engines from a scrambled first row (25x25
/// disjoint groups: a shuffled first row ran out of a minute): when the first row takes
/// more than [`COMPLETION_NODES`] per cell, a grid built by formula
/// ([`construct::complete_grid`]) is the draw, relabelled at random, or where no
/// formula fits the empty grid's solution (the house-based search fills some at once
/// in its own digit order). `Ok(None)` when there is no grid at all, `Err` at the
/// deadline.
fn completed_grid(
    geometry: &Arc<Geometry>,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Result<Option<Grid>, GenerateError> {
    let n = geometry.size();
    let mut start = Grid::empty(geometry.clone());
    let mut row: Vec<u8> = (1..=n as u8).collect();
    rng.shuffle(&mut row);
    for (c, &d) in row.iter().enumerate() {
        start.set(c, d);
    }
    let first = Limits {
        solutions: 1,
        nodes: Some(COMPLETION_NODES * geometry.cell_count() as u64),
        deadline,
    };
    let unbounded = Limits {
        solutions: 1,
        nodes: None,
        deadline,
    };
    let Some(mut solution) = solution_within(&start, &first)? else {
        let relabel = |grid: Grid| {
            let cells = grid.cells().iter().map(|&d| row[d as usize - 1]).collect();
            Grid::from_cells(geometry.clone(), cells).ok()
        };
        if let Some(grid) = construct::complete_grid(geometry, rng) {
            return Ok(relabel(grid));
        }
        let empty = Grid::empty(geometry.clone());
        return Ok(solution_within(&empty, &unbounded)?.and_then(relabel));
    };
    for _ in 0..n {
        let c = n + rng.below((geometry.cell_count() - n) as u64) as usize;
        if start.get(c) != 0 {
            continue;
        }
        let taken = geometry
            .peers(c)
            .iter()
            .fold(0u64, |m, &p| match start.get(p as usize) {
                0 => m,
                d => m | 1 << (d - 1),
            });
        let free = geometry.digit_mask() & !taken;
        if free == 0 {
            continue;
        }
        start.set(c, rng.pick_bit(free).trailing_zeros() as u8 + 1);
        match solution_within(&start, &unbounded)? {
            Some(s) => solution = s,
            None => start.set(c, 0),
        }
    }
    Ok(Some(solution))
}

/// The first solution of `grid` within `limits`: `Ok(None)` when there is none or the
/// node budget ran out first, `Err` at the deadline.
fn solution_within(grid: &Grid, limits: &Limits) -> Result<Option<Grid>, GenerateError> {
    let mut found = None;
    let report = search(grid, limits, &mut |cells| {
        found = Some(cells.to_vec());
        false
    });
    match found {
        Some(cells) => Ok(Grid::from_cells(grid.geometry().clone(), cells).ok()),
        None if report.stop == Stop::Timeout => Err(GenerateError::OutOfTime),
        None => Ok(None),
    }
}

/// Branching nodes per cell the first row's completion in [`completed_grid`] may take
/// before a [`construct::complete_grid`] (or the empty grid's solution) is taken
/// instead.
const COMPLETION_NODES: u64 = 16;

/// An exactly uniform random complete grid, for shapes whose completions can be counted
/// (up to 6x6): each cell in turn takes a digit with probability proportional to the
/// number of grids that complete the choice. `None` for larger shapes.
pub fn uniform_grid(geometry: &Arc<Geometry>, rng: &mut Rng) -> Option<Grid> {
    let n = geometry.size();
    if n > 6 {
        return None;
    }
    let mut grid = Grid::empty(geometry.clone());
    // Relabelling maps completions of one first row onto those of any other, so the
    // first row is a uniform permutation.
    let mut row: Vec<u8> = (1..=n as u8).collect();
    rng.shuffle(&mut row);
    for (c, &d) in row.iter().enumerate() {
        grid.set(c, d);
    }
    for cell in n..n * n {
        let mut counts = Vec::with_capacity(n);
        for d in 1..=n as u8 {
            grid.set(cell, d);
            counts.push(if grid.first_conflict().is_some() {
                0
            } else {
                count_solutions(&grid, u64::MAX).count
            });
        }
        let total: u64 = counts.iter().sum();
        if total == 0 {
            return None;
        }
        let mut pick = rng.below(total);
        let d = counts
            .iter()
            .position(|&k| {
                if pick < k {
                    true
                } else {
                    pick -= k;
                    false
                }
            })
            .expect("a digit is chosen");
        grid.set(cell, d as u8 + 1);
    }
    Some(grid)
}

/// Grids this wide and wider dig with a node limit on each removal's check.
const LARGE_SIDE: usize = 25;

/// Grids this wide and wider check every removal of a dig with one [`Checker`] (9x9
/// and the like are quicker with a search from scratch each time: 1,000 puzzles,
/// 0.14 s against 0.93 s). Ten 16x16 puzzles, 1.59 s -> 0.55 s; one 16x16 X-windoku,
/// 19.8 s -> 16.1 s (the same puzzles: every check is complete).
///
/// The slow checks of a 16x16 X-windoku dig are those that find a second solution
/// (1-4 s each near the end, where most removals fail; a fresh solver, MiniSat and
/// CaDiCaL take as long). Tried and not kept (2026-11-29, three digs, seeds 1-3):
/// racing a second checker with another tie-break order, 9.2 / 7.8 / 58.7 s -> 7.1 /
/// 6.2 / 53.0 s; a second checker answering the next removal meanwhile as if this
/// one failed (the same puzzles whatever the cores), 8.5 / 7.5 / 54.3 s -> 6.6 / 6.4 /
/// 48.4 s at 14% more processor time (each pair waits for its slower check); a quick
/// search for a second solution that differs only in the band and stack of the
/// removed clue, which finds one for 10 of the 54 failing removals of seed 3 (9.3 of
/// its 50 s). The second solutions found differ from the first in 90-150 cells (two
/// of the 54 in 6 and 8).
const CHECKER_SIDE: usize = 16;

/// Decisions a removal's check may take on large grids. A few suffice: digging
/// 25x25 grids (seeds 0-7) with 5 / 10 / 30 / 100 decisions a check left 353.2 /
/// 356.1 / 355.9 / 354.1 empty cells on average, in 0.04 / 0.13 / 0.44 / 1.99 s;
/// 36x36 (seeds 0-3), 662.5 / 668.0 / 677.2 / 673.0 in 0.22 / 0.62 / 1.88 / 9.0 s.
/// The 18 gecode 25x25 puzzles have 341-359 empty cells. The result is far from
/// minimal: what stays are the clues whose removal nobody settles quickly.
const LARGE_CHECK_NODES: u64 = 10;

/// Decisions a removal's check may take on a grid of side `side` (16x16 and wider
/// check with one [`Checker`]). Most checks take far fewer, but as a puzzle thins some
/// proofs of uniqueness grow long: digging a 20x20 with disjoint groups (seed 11), one
/// check took 15 s and the dig ran out of 100 s with complete checks. Four puzzles
/// (seed 11) with 500 / 2,000 / 10,000 decisions a check took 9.2 / 31 / 53 s on 24x24
/// and 4.5 / 21 / 125 s on 20x20 with disjoint groups, for about as many clues:
/// 243-247 / 243-248 (100 decisions: 241-250) and 118-124 / 116-122 (100: 116-126).
/// On 16x16 six digs each of plain, X, windoku and disjoint groups (seed 11) settled
/// every check with 100,000 decisions a check, in the time complete checks took;
/// with 20,000, two of the disjoint digs were not settled.
fn check_nodes(side: usize) -> u64 {
    match side {
        LARGE_SIDE.. => LARGE_CHECK_NODES,
        17.. => 500,
        _ => 100_000,
    }
}

/// Clues kept on large grids that gather at the end of the checker's assumptions
/// before they join the others at the start (see [`dig`]). Digging two 49x49 grids,
/// batches of 1 / 8 / 32 / 128: 8.9 / 2.4 / 2.1 / 1.9 s each.
const KEPT_BATCH: usize = 32;

/// Removes clues from a complete grid in symmetric groups, in random order, while the
/// solution stays unique and the puzzle passes `bound` (when given): the result is
/// minimal under the symmetry and the bound, up to the removals whose check ran out of
/// its budget (on 16x16 and wider grids: 100,000 decisions on 16x16, 500 up to 24x24,
/// 10 beyond). With it, whether every check was settled (then without a bound the
/// puzzle is minimal under the symmetry: a group needed at some point is needed in
/// every puzzle with fewer clues). `None` when `deadline` passed first.
pub fn dig(
    solution: &Grid,
    symmetry: Symmetry,
    bound: Option<&Bound>,
    deadline: Option<Instant>,
    rng: &mut Rng,
) -> Option<(Grid, bool)> {
    let n = solution.size();
    let g = solution.geometry();
    let mut orbits = symmetry.orbits(n);
    rng.shuffle(&mut orbits);
    let mut puzzle = solution.clone();
    let mut givens = HouseDigits::new(solution);
    // 16x16 and wider: one solver for every check, its givens in an order that changes
    // little from check to check, so that it propagates them about once: the clues
    // kept for good, the clues still to try (the next one last), the clues kept
    // lately. The last group joins the first in batches (each join propagates the
    // clues still to try again).
    let mut checker = (n >= CHECKER_SIDE).then(|| Checker::new(solution));
    let (mut kept, mut lately): (Vec<Cell>, Vec<Cell>) = (Vec::new(), Vec::new());
    let mut settled = true;
    for (k, orbit) in orbits.iter().enumerate() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        for &c in orbit {
            puzzle.set(c, 0);
            givens.toggle(g, c, solution.get(c));
        }
        // A removed clue forced by the remaining givens alone (a naked or hidden single
        // on the givens) is in every solution: no search needed to keep uniqueness.
        let forced = orbit
            .iter()
            .all(|&c| givens.forces(&puzzle, c, solution.get(c)));
        let unique = forced
            || match checker.as_mut() {
                Some(checker) => {
                    if lately.len() >= KEPT_BATCH {
                        kept.append(&mut lately);
                    }
                    let to_try = orbits[k + 1..].iter().rev().flatten();
                    let order: Vec<(Cell, u8)> = kept
                        .iter()
                        .chain(to_try)
                        .chain(&lately)
                        .map(|&c| (c, solution.get(c)))
                        .collect();
                    let nodes = check_nodes(n);
                    let differs = checker.differs_within(&order, solution, orbit, nodes, deadline);
                    settled &= differs.is_some();
                    differs == Some(false)
                }
                None => differs_within(&puzzle, solution, orbit, None, deadline) == Some(false),
            };
        if !unique || bound.is_some_and(|b| !b(&puzzle)) {
            for &c in orbit {
                puzzle.set(c, solution.get(c));
                givens.toggle(g, c, solution.get(c));
            }
            lately.extend(orbit);
        }
    }
    Some((puzzle, settled))
}

/// Which digits each house's givens hold, kept up to date while digging.
struct HouseDigits {
    /// Bit `d` of `masks[h]`: digit `d` is a given of house `h`.
    masks: Vec<u128>,
}

impl HouseDigits {
    fn new(grid: &Grid) -> HouseDigits {
        let g = grid.geometry();
        let mut hd = HouseDigits {
            masks: vec![0; g.houses().len()],
        };
        for c in 0..g.cell_count() {
            if grid.get(c) != 0 {
                hd.toggle(g, c, grid.get(c));
            }
        }
        hd
    }

    fn toggle(&mut self, g: &Geometry, cell: Cell, digit: u8) {
        for h in g.houses_of(cell) {
            self.masks[h] ^= 1 << digit;
        }
    }

    /// Whether the givens of `puzzle` force `digit` into the empty `cell`: every other
    /// digit is a given among its houses (naked single), or every other empty cell of
    /// one of its houses sees the digit as a given (hidden single).
    fn forces(&self, puzzle: &Grid, cell: Cell, digit: u8) -> bool {
        let g = puzzle.geometry();
        let all = ((1u128 << g.size()) - 1) << 1;
        let seen = g.houses_of(cell).fold(0, |m, h| m | self.masks[h]);
        if seen | 1 << digit == all {
            return true;
        }
        let sees = |e: usize| g.houses_of(e).any(|h| self.masks[h] >> digit & 1 == 1);
        g.houses_of(cell).any(|h| {
            g.houses()[h]
                .cells()
                .all(|e| e == cell || puzzle.get(e) != 0 || sees(e))
        })
    }
}

/// Whether every clue (every symmetric group of clues) of a unique puzzle is needed
/// for uniqueness (a puzzle without a unique solution counts as minimal: no removal
/// makes it unique).
pub fn is_minimal(puzzle: &Grid, symmetry: Symmetry) -> bool {
    let Some(solution) = solve(puzzle) else {
        return true;
    };
    redundant(puzzle, &solution, &symmetry.orbits(puzzle.size())).is_empty()
}

/// The groups of `orbits` holding givens whose givens can go, each group alone, with
/// `puzzle` staying unique: their indices. `solution` is the puzzle's, unique.
///
/// On 16x16 to 24x24 grids one [`Checker`] answers every removal, keeping what it
/// learns; the givens are listed in an order where the removals' lists share long
/// starts (the other half of the groups first, then recursively within this half), so
/// that `k` groups make about `k log k` assumptions in all instead of `k^2`. Ten 16x16
/// puzzles: 1.65 s -> 0.36 s; two 16x16 windokus, 2.64 s -> 1.09 s. Not on 25x25: each
/// check there is a long search that a portfolio of solvers from scratch on both cores
/// does better (a 25x25 with 274 clues, 19 s against 36-46 s on one core). With two
/// cores or more, the two halves of the groups run on two of them (from eight groups
/// up: a minimal 16x16 windoku, 16.1 s -> 9.0 s).
pub fn redundant(puzzle: &Grid, solution: &Grid, orbits: &[Vec<Cell>]) -> Vec<usize> {
    let groups: Vec<(usize, Vec<Cell>)> = orbits
        .iter()
        .enumerate()
        .map(|(i, o)| {
            (
                i,
                o.iter().copied().filter(|&c| puzzle.get(c) != 0).collect(),
            )
        })
        .filter(|(_, o): &(usize, Vec<Cell>)| !o.is_empty())
        .collect();
    let mut out = Vec::new();
    if !(CHECKER_SIDE..LARGE_SIDE).contains(&puzzle.size()) {
        let mut p = puzzle.clone();
        for (i, group) in &groups {
            for &c in group {
                p.set(c, 0);
            }
            if differs_within(&p, solution, group, None, None) == Some(false) {
                out.push(*i);
            }
            for &c in group {
                p.set(c, puzzle.get(c));
            }
        }
        return out;
    }
    /// Checks every group of `groups` with the givens of `others` and of the other
    /// groups.
    fn leave_one_out(
        checker: &mut Checker,
        solution: &Grid,
        groups: &[(usize, Vec<Cell>)],
        others: &mut Vec<(Cell, u8)>,
        out: &mut Vec<usize>,
    ) {
        let [(i, group)] = groups else {
            let (left, right) = groups.split_at(groups.len() / 2);
            let len = others.len();
            for (here, there) in [(left, right), (right, left)] {
                others.extend(givens_of(there, solution));
                leave_one_out(checker, solution, here, others, out);
                others.truncate(len);
            }
            return;
        };
        if checker.differs_within(others, solution, group, u64::MAX, None) == Some(false) {
            out.push(*i);
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if groups.len() >= SPLIT_GROUPS && threads >= 2 {
        // Two halves on two cores, each with the other half's givens and its own
        // checker (see [`SPLIT_GROUPS`]).
        let (left, right) = groups.split_at(groups.len() / 2);
        let half = |here: &[(usize, Vec<Cell>)], there: &[(usize, Vec<Cell>)]| {
            let mut others: Vec<(Cell, u8)> = givens_of(there, solution).collect();
            let mut found = Vec::new();
            leave_one_out(
                &mut Checker::new(solution),
                solution,
                here,
                &mut others,
                &mut found,
            );
            found
        };
        std::thread::scope(|scope| {
            let helper = scope.spawn(|| half(left, right));
            out.extend(half(right, left));
            out.extend(helper.join().expect("no panic"));
        });
    } else if !groups.is_empty() {
        let mut checker = Checker::new(solution);
        leave_one_out(&mut checker, solution, &groups, &mut Vec::new(), &mut out);
    }
    out.sort_unstable();
    out
}

/// The givens (cell, digit of `solution`) of the groups of clues `groups`.
fn givens_of<'a>(
    groups: &'a [(usize, Vec<Cell>)],
    solution: &'a Grid,
) -> impl Iterator<Item = (Cell, u8)> + 'a {
    groups
        .iter()
        .flat_map(|(_, g)| g)
        .map(|&c| (c, solution.get(c)))
}

/// Groups of clues from which [`redundant`] checks its two halves on two cores, each
/// half with a checker of its own (learning nothing from the other's). Three minimal
/// 16x16 windokus (2026-11-29, `check --minimal`, one at a time): 1.91 / 16.1 / 0.35 s
/// -> 0.95 / 9.0 / 0.21 s, the processor time about the same (15.1 s against 16.0 s
/// for the slowest), so a batch that already keeps every core busy loses little.
const SPLIT_GROUPS: usize = 8;

/// What [`generate`] should make.
pub struct Options<'a> {
    /// Symmetry of the givens.
    pub symmetry: Symmetry,
    /// Exactly these cells are givens (row-major, true = given).
    pub pattern: Option<Vec<bool>>,
    /// At most this many clues.
    pub max_clues: Option<usize>,
    /// At least this many clues.
    pub min_clues: Option<usize>,
    /// Dig this solution instead of random ones.
    pub from: Option<Grid>,
    /// Draw each attempt's complete grid exactly uniformly ([`uniform_grid`], shapes up
    /// to 6x6) instead of by randomised search.
    pub uniform: bool,
    /// Extra acceptance test on (puzzle, solution), e.g. a difficulty window.
    pub accept: Option<&'a Accept<'a>>,
    /// A test every puzzle on the way must pass: a removal that fails it is undone, so
    /// the puzzle is minimal only under the bound. With [`Target::within`], digging
    /// stops short of puzzles harder than a target, and easy targets are met at once
    /// where minimal puzzles are seldom easy (X-sudoku, windoku).
    pub bound: Option<&'a Bound<'a>>,
    /// Give up after this many candidate puzzles.
    pub attempts: u64,
    /// Give up at this time ([`GenerateError::OutOfTime`]), even within an attempt.
    pub deadline: Option<Instant>,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            symmetry: Symmetry::None,
            pattern: None,
            max_clues: None,
            min_clues: None,
            from: None,
            uniform: false,
            accept: None,
            bound: None,
            attempts: 100_000,
            deadline: None,
        }
    }
}

/// A generated puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle.
    pub puzzle: Grid,
    /// Its unique solution.
    pub solution: Grid,
    /// Candidate puzzles made before this one passed every test.
    pub attempts: u64,
    /// Whether every clue (group of clues under the symmetry) is needed, when the
    /// making says so at no cost: true when a dig without a bound settled every
    /// removal; `None` for a pattern, a bound, or a check that ran out of its budget
    /// (see [`is_minimal`]).
    pub minimal: Option<bool>,
    /// Whether every removal's check that the making ran was answered within its
    /// budget: a clue kept because its check ran out would make deciding minimality
    /// repeat that long search.
    pub settled: bool,
}

impl Generated {
    /// Whether every clue (group of clues under `symmetry`) is needed: as the making
    /// knows it, or else checked, below 25x25 and when every check of the making was
    /// settled (otherwise some removal's check is a long search); `None` when not known.
    pub fn minimality(&self, symmetry: Symmetry) -> Option<bool> {
        self.minimal.or_else(|| {
            (self.settled && self.puzzle.size() < LARGE_SIDE).then(|| {
                let orbits = symmetry.orbits(self.puzzle.size());
                redundant(&self.puzzle, &self.solution, &orbits).is_empty()
            })
        })
    }
}

/// Why no puzzle came out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The attempts ran out.
    #[error("no puzzle met the requirements in {0} attempts")]
    Exhausted(u64),
    /// The given solution or pattern cannot work.
    #[error("{0}")]
    Impossible(String),
    /// The deadline passed before a puzzle was made.
    #[error("out of time before a puzzle was made")]
    OutOfTime,
}

/// Makes one unique puzzle meeting the options.
pub fn generate(
    geometry: &Arc<Geometry>,
    options: &Options,
    rng: &mut Rng,
) -> Result<Generated, GenerateError> {
    let n = geometry.size();
    if let Some(from) = &options.from {
        if !from.is_complete() || from.first_conflict().is_some() {
            return Err(GenerateError::Impossible(
                "--from needs a complete, valid grid".into(),
            ));
        }
    }
    if let Some(p) = &options.pattern {
        if p.len() != n * n {
            return Err(GenerateError::Impossible(format!(
                "the pattern has {} cells, not {}",
                p.len(),
                n * n
            )));
        }
    }
    for attempt in 1..=options.attempts {
        if options.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(GenerateError::OutOfTime);
        }
        let drawn = match &options.from {
            Some(g) => Some(g.clone()),
            None if options.uniform => uniform_grid(geometry, rng),
            None => random_grid_until(geometry, rng, options.deadline)?,
        };
        let solution = drawn.ok_or_else(|| {
            GenerateError::Impossible("this geometry has no complete grid".into())
        })?;
        let (puzzle, minimal, settled) = match &options.pattern {
            Some(mask) => {
                let mut p = solution.clone();
                for (c, &given) in mask.iter().enumerate() {
                    if !given {
                        p.set(c, 0);
                    }
                }
                if count_solutions(&p, 2).count != 1 {
                    continue;
                }
                (p, None, true)
            }
            None => {
                let (p, settled) = dig(
                    &solution,
                    options.symmetry,
                    options.bound,
                    options.deadline,
                    rng,
                )
                .ok_or(GenerateError::OutOfTime)?;
                (
                    p,
                    (settled && options.bound.is_none()).then_some(true),
                    settled,
                )
            }
        };
        let clues = puzzle.filled();
        if options.max_clues.is_some_and(|m| clues > m)
            || options.min_clues.is_some_and(|m| clues < m)
        {
            continue;
        }
        if let Some(accept) = options.accept {
            if !accept(&puzzle, &solution) {
                continue;
            }
        }
        debug_assert_eq!(solve(&puzzle).as_ref(), Some(&solution));
        return Ok(Generated {
            puzzle,
            solution,
            attempts: attempt,
            minimal,
            settled,
        });
    }
    Err(GenerateError::Exhausted(options.attempts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;
    use crate::solve::{Limits, general};

    #[test]
    fn orbits_partition_the_grid() {
        for sym in SYMMETRIES {
            for n in [4, 6, 9] {
                let orbits = sym.orbits(n);
                let mut seen = vec![0; n * n];
                for o in &orbits {
                    for &c in o {
                        seen[c] += 1;
                    }
                }
                assert!(seen.iter().all(|&k| k == 1), "{sym} {n}");
            }
        }
        assert_eq!(Symmetry::Rot180.orbits(9).len(), 41);
        assert_eq!(Symmetry::Dihedral.orbits(9).len(), 15);
        assert_eq!(Symmetry::None.orbits(9).len(), 81);
    }

    #[test]
    fn random_grids_are_valid_for_many_shapes_and_seeds() {
        for (r, c) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)] {
            let g = Geometry::standard(Shape::new(r, c).unwrap());
            for seed in 0..3 {
                let grid = random_grid(&g, &mut Rng::new(seed)).unwrap();
                assert!(grid.solves(&Grid::empty(g.clone())), "{r}x{c}");
            }
        }
        let a = random_grid(&Geometry::classic(), &mut Rng::new(1)).unwrap();
        let b = random_grid(&Geometry::classic(), &mut Rng::new(2)).unwrap();
        assert_ne!(a, b);
        assert_eq!(
            a,
            random_grid(&Geometry::classic(), &mut Rng::new(1)).unwrap()
        );
    }

    #[test]
    fn tight_variants_get_grids_from_the_solver() {
        // 16x16 windoku: the plain search gives up (it once said "no complete grid");
        // the solver completes a random start, and different seeds give different grids.
        let variant = "windoku".parse().unwrap();
        let g =
            Arc::new(Geometry::for_variant(16, Some(Shape::new(4, 4).unwrap()), &variant).unwrap());
        let a = random_grid(&g, &mut Rng::new(1)).unwrap();
        assert!(a.solves(&Grid::empty(g.clone())));
        let b = completed_grid(&g, &mut Rng::new(2), None).unwrap().unwrap();
        assert!(b.solves(&Grid::empty(g.clone())));
        assert_ne!(a, b);
    }

    /// 25x25 disjoint groups: both engines lose their way from a shuffled first row (a
    /// minute was not enough), so the draw is a pattern grid, relabelled.
    #[test]
    fn a_25x25_disjoint_groups_grid_is_drawn() {
        let v = "disjoint".parse().unwrap();
        let g = Arc::new(Geometry::for_variant(25, None, &v).unwrap());
        let grid = random_grid(&g, &mut Rng::new(1)).expect("a grid");
        assert!(grid.solves(&Grid::empty(g)));
    }

    /// Drawn region maps have `n` regions of `n` cells, connected, labelled in order
    /// of first appearance; a seed gives its map again, and maps are not the boxes
    /// they start from.
    #[test]
    fn random_region_maps_are_jigsaw_maps() {
        for n in [2, 4, 5, 6, 7, 9, 12, 16] {
            for seed in 0..4 {
                let map = random_regions(n, Symmetry::None, &mut Rng::new(seed));
                assert_eq!(map, random_regions(n, Symmetry::None, &mut Rng::new(seed)));
                assert_eq!(map.len(), n * n);
                for r in 0..n as u8 {
                    assert_eq!(map.iter().filter(|&&x| x == r).count(), n, "n {n}");
                }
                assert!(crate::Variant::disconnected_regions(&map, n).is_empty());
                let mut seen = 0;
                for &r in &map {
                    assert!(r <= seen, "labels in order of first appearance");
                    seen = seen.max(r + 1);
                }
                if let Some(shape) = Shape::for_size(n).filter(|_| n >= 6) {
                    let boxes: Vec<u8> = (0..n * n).map(|c| shape.box_of(c) as u8).collect();
                    assert_ne!(map, boxes, "n {n}");
                }
            }
        }
    }

    /// Under a symmetry the drawn maps have it (every map of the group carries each
    /// region onto a region) when the boxes or rows do, and are still jigsaw maps that
    /// moved away from those; otherwise they are drawn as without it.
    #[test]
    fn random_region_maps_take_the_symmetry_when_they_can() {
        let image_of_regions = |map: &[u8], g: &[Cell], n: usize| -> bool {
            (0..n as u8).all(|r| {
                let image: Vec<u8> = (0..n * n)
                    .filter(|&c| map[c] == r)
                    .map(|c| map[g[c]])
                    .collect();
                image.iter().all(|&x| x == image[0])
            })
        };
        for sym in SYMMETRIES {
            for n in [4, 5, 6, 7, 8, 9, 12, 16] {
                let group = sym.group(n);
                assert!(group.len() <= 8 && group[0] == (0..n * n).collect::<Vec<_>>());
                let shape = Shape::for_size(n);
                let boxes: Vec<u8> = (0..n * n)
                    .map(|c| shape.map_or(c / n, |s| s.box_of(c)) as u8)
                    .collect();
                let rows: Vec<u8> = (0..n * n).map(|c| (c / n) as u8).collect();
                let possible = [&boxes, &rows]
                    .iter()
                    .any(|m| group.iter().all(|g| image_of_regions(m, g, n)));
                for seed in 0..3 {
                    let map = random_regions(n, sym, &mut Rng::new(seed));
                    assert_eq!(map, random_regions(n, sym, &mut Rng::new(seed)));
                    for r in 0..n as u8 {
                        assert_eq!(map.iter().filter(|&&x| x == r).count(), n, "{sym} n {n}");
                    }
                    assert!(crate::Variant::disconnected_regions(&map, n).is_empty());
                    let symmetric = group.iter().all(|g| image_of_regions(&map, g, n));
                    // Where the start has the symmetry but no symmetric move keeps the
                    // regions connected (a 7x7's rows under a mirror that keeps them;
                    // 2x2 boxes under a quarter turn or a diagonal), the map is drawn
                    // without it.
                    let stuck = n == 4 && sym.group(n).len() > 2
                        || n % 2 == 1 && matches!(sym, Symmetry::MirrorH | Symmetry::MirrorBoth)
                        || n == 4 && matches!(sym, Symmetry::Diagonal | Symmetry::AntiDiagonal);
                    assert!(symmetric || !possible || stuck, "{sym} n {n} seed {seed}");
                    if n >= 6 {
                        assert!(map != boxes && map != rows, "{sym} n {n} seed {seed}");
                    }
                }
            }
        }
        // A classic-size symmetric jigsaw has a grid.
        let v: crate::Variant = "jigsaw".parse().unwrap();
        let g = random_jigsaw(9, &v, Symmetry::Rot180, &mut Rng::new(5), None).unwrap();
        assert!(random_grid(&g, &mut Rng::new(1)).is_some());
    }

    /// A jigsaw drawn for generation has a grid, and its puzzles are unique by the
    /// general engine; X-jigsaw keeps its diagonals.
    #[test]
    fn jigsaws_on_drawn_maps_generate() {
        for (spec, n, seed) in [("jigsaw", 9, 1), ("x,jigsaw", 9, 2), ("jigsaw", 6, 3)] {
            let v: crate::Variant = spec.parse().unwrap();
            let mut rng = Rng::new(seed);
            let g = random_jigsaw(n, &v, Symmetry::None, &mut rng, None).unwrap();
            assert!(g.variant().regions.is_some());
            assert_eq!(g.variant().diagonals, v.diagonals);
            let made = generate(&g, &Options::default(), &mut rng).unwrap();
            let report = general::search(&made.puzzle, &Limits::solutions(2), &mut |_| true);
            assert_eq!(report.solutions, 1, "{spec}");
            assert!(made.solution.solves(&made.puzzle));
        }
        // 2x2 with diagonals: no jigsaw map of side 2 has a grid.
        let v: crate::Variant = "x,jigsaw".parse().unwrap();
        assert!(random_jigsaw(2, &v, Symmetry::None, &mut Rng::new(0), None).is_err());
    }

    #[test]
    fn generated_puzzles_are_unique_and_minimal_by_another_engine() {
        let g = Geometry::classic();
        for (seed, sym) in [
            (1, Symmetry::None),
            (2, Symmetry::Rot180),
            (3, Symmetry::Dihedral),
        ] {
            let made = generate(
                &g,
                &Options {
                    symmetry: sym,
                    ..Options::default()
                },
                &mut Rng::new(seed),
            )
            .unwrap();
            // Uniqueness through the general engine, not the one that dug it.
            let report = general::search(&made.puzzle, &Limits::solutions(2), &mut |_| true);
            assert_eq!(report.solutions, 1);
            assert!(made.solution.solves(&made.puzzle));
            assert!(is_minimal(&made.puzzle, sym));
            assert_eq!(made.minimal, Some(true), "the dig settled every removal");
            let pattern: Vec<bool> = made.puzzle.cells().iter().map(|&v| v != 0).collect();
            assert!(sym.holds(&pattern, 9), "{sym}");
        }
        // 16x16 digs check removals with one clause-learning solver kept throughout
        // (a Checker); here uniqueness and minimality are counted from scratch.
        let g = Geometry::standard(Shape::new(4, 4).unwrap());
        for (seed, sym) in [(1, Symmetry::None), (2, Symmetry::Rot180)] {
            let options = Options {
                symmetry: sym,
                ..Options::default()
            };
            let made = generate(&g, &options, &mut Rng::new(seed)).unwrap();
            let report = general::search(&made.puzzle, &Limits::solutions(2), &mut |_| true);
            assert_eq!(report.solutions, 1);
            assert!(made.solution.solves(&made.puzzle));
            for orbit in sym.orbits(16) {
                let mut p = made.puzzle.clone();
                orbit.iter().for_each(|&c| p.set(c, 0));
                if p != made.puzzle {
                    assert!(count_solutions(&p, 2).count > 1, "seed {seed}: {orbit:?}");
                }
            }
        }
    }

    /// The givens found redundant (by a Checker on 16x16) are those whose removal
    /// leaves one solution, counted from scratch: a minimal 16x16 puzzle with a few of
    /// its solution's digits given back.
    #[test]
    fn redundant_givens_are_those_counting_finds() {
        let g = Geometry::standard(Shape::new(4, 4).unwrap());
        let made = generate(&g, &Options::default(), &mut Rng::new(3)).unwrap();
        let mut puzzle = made.puzzle.clone();
        let mut rng = Rng::new(4);
        let mut added = 0;
        while added < 8 {
            let c = rng.below(256) as usize;
            if puzzle.get(c) == 0 {
                puzzle.set(c, made.solution.get(c));
                added += 1;
            }
        }
        let singles: Vec<Vec<Cell>> = (0..256).map(|c| vec![c]).collect();
        let found = redundant(&puzzle, &made.solution, &singles);
        let counted: Vec<usize> = (0..256)
            .filter(|&c| puzzle.get(c) != 0)
            .filter(|&c| {
                let mut p = puzzle.clone();
                p.set(c, 0);
                count_solutions(&p, 2).count == 1
            })
            .collect();
        assert!(counted.len() >= 8, "{counted:?}");
        assert_eq!(found, counted);
    }

    #[test]
    fn shidoku_grids_are_drawn_uniformly() {
        // 288 Shidoku grids (a published count, and our enumeration's); 100 draws each
        // expected. Chi-square with 287 degrees of freedom: the 0.1 % critical value is
        // about 368, so a fair sampler fails this once in a thousand seeds.
        let g = Geometry::standard(Shape::SHIDOKU);
        let mut rng = Rng::new(2026);
        let mut seen: std::collections::HashMap<Vec<u8>, u32> = Default::default();
        let draws = 28_800;
        for _ in 0..draws {
            let grid = uniform_grid(&g, &mut rng).unwrap();
            assert!(grid.is_complete() && grid.first_conflict().is_none());
            *seen.entry(grid.cells().to_vec()).or_default() += 1;
        }
        assert_eq!(seen.len(), 288);
        let expected = f64::from(draws) / 288.0;
        let chi2: f64 = seen
            .values()
            .map(|&o| (f64::from(o) - expected).powi(2) / expected)
            .sum();
        assert!(
            chi2 < 368.0,
            "chi-square {chi2:.1} on 287 degrees of freedom"
        );
    }

    #[test]
    fn digging_within_a_level_stops_short_of_harder_puzzles() {
        // Minimal X-sudoku puzzles are seldom easy; digging within "easy" makes easy ones
        // at once, and every clue left is needed for uniqueness or for easiness.
        let v: crate::Variant = "x".parse().unwrap();
        let g = Arc::new(Geometry::for_variant(9, None, &v).unwrap());
        let target = Target {
            level: Some(Level::Easy),
            ..Target::default()
        };
        let accept = |p: &Grid, _: &Grid| target.check(p).0;
        let within = |p: &Grid| target.within(p);
        let options = Options {
            accept: Some(&accept),
            bound: Some(&within),
            attempts: 5,
            ..Options::default()
        };
        let mut rng = Rng::new(3);
        for _ in 0..2 {
            let made = generate(&g, &options, &mut rng).unwrap();
            let rating = logic::rate(&State::from_grid(&made.puzzle));
            assert_eq!(rating.level, Level::Easy);
            let mut p = made.puzzle.clone();
            for c in (0..81).filter(|&c| made.puzzle.get(c) != 0) {
                p.set(c, 0);
                let needed = count_solutions(&p, 2).count != 1
                    || logic::rate(&State::from_grid(&p)).level > Level::Easy;
                assert!(needed, "r{}c{} could go", c / 9 + 1, c % 9 + 1);
                p.set(c, made.puzzle.get(c));
            }
        }
    }

    #[test]
    fn difficulty_targets_are_met() {
        let g = Geometry::classic();
        for target in [
            Target {
                level: Some(Level::Easy),
                ..Target::default()
            },
            Target {
                er: Some((70, 80)),
                ..Target::default()
            },
            Target {
                require: vec![Technique::XWing],
                no_guess: true,
                ..Target::default()
            },
        ] {
            let accept = |p: &Grid, _: &Grid| target.check(p).0;
            let made = generate(
                &g,
                &Options {
                    accept: Some(&accept),
                    ..Options::default()
                },
                &mut Rng::new(11),
            )
            .unwrap();
            // The full rating, not the target's shortcut, must agree.
            let rating = logic::rate(&State::from_grid(&made.puzzle));
            if let Some(level) = target.level {
                assert_eq!(rating.level, level);
            }
            if let Some((lo, hi)) = target.er {
                assert!((lo..=hi).contains(&rating.er.unwrap()), "{:?}", rating.er);
            }
            for t in &target.require {
                assert!(rating.techniques.iter().any(|(u, _)| u == t));
            }
            if target.no_guess {
                assert!(!rating.brute_force);
            }
        }
    }

    #[test]
    fn patterns_and_bounds_are_met() {
        let g = Geometry::classic();
        // The pattern of a puzzle with at least 26 clues: about one grid in 1,000 to
        // 3,000 is unique on such a pattern (measured); a 23-clue one took 10^5 to 10^6.
        let first = generate(
            &g,
            &Options {
                min_clues: Some(26),
                ..Options::default()
            },
            &mut Rng::new(5),
        )
        .unwrap();
        let pattern: Vec<bool> = first.puzzle.cells().iter().map(|&v| v != 0).collect();
        let again = generate(
            &g,
            &Options {
                pattern: Some(pattern.clone()),
                ..Options::default()
            },
            &mut Rng::new(6),
        )
        .unwrap();
        let got: Vec<bool> = again.puzzle.cells().iter().map(|&v| v != 0).collect();
        assert_eq!(got, pattern);
        let few = generate(
            &g,
            &Options {
                max_clues: Some(24),
                ..Options::default()
            },
            &mut Rng::new(7),
        )
        .unwrap();
        assert!(few.puzzle.filled() <= 24);
    }
}
