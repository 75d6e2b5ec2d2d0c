//! Essentially different grids: how many grids are left when two count as one if a
//! symmetry of the shape (reordering bands, rows within a band, stacks, columns within
//! a stack, and transposing when the boxes are square) followed by a relabelling of the
//! digits maps one onto the other. For 9x9, 5,472,730,538 (Russell and Jarvis, 2006, the
//! figure the Octave seed quotes). Latin squares likewise, under any reordering of rows
//! and of columns: without transposing, their isotopy classes (564 of order 7,
//! 1,676,267 of order 8); with the conjugates too (rows, columns and symbols trading
//! roles), their main classes (147 of order 7, 283,657 of order 8,
//! [`count_main_classes`]). Order 8 takes 30-40 s on two cores, most of it the count
//! of all squares (the identity's term, [`super::latin`]): a few classes have hundreds
//! of millions to two billion invariant squares each, which for the symmetries that
//! only reorder rows and columns are counted as cliques of rows
//! (`latin_squares_by_row_cycles`) rather than one square at a time, and for those that
//! transpose, one relabelling per class of them under the renamings that commute with
//! the symmetry (`commuting_renamings`).
//!
//! Burnside's lemma: the number of classes is the average, over the symmetries `g` and
//! relabellings `s`, of the grids `X` with `g(X) = s(X)`. Three reductions make that
//! average computable:
//!
//! * A grid determines the relabelling (if any) that `g` turns it into, so for each `g`
//!   it is enough to count the grids that `g` maps to a relabelling of themselves, its
//!   *invariant grids*.
//! * Relabelling such a grid gives another one, so they come `n!` at a time; counting
//!   only those whose house `H` (a row, column or box) reads `1..n` in order divides by
//!   `n!`. With `H` chosen so that `g` maps it onto itself, the relabelling is then
//!   fixed: the digit at `g(h)` is the relabelled digit at `h`. (When `g` keeps no house
//!   in place, the relabelling is the filling of the house `g(H)`, and the fillings that
//!   agree with `H` are tried in turn.)
//! * Conjugate symmetries have equally many invariant grids, so one symmetry per
//!   conjugacy class is counted, times the class size.
//!
//! The identity's invariant grids are all grids, counted by the band method
//! ([`super::bands`]). Another symmetry splits the cells into cycles; given the digit `v`
//! on a cycle's first cell, its `k`-th cell holds `s^k(v)`, so the grid is a choice of
//! one digit per cycle, each pair of cycles forbidding some pairs of digits (those that
//! would put one digit twice in a house). That is a small constraint problem, counted by
//! search with a table of the digits each choice forbids on every other cycle.
//!
//! A count that the search does not finish at once (hundreds of millions of grids for
//! the half turn and a few others) is taken by orbits: a symmetry `tau` of the rules
//! that commutes with `g` and keeps the house `H` in place, with the digits renamed as
//! `tau` moves `H`'s cells, maps the invariant grids onto themselves, so two choices of
//! digits for a cycle that such symmetries map to each other leave equally many grids.
//! The first levels of the search then take one digit per orbit of those symmetries
//! that keep every earlier choice, times the orbit's size, branching on the cycle whose
//! digits fall into fewest orbits (`Search::expand_by_orbits`). For 9x9 the 576 such
//! symmetries of the half turn cut its 20 s to 1 s; the whole count went from 39 s to
//! 6 s, 8x8 with 2x4 boxes from 17 s to 4 s.

use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Instant;

use rustc_hash::FxHashSet;

use super::Stop;
use crate::perm::{all_permutations, join, next_permutation, root};
use crate::{Geometry, Grid};

/// Cycles are numbered in a fixed-width array so that the search's mask update is a
/// plain vector operation (81 cells at most, rounded up to whole 32-byte lanes).
const SLOTS: usize = 96;

/// The count of essentially different grids of a shape, with how it was reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classes {
    /// Essentially different grids.
    pub classes: u128,
    /// Every grid of the shape.
    pub grids: u128,
    /// Symmetries of the shape's grids, not counting relabellings.
    pub symmetries: u64,
    /// Whether transposing is one of them (square boxes, unless left out).
    pub transposing: bool,
    /// Whether a Latin square's conjugates (rows, columns and symbols trading roles)
    /// count as the same square: main classes. `symmetries` is then the paratopisms
    /// divided by `n!`.
    pub conjugates: bool,
    /// Conjugacy classes of the symmetries (275 for 9x9). For main classes, those of
    /// the row and column reorderings with transposing (each transposed class standing
    /// for the three swaps of two roles) and one per cycle type for the role rotations.
    pub conjugacy_classes: usize,
    /// Conjugacy classes of symmetries with invariant grids: (class size, invariant grids
    /// of one member with a chosen house reading `1..n`), identity first. A role
    /// rotation carries its own relabelling: (class size / `n!`, invariant squares).
    pub invariants: Vec<(u64, u128)>,
}

/// Reorderings of `n` lines in groups of `k` (bands of rows, stacks of columns): the
/// groups in any order, the lines of each group in any order. `p[i]` is where line `i`
/// goes.
fn line_permutations(n: usize, k: usize) -> Vec<Vec<u8>> {
    let groups = n / k;
    let within = all_permutations(k);
    let mut order: Vec<usize> = (0..groups).collect();
    let mut out = Vec::new();
    loop {
        for code in 0..within.len().pow(groups as u32) {
            let mut line = vec![0u8; n];
            let mut rest = code;
            for (g, &to) in order.iter().enumerate() {
                let w = &within[rest % within.len()];
                rest /= within.len();
                for i in 0..k {
                    line[g * k + i] = (to * k + w[i]) as u8;
                }
            }
            out.push(line);
        }
        if !next_permutation(&mut order) {
            break;
        }
    }
    out
}

/// A group of line permutations with ranks, so that elements are small integers.
struct Lines {
    perms: Vec<Vec<u8>>,
    rank: HashMap<Vec<u8>, u32>,
    /// Generators: swaps of neighbouring groups and of neighbouring lines in a group.
    generators: Vec<u32>,
}

impl Lines {
    fn new(n: usize, k: usize) -> Lines {
        let perms = line_permutations(n, k);
        let rank: HashMap<Vec<u8>, u32> = perms
            .iter()
            .enumerate()
            .map(|(i, p)| (p.clone(), i as u32))
            .collect();
        let swap = |pairs: &[(usize, usize)]| -> u32 {
            let mut p: Vec<u8> = (0..n as u8).collect();
            for &(a, b) in pairs {
                p.swap(a, b);
            }
            rank[&p]
        };
        let mut generators = Vec::new();
        for g in 0..n / k {
            for i in 0..k - 1 {
                generators.push(swap(&[(g * k + i, g * k + i + 1)]));
            }
        }
        for g in 0..n / k - 1 {
            let pairs: Vec<_> = (0..k).map(|i| (g * k + i, (g + 1) * k + i)).collect();
            generators.push(swap(&pairs));
        }
        Lines {
            perms,
            rank,
            generators,
        }
    }

    fn len(&self) -> usize {
        self.perms.len()
    }

    /// Conjugacy classes as (a member, size), the identity first: union-find joining
    /// each element to its conjugates by the generators.
    fn classes(&self) -> Vec<(u32, u64)> {
        let mut parent: Vec<usize> = (0..self.len()).collect();
        for &s in &self.generators {
            let inverse = self.inverse(s);
            for a in 0..self.len() {
                let conjugate = self.compose(self.compose(s, a as u32), inverse);
                join(&mut parent, a, conjugate as usize);
            }
        }
        let mut sizes: HashMap<u32, u64> = HashMap::new();
        for a in 0..self.len() {
            *sizes.entry(root(&mut parent, a) as u32).or_default() += 1;
        }
        let mut classes: Vec<(u32, u64)> = sizes.into_iter().collect();
        // The identity, rank 0, is its class's root: it comes first.
        classes.sort_unstable();
        classes
    }

    /// `a` after `b` (`b` first).
    fn compose(&self, a: u32, b: u32) -> u32 {
        let (a, b) = (&self.perms[a as usize], &self.perms[b as usize]);
        let p: Vec<u8> = b.iter().map(|&x| a[x as usize]).collect();
        self.rank[&p]
    }

    fn inverse(&self, a: u32) -> u32 {
        let a = &self.perms[a as usize];
        let mut p = vec![0u8; a.len()];
        for (i, &x) in a.iter().enumerate() {
            p[x as usize] = i as u8;
        }
        self.rank[&p]
    }
}

/// Why essentially different grids were not counted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClassesError {
    /// Only grids that can all be counted are supported.
    #[error(
        "essentially different grids are counted for 9x9, boxes two cells wide or high up to 8x8 and Latin squares up to order 8, not {0}"
    )]
    Unsupported(String),
    /// Main classes are a Latin square notion.
    #[error(
        "main classes are counted for Latin squares (whose rows, columns and symbols can trade roles), not {0}"
    )]
    NotLatin(String),
    /// The deadline passed first.
    #[error("time ran out")]
    Timeout,
}

/// One conjugacy class of symmetries: a member, as a map of cells (`cells[c]` is where
/// cell `c` goes), and how many symmetries the class holds.
struct SymmetryClass {
    cells: Vec<usize>,
    size: u64,
    /// Whether the member transposes (its class then stands for every swap of two roles
    /// when counting main classes).
    transposed: bool,
}

/// Counts the essentially different grids of an empty standard geometry whose every
/// grid can be counted ([`super::count_every_grid`]: 9x9, boxes two cells wide or high
/// up to 8x8) or of Latin squares up to order 8 (whose symmetries are any reordering of
/// rows and of columns: classes up to isotopy, or with transposing added);
/// `transposing` = false leaves transposition out of the symmetries (it is one only for
/// square boxes and Latin squares). About 6 s for 9x9 on two cores.
pub fn count_essentially_different(
    geometry: &Arc<Geometry>,
    transposing: bool,
    deadline: Option<Instant>,
) -> Result<Classes, ClassesError> {
    burnside(geometry, transposing, false, deadline)
}

/// Counts the main classes of Latin squares of order up to 8 (OEIS A003090: 12 of
/// order 6, 147 of order 7, 283,657 of order 8, in 30 s on two cores):
/// isotopy classes in which a square and its conjugates (the
/// same triples (row, column, symbol) with the roles permuted) count as one.
///
/// The paratopisms are the isotopisms with one of the six role permutations. Those
/// with the identity or the transposition of rows and columns are the symmetries that
/// [`count_essentially_different`] averages over with transposing; the other two role
/// swaps are conjugate to that one (by a pure role permutation), so their invariant
/// squares add up to the same sum; a role rotation `(r, c, s) -> (x(s), y(r), z(c))`,
/// whose cube applies `xzy` (or a rotation of that product) to each coordinate, is
/// conjugate to `(r, c, s) -> (p(s), r, c)` with `p` of the cycle type of `xzy`, and its
/// few invariant squares are counted as an exact cover.
pub fn count_main_classes(
    geometry: &Arc<Geometry>,
    deadline: Option<Instant>,
) -> Result<Classes, ClassesError> {
    if !geometry.variant().is_latin_square() {
        return Err(ClassesError::NotLatin(geometry.name().to_string()));
    }
    burnside(geometry, true, true, deadline)
}

/// Burnside's average for [`count_essentially_different`] and, with `conjugates`,
/// [`count_main_classes`].
fn burnside(
    geometry: &Arc<Geometry>,
    transposing: bool,
    conjugates: bool,
    deadline: Option<Instant>,
) -> Result<Classes, ClassesError> {
    let n = geometry.size();
    let unsupported = || ClassesError::Unsupported(geometry.name().to_string());
    // Lines move in groups of k: rows by bands, columns by stacks (Latin squares: one
    // by one).
    let (kr, kc) = match geometry.shape() {
        _ if geometry.variant().is_latin_square() && n <= 8 => (1, 1),
        Some(shape) if geometry.is_standard() => (shape.box_rows(), shape.box_cols()),
        _ => return Err(unsupported()),
    };
    let empty = Grid::empty(geometry.clone());
    let (grids, stop) = super::count_every_grid(&empty, deadline).ok_or_else(unsupported)?;
    if stop != Stop::Exhausted {
        return Err(ClassesError::Timeout);
    }
    let transposing = transposing && kr == kc;
    let (classes, mut symmetries) = conjugacy_classes(n, kr, kc, transposing);
    let factorial = (1..=n as u128).product::<u128>();
    let mut invariants = vec![(1, grids / factorial)];
    for class in &classes[1..] {
        let count = invariant_grids_of(geometry, class, deadline).ok_or(ClassesError::Timeout)?;
        // Main classes: the transposition stands for each of the three role swaps.
        let size = class.size * if conjugates && class.transposed { 3 } else { 1 };
        if count != 0 {
            invariants.push((size, count as u128));
        }
    }
    let mut conjugacy_classes = classes.len();
    if conjugates {
        // Two role rotations (each way round), each with (n!)^2 |C| members per class C
        // of the product's permutation.
        let factorial = factorial as u64;
        for (p, size) in cycle_types(n) {
            conjugacy_classes += 1;
            let rotation = role_rotation(n, &p);
            let count =
                invariant_latin_squares(n, &rotation, deadline).ok_or(ClassesError::Timeout)?;
            if count != 0 {
                invariants.push((2 * factorial * size, count as u128));
            }
        }
        symmetries *= 3;
    }
    let total: u128 = invariants.iter().map(|&(s, i)| s as u128 * i).sum();
    debug_assert_eq!(total % symmetries as u128, 0, "Burnside's average is whole");
    Ok(Classes {
        classes: total / symmetries as u128,
        grids,
        symmetries,
        transposing,
        conjugates,
        conjugacy_classes,
        invariants,
    })
}

/// One permutation of `0..n` per cycle type (consecutive cycles, longest first) with
/// the size of its conjugacy class in the symmetric group: `n! / prod(k^m_k m_k!)`.
fn cycle_types(n: usize) -> Vec<(Vec<u8>, u64)> {
    fn partitions(rest: usize, largest: usize, parts: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if rest == 0 {
            out.push(parts.clone());
        }
        for k in (1..=largest.min(rest)).rev() {
            parts.push(k);
            partitions(rest - k, k, parts, out);
            parts.pop();
        }
    }
    let mut all = Vec::new();
    partitions(n, n, &mut Vec::new(), &mut all);
    let factorial = |k: usize| (1..=k as u64).product::<u64>();
    all.into_iter()
        .map(|parts| {
            let mut p = Vec::with_capacity(n);
            let mut centraliser = 1;
            for (i, &k) in parts.iter().enumerate() {
                let start = p.len();
                p.extend((0..k).map(|j| (start + (j + 1) % k) as u8));
                centraliser *= k as u64;
                // m_k! accumulates as each further cycle of the same length arrives.
                centraliser *= parts[..i].iter().filter(|&&l| l == k).count() as u64 + 1;
            }
            (p, factorial(n) / centraliser)
        })
        .collect()
}

/// The role rotation `(r, c, s) -> (p(s), r, c)` as a map of triples, a triple being
/// `r n^2 + c n + s`.
fn role_rotation(n: usize, p: &[u8]) -> Vec<usize> {
    (0..n * n * n)
        .map(|t| {
            let (r, c, s) = (t / (n * n), t / n % n, t % n);
            p[s] as usize * n * n + r * n + c
        })
        .collect()
}

/// Latin squares of order `n` (up to 8) that the map of triples `g` keeps as a set of
/// triples, by exact cover: the squares are the sets of triples that meet each
/// (row, column), (row, symbol) and (column, symbol) pair once, and an invariant one is
/// a union of `g`'s cycles.
fn invariant_latin_squares(n: usize, g: &[usize], deadline: Option<Instant>) -> Option<u64> {
    assert!(n <= 8, "three words of pairs");
    let pairs = |t: usize| {
        let (r, c, s) = (t / (n * n), t / n % n, t % n);
        [r * n + c, n * n + r * n + s, 2 * n * n + c * n + s]
    };
    // Cycles that meet no pair twice, as masks of the pairs they meet.
    let mut seen = vec![false; g.len()];
    let mut cycles: Vec<[u64; 3]> = Vec::new();
    let mut cycle_of = vec![usize::MAX; g.len()];
    for start in 0..g.len() {
        if seen[start] {
            continue;
        }
        let (mut mask, mut met, mut t) = ([0u64; 3], 0, start);
        loop {
            seen[t] = true;
            for pair in pairs(t) {
                mask[pair / 64] |= 1 << (pair % 64);
            }
            met += 3;
            t = g[t];
            if t == start {
                break;
            }
        }
        if mask.iter().map(|w| w.count_ones()).sum::<u32>() == met {
            let mut t = start;
            loop {
                cycle_of[t] = cycles.len();
                t = g[t];
                if t == start {
                    break;
                }
            }
            cycles.push(mask);
        }
    }
    assert!(cycles.len() <= 6 * 64, "six words of cycles");
    let mut meeting = vec![[0u64; 6]; 3 * n * n];
    for (i, mask) in cycles.iter().enumerate() {
        for (pair, meets) in meeting.iter_mut().enumerate() {
            if mask[pair / 64] >> (pair % 64) & 1 == 1 {
                meets[i / 64] |= 1 << (i % 64);
            }
        }
    }
    let clashes: Vec<[u64; 6]> = cycles
        .iter()
        .map(|mask| {
            let mut clash = [0u64; 6];
            for (pair, meets) in meeting.iter().enumerate() {
                if mask[pair / 64] >> (pair % 64) & 1 == 1 {
                    clash.iter_mut().zip(meets).for_each(|(c, m)| *c |= m);
                }
            }
            clash
        })
        .collect();
    let mut live = [0u64; 6];
    for i in 0..cycles.len() {
        live[i / 64] |= 1 << (i % 64);
    }
    // Renaming rows, columns and symbols by one permutation `tau` that commutes with
    // `g` maps invariant squares to invariant squares, so the first levels of the
    // search take one cycle per orbit of the renamings that keep the choices before
    // (`Cover::expand_by_orbits`). The plain role rotation, whose renamings are all of
    // S_n: its 20.8 million squares took 22 s over the eight choices for the cell
    // (0, 0), 9.6-10.5 s over their two classes, 0.55 s by orbits.
    let rename = |tau: &[usize], t: usize| {
        let (r, c, s) = (t / (n * n), t / n % n, t % n);
        tau[r] * n * n + tau[c] * n + tau[s]
    };
    let first_triple: Vec<usize> = {
        let mut first = vec![usize::MAX; cycles.len()];
        for (t, &i) in cycle_of.iter().enumerate().rev() {
            if i != usize::MAX {
                first[i] = t;
            }
        }
        first
    };
    let renamings: Vec<Renaming> = all_permutations(n)
        .into_iter()
        .filter(|tau| (0..g.len()).all(|t| g[rename(tau, t)] == rename(tau, g[t])))
        .map(|tau| Renaming {
            cycles: first_triple
                .iter()
                .map(|&t| cycle_of[rename(&tau, t)])
                .collect(),
            pairs: (0..3 * n * n)
                .map(|pair| {
                    let (kind, x, y) = (pair / (n * n), pair / n % n, pair % n);
                    kind * n * n + tau[x] * n + tau[y]
                })
                .collect(),
        })
        .collect();
    let mut cover = Cover {
        pairs: 3 * n * n,
        cycles: &cycles,
        meeting: &meeting,
        clashes: &clashes,
        deadline,
        nodes: 0,
        found: 0,
    };
    let mut states = Vec::new();
    let keeping: Vec<&Renaming> = renamings.iter().collect();
    cover.expand_by_orbits([0; 3], live, &keeping, 1, &mut states);
    let done = cover.found;
    super::sum_on_cores(&states, |&(covered, live, weight)| {
        let mut cover = Cover {
            found: 0,
            nodes: 0,
            ..cover
        };
        let found = cover.search(covered, live).then_some(cover.found)?;
        Some(found as u128 * weight as u128)
    })
    .map(|total| u64::try_from(total + done as u128).expect("invariant squares of order 8 fit"))
}

/// A renaming of rows, columns and symbols by one permutation, as it moves the cycles of
/// triples (`usize::MAX` for those that no square holds) and the pairs.
struct Renaming {
    cycles: Vec<usize>,
    pairs: Vec<usize>,
}

/// The exact cover search of [`invariant_latin_squares`].
struct Cover<'a> {
    pairs: usize,
    cycles: &'a [[u64; 3]],
    /// For each pair, the cycles that meet it.
    meeting: &'a [[u64; 6]],
    /// For each cycle, the cycles that share a pair with it (itself included).
    clashes: &'a [[u64; 6]],
    deadline: Option<Instant>,
    nodes: u64,
    found: u64,
}

impl Cover<'_> {
    /// The uncovered pair with fewest cycles left to cover it and their number (0: a
    /// dead end); `None` when every pair is covered.
    fn tightest(&self, covered: [u64; 3], live: [u64; 6]) -> Option<(u32, usize)> {
        let mut best: Option<(u32, usize)> = None;
        for pair in (0..self.pairs).filter(|&p| covered[p / 64] >> (p % 64) & 1 == 0) {
            let options = self.options(pair, live);
            if best.is_none_or(|(o, _)| options < o) {
                best = Some((options, pair));
                if options <= 1 {
                    break;
                }
            }
        }
        best
    }

    fn options(&self, pair: usize, live: [u64; 6]) -> u32 {
        (0..6)
            .map(|w| (self.meeting[pair][w] & live[w]).count_ones())
            .sum()
    }

    /// The live cycles that cover `pair`, in order.
    fn covering(&self, pair: usize, live: [u64; 6]) -> impl Iterator<Item = usize> + '_ {
        (0..6).flat_map(move |w| {
            let mut options = self.meeting[pair][w] & live[w];
            std::iter::from_fn(move || {
                (options != 0).then(|| {
                    let i = w * 64 + options.trailing_zeros() as usize;
                    options &= options - 1;
                    i
                })
            })
        })
    }

    /// `covered` and `live` after taking cycle `i`.
    fn take(&self, i: usize, covered: [u64; 3], live: [u64; 6]) -> ([u64; 3], [u64; 6]) {
        let (mut covered, mut live) = (covered, live);
        covered
            .iter_mut()
            .zip(&self.cycles[i])
            .for_each(|(c, m)| *c |= m);
        live.iter_mut()
            .zip(&self.clashes[i])
            .for_each(|(l, c)| *l &= !c);
        (covered, live)
    }

    /// The first levels of the search while some of `keeping` (the renamings that keep
    /// every choice so far, a group) still move a live cycle: the pair expanded is the
    /// one whose covering cycles fall into fewest orbits of the renamings that keep
    /// it, one cycle of each orbit taken, weighted by the orbit's size; a pair with
    /// one cycle left has it in every square counted here, so taking it keeps every
    /// renaming. `(covered, live, weight)` states into `out` (a few thousand at most),
    /// whole squares into `found`.
    fn expand_by_orbits(
        &mut self,
        covered: [u64; 3],
        live: [u64; 6],
        keeping: &[&Renaming],
        weight: u64,
        out: &mut Vec<([u64; 3], [u64; 6], u64)>,
    ) {
        let (mut covered, mut live) = (covered, live);
        loop {
            match self.tightest(covered, live) {
                None => {
                    self.found += weight;
                    return;
                }
                Some((0, _)) => return,
                Some((1, pair)) => {
                    let i = self.covering(pair, live).next().expect("one cycle left");
                    (covered, live) = self.take(i, covered, live);
                }
                Some(_) => break,
            }
        }
        let is_live = |i: usize| live[i / 64] >> (i % 64) & 1 == 1;
        let moves =
            |map: &&Renaming| (0..self.cycles.len()).any(|i| is_live(i) && map.cycles[i] != i);
        if out.len() >= ORBIT_STATES || !keeping.iter().any(moves) {
            out.push((covered, live, weight));
            return;
        }
        // The pair whose cycles fall into fewest orbits under the renamings keeping it.
        let orbits = |pair: usize| {
            let on_pair: Vec<&Renaming> = keeping
                .iter()
                .copied()
                .filter(|map| map.pairs[pair] == pair)
                .collect();
            let mut orbits: Vec<(usize, u64)> = Vec::new();
            let mut seen: Vec<usize> = Vec::new();
            for i in self.covering(pair, live) {
                if seen.contains(&i) {
                    continue;
                }
                let before = seen.len();
                seen.push(i);
                for map in &on_pair {
                    if !seen[before..].contains(&map.cycles[i]) {
                        seen.push(map.cycles[i]);
                    }
                }
                orbits.push((i, (seen.len() - before) as u64));
            }
            (orbits, on_pair)
        };
        let best = (0..self.pairs)
            .filter(|&p| covered[p / 64] >> (p % 64) & 1 == 0)
            .map(|pair| (orbits(pair), self.options(pair, live)))
            .min_by_key(|((orbits, _), options)| (orbits.len(), *options));
        let Some(((orbits, on_pair), _)) = best else {
            return;
        };
        for (i, size) in orbits {
            let fixing: Vec<&Renaming> = on_pair
                .iter()
                .copied()
                .filter(|map| map.cycles[i] == i)
                .collect();
            let (covered, live) = self.take(i, covered, live);
            self.expand_by_orbits(covered, live, &fixing, weight * size, out);
        }
    }

    /// Adds the exact covers that complete `covered` with `live` cycles; false when the
    /// deadline passed.
    fn search(&mut self, covered: [u64; 3], live: [u64; 6]) -> bool {
        self.nodes += 1;
        if self.nodes % (1 << 16) == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            return false;
        }
        let Some((options, pair)) = self.tightest(covered, live) else {
            self.found += 1;
            return true;
        };
        if options == 0 {
            return true;
        }
        for w in 0..6 {
            let mut options = self.meeting[pair][w] & live[w];
            while options != 0 {
                let i = w * 64 + options.trailing_zeros() as usize;
                options &= options - 1;
                let (covered, live) = self.take(i, covered, live);
                if !self.search(covered, live) {
                    return false;
                }
            }
        }
        true
    }
}

/// The conjugacy classes of the symmetries of an `n x n` grid whose rows move in bands
/// of `kr` and columns in stacks of `kc` (identity first), and the number of symmetries.
///
/// A symmetry is `(a, b)` (rows by `a`, columns by `b`), possibly after the transposition
/// `T`. Without `T` the classes are pairs of classes of the row and column groups. With
/// it (`kr = kc`, one group `L` for both), `T (a, b) T = (b, a)` merges the pair of
/// classes `(A, B)` with `(B, A)`; and `(a, b) T` is conjugate to `(ab, 1) T` (by
/// `(1, b')`), conjugation keeping the class of the product `ab`, so those classes are
/// `L`'s classes, each product standing for `|L|` pairs.
fn conjugacy_classes(
    n: usize,
    kr: usize,
    kc: usize,
    transposing: bool,
) -> (Vec<SymmetryClass>, u64) {
    let rows = Lines::new(n, kr);
    let cols = if kr == kc {
        None
    } else {
        Some(Lines::new(n, kc))
    };
    let cols = cols.as_ref().unwrap_or(&rows);
    let (row_classes, col_classes) = (rows.classes(), cols.classes());
    let cells = |t: bool, a: &[u8], b: &[u8]| -> Vec<usize> {
        (0..n * n)
            .map(|cell| moved_cell(n, t, a, b, cell))
            .collect()
    };
    let mut classes = Vec::new();
    for (i, &(a, size_a)) in row_classes.iter().enumerate() {
        for (j, &(b, size_b)) in col_classes.iter().enumerate() {
            let size = match transposing {
                false => size_a * size_b,
                true if i < j => 2 * size_a * size_b,
                true if i == j => size_a * size_b,
                true => continue,
            };
            let (a, b) = (&rows.perms[a as usize], &cols.perms[b as usize]);
            classes.push(SymmetryClass {
                cells: cells(false, a, b),
                size,
                transposed: false,
            });
        }
    }
    if transposing {
        let identity = &rows.perms[0];
        for &(p, size) in &row_classes {
            classes.push(SymmetryClass {
                cells: cells(true, &rows.perms[p as usize], identity),
                size: size * rows.len() as u64,
                transposed: true,
            });
        }
    }
    let flips = if transposing { 2 } else { 1 };
    (classes, flips * (rows.len() * cols.len()) as u64)
}

/// Where the symmetry "transpose if `transposed`, then rows by `rows`, columns by
/// `columns`" of an `n x n` grid moves `cell`.
fn moved_cell(n: usize, transposed: bool, rows: &[u8], columns: &[u8], cell: usize) -> usize {
    let (y, x) = (cell / n, cell % n);
    let (y, x) = if transposed { (x, y) } else { (y, x) };
    rows[y] as usize * n + columns[x] as usize
}

/// Invariant grids of a class's member ([`invariant_grids`]); for Latin squares
/// reordering rows and columns, by cliques of rows ([`latin_squares_by_row_cycles`]).
fn invariant_grids_of(
    geometry: &Geometry,
    class: &SymmetryClass,
    deadline: Option<Instant>,
) -> Option<u64> {
    let n = geometry.size();
    let none = |_: &[usize]| Vec::new();
    if geometry.variant().is_latin_square() && !class.transposed {
        let (rows, columns) = line_maps(n, &class.cells);
        let keeps = |p: &[usize]| p.iter().enumerate().any(|(i, &j)| i == j);
        // Transposing the squares trades the roles of rows and columns.
        if keeps(&rows) {
            return latin_squares_by_row_cycles(&rows, &columns, deadline);
        }
        if keeps(&columns) {
            return latin_squares_by_row_cycles(&columns, &rows, deadline);
        }
        // With no line in place, the row cycles try every relabelling that the cycle
        // through the first row allows (hundreds): the cells' cycles first, for a
        // moment, as they are quick for most such symmetries.
        match invariant_grids_on_trial(
            geometry,
            &class.cells,
            deadline,
            Some(TRIAL_NODES),
            SEQUENTIAL_NODES,
            &none,
        ) {
            Ok(count) => return Some(count),
            Err(Halt::Deadline) => return None,
            Err(Halt::Budget) => return latin_squares_by_row_cycles(&rows, &columns, deadline),
        }
    }
    if geometry.variant().is_latin_square() && class.transposed {
        let commuting = commuting_renamings(n, &class.cells);
        let commuting = |_: &[usize]| commuting.clone();
        return invariant_grids_on_trial(
            geometry,
            &class.cells,
            deadline,
            None,
            SEQUENTIAL_NODES,
            &commuting,
        )
        .ok();
    }
    invariant_grids(geometry, &class.cells, deadline)
}

/// The renamings of a Latin square's rows and columns by one permutation (`(y, x)` to
/// `(a(y), a(x))`, as cell maps) that commute with the cell map `g` and keep row 0 in
/// place. Renaming the symbols by `a` as well maps a square that `g` turns into its
/// relabelling by `s` to one that `g` turns into its relabelling by `a s a^-1`, with
/// row 0 still reading `1..n`: relabellings conjugate under them have equally many
/// invariant squares.
fn commuting_renamings(n: usize, g: &[usize]) -> Vec<Vec<usize>> {
    all_permutations(n)
        .into_iter()
        .filter(|a| a[0] == 0)
        .map(|a| (0..n * n).map(|c| a[c / n] * n + a[c % n]).collect())
        .filter(|tau: &Vec<usize>| (0..n * n).all(|c| tau[g[c]] == g[tau[c]]))
        .collect()
}

/// Grids that the cell map `g` (`g[c]` is where cell `c` goes) turns into a relabelling
/// of themselves, counting only those whose normalising house reads `1..n`.
fn invariant_grids(geometry: &Geometry, g: &[usize], deadline: Option<Instant>) -> Option<u64> {
    let commuting = |house: &[usize]| shape_centralizer(geometry, g, house);
    invariant_grids_on_trial(geometry, g, deadline, None, SEQUENTIAL_NODES, &commuting).ok()
}

/// The symmetries of a standard geometry's grids (reorderings of bands, rows in a band,
/// stacks, columns in a stack, and transposing when the boxes are square), as cell
/// maps, that commute with the cell map `g` and keep `house` in place: the
/// `commuting` of [`invariant_grids_on_trial`]. Only a few thousand of the millions
/// of symmetries commute with `g`, and most fail on the first cells tried.
fn shape_centralizer(geometry: &Geometry, g: &[usize], house: &[usize]) -> Vec<Vec<usize>> {
    let n = geometry.size();
    let Some(shape) = geometry.shape().filter(|_| geometry.is_standard()) else {
        return Vec::new();
    };
    let (kr, kc) = (shape.box_rows(), shape.box_cols());
    let rows = line_permutations(n, kr);
    let cols = line_permutations(n, kc);
    let flips: &[bool] = if kr == kc { &[false, true] } else { &[false] };
    let in_house = {
        let mut in_house = vec![false; n * n];
        house.iter().for_each(|&c| in_house[c] = true);
        in_house
    };
    let mut out = Vec::new();
    for &t in flips {
        for a in &rows {
            for b in &cols {
                let tau = |cell: usize| moved_cell(n, t, a, b, cell);
                if (0..n * n).all(|c| tau(g[c]) == g[tau(c)])
                    && house.iter().all(|&c| in_house[tau(c)])
                {
                    out.push((0..n * n).map(tau).collect());
                }
            }
        }
    }
    out
}

/// [`invariant_grids`], giving up (`Halt::Budget`) after `trial` search nodes if given,
/// else taken by orbits on the cores after `sequential` nodes (normally
/// [`SEQUENTIAL_NODES`]; tests take every count that way with 0).
/// `commuting(house)`: symmetries (cell maps) that commute with `g` and keep the
/// normalising `house` in place, a group or empty, asked for only when they pay:
/// relabellings conjugate under them count alike, and so do the choices of a large
/// count that they map to each other ([`Problem::count`]).
fn invariant_grids_on_trial(
    geometry: &Geometry,
    g: &[usize],
    deadline: Option<Instant>,
    mut trial: Option<u64>,
    sequential: u64,
    commuting: &dyn Fn(&[usize]) -> Vec<Vec<usize>>,
) -> Result<u64, Halt> {
    let mut place = vec![(usize::MAX, 0); g.len()];
    let mut cycles: Vec<Vec<usize>> = Vec::new();
    for start in 0..g.len() {
        if place[start].0 != usize::MAX {
            continue;
        }
        let mut cycle = Vec::new();
        let mut cell = start;
        loop {
            place[cell] = (cycles.len(), cycle.len());
            cycle.push(cell);
            cell = g[cell];
            if cell == start {
                break;
            }
        }
        cycles.push(cycle);
    }
    let order = cycles.iter().fold(1, |m, c| lcm(m, c.len()));
    let fixed = geometry
        .houses()
        .iter()
        .find(|h| h.cells().all(|c| h.contains(g[c])));
    let house: Vec<usize> = fixed.unwrap_or(&geometry.houses()[0]).cells().collect();
    let mut given = vec![u8::MAX; g.len()];
    for (i, &c) in house.iter().enumerate() {
        given[c] = i as u8;
    }
    let problem = Problem {
        geometry,
        cycles: &cycles,
        place: &place,
        given: &given,
        house: &house,
        order,
        sequential,
        commuting,
        symmetries: OnceCell::new(),
    };
    if fixed.is_some() {
        // The relabelling takes the digit at h (its place in the house) to the one at g(h).
        let relabel: Vec<u8> = house.iter().map(|&h| given[g[h]]).collect();
        return problem.count(&relabel, deadline, &mut trial);
    }
    // No house maps onto itself: the relabelling is the filling of g(H), tried in every
    // way that agrees with H and with the cycles through H's cells.
    let mut total = 0;
    let relabellings = relabellings(geometry, g, &house, &given);
    let commuting = problem.symmetries();
    for (relabel, times) in conjugacy_classes_of(relabellings, commuting, &house, &given) {
        total += times * problem.count(&relabel, deadline, &mut trial)?;
    }
    Ok(total)
}

/// The relabellings in classes under conjugation by the symbol maps of `commuting`
/// (cell maps keeping `house`, whose cell `i` holds `given` `i`): one of each class
/// (the least) with its size, in order. Without symmetries, each on its own.
fn conjugacy_classes_of(
    relabellings: Vec<Vec<u8>>,
    commuting: &[Vec<usize>],
    house: &[usize],
    given: &[u8],
) -> Vec<(Vec<u8>, u64)> {
    // A symmetry moves the house's cell i to the cell holding digit delta(i).
    let deltas: Vec<Vec<u8>> = commuting
        .iter()
        .map(|tau| house.iter().map(|&h| given[tau[h]]).collect())
        .collect();
    let mut classes: BTreeMap<Vec<u8>, u64> = BTreeMap::new();
    for s in relabellings {
        let least = deltas
            .iter()
            .map(|delta| conjugate(delta, &s))
            .min()
            .unwrap_or(s);
        *classes.entry(least).or_default() += 1;
    }
    classes.into_iter().collect()
}

/// The rows and columns a symmetry of a Latin square moves them to, when it does not
/// transpose: `cells[c]` is where cell `c` goes.
fn line_maps(n: usize, cells: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let rows = (0..n).map(|y| cells[y * n] / n).collect();
    let columns = (0..n).map(|x| cells[x] % n).collect();
    (rows, columns)
}

/// Latin squares (order up to 8) that the row permutation `rho` with the column
/// permutation `sigma` turns into a relabelling of themselves, counting those whose
/// row `r0` (the first of a shortest cycle of `rho`) reads `1..n`; `None` when the
/// deadline passed first.
///
/// With `pi_r` row `r` as a map from columns to symbols and `gamma` the relabelling,
/// invariance is `pi_rho(r) = gamma pi_r sigma^-1`: a cycle of `rho` of length `k` is
/// its first row `pi`, with `gamma^k pi sigma^-k = pi`, followed by the rows
/// `gamma^j pi sigma^-j`. Row `r0` being the identity, `r0`'s cycle (length `k0`) makes
/// `gamma^k0 = sigma^k0`, which leaves a few relabellings (just `sigma` when `rho` keeps
/// a row in place). For each, the other cycles take one first row each, the rows of
/// all the choices agreeing in no column: cliques, counted choices of the smaller
/// kinds first, each choice filtering the lists of the others. Order 8's
/// fixed-point-free column involutions with the rows in place (2.2 x 10^9 squares,
/// `7!` orderings of 428,000 cliques of seven rows among the 384 permutations
/// commuting with the involution) take moments, where filling the square's cycles of
/// cells one symbol at a time took 84 s. Conjugating every row by a permutation that
/// commutes with `sigma` (and `gamma`) maps invariant squares to invariant squares,
/// so only one relabelling, and one first choice, of each class under it is counted.
fn latin_squares_by_row_cycles(
    rho: &[usize],
    sigma: &[usize],
    deadline: Option<Instant>,
) -> Option<u64> {
    let n = rho.len();
    assert!((1..=8).contains(&n), "a row is a u64 of symbol bytes");
    // The lengths of rho's cycles; a shortest one holds r0.
    let mut seen = vec![false; n];
    let mut cycles = Vec::new();
    for start in 0..n {
        let mut k = 0;
        let mut r = start;
        while !seen[r] {
            seen[r] = true;
            r = rho[r];
            k += 1;
        }
        if k > 0 {
            cycles.push(k);
        }
    }
    cycles.sort_unstable();
    let k0 = cycles.remove(0);
    let rows = RowAlgebra::new(n);
    let permutations = all_permutations(n);
    let sigma_k0 = power(sigma, k0);
    // The relabellings r0's cycle allows: gamma^k0 = sigma^k0, its rows apart.
    let allowed: Vec<Vec<usize>> = if k0 == 1 {
        vec![sigma.to_vec()]
    } else {
        permutations
            .iter()
            .filter(|gamma| power(gamma, k0) == sigma_k0)
            .filter(|gamma| rows.all_apart(&rows.orbit(&rows.identity(), gamma, sigma, k0)))
            .cloned()
            .collect()
    };
    // Conjugating every row by a permutation `tau` that commutes with `sigma` keeps
    // row r0 the identity and the square invariant, with `tau gamma tau^-1` for
    // `gamma`: relabellings conjugate so have equally many squares, and one of each
    // class is counted, times the class's size (order 8's fixed-point-free involutions
    // of rows and columns: 16 s -> 0.7 s).
    let centraliser: Vec<&Vec<usize>> = permutations
        .iter()
        .filter(|t| (0..n).all(|c| t[sigma[c]] == sigma[t[c]]))
        .collect();
    let mut relabellings: Vec<(Vec<usize>, u64)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for gamma in &allowed {
        if seen.contains(gamma) {
            continue;
        }
        let mut size = 0;
        for tau in &centraliser {
            if seen.insert(conjugate(tau, gamma)) {
                size += 1;
            }
        }
        relabellings.push((gamma.clone(), size));
    }
    // One relabelling: its first choices shared among the cores; several: the
    // relabellings are.
    let split = relabellings.len() == 1;
    let count = |gamma: &[usize]| -> Option<u128> {
        let first = rows.orbit(&rows.identity(), gamma, sigma, k0);
        let first: Vec<u64> = first.iter().map(|r| rows.pack(r)).collect();
        // The kinds of choice: one per cycle length, with their cycles and orbits.
        let mut kinds: Vec<(usize, usize, Vec<Vec<u64>>)> = Vec::new();
        for &k in &cycles {
            if let Some(kind) = kinds.iter_mut().find(|kind| kind.0 == k) {
                kind.1 += 1;
                continue;
            }
            let (gamma_k, sigma_k) = (power(gamma, k), power(sigma, k));
            let orbits = permutations
                .iter()
                .filter(|pi| (0..n).all(|c| pi[sigma_k[c]] == gamma_k[pi[c]]))
                .filter_map(|pi| {
                    let orbit: Vec<u64> = rows
                        .orbit(pi, gamma, sigma, k)
                        .iter()
                        .map(|r| rows.pack(r))
                        .collect();
                    let apart = (0..k).all(|i| {
                        (i + 1..k).all(|j| rows.apart(orbit[i], orbit[j]))
                            && first.iter().all(|&f| rows.apart(orbit[i], f))
                    });
                    apart.then_some(orbit)
                })
                .collect();
            kinds.push((k, 1, orbits));
        }
        if kinds.is_empty() {
            return Some(1);
        }
        kinds.sort_by_key(|kind| kind.2.len());
        let orbits: Vec<&Vec<Vec<u64>>> = kinds.iter().map(|kind| &kind.2).collect();
        let slots: Vec<usize> = kinds
            .iter()
            .enumerate()
            .flat_map(|(i, kind)| std::iter::repeat_n(i, kind.1))
            .collect();
        let lists: Vec<Vec<u32>> = orbits
            .iter()
            .map(|o| (0..o.len() as u32).collect())
            .collect();
        let last = (0..kinds.len())
            .map(|kind| slots.iter().rposition(|&s| s == kind).expect("a slot"))
            .collect();
        let search = Cliques {
            rows: &rows,
            orbits: &orbits,
            slots: &slots,
            last,
            deadline,
        };
        let found = if split {
            // Conjugating by the permutations commuting with sigma and gamma keeps
            // everything else: the first choices fall into classes with equally many
            // completions. Taken in any order, the first kind's m slots count each set
            // m times.
            let kind = slots[0];
            let m = kinds[kind].1 as u128;
            let index: HashMap<u64, usize> = orbits[kind]
                .iter()
                .enumerate()
                .map(|(i, orbit)| (orbit[0], i))
                .collect();
            let stabiliser: Vec<&&Vec<usize>> = centraliser
                .iter()
                .filter(|t| (0..n).all(|c| t[gamma[c]] == gamma[t[c]]))
                .collect();
            let mut seen = vec![false; orbits[kind].len()];
            let mut choices = Vec::new();
            for (i, orbit) in orbits[kind].iter().enumerate() {
                if seen[i] {
                    continue;
                }
                let pi = rows.unpack(orbit[0]);
                let mut size = 0u128;
                for tau in &stabiliser {
                    let j = index[&rows.pack(&conjugate(tau, &pi))];
                    if !seen[j] {
                        seen[j] = true;
                        size += 1;
                    }
                }
                choices.push((i, size));
            }
            let sets = super::sum_on_cores(&choices, |&(i, size)| {
                search.choose(0, &lists, i, false).map(|c| c as u128 * size)
            })?;
            debug_assert_eq!(sets % m, 0, "each set counted once per member");
            sets / m
        } else {
            search.count(0, &lists)? as u128
        };
        let orderings: u64 = kinds
            .iter()
            .map(|kind| (1..=kind.1 as u64).product::<u64>())
            .product();
        Some(found * orderings as u128)
    };
    let total = if split {
        count(&relabellings[0].0)? * relabellings[0].1 as u128
    } else {
        super::sum_on_cores(&relabellings, |(gamma, size)| {
            count(gamma).map(|c| c * *size as u128)
        })?
    };
    Some(u64::try_from(total).expect("invariant squares of order 8 fit"))
}

/// Rows of a Latin square of order up to 8 as maps from columns to symbols, and as
/// `u64`s of symbol bytes for the test that two rows agree in no column.
struct RowAlgebra {
    n: usize,
    /// Set in the bytes past `n`, so that those never match.
    padding: u64,
}

impl RowAlgebra {
    fn new(n: usize) -> RowAlgebra {
        RowAlgebra {
            n,
            padding: (n..8).fold(0u64, |w, c| w | 1 << (8 * c)),
        }
    }

    /// The identity row.
    fn identity(&self) -> Vec<usize> {
        (0..self.n).collect()
    }

    /// `a` after `b`.
    fn compose(&self, a: &[usize], b: &[usize]) -> Vec<usize> {
        b.iter().map(|&x| a[x]).collect()
    }

    /// The rows `gamma^j pi sigma^-j` for `j < k`.
    fn orbit(&self, pi: &[usize], gamma: &[usize], sigma: &[usize], k: usize) -> Vec<Vec<usize>> {
        let mut inverse = vec![0; self.n];
        for (c, &x) in sigma.iter().enumerate() {
            inverse[x] = c;
        }
        let mut rows = vec![pi.to_vec()];
        for _ in 1..k {
            let last = rows.last().expect("a row");
            rows.push(self.compose(gamma, &self.compose(last, &inverse)));
        }
        rows
    }

    /// The row a packed row is.
    fn unpack(&self, row: u64) -> Vec<usize> {
        (0..self.n)
            .map(|c| (row >> (8 * c)) as u8 as usize)
            .collect()
    }

    /// A row as symbol bytes, column 0 lowest.
    fn pack(&self, row: &[usize]) -> u64 {
        row.iter().rev().fold(0u64, |w, &v| w << 8 | v as u64)
    }

    /// Whether two packed rows agree in no column (no zero byte in their difference).
    #[inline]
    fn apart(&self, a: u64, b: u64) -> bool {
        let v = (a ^ b) | self.padding;
        v.wrapping_sub(0x0101_0101_0101_0101) & !v & 0x8080_8080_8080_8080 == 0
    }

    fn all_apart(&self, rows: &[Vec<usize>]) -> bool {
        let packed: Vec<u64> = rows.iter().map(|r| self.pack(r)).collect();
        (0..packed.len()).all(|i| (i + 1..packed.len()).all(|j| self.apart(packed[i], packed[j])))
    }
}

/// The clique search of [`latin_squares_by_row_cycles`]: one orbit of rows per slot,
/// `slots[i]` naming the kind of orbit it takes.
struct Cliques<'a> {
    rows: &'a RowAlgebra,
    orbits: &'a [&'a Vec<Vec<u64>>],
    slots: &'a [usize],
    /// Each kind's last slot: its list is no longer filtered after that.
    last: Vec<usize>,
    deadline: Option<Instant>,
}

impl Cliques<'_> {
    /// Choices for `slots[at..]` from `lists`; a kind's slots take increasing indices
    /// (the caller multiplies in their orderings).
    fn count(&self, at: usize, lists: &[Vec<u32>]) -> Option<u64> {
        let kind = self.slots[at];
        if at + 1 == self.slots.len() {
            return Some(lists[kind].len() as u64);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let mut total = 0;
        for i in 0..lists[kind].len() {
            total += self.choose(at, lists, i, true)?;
        }
        Some(total)
    }

    /// Choices for `slots[at..]` with `lists[slots[at]][i]` taken at `at`.
    /// (`increasing` false: the later slots of its kind may take earlier indices too.)
    fn choose(&self, at: usize, lists: &[Vec<u32>], i: usize, increasing: bool) -> Option<u64> {
        let kind = self.slots[at];
        if at + 1 == self.slots.len() {
            return Some(1);
        }
        let chosen = &self.orbits[kind][lists[kind][i] as usize];
        let next: Vec<Vec<u32>> = lists
            .iter()
            .enumerate()
            .map(|(other, list)| {
                if self.last[other] <= at {
                    return Vec::new();
                }
                let from = if other == kind && increasing {
                    i + 1
                } else {
                    0
                };
                list[from..]
                    .iter()
                    .copied()
                    .filter(|&u| {
                        let rows = &self.orbits[other][u as usize];
                        rows.iter()
                            .all(|&a| chosen.iter().all(|&b| self.rows.apart(a, b)))
                    })
                    .collect()
            })
            .collect();
        self.count(at + 1, &next)
    }
}

/// Relabellings `s` that could go with the symmetry `g` when `house` reads `1..n`: the
/// digits `s(i)` on `g(house)` agree with the house's, and the cycles through the house's
/// cells, which `s` fills completely, close and put no digit twice in a house.
fn relabellings(geometry: &Geometry, g: &[usize], house: &[usize], given: &[u8]) -> Vec<Vec<u8>> {
    let n = house.len();
    let mut out = Vec::new();
    let mut relabel = vec![0u8; n];
    let mut placed = vec![u8::MAX; g.len()];
    fn extend(
        i: usize,
        used: u32,
        relabel: &mut Vec<u8>,
        out: &mut Vec<Vec<u8>>,
        fits: &mut dyn FnMut(&[u8]) -> bool,
        allowed: &dyn Fn(usize, u8) -> bool,
    ) {
        if i == relabel.len() {
            if fits(relabel) {
                out.push(relabel.clone());
            }
            return;
        }
        for v in 0..relabel.len() as u8 {
            if used & 1 << v == 0 && allowed(i, v) {
                relabel[i] = v;
                extend(i + 1, used | 1 << v, relabel, out, fits, allowed);
            }
        }
    }
    let allowed = |i: usize, v: u8| {
        let x = g[house[i]];
        (given[x] == u8::MAX || given[x] == v)
            && geometry
                .peers(x)
                .iter()
                .all(|&y| given[y as usize] != v || y as usize == x)
    };
    let mut fits = |relabel: &[u8]| {
        placed.fill(u8::MAX);
        let mut cells = Vec::new();
        for (i, &h) in house.iter().enumerate() {
            let (mut cell, mut digit) = (h, i as u8);
            loop {
                placed[cell] = digit;
                cells.push(cell);
                cell = g[cell];
                digit = relabel[digit as usize];
                if cell == h {
                    break;
                }
            }
            if digit != i as u8 {
                return false;
            }
        }
        cells.iter().all(|&x| {
            geometry
                .peers(x)
                .iter()
                .all(|&y| placed[y as usize] != placed[x])
        })
    };
    extend(0, 0, &mut relabel, &mut out, &mut fits, &allowed);
    out
}

fn lcm(a: usize, b: usize) -> usize {
    let gcd = |mut a: usize, mut b: usize| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    a / gcd(a, b) * b
}

/// `tau p tau^-1` (permutations mapping `x` to `p[x]`): the symbol relabellings (`u8`)
/// and the rows' permutations (`usize`) alike.
fn conjugate<T: Copy + Into<usize>>(tau: &[T], p: &[T]) -> Vec<T> {
    let mut conjugate = p.to_vec();
    for (x, &y) in p.iter().enumerate() {
        conjugate[tau[x].into()] = tau[y.into()];
    }
    conjugate
}

/// The permutation `p` (mapping `x` to `p[x]`) applied `k` times: the symbol
/// relabellings (`u8`) and the rows' permutations (`usize`) alike.
fn power<T: Copy + Into<usize> + TryFrom<usize>>(p: &[T], k: usize) -> Vec<T> {
    (0..p.len())
        .map(|x| {
            let y = (0..k).fold(x, |y, _| p[y].into());
            T::try_from(y).unwrap_or_else(|_| unreachable!("a permutation's points fit its type"))
        })
        .collect()
}

/// The cycles of one symmetry, with the normalising house's digits.
struct Problem<'a> {
    geometry: &'a Geometry,
    cycles: &'a [Vec<usize>],
    /// Each cell's cycle and its place in it (`g^j` of the cycle's first cell).
    place: &'a [(usize, usize)],
    given: &'a [u8],
    /// The normalising house: its cell `i` holds digit `i`.
    house: &'a [usize],
    order: usize,
    /// Nodes a count may take before it is redone by orbits on the cores.
    sequential: u64,
    /// See [`invariant_grids_on_trial`].
    commuting: &'a dyn Fn(&[usize]) -> Vec<Vec<usize>>,
    /// What `commuting` gave for the house, asked for once (the relabellings' classes
    /// and each large count use it).
    symmetries: OnceCell<Vec<Vec<usize>>>,
}

impl Problem<'_> {
    /// The symmetries that commute with `g` and keep the house ([`invariant_grids_on_trial`]).
    fn symmetries(&self) -> &[Vec<usize>] {
        self.symmetries.get_or_init(|| (self.commuting)(self.house))
    }

    /// Invariant grids under one relabelling; on a `trial`, within its nodes left.
    fn count(
        &self,
        relabel: &[u8],
        deadline: Option<Instant>,
        trial: &mut Option<u64>,
    ) -> Result<u64, Halt> {
        let n = relabel.len();
        let k = self.cycles.len();
        assert!(
            k <= SLOTS,
            "a symmetry other than the identity has at most 80 cycles"
        );
        // Every digit lies on some cycle, whose length divides the order.
        if power(relabel, self.order)
            .iter()
            .enumerate()
            .any(|(i, &x)| x as usize != i)
        {
            return Ok(0);
        }
        // powers[j][v] = s^j(v) for j <= order; s^-j = s^(order - j).
        let powers: Vec<Vec<u8>> = (0..=self.order).map(|j| power(relabel, j)).collect();
        let back = |j: usize| &powers[(self.order - j % self.order) % self.order];
        let mut masks = [0u16; SLOTS];
        for (i, cycle) in self.cycles.iter().enumerate() {
            masks[i] = (0..n)
                .filter(|&v| {
                    powers[cycle.len()][v] as usize == v
                        && cycle.iter().enumerate().all(|(j, &cell)| {
                            let digit = powers[j][v];
                            (self.given[cell] == u8::MAX || self.given[cell] == digit)
                                && cycle[..j].iter().enumerate().all(|(i, &other)| {
                                    !self.geometry.are_peers(cell, other) || powers[i][v] != digit
                                })
                        })
                })
                .fold(0, |m, v| m | 1 << v);
        }
        let mut forbids = vec![[0u16; SLOTS]; k * n];
        for (x, &(a, i)) in self.place.iter().enumerate() {
            for &y in self.geometry.peers(x) {
                let (b, j) = self.place[y as usize];
                if a == b {
                    continue;
                }
                for v in 0..n {
                    let w = back(j)[powers[i][v] as usize];
                    forbids[a * n + v][b] |= 1 << w;
                }
            }
        }
        let all: u128 = (1 << k) - 1;
        let search = Search {
            forbids: &forbids,
            n,
            deadline,
        };
        // Most counts take a moment; the few large ones (hundreds of millions of grids)
        // are split among the cores.
        if let Some(left) = trial {
            return search.count(&masks, all, left);
        }
        let mut budget = self.sequential;
        match search.count(&masks, all, &mut budget) {
            Err(Halt::Budget) => {
                let symmetries = self.choice_maps(relabel, &powers);
                search
                    .count_in_parallel(masks, all, &symmetries)
                    .ok_or(Halt::Deadline)
            }
            done => done,
        }
    }

    /// The symmetries of `commuting` that keep the relabelling `s` (those whose map of
    /// the house's digits commutes with it), as maps of choices: renaming an invariant
    /// grid's cells by such a `tau` and its digits by the map `pi` of the house's
    /// digits (`tau` moves the house's cell `i` to its cell `pi(i)`) gives another
    /// invariant grid with the house reading `1..n`, so a choice of digit `v` for a
    /// cycle and its image (`pi(v)` at `tau` of the cycle's first cell, which is
    /// `s^-j(pi(v))` on the first cell of the cycle there, `j` steps before) leave
    /// equally many grids. None when only the identity keeps `s`.
    fn choice_maps(&self, relabel: &[u8], powers: &[Vec<u8>]) -> Vec<ChoiceMap> {
        let n = relabel.len();
        let mut maps: FxHashSet<ChoiceMap> = FxHashSet::default();
        for tau in self.symmetries() {
            let pi: Vec<u8> = self.house.iter().map(|&h| self.given[tau[h]]).collect();
            if pi.contains(&u8::MAX)
                || (0..n).any(|v| pi[relabel[v] as usize] != relabel[pi[v] as usize])
            {
                continue;
            }
            let mut map = ChoiceMap {
                cycle: Vec::with_capacity(self.cycles.len()),
                digit: Vec::with_capacity(self.cycles.len() * n),
            };
            for cycle in self.cycles {
                let (to, j) = self.place[tau[cycle[0]]];
                map.cycle.push(to);
                let back = &powers[(self.order - j % self.order) % self.order];
                map.digit.extend(pi.iter().map(|&v| back[v as usize]));
            }
            maps.insert(map);
        }
        if maps.len() <= 1 {
            Vec::new()
        } else {
            maps.into_iter().collect()
        }
    }
}

/// A symmetry's action on the search's choices: cycle `c` taking digit `v` goes to
/// cycle `cycle[c]` taking `digit[c * n + v]`.
#[derive(PartialEq, Eq, Hash)]
struct ChoiceMap {
    cycle: Vec<usize>,
    digit: Vec<u8>,
}

/// Nodes the cells' cycles may take on a Latin symmetry that keeps no line in place
/// before the rows' cycles take over (about half a second).
const TRIAL_NODES: u64 = 1 << 24;

/// States the expansions by orbits may hand to the cores (`Search::expand_by_orbits`,
/// `Cover::expand_by_orbits`): past that, the rest of a branch is searched whole.
const ORBIT_STATES: usize = 1 << 12;

/// Nodes a count may take before it is redone split among the cores.
const SEQUENTIAL_NODES: u64 = 1 << 17;

/// Why a count stopped early.
enum Halt {
    Deadline,
    Budget,
}

/// Digits per 9-bit mask.
static OPTIONS: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        table[m] = (m as u32).count_ones() as u8;
        m += 1;
    }
    table
};

/// The counting search: one digit per cycle, chosen where fewest are left.
struct Search<'a> {
    /// `forbids[c * n + v][d]`: the digits cycle `d` loses when cycle `c` takes `v`.
    forbids: &'a [[u16; SLOTS]],
    n: usize,
    deadline: Option<Instant>,
}

impl Search<'_> {
    /// The open cycle with fewest digits left and their number (0: a dead end).
    fn choose(masks: &[u16; SLOTS], open: u128) -> (usize, u32) {
        let (mut best, mut fewest) = (0, u32::MAX);
        let mut rest = open;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let options = OPTIONS[masks[i] as usize] as u32;
            if options < fewest {
                (best, fewest) = (i, options);
                if options <= 1 {
                    break;
                }
            }
        }
        (best, fewest)
    }

    fn after(&self, masks: &[u16; SLOTS], cycle: usize, digit: usize) -> [u16; SLOTS] {
        let forbid = &self.forbids[cycle * self.n + digit];
        let mut next = [0u16; SLOTS];
        for s in 0..SLOTS {
            next[s] = masks[s] & !forbid[s];
        }
        next
    }

    fn count(&self, masks: &[u16; SLOTS], open: u128, budget: &mut u64) -> Result<u64, Halt> {
        *budget = budget.checked_sub(1).ok_or(Halt::Budget)?;
        if *budget % (1 << 20) == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Halt::Deadline);
        }
        let (best, fewest) = Self::choose(masks, open);
        if fewest == 0 {
            return Ok(0);
        }
        let open = open & !(1 << best);
        if open == 0 {
            return Ok(fewest as u64);
        }
        let mut total = 0;
        let mut digits = masks[best];
        if open & (open - 1) == 0 {
            // One cycle after this one: count its digits left by each choice here.
            let last = open.trailing_zeros() as usize;
            while digits != 0 {
                let v = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                let left = masks[last] & !self.forbids[best * self.n + v][last];
                total += OPTIONS[left as usize] as u64;
            }
            return Ok(total);
        }
        let rest = open & (open - 1);
        if rest & (rest - 1) == 0 {
            // Two cycles after this one: count the pairs of digits they can still take,
            // without building the states in between.
            let (a, b) = (
                open.trailing_zeros() as usize,
                rest.trailing_zeros() as usize,
            );
            while digits != 0 {
                let v = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                let forbid = &self.forbids[best * self.n + v];
                let mut first = masks[a] & !forbid[a];
                let second = masks[b] & !forbid[b];
                while first != 0 {
                    let w = first.trailing_zeros() as usize;
                    first &= first - 1;
                    let left = second & !self.forbids[a * self.n + w][b];
                    total += OPTIONS[left as usize] as u64;
                }
            }
            return Ok(total);
        }
        while digits != 0 {
            let v = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            total += self.count(&self.after(masks, best, v), open, budget)?;
        }
        Ok(total)
    }

    /// The same count, its first levels expanded into subproblems shared by the cores.
    /// `symmetries` (maps of choices, a group, or none): while some besides the
    /// identity keep every choice made so far, the choices for the next cycle that they
    /// map to each other leave equally many grids, so one of each orbit is expanded,
    /// weighted by the orbit's size.
    fn count_in_parallel(
        &self,
        masks: [u16; SLOTS],
        open: u128,
        symmetries: &[ChoiceMap],
    ) -> Option<u64> {
        let mut done = 0u64;
        let mut states = Vec::new();
        let keeping: Vec<&ChoiceMap> = symmetries.iter().collect();
        self.expand_by_orbits(masks, open, &keeping, 1, &mut done, &mut states);
        while !states.is_empty() && states.len() < 512 {
            let mut deeper = Vec::new();
            for &(masks, open, weight) in &states {
                let (best, fewest) = Self::choose(&masks, open);
                let open = open & !(1 << best);
                if fewest == 0 {
                    continue;
                }
                if open == 0 {
                    done += weight * fewest as u64;
                    continue;
                }
                let mut digits = masks[best];
                while digits != 0 {
                    let v = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    deeper.push((self.after(&masks, best, v), open, weight));
                }
            }
            states = deeper;
        }
        let rest = super::sum_on_cores(&states, |(masks, open, weight)| {
            let mut unbounded = u64::MAX;
            self.count(masks, *open, &mut unbounded)
                .ok()
                .map(|count| u128::from(count * weight))
        })?;
        Some(done + rest as u64)
    }

    /// The first levels of [`Search::count_in_parallel`] while some of `keeping` (the
    /// symmetries that keep every choice so far, a group) still move a cycle left open
    /// or a digit it may take: `(masks, open, weight)` states into `out` (a few
    /// thousand at most), whole counts into `done`. The cycle expanded is the one whose
    /// digits fall into fewest orbits, rather than the one with fewest digits.
    fn expand_by_orbits(
        &self,
        mut masks: [u16; SLOTS],
        mut open: u128,
        keeping: &[&ChoiceMap],
        weight: u64,
        done: &mut u64,
        out: &mut Vec<([u16; SLOTS], u128, u64)>,
    ) {
        // A cycle with one digit left has it in every grid counted here, so taking it
        // keeps every symmetry (the house's cells come first this way): only real
        // choices narrow `keeping` to the symmetries that keep them.
        loop {
            let (best, fewest) = Self::choose(&masks, open);
            match fewest {
                0 => return,
                1 if open & (open - 1) == 0 => {
                    *done += weight;
                    return;
                }
                1 => {
                    masks = self.after(&masks, best, masks[best].trailing_zeros() as usize);
                    open &= !(1 << best);
                }
                _ => break,
            }
        }
        // A map that moves no open cycle and none of their digits left acts here as the
        // identity does.
        let moves = |map: &&ChoiceMap| {
            let mut rest = open;
            while rest != 0 {
                let c = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if map.cycle[c] != c {
                    return true;
                }
                let mut digits = masks[c];
                while digits != 0 {
                    let v = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    if map.digit[c * self.n + v] as usize != v {
                        return true;
                    }
                }
            }
            false
        };
        if out.len() >= ORBIT_STATES || !keeping.iter().any(moves) {
            out.push((masks, open, weight));
            return;
        }
        // The cycle with fewest orbits of digits under the symmetries that keep it.
        let orbits = |c: usize| {
            let on_cycle: Vec<&ChoiceMap> = keeping
                .iter()
                .copied()
                .filter(|map| map.cycle[c] == c)
                .collect();
            let (mut digits, mut orbits) = (masks[c], 0);
            while digits != 0 {
                let v = digits.trailing_zeros() as usize;
                digits &= !on_cycle.iter().fold(1u16 << v, |orbit, map| {
                    orbit | 1 << map.digit[c * self.n + v]
                });
                orbits += 1;
            }
            (orbits, on_cycle)
        };
        let mut best = None;
        let mut rest = open;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if masks[c] == 0 {
                return;
            }
            let (count, on_cycle) = orbits(c);
            let key = (count, masks[c].count_ones());
            if best.as_ref().is_none_or(|(k, _, _)| key < *k) {
                best = Some((key, c, on_cycle));
            }
        }
        let Some(((_, fewest), best, on_cycle)) = best else {
            return;
        };
        let open = open & !(1 << best);
        if open == 0 {
            *done += weight * fewest as u64;
            return;
        }
        let mut digits = masks[best];
        while digits != 0 {
            let v = digits.trailing_zeros() as usize;
            let orbit = on_cycle.iter().fold(1u16 << v, |orbit, map| {
                orbit | 1 << map.digit[best * self.n + v]
            });
            digits &= !orbit;
            let fixing: Vec<&ChoiceMap> = on_cycle
                .iter()
                .copied()
                .filter(|map| map.digit[best * self.n + v] as usize == v)
                .collect();
            let size = orbit.count_ones() as u64;
            let next = self.after(&masks, best, v);
            self.expand_by_orbits(next, open, &fixing, weight * size, done, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;

    fn shape(r: usize, c: usize) -> Arc<Geometry> {
        Geometry::standard(Shape::new(r, c).unwrap())
    }

    /// Russell and Jarvis's table (2005) of the 9x9 conjugacy classes with invariant
    /// grids, as reproduced on the enjoysudoku forum ("unique sudokus Russell Jarvis"):
    /// (class size, invariant grids whose first box is fixed).
    const RUSSELL_JARVIS: [(u64, u128); 27] = [
        (1, 18_383_222_420_692_992),
        (96, 21_233_664),
        (16, 107_495_424),
        (192, 4_204_224),
        (64, 2_508_084),
        (5184, 323_928),
        (20736, 162),
        (20736, 288),
        (144, 14_837_760),
        (1728, 2_592),
        (288, 5_184),
        (864, 2_085_120),
        (3456, 1_296),
        (1728, 294_912),
        (2304, 648),
        (1152, 6_342_480),
        (1296, 30_258_432),
        (10368, 1_854),
        (93312, 288),
        (2916, 155_492_352),
        (69984, 13_056),
        (972, 449_445_888),
        (3888, 27_648),
        (31104, 6_480),
        (15552, 1_728),
        (15552, 3_456),
        (7776, 13_824),
    ];

    fn sorted(mut pairs: Vec<(u64, u128)>) -> Vec<(u64, u128)> {
        pairs.sort_unstable();
        pairs
    }

    #[test]
    fn shidoku_has_two_essentially_different_grids_or_three_without_transposing() {
        // kjellfp's table on the enjoysudoku forum: 2x2 "T" 2, "N" 3.
        let shape = shape(2, 2);
        let with = count_essentially_different(&shape, true, None).unwrap();
        assert_eq!((with.classes, with.grids, with.symmetries), (2, 288, 128));
        let without = count_essentially_different(&shape, false, None).unwrap();
        assert_eq!((without.classes, without.symmetries), (3, 64));
    }

    #[test]
    fn six_by_six_has_49_essentially_different_grids_in_both_orientations() {
        // kjellfp's table: 3x2, 49 (no transposition: the boxes are not square).
        for (r, c) in [(2, 3), (3, 2)] {
            let classes = count_essentially_different(&shape(r, c), true, None).unwrap();
            assert_eq!((classes.classes, classes.symmetries), (49, 3456));
            assert!(!classes.transposing);
        }
    }

    #[test]
    fn other_shapes_are_refused() {
        for geometry in [
            shape(2, 5),
            shape(4, 4),
            Arc::new(Geometry::latin(9).unwrap()),
        ] {
            assert_eq!(
                count_essentially_different(&geometry, true, None),
                Err(ClassesError::Unsupported(geometry.name().to_string()))
            );
        }
    }

    #[test]
    fn the_symmetries_are_the_transformation_group_without_relabelling() {
        // Class counts from the groups' structure: the lines of a shape move by a wreath
        // product, S2 wr S2 (the dihedral group of order 8) with 5 classes, S2 wr S3 and
        // S2 wr S4 (hyperoctahedral, 10 and 20: pairs of partitions), S3 wr S2 with 9 and
        // S4 wr S2 with 20 (unordered pairs of classes of S3 or S4, and one class per class
        // for the swapping half); transposing pairs the row and column classes up and adds
        // the classes of the transposed symmetries, one per class of the line group: 5*6/2
        // + 5 = 20 for 4x4 and 22*23/2 + 22 = 275 for 9x9 (Russell and Jarvis's count).
        for (r, c, count) in [
            (2, 2, 20),
            (2, 3, 90),
            (3, 2, 90),
            (2, 4, 400),
            (4, 2, 400),
            (3, 3, 275),
        ] {
            let shape = Shape::new(r, c).unwrap();
            let n = shape.size();
            let (classes, symmetries) = conjugacy_classes(n, r, c, r == c);
            assert_eq!(classes.len(), count, "{shape}");
            let relabellings = (1..=n as u128).product::<u128>();
            assert_eq!(
                Some(symmetries as u128 * relabellings),
                crate::transform::group_order(shape)
            );
            assert_eq!(classes.iter().map(|c| c.size).sum::<u64>(), symmetries);
        }
    }

    #[test]
    fn latin_squares_up_to_isotopy() {
        // OEIS A040082, isotopy classes of Latin squares: 1, 1, 1, 2, 2, 22, 564.
        for (n, classes) in [(2, 1), (3, 1), (4, 2), (5, 2), (6, 22), (7, 564)] {
            let geometry = Arc::new(Geometry::latin(n).unwrap());
            let counted = count_essentially_different(&geometry, false, None).unwrap();
            assert_eq!(counted.classes, classes, "order {n}");
        }
    }

    #[test]
    fn latin_squares_up_to_paratopy() {
        // OEIS A003090, main classes of Latin squares: 1, 1, 1, 2, 2, 12, 147.
        for (n, classes) in [(2, 1), (3, 1), (4, 2), (5, 2), (6, 12), (7, 147)] {
            let geometry = Arc::new(Geometry::latin(n).unwrap());
            let counted = count_main_classes(&geometry, None).unwrap();
            assert_eq!(counted.classes, classes, "order {n}");
            assert!(counted.conjugates && counted.transposing);
            assert_eq!(
                counted
                    .invariants
                    .iter()
                    .map(|&(s, i)| s as u128 * i)
                    .sum::<u128>(),
                classes * counted.symmetries as u128
            );
        }
        assert_eq!(
            count_main_classes(&shape(2, 2), None),
            Err(ClassesError::NotLatin("2x2".to_string()))
        );
    }

    #[test]
    fn paratopy_agrees_with_orbits_counted_one_square_at_a_time() {
        for n in [3, 4, 5] {
            let geometry = Arc::new(Geometry::latin(n).unwrap());
            let counted = count_main_classes(&geometry, None).unwrap();
            let orbits = orbits(&geometry, (1, 1), true, true);
            assert_eq!(counted.classes, orbits as u128, "order {n}");
        }
    }

    #[test]
    fn cycle_types_cover_the_symmetric_group() {
        // p(n) classes (OEIS A000041) whose sizes add up to n!.
        for (n, partitions, factorial) in [(1, 1, 1), (4, 5, 24), (7, 15, 5040)] {
            let types = cycle_types(n);
            assert_eq!(types.len(), partitions);
            assert_eq!(types.iter().map(|t| t.1).sum::<u64>(), factorial);
            for (p, _) in &types {
                let mut sorted = p.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..n as u8).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn the_exact_cover_counts_every_latin_square_under_the_identity() {
        // A002860: 12 of order 3, 576 of order 4.
        for (n, squares) in [(3, 12), (4, 576)] {
            let identity: Vec<usize> = (0..n * n * n).collect();
            assert_eq!(invariant_latin_squares(n, &identity, None), Some(squares));
        }
    }

    /// Every grid of a small geometry, cell by cell.
    fn every_grid(geometry: &Geometry) -> Vec<Vec<u8>> {
        fn fill(geometry: &Geometry, grid: &mut Vec<u8>, cell: usize, out: &mut Vec<Vec<u8>>) {
            if cell == grid.len() {
                out.push(grid.clone());
                return;
            }
            for digit in 1..=geometry.size() as u8 {
                if geometry
                    .peers(cell)
                    .iter()
                    .all(|&p| grid[p as usize] != digit)
                {
                    grid[cell] = digit;
                    fill(geometry, grid, cell + 1, out);
                    grid[cell] = 0;
                }
            }
        }
        let mut out = Vec::new();
        fill(geometry, &mut vec![0; geometry.cell_count()], 0, &mut out);
        out
    }

    /// A map of grids (a symmetry or a relabelling).
    type GridMap = dyn Fn(&[u8]) -> Vec<u8>;

    /// Orbits of every grid under generators of the symmetries (swaps of neighbouring
    /// rows in a band, of neighbouring bands, the same for columns, transposing if asked,
    /// and for a Latin square's conjugates the swap of rows and symbols) and of
    /// relabelling (swaps of neighbouring digits), by union-find: no Burnside.
    fn orbits(
        geometry: &Geometry,
        (kr, kc): (usize, usize),
        transposing: bool,
        conjugates: bool,
    ) -> usize {
        let n = geometry.size();
        let grids = every_grid(geometry);
        let index: HashMap<&[u8], usize> = grids
            .iter()
            .enumerate()
            .map(|(i, g)| (g.as_slice(), i))
            .collect();
        let swaps = |k: usize| -> Vec<Vec<usize>> {
            let mut out = Vec::new();
            for line in 0..n - 1 {
                if (line + 1) % k != 0 {
                    let mut p: Vec<usize> = (0..n).collect();
                    p.swap(line, line + 1);
                    out.push(p);
                }
            }
            for band in 0..n / k - 1 {
                let mut p: Vec<usize> = (0..n).collect();
                for i in 0..k {
                    p.swap(band * k + i, (band + 1) * k + i);
                }
                out.push(p);
            }
            out
        };
        let mut maps: Vec<Box<GridMap>> = Vec::new();
        for p in swaps(kr) {
            maps.push(Box::new(move |g| {
                (0..n * n).map(|c| g[p[c / n] * n + c % n]).collect()
            }));
        }
        for p in swaps(kc) {
            maps.push(Box::new(move |g| {
                (0..n * n).map(|c| g[c / n * n + p[c % n]]).collect()
            }));
        }
        if transposing || conjugates {
            maps.push(Box::new(move |g| {
                (0..n * n).map(|c| g[c % n * n + c / n]).collect()
            }));
        }
        if conjugates {
            // (row, column, symbol) -> (symbol, column, row).
            maps.push(Box::new(move |g| {
                let mut h = vec![0; n * n];
                for (cell, &s) in g.iter().enumerate() {
                    h[(s as usize - 1) * n + cell % n] = (cell / n + 1) as u8;
                }
                h
            }));
        }
        for d in 1..n as u8 {
            maps.push(Box::new(move |g| {
                g.iter()
                    .map(|&x| {
                        if x == d {
                            d + 1
                        } else if x == d + 1 {
                            d
                        } else {
                            x
                        }
                    })
                    .collect()
            }));
        }
        let mut parent: Vec<usize> = (0..grids.len()).collect();
        for (i, grid) in grids.iter().enumerate() {
            for map in &maps {
                join(&mut parent, i, index[map(grid).as_slice()]);
            }
        }
        (0..grids.len())
            .filter(|&i| root(&mut parent, i) == i)
            .count()
    }

    #[test]
    fn burnside_agrees_with_orbits_counted_one_grid_at_a_time() {
        let latin = |n| Arc::new(Geometry::latin(n).unwrap());
        for (geometry, kr, kc) in [(shape(2, 2), 2, 2), (latin(4), 1, 1), (latin(5), 1, 1)] {
            for transposing in [true, false] {
                let counted = count_essentially_different(&geometry, transposing, None).unwrap();
                let orbits = orbits(&geometry, (kr, kc), transposing, false);
                assert_eq!(
                    counted.classes,
                    orbits as u128,
                    "{} {transposing}",
                    geometry.name()
                );
            }
        }
    }

    #[test]
    fn cliques_of_rows_count_what_the_cycles_of_cells_do() {
        // Two methods for the Latin symmetries reordering rows and columns: cliques of
        // orbits of rows (either way round), and one symbol per cycle of cells.
        for n in 3..=6 {
            let geometry = Geometry::latin(n).unwrap();
            let (classes, _) = conjugacy_classes(n, 1, 1, false);
            let mut checked = 0;
            for class in &classes[1..] {
                let (rows, columns) = line_maps(n, &class.cells);
                assert_eq!(
                    latin_squares_by_row_cycles(&rows, &columns, None),
                    invariant_grids(&geometry, &class.cells, None),
                    "order {n}, lines {rows:?} {columns:?}"
                );
                assert_eq!(
                    latin_squares_by_row_cycles(&columns, &rows, None),
                    invariant_grids(&geometry, &class.cells, None),
                    "order {n}, transposed {rows:?} {columns:?}"
                );
                checked += 1;
            }
            assert_eq!(checked, classes.len() - 1, "order {n}");
        }
    }

    #[test]
    fn transposing_symmetries_count_alike_with_relabellings_in_conjugacy_classes() {
        for n in 3..=6 {
            let geometry = Geometry::latin(n).unwrap();
            let (classes, _) = conjugacy_classes(n, 1, 1, true);
            let (mut checked, mut reduced) = (0, 0);
            for class in classes.iter().filter(|c| c.transposed) {
                let commuting = commuting_renamings(n, &class.cells);
                // The identity always; more when a permutation fixing 0 commutes with the rows' map.
                reduced += usize::from(commuting.len() > 1);
                let count = |commuting: &dyn Fn(&[usize]) -> Vec<Vec<usize>>| {
                    let g = &class.cells;
                    invariant_grids_on_trial(&geometry, g, None, None, SEQUENTIAL_NODES, commuting)
                };
                assert_eq!(
                    count(&|_| commuting.clone()).ok(),
                    count(&|_| Vec::new()).ok(),
                    "order {n}, {:?}",
                    &class.cells[..n]
                );
                checked += 1;
            }
            assert!(checked >= 2 && reduced >= 1, "order {n}");
        }
    }

    #[test]
    fn counting_by_orbits_of_commuting_symmetries_changes_no_count() {
        // Every class of the small shapes and Latin squares, each count taken by orbits
        // on the cores from its first node, against the plain search.
        let every = |n: usize, g: &[usize], house: &[usize]| -> Vec<Vec<usize>> {
            let perms = all_permutations(n);
            let mut out = Vec::new();
            for t in [false, true] {
                for a in &perms {
                    for b in &perms {
                        let tau = |c: usize| {
                            let (y, x) = if t { (c % n, c / n) } else { (c / n, c % n) };
                            a[y] * n + b[x]
                        };
                        if (0..n * n).all(|c| tau(g[c]) == g[tau(c)])
                            && house.iter().all(|&c| house.contains(&tau(c)))
                        {
                            out.push((0..n * n).map(tau).collect());
                        }
                    }
                }
            }
            out
        };
        let mut shapes = vec![
            (shape(2, 2), 2, 2, true),
            (shape(2, 3), 2, 3, false),
            (shape(3, 2), 3, 2, false),
        ];
        shapes.extend((3..=5).map(|n| (Arc::new(Geometry::latin(n).unwrap()), 1, 1, true)));
        let (mut checked, mut with_symmetries) = (0, 0);
        for (geometry, kr, kc, transposing) in shapes {
            let n = geometry.size();
            let (classes, _) = conjugacy_classes(n, kr, kc, transposing);
            for class in &classes[1..] {
                let g = &class.cells;
                let commuting = |house: &[usize]| match geometry.variant().is_latin_square() {
                    true => every(n, g, house),
                    false => shape_centralizer(&geometry, g, house),
                };
                let by_orbits = invariant_grids_on_trial(&geometry, g, None, None, 0, &commuting);
                let plain =
                    invariant_grids_on_trial(&geometry, g, None, None, SEQUENTIAL_NODES, &|_| {
                        Vec::new()
                    });
                assert_eq!(by_orbits.ok(), plain.ok(), "{}, {:?}", geometry.name(), g);
                checked += 1;
                with_symmetries += usize::from(
                    commuting(&geometry.houses()[0].cells().collect::<Vec<_>>()).len() > 1,
                );
            }
        }
        assert!(
            checked > 100 && with_symmetries > 50,
            "{checked} {with_symmetries}"
        );
    }

    #[test]
    fn nine_by_nine_symmetries_fall_into_275_classes_whose_invariants_match_the_table() {
        let (classes, symmetries) = conjugacy_classes(9, 3, 3, true);
        assert_eq!(symmetries, 3_359_232);
        assert_eq!(classes.len(), 275, "Russell and Jarvis's count of classes");
        assert_eq!(classes.iter().map(|c| c.size).sum::<u64>(), symmetries);
        assert_eq!(classes[0].cells, (0..81).collect::<Vec<_>>());
        // The classes of 3,456 symmetries or more take a moment each (the others, up to
        // 449,445,888 invariant grids, are checked by the release-mode test below): their
        // invariants, zero or not, are the table's.
        let geometry = Geometry::classic();
        let mut found = Vec::new();
        for class in classes.iter().filter(|c| c.size >= 3456) {
            let count = invariant_grids(&geometry, &class.cells, None).unwrap();
            if count != 0 {
                found.push((class.size, count as u128));
            }
        }
        let table = RUSSELL_JARVIS
            .iter()
            .filter(|p| p.0 >= 3456)
            .copied()
            .collect();
        assert_eq!(sorted(found), sorted(table));
    }

    #[test]
    fn a_half_turn_fixes_155_492_352_grids_up_to_relabelling() {
        // Class 79 of Russell and Jarvis (frazer's note: the 180-degree rotation): 20 s
        // at the test profile's optimisation one grid at a time, 3.4 s by orbits.
        let half_turn: Vec<usize> = (0..81).rev().collect();
        let count = invariant_grids(&Geometry::classic(), &half_turn, None);
        assert_eq!(count, Some(155_492_352));
    }

    /// About 6 s on two cores in release mode (`.ci/run` runs it so).
    #[test]
    #[ignore = "slow: run in release mode with --ignored"]
    fn nine_by_nine_has_5_472_730_538_essentially_different_grids() {
        let classes = count_essentially_different(&Geometry::classic(), true, None).unwrap();
        assert_eq!(classes.classes, 5_472_730_538);
        assert_eq!(sorted(classes.invariants), sorted(RUSSELL_JARVIS.to_vec()));
        // kjellfp's table: 3x3 "N", without transposing.
        let classes = count_essentially_different(&Geometry::classic(), false, None).unwrap();
        assert_eq!(classes.classes, 10_945_437_157);
    }

    /// About five minutes on two cores in release mode (`.ci/run` runs it so).
    #[test]
    #[ignore = "slow: run in release mode with --ignored"]
    fn latin_squares_of_order_8_fall_into_283_657_main_classes() {
        // OEIS A003090.
        let geometry = Arc::new(Geometry::latin(8).unwrap());
        let counted = count_main_classes(&geometry, None).unwrap();
        assert_eq!(counted.classes, 283_657);
        assert_eq!(counted.grids, 108_776_032_459_082_956_800);
    }

    /// About 30 s in release mode.
    #[test]
    #[ignore = "slow: run in release mode with --ignored"]
    fn eight_by_eight_has_1_673_187_essentially_different_grids() {
        // kjellfp's table: 4x2.
        for (r, c) in [(2, 4), (4, 2)] {
            let classes = count_essentially_different(&shape(r, c), true, None);
            assert_eq!(classes.unwrap().classes, 1_673_187);
        }
    }
}
