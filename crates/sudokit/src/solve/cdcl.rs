//! A conflict-driven clause-learning (CDCL) engine specialised for sudoku-like puzzles,
//! for the large grids (25x25 and up) that defeat plain backtracking.
//!
//! The variables are those of the CNF export ([`crate::cnf`]): "cell `c` holds digit
//! `d`", `n^3` of them. The puzzle's own clauses are never stored: "every cell holds
//! exactly one digit" and "every house holds every digit exactly once" stay implicit,
//! propagated through bitmasks (digits left per cell, positions left per house and
//! digit) and the peer lists of the [`Geometry`](crate::Geometry); their clauses are
//! rebuilt only when conflict analysis asks for a reason. A general-purpose SAT solver
//! on the same encoding carries ~750,000 pairwise clauses for a 25x25 grid; here only
//! the learned clauses live in memory. Propagation also does locked candidates (a digit
//! confined to the intersection of two houses leaves the rest of the second), whose
//! explanation is a single clause too.
//!
//! Learning is first-UIP with two refinements that suit the structure: a literal "cell
//! c is not d" that a placement Y caused is replaced by "not Y" (all the exclusions of
//! one placement collapse into one literal, so nogoods speak of placements), then
//! MiniSat's recursive minimisation. The variables behind the learned clause's literals
//! are bumped too (reason-side bumping, as in CaDiCaL). Decisions place the most active
//! candidate of an open cell (VSIDS). Restarts follow the Luby sequence in units of
//! 4,096 conflicts; learned clauses are thinned by literal block distance. Counting
//! goes on after each solution by adding a clause that forbids it. The search is a
//! loop: no recursion, whatever the depth.
//!
//! What was measured to get here (conflicts to a first solution over the seven hardest
//! gecode 25x25 puzzles, three tie-break seeds each, 300,000 cap, PAR2 sum; counts do
//! not depend on the machine's load): VSIDS with Luby restarts every 32 conflicts,
//! 5.7M; restarts every 1,024, 4.1M; with reason-side bumping, 2.4M; restarts every
//! 2,048 / 4,096 / 8,192 / 16,384, 2.5M / 1.8M / 2.4M / 2.5M (21 of 21 runs solved at
//! 4,096, against 16 at first): flat within the seeds' noise from 1,024 on. Deciding
//! the tightest cell or house digit first (ties to activity), 3.1M on the same
//! settings; phase saving, target phases, CaDiCaL's clause shrinking, activity decay
//! 0.90 or 0.98, a larger clause database and initial activities favouring tight
//! cells and house digits did not help (3.7M, 3.7M, 2.6M, 2.3M, 2.4M, 1.7M, 1.9M).
//! Neither did failed-literal probing: at the root it takes 10 ms and finds 7 facts on
//! #32; probing the candidates of cells with two or three left before every decision
//! keeps the conflicts about the same at 2-5x the time. Deciding "cell is not d"
//! instead of placements took #21 from 8,700 to 147,000 conflicts. Without the "not Y"
//! substitution in learned clauses, runs took 2.5x the decisions (7.6M against 3.0M
//! over the same 35 runs: 5 of the hardest puzzles, up to eight seeds each); 5%
//! random decisions took 1.27x (3.2M against 2.5M over 32 runs). Learned
//! clauses are long (on #32, 57% over 16 literals; 172 of 182,000 with one or two),
//! yet sharing them between the portfolio's solvers pays (below).
//!
//! Clause management follows Glucose: an LBD is lowered when a clause takes part in an
//! analysis with fewer levels, and a clause with LBD up to 6 used since the last
//! reduction survives it. Decisions to a first solution over #21, #23 and #31 (mean
//! over seeds): 75,000 / 13,700 / 11,500 before (32 seeds), 59,000 / 14,700 / 8,500
//! after (16 seeds); with the tier bound at 4 or 8, worse (8 seeds). The portfolio
//! on two cores, all 18 puzzles, same run: total 30 s -> 19.6 s, slowest 7.6 s -> 4.1 s.
//! Storing the clauses in one arena gave 3% more decisions a second. Vivifying the kept
//! learned clauses at restarts (as CaDiCaL does) removed 14-23% of their literals but
//! not conflicts: 68,800 against 69,700 mean decisions on the three puzzles with a
//! budget of a tenth of the search's assignments, 78,500 with a third. Per decision
//! the engine assigns ~290 literals (~47 placements) in 46-48 us (59-63 us before
//! variables were split by a shift and placements reached their peers through the
//! houses' position masks): a quarter of it visiting watched clauses (~750 watches a
//! conflict, 70% satisfied by their blocker), an eighth locked candidates, a fifth the
//! implicit constraints' other bookkeeping, a quarter analysis and minimisation.
//!
//! A cleaner measure than first solutions, whose decisions spread over the seeds by
//! an order of magnitude: refuting a hard puzzle with one wrong given (a digit the
//! solution does not have, in the cell whose right digit fills the most cells) takes
//! about as many decisions whatever the seed: 61,500/67,600, 108,000/103,000,
//! 24,700/29,500 and 111,700/112,000 for #18 with 3 or 4 at r3c20, #32 with 8 or M at
//! r1c24 (seeds 0 and 1; 559,000 in all with the engine of today, 42.7 us a decision).
//! Bumping only the learned clause's variables (and the reason side) instead of every
//! variable the analysis meets: 1,052,000. On those four, over two seeds: activity
//! decay 0.98 or 0.85, restart units
//! of 1,024 or 16,384 or no restarts, tier bound 4 or 9, a larger clause database:
//! within 10% of the settings here, except decay 0.85 (+34%) and no reason-side
//! bumping (+24%). Glucose's dynamic restarts (when the mean LBD of the last 32
//! conflicts exceeds 1.1 / 1.25 / 1.5 times the long-run mean, at least 50 conflicts
//! apart) took 676,000 / 630,000 / 612,000 decisions on the four refutations, and
//! alternating them with Luby phases (CaDiCaL's focused and stable modes, phases of
//! 2,000 conflicts doubling) 624,000; first solutions of #18, #21, #26, #27, #32 and #33
//! over six seeds, 4.56M decisions with the 1.5 margin against 4.17M (2026-11-29). CHB branching (MapleSAT's reward for variables assigned near
//! conflicts, in place of VSIDS; reason-side variables counted as taking part) took
//! 904,000 decisions against 618,000 (+46%). Hall sets (Régin's matching filter on
//! every house, explained by the naked set) removed ~10 candidates a decision but cut those decisions by 0-30%
//! at twice the time a decision; and the first solutions of #18 and #32 took as many
//! decisions (12 seeds). Splitting on the candidates of a cell does not help either:
//! with the right digit given, #18 and #32 take 5-8x fewer decisions, but the wrong
//! digits of the cell whose candidates all fill the most (lookahead) take 12,000-79,000
//! decisions each to refute on #32, together more than the whole puzzle.
//!
//! Run times on a hard 25x25 puzzle vary by an order of magnitude with nothing but the
//! tie-break order, so for a first solution or a uniqueness check several solvers with
//! different decision orders race on the machine's cores and the first to finish
//! answers ([`search`]). They send each other the clauses they learn (`Exchange`),
//! so the race is also a team: the four refutations above took 11.7 s on two cores
//! without sharing, 7.0 s with it; first solutions of all 18 gecode puzzles, 35 s
//! against 23 s on average over four pairs of seeds. When counting, a solution one
//! solver finds is blocked in all of them, so after the first solution of a
//! uniqueness check both solvers work on the proof that there is no other (the 18
//! puzzles counted to two: 68 s -> 49 s in all, slowest 21.7 s -> 13.8 s).
//!
//! More solvers than cores do not pay: over eight seeds per puzzle (decisions to a
//! first solution, all 18 gecode 25x25 puzzles, `examples/cdcl_seeds.rs`), one
//! puzzle's slowest seed needs 2.6-18x its fastest, but the expected best of four
//! seeds sharing two cores (each at half speed) is worse than the best of two on every
//! puzzle: 1.10M decisions in all against 0.77M (one seed alone: 1.05M). The hardest
//! need 76,000-91,000 decisions (#18, #26, #32) even as the best of four, several
//! seconds at ~23,000 decisions a second. Nor does a portfolio of unlike solvers: the
//! second with restart units of 256 and activity decay 0.90, or 16,384 and 0.97, took
//! the 18 puzzles (CLI, four pairs of seeds, 2026-11-29) 71.4 s and 68.8 s in all
//! against 43.6 s for two solvers alike (10-14 of 18 under a second).
//!
//! Others on the same puzzles (2026-11-24) say the search itself is the floor. Gecode
//! 6.2 (Debian's) running its own `sudoku-advanced` example (domain-consistent
//! `distinct`, size/AFC branching, Luby restarts, decay 0.95) solves 2 of the 18 within
//! 20 s each (#89, #90); the others stop after 80,000-145,000 failures. Refuting #32
//! with 8 at r1c24 takes MiniSat 2.2 23,100 conflicts, Glucose 4 26,300, CaDiCaL 1.9.5
//! 23,300, Lingeling 41,900 and MapleChrono 72,200 (through PySAT), against 22,800
//! decisions here (0.63 s). Giving CaDiCaL 1.5.3 mini-row and mini-column variables
//! ("digit d lies where row r crosses box b": 6,250 variables and 65,000 clauses more,
//! so locked candidates become unit propagation, and learned clauses can name a
//! segment) took the four refutations above from 243,000 to 229,000 conflicts (two
//! seeds each), 18% slower: not worth a second kind of variable here. CryptoMiniSat
//! 5.11.4 (Debian's, one thread, default options: inprocessing, Gaussian elimination)
//! on our `export --cnf` of the 18 (2026-11-25, 30 s each): 3 under a second, median
//! 6.1 s, 17 solved, #33 out of time; this engine in the same session, the portfolio
//! on two cores: 13 under a second, median 0.62 s, max 5.5 s, 25.4 s in all.
//! `examples/cdcl_seeds.rs` over four seeds each, one solver (4.0M decisions, 22,800
//! a second): the slowest puzzles need 161,000-250,000 (#26), 42,700-266,000 (#27),
//! 56,600-143,000 (#32) and 72,400-139,000 (#33) decisions to a first solution, so even
//! the best seed is 2-7 s; a second a puzzle would take 3-7x fewer decisions or that
//! much faster ones.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{Budget, Limits, Report, Stop};
use crate::grid::Grid;
use crate::rng::Rng;

/// A literal: `2 * var` for "var is true", `2 * var + 1` for "var is false".
type Lit = u32;

#[inline]
fn var(l: Lit) -> usize {
    (l >> 1) as usize
}

#[inline]
fn pos(v: usize) -> Lit {
    (v as Lit) << 1
}

#[inline]
fn neg(v: usize) -> Lit {
    ((v as Lit) << 1) | 1
}

const UNASSIGNED: i8 = 0;
const TRUE: i8 = 1;
const FALSE: i8 = -1;

/// Why a variable has its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reason {
    /// A decision, a given, or a fact at level 0.
    None,
    /// False because this variable is true (same cell, or same digit in a shared house).
    Excluded(u32),
    /// True as the last candidate of its cell.
    LastInCell,
    /// True as the last position of its digit in this house.
    LastInHouse(u32),
    /// False because its digit is locked, in the overlap's house, into the intersection
    /// with its other house (which this variable's cell is in).
    Locked(u32),
    /// Implied by a learned (or blocking) clause.
    Clause(u32),
}

/// What went wrong when propagation fails.
#[derive(Clone, Copy, Debug)]
enum Conflict {
    /// Two true variables exclude each other.
    Pair(u32, u32),
    /// A cell with no candidate left.
    EmptyCell(u32),
    /// A digit with no position left in a house.
    EmptyHouse(u32, u32),
    /// A true variable outside the intersection where its digit is locked
    /// (variable, overlap).
    Locked(u32, u32),
    /// A clause with every literal false.
    Clause(u32),
}

/// The stored clauses (learned, or blocking a found solution), one flat vector so that
/// a clause's header and its first literals share a cache line: propagation visits a
/// watched clause with one memory access instead of two (header, then literals). A
/// clause is named by the offset of its header: `[length, lbd | flags, literals..]`.
#[derive(Default)]
struct Arena {
    words: Vec<u32>,
}

const USED: u32 = 1 << 29;
const LEARNED: u32 = 1 << 30;
const DELETED: u32 = 1 << 31;
const LBD_MASK: u32 = USED - 1;

impl Arena {
    fn lits(&self, c: u32) -> &[Lit] {
        let c = c as usize;
        &self.words[c + 2..c + 2 + self.words[c] as usize]
    }

    fn lits_mut(&mut self, c: u32) -> &mut [Lit] {
        let c = c as usize;
        let len = self.words[c] as usize;
        &mut self.words[c + 2..c + 2 + len]
    }

    fn deleted(&self, c: u32) -> bool {
        self.words[c as usize + 1] & DELETED != 0
    }

    fn learned(&self, c: u32) -> bool {
        self.words[c as usize + 1] & LEARNED != 0
    }

    fn lbd(&self, c: u32) -> u32 {
        self.words[c as usize + 1] & LBD_MASK
    }

    fn push(&mut self, lits: &[Lit], lbd: u32, learned: bool) -> u32 {
        let c = self.words.len() as u32;
        self.words.push(lits.len() as u32);
        self.words
            .push(lbd.min(LBD_MASK) | if learned { LEARNED } else { 0 });
        self.words.extend_from_slice(lits);
        c
    }

    /// The offsets of every clause (deleted ones too, between marking and compaction).
    fn offsets(&self) -> Vec<u32> {
        let mut out = Vec::new();
        let mut c = 0;
        while c < self.words.len() {
            out.push(c as u32);
            c += 2 + self.words[c] as usize;
        }
        out
    }
}

/// An entry of a watch list.
#[derive(Clone, Copy, Debug)]
struct Watch {
    clause: u32,
    blocker: Lit,
}

/// Two houses that share at least two cells: the house, the other house, the shared
/// cells as positions of the house, and as positions of the other.
#[derive(Clone, Copy, Debug)]
struct Overlap {
    house: u32,
    other: u32,
    here: u64,
    there: u64,
}

/// The solver state for one puzzle.
struct Solver {
    n: usize,
    /// Variables are `cell << shift | digit`: a power-of-two stride, so that a variable
    /// splits into cell and digit with a shift and a mask instead of a division.
    shift: u32,
    cells: usize,
    house_cells: Vec<Vec<u32>>,
    /// The houses of each cell, with the cell's position in each: those of cell `c`
    /// are `cell_houses[cell_house_start[c]..cell_house_start[c + 1]]` (flat: the
    /// propagation loops read them for every literal).
    cell_houses: Vec<(u32, u8)>,
    cell_house_start: Vec<u32>,
    overlaps: Vec<Overlap>,
    /// The indices in `overlaps` of the overlaps of a house holding one of its
    /// positions: those of `house * n + position` are
    /// `overlap_at[overlap_at_start[house * n + position]..][..next start]` (a locked
    /// digit lies in those of its first position: one or two instead of every overlap
    /// of the house).
    overlap_at: Vec<u32>,
    overlap_at_start: Vec<u32>,
    value: Vec<i8>,
    level: Vec<u32>,
    reason: Vec<Reason>,
    trail: Vec<Lit>,
    trail_lim: Vec<usize>,
    qhead: usize,
    /// Digits not yet false, per cell.
    cell_mask: Vec<u64>,
    /// Positions not yet false, per house and digit (`house * n + digit`).
    house_mask: Vec<u64>,
    /// Cells with a true variable.
    filled: usize,
    clauses: Arena,
    /// `watches[lit]`: clauses watching `lit`, visited when `lit` becomes false, each
    /// with a "blocker": another literal of the clause; when it is true the clause is
    /// satisfied and need not be read.
    watches: Vec<Vec<Watch>>,
    activity: Vec<f64>,
    /// Per cell, at least the activity of its most active unassigned candidate (raised
    /// by bumps and by unassignment, lowered when a decision finds it too high): the
    /// decision scans cells, not every candidate.
    cell_best: Vec<f64>,
    bump: f64,
    seen: Vec<bool>,
    learned_count: usize,
    /// Learned clauses that trigger the next reduction.
    next_reduce: usize,
    /// Unit clauses learned above level 0 (under a [`Checker`]'s assumptions), to be
    /// made facts when the assumptions are made again.
    units: Vec<Lit>,
    stack: Vec<Lit>,
    /// Per decision level, the last `stamp` that counted it (for LBDs).
    level_stamp: Vec<u64>,
    stamp: u64,
}

/// The Luby sequence (1, 1, 2, 1, 1, 2, 4, ...), for restart intervals.
pub(crate) fn luby(mut i: u64) -> u64 {
    let mut size = 1u64;
    let mut seq = 0u32;
    while size < i + 1 {
        seq += 1;
        size = 2 * size + 1;
    }
    while size - 1 != i {
        size = (size - 1) / 2;
        seq -= 1;
        i %= size;
    }
    1 << seq
}

/// Conflicts per Luby unit between restarts. Long runs between restarts pay off here:
/// over the seven hardest gecode 25x25 puzzles and three tie-break seeds (conflicts to
/// a first solution, 300,000 cap, PAR2 sum), units of 32 / 1,024 / 2,048 / 4,096 /
/// 8,192 / 16,384 took 5.7M / 2.4M / 2.5M / 1.8M / 2.4M / 2.5M conflicts (with
/// reason-side bumping from 1,024 on): long runs matter, the exact unit hardly.
const RESTART_UNIT: u64 = 4096;

/// Learned clauses kept before the first reduction, and growth per reduction.
const REDUCE_FIRST: usize = 2000;
const REDUCE_GROWTH: usize = 300;
const VAR_DECAY: f64 = 0.95;
/// Learned clauses with at most this LBD survive a reduction if used since the last.
const TIER2: u32 = 6;

#[inline]
fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}

impl Solver {
    /// A solver for `grid` whose ties between equally active variables break in the
    /// order of `seed`.
    fn new(grid: &Grid, seed: u64) -> Solver {
        let g = grid.geometry();
        let n = g.size();
        let cells = g.cell_count();
        let shift = n.next_power_of_two().trailing_zeros();
        let vars = cells << shift;
        let all = g.digit_mask();
        let house_cells: Vec<Vec<u32>> = g
            .houses()
            .iter()
            .map(|h| h.cells().map(|c| c as u32).collect())
            .collect();
        let mut cell_houses: Vec<Vec<(u32, u8)>> = vec![Vec::new(); cells];
        for (h, hc) in house_cells.iter().enumerate() {
            for (p, &c) in hc.iter().enumerate() {
                cell_houses[c as usize].push((h as u32, p as u8));
            }
        }
        let mut cell_house_start = vec![0u32];
        for hs in &cell_houses {
            cell_house_start.push(cell_house_start[cell_house_start.len() - 1] + hs.len() as u32);
        }
        let cell_houses: Vec<(u32, u8)> = cell_houses.concat();
        // Each house's overlaps, found through its cells' houses (comparing every pair
        // of houses cell by cell cost 150 million steps on a 64x64, a third of the time
        // of a generator's check there).
        let mut overlaps = Vec::new();
        let mut shared: Vec<(u64, u64)> = vec![(0, 0); house_cells.len()];
        let mut touched: Vec<u32> = Vec::new();
        for (h, hc) in house_cells.iter().enumerate() {
            for (p, &c) in hc.iter().enumerate() {
                let c = c as usize;
                for &(o, q) in
                    &cell_houses[cell_house_start[c] as usize..cell_house_start[c + 1] as usize]
                {
                    if o as usize == h {
                        continue;
                    }
                    let (here, there) = &mut shared[o as usize];
                    if *here == 0 {
                        touched.push(o);
                    }
                    *here |= 1 << p;
                    *there |= 1 << q;
                }
            }
            touched.sort_unstable();
            for o in touched.drain(..) {
                let (here, there) = std::mem::take(&mut shared[o as usize]);
                if here.count_ones() >= 2 {
                    overlaps.push(Overlap {
                        house: h as u32,
                        other: o,
                        here,
                        there,
                    });
                }
            }
        }
        // `overlaps` lists each house's overlaps together, house by house.
        let mut overlap_at = Vec::new();
        let mut overlap_at_start = vec![0u32];
        let mut first = 0;
        for h in 0..house_cells.len() {
            let end = first
                + overlaps[first..]
                    .iter()
                    .take_while(|o| o.house == h as u32)
                    .count();
            for p in 0..n {
                overlap_at.extend(
                    (first..end)
                        .filter(|&k| overlaps[k].here >> p & 1 == 1)
                        .map(|k| k as u32),
                );
                overlap_at_start.push(overlap_at.len() as u32);
            }
            first = end;
        }
        Solver {
            overlap_at,
            overlap_at_start,
            n,
            shift,
            cells,
            house_mask: vec![all; house_cells.len() * n],
            house_cells,
            cell_houses,
            cell_house_start,
            overlaps,
            value: vec![UNASSIGNED; vars],
            level: vec![0; vars],
            reason: vec![Reason::None; vars],
            trail: Vec::with_capacity(vars),
            trail_lim: Vec::new(),
            qhead: 0,
            cell_mask: vec![all; cells],
            filled: 0,
            clauses: Arena::default(),
            watches: vec![Vec::new(); 2 * vars],
            activity: vec![0.0; vars],
            cell_best: vec![0.0; cells],
            bump: 1.0,
            seen: vec![false; vars],
            learned_count: 0,
            next_reduce: REDUCE_FIRST,
            units: Vec::new(),
            stack: Vec::new(),
            level_stamp: vec![0; cells + 2],
            stamp: 0,
        }
        .seeded(seed)
    }

    /// Starts the activities at tiny seeded values, so that ties break in an order of
    /// the seed's own; a conflict's bump outweighs them all.
    fn seeded(mut self, seed: u64) -> Solver {
        let mut rng = Rng::new(seed);
        for c in 0..self.cells {
            for d in 0..self.n {
                let v = self.var_of(c, d);
                self.activity[v] = rng.below(1024) as f64 * 1e-6;
                self.cell_best[c] = self.cell_best[c].max(self.activity[v]);
            }
        }
        self
    }

    /// The variable "cell `c` holds digit `d`".
    #[inline]
    fn var_of(&self, c: usize, d: usize) -> usize {
        c << self.shift | d
    }

    /// The cell and digit of variable `v`.
    #[inline]
    fn split(&self, v: usize) -> (usize, usize) {
        (v >> self.shift, v & ((1 << self.shift) - 1))
    }

    fn decision_level(&self) -> u32 {
        self.trail_lim.len() as u32
    }

    /// Makes `l` true.
    #[inline]
    fn assign(&mut self, l: Lit, reason: Reason) {
        let v = var(l);
        self.value[v] = if l & 1 == 0 { TRUE } else { FALSE };
        self.level[v] = self.decision_level();
        self.reason[v] = reason;
        self.trail.push(l);
        if l & 1 == 0 {
            self.filled += 1;
        } else {
            let (c, d) = self.split(v);
            self.cell_mask[c] &= !(1 << d);
            for k in self.cell_house_start[c] as usize..self.cell_house_start[c + 1] as usize {
                let (h, p) = self.cell_houses[k];
                self.house_mask[h as usize * self.n + d] &= !(1 << p);
            }
        }
    }

    fn unassign_to(&mut self, level: u32) {
        if self.decision_level() <= level {
            return;
        }
        self.unassign_from(self.trail_lim[level as usize]);
        self.trail_lim.truncate(level as usize);
    }

    /// Unassigns the trail from position `start` on (within the current level or at
    /// the start of a level: the caller keeps `trail_lim`).
    fn unassign_from(&mut self, start: usize) {
        for i in (start..self.trail.len()).rev() {
            let l = self.trail[i];
            let v = var(l);
            self.value[v] = UNASSIGNED;
            self.reason[v] = Reason::None;
            let (c, d) = self.split(v);
            self.cell_best[c] = self.cell_best[c].max(self.activity[v]);
            if l & 1 == 0 {
                self.filled -= 1;
            } else {
                self.cell_mask[c] |= 1 << d;
                for k in self.cell_house_start[c] as usize..self.cell_house_start[c + 1] as usize {
                    let (h, p) = self.cell_houses[k];
                    self.house_mask[h as usize * self.n + d] |= 1 << p;
                }
            }
        }
        self.trail.truncate(start);
        self.qhead = self.trail.len();
    }

    /// Unit propagation over the implicit constraints and the stored clauses.
    fn propagate(&mut self) -> Option<Conflict> {
        let n = self.n;
        while self.qhead < self.trail.len() {
            let l = self.trail[self.qhead];
            self.qhead += 1;
            let v = var(l);
            let (c, d) = self.split(v);
            if l & 1 == 0 {
                // c holds d: no other digit in c, no d among c's peers.
                for e in bits(self.cell_mask[c] & !(1 << d)) {
                    let w = self.var_of(c, e);
                    if self.value[w] == TRUE {
                        return Some(Conflict::Pair(v as u32, w as u32));
                    }
                    self.assign(neg(w), Reason::Excluded(v as u32));
                }
                // The peers that still have d: each house's positions left for d (a
                // peer in two of c's houses is gone by the second).
                for k in self.cell_house_start[c] as usize..self.cell_house_start[c + 1] as usize {
                    let (h, here) = self.cell_houses[k];
                    let h = h as usize;
                    for q in bits(self.house_mask[h * n + d] & !(1 << here)) {
                        let w = self.var_of(self.house_cells[h][q] as usize, d);
                        if self.value[w] == TRUE {
                            return Some(Conflict::Pair(v as u32, w as u32));
                        }
                        self.assign(neg(w), Reason::Excluded(v as u32));
                    }
                }
            } else {
                // d left c: the cell, or the digit in a house, may be down to one place.
                let m = self.cell_mask[c];
                if m == 0 {
                    return Some(Conflict::EmptyCell(c as u32));
                }
                if m & (m - 1) == 0 {
                    let w = self.var_of(c, m.trailing_zeros() as usize);
                    if self.value[w] == UNASSIGNED {
                        self.assign(pos(w), Reason::LastInCell);
                    }
                }
                for k in self.cell_house_start[c] as usize..self.cell_house_start[c + 1] as usize {
                    let h = self.cell_houses[k].0 as usize;
                    let m = self.house_mask[h * n + d];
                    if m == 0 {
                        return Some(Conflict::EmptyHouse(h as u32, d as u32));
                    }
                    if m & (m - 1) == 0 {
                        let w = self
                            .var_of(self.house_cells[h][m.trailing_zeros() as usize] as usize, d);
                        if self.value[w] == UNASSIGNED {
                            self.assign(pos(w), Reason::LastInHouse(h as u32));
                        }
                    } else if let Some(conflict) = self.lock(h, d, m) {
                        return Some(conflict);
                    }
                }
            }
            if let Some(conflict) = self.propagate_clauses(l ^ 1) {
                return Some(conflict);
            }
        }
        None
    }

    /// Locked candidates: when the positions `left` of `d` in house `h` all lie in
    /// another house, `d` leaves the rest of that house.
    fn lock(&mut self, h: usize, d: usize, left: u64) -> Option<Conflict> {
        let n = self.n;
        let at = h * n + left.trailing_zeros() as usize;
        for i in self.overlap_at_start[at]..self.overlap_at_start[at + 1] {
            let k = self.overlap_at[i as usize];
            let o = self.overlaps[k as usize];
            if left & !o.here != 0 {
                continue;
            }
            let other = o.other as usize;
            for p in bits(self.house_mask[other * n + d] & !o.there) {
                let w = self.var_of(self.house_cells[other][p] as usize, d);
                if self.value[w] == TRUE {
                    return Some(Conflict::Locked(w as u32, k));
                }
                self.assign(neg(w), Reason::Locked(k));
            }
        }
        None
    }

    #[inline]
    fn lit_true(&self, l: Lit) -> bool {
        self.value[var(l)] == if l & 1 == 0 { TRUE } else { FALSE }
    }

    /// Visits the stored clauses watching `false_lit`, which just became false.
    fn propagate_clauses(&mut self, false_lit: Lit) -> Option<Conflict> {
        if self.watches[false_lit as usize].is_empty() {
            return None;
        }
        let mut watchers = std::mem::take(&mut self.watches[false_lit as usize]);
        let mut i = 0;
        let mut conflict = None;
        while i < watchers.len() {
            let w = watchers[i];
            if self.lit_true(w.blocker) {
                i += 1;
                continue;
            }
            let ci = w.clause;
            let value = &self.value;
            let clause = self.clauses.lits_mut(ci);
            if clause[0] == false_lit {
                clause.swap(0, 1);
            }
            let first = clause[0];
            let first_value = value[var(first)] * if first & 1 == 1 { -1 } else { 1 };
            if first_value == TRUE {
                watchers[i].blocker = first;
                i += 1;
                continue;
            }
            let mut moved = false;
            for k in 2..clause.len() {
                let lk = clause[k];
                if value[var(lk)] * if lk & 1 == 1 { -1 } else { 1 } != FALSE {
                    clause.swap(1, k);
                    self.watches[clause[1] as usize].push(Watch {
                        clause: ci,
                        blocker: first,
                    });
                    watchers.swap_remove(i);
                    moved = true;
                    break;
                }
            }
            if moved {
                continue;
            }
            if first_value == FALSE {
                conflict = Some(Conflict::Clause(ci));
                break;
            }
            self.assign(first, Reason::Clause(ci));
            i += 1;
        }
        let added = std::mem::take(&mut self.watches[false_lit as usize]);
        watchers.extend(added);
        self.watches[false_lit as usize] = watchers;
        conflict
    }

    /// The positions of `d` in overlap `k`'s house outside its other house, as
    /// literals (all false when `d` is locked into the intersection).
    fn locked_lits(&self, k: u32, d: usize, out: &mut Vec<Lit>) {
        let o = self.overlaps[k as usize];
        let here = o.here;
        let cells = &self.house_cells[o.house as usize];
        out.extend(
            (0..cells.len())
                .filter(|&p| here >> p & 1 == 0)
                .map(|p| pos(self.var_of(cells[p] as usize, d))),
        );
    }

    /// The literals of the clause behind a conflict (all false).
    fn conflict_lits(&self, conflict: Conflict, out: &mut Vec<Lit>) {
        out.clear();
        match conflict {
            Conflict::Pair(a, b) => {
                out.push(neg(a as usize));
                out.push(neg(b as usize));
            }
            Conflict::EmptyCell(c) => {
                let c = c as usize;
                out.extend((0..self.n).map(|e| pos(self.var_of(c, e))));
            }
            Conflict::EmptyHouse(h, d) => {
                let (h, d) = (h as usize, d as usize);
                out.extend(
                    self.house_cells[h]
                        .iter()
                        .map(|&q| pos(self.var_of(q as usize, d))),
                );
            }
            Conflict::Locked(v, k) => {
                out.push(neg(v as usize));
                self.locked_lits(k, self.split(v as usize).1, out);
            }
            Conflict::Clause(ci) => out.extend_from_slice(self.clauses.lits(ci)),
        }
    }

    /// The other literals (all false) of the clause that implied `v`.
    fn reason_lits(&self, v: usize, out: &mut Vec<Lit>) {
        out.clear();
        let (c, d) = self.split(v);
        match self.reason[v] {
            Reason::None => {}
            Reason::Excluded(w) => out.push(neg(w as usize)),
            Reason::LastInCell => {
                out.extend(
                    (0..self.n)
                        .filter(|&e| e != d)
                        .map(|e| pos(self.var_of(c, e))),
                );
            }
            Reason::LastInHouse(h) => out.extend(
                self.house_cells[h as usize]
                    .iter()
                    .filter(|&&q| q as usize != c)
                    .map(|&q| pos(self.var_of(q as usize, d))),
            ),
            Reason::Locked(k) => self.locked_lits(k, d, out),
            Reason::Clause(ci) => {
                out.extend(
                    self.clauses
                        .lits(ci)
                        .iter()
                        .copied()
                        .filter(|&l| var(l) != v),
                );
            }
        }
    }

    /// Marks a learned clause used in an analysis, lowering its LBD if the levels of its
    /// literals are now fewer (Glucose's dynamic LBD).
    fn refresh_lbd(&mut self, ci: u32) {
        if !self.clauses.learned(ci) {
            return;
        }
        let old = self.clauses.lbd(ci);
        let mut lbd = 0;
        if old > 2 {
            self.stamp += 1;
            for &l in self.clauses.lits(ci) {
                let lv = self.level[var(l)] as usize;
                if self.level_stamp[lv] != self.stamp {
                    self.level_stamp[lv] = self.stamp;
                    lbd += 1;
                }
            }
        }
        let word = &mut self.clauses.words[ci as usize + 1];
        *word |= USED;
        if lbd > 0 && lbd < old {
            *word = (*word & !LBD_MASK) | lbd;
        }
    }

    fn bump_var(&mut self, v: usize) {
        self.activity[v] += self.bump;
        if self.value[v] == UNASSIGNED {
            // An assigned candidate raises its cell's bound when it is unassigned.
            let c = v >> self.shift;
            self.cell_best[c] = self.cell_best[c].max(self.activity[v]);
        }
        if self.activity[v] > 1e100 {
            for a in self.activity.iter_mut().chain(&mut self.cell_best) {
                *a *= 1e-100;
            }
            self.bump *= 1e-100;
        }
    }

    /// First-UIP conflict analysis: fills `learned` (asserting literal first, the
    /// literal of the backjump level second) and returns the level to jump back to.
    fn analyze(&mut self, conflict: Conflict, learned: &mut Vec<Lit>, buf: &mut Vec<Lit>) -> u32 {
        learned.clear();
        learned.push(0);
        let level = self.decision_level();
        let mut pending = 0;
        let mut index = self.trail.len();
        self.conflict_lits(conflict, buf);
        if let Conflict::Clause(ci) = conflict {
            self.refresh_lbd(ci);
        }
        let mut to_clear: Vec<usize> = Vec::new();
        let uip: Lit = loop {
            for &q in buf.iter() {
                let v = var(q);
                if !self.seen[v] && self.level[v] > 0 {
                    self.seen[v] = true;
                    to_clear.push(v);
                    self.bump_var(v);
                    if self.level[v] >= level {
                        pending += 1;
                    } else {
                        learned.push(q);
                    }
                }
            }
            // The most recent literal of the current level still to resolve.
            let p = loop {
                index -= 1;
                let p = self.trail[index];
                if self.seen[var(p)] {
                    break p;
                }
            };
            self.seen[var(p)] = false;
            pending -= 1;
            if pending == 0 {
                break p;
            }
            if let Reason::Clause(ci) = self.reason[var(p)] {
                self.refresh_lbd(ci);
            }
            self.reason_lits(var(p), buf);
        };
        learned[0] = uip ^ 1;
        // "Cell c is not d" at a lower level because some Y excludes it: resolving with
        // that binary reason swaps the literal for "not Y".
        let mut kept = 1;
        for i in 1..learned.len() {
            let mut l = learned[i];
            if l & 1 == 0 {
                if let Reason::Excluded(y) = self.reason[var(l)] {
                    l = neg(y as usize);
                    let v = y as usize;
                    if self.seen[v] {
                        continue;
                    }
                    self.seen[v] = true;
                    to_clear.push(v);
                }
            }
            learned[kept] = l;
            kept += 1;
        }
        learned.truncate(kept);
        // Recursive minimisation (MiniSat's), with a bitmask of the clause's levels.
        let levels = learned[1..]
            .iter()
            .fold(0u32, |acc, &l| acc | 1 << (self.level[var(l)] & 31));
        let mut kept = 1;
        for i in 1..learned.len() {
            let l = learned[i];
            if self.reason[var(l)] == Reason::None || !self.redundant(l, levels, &mut to_clear, buf)
            {
                learned[kept] = l;
                kept += 1;
            }
        }
        learned.truncate(kept);
        self.bump_reasons(learned, buf);
        for v in to_clear {
            self.seen[v] = false;
        }
        self.bump *= 1.0 / VAR_DECAY;
        if learned.len() == 1 {
            return 0;
        }
        let mut best = 1;
        for i in 2..learned.len() {
            if self.level[var(learned[i])] > self.level[var(learned[best])] {
                best = i;
            }
        }
        learned.swap(1, best);
        self.level[var(learned[1])]
    }

    /// Reason-side bumping (as in CaDiCaL): the variables that imply the learned clause's
    /// literals, not themselves in the analysis, gain activity too (once per reason they
    /// appear in). They are the placements and exclusions the conflict hinged on one
    /// step back; deciding on them next roughly halved the conflicts to a first solution
    /// on the hardest 25x25 puzzles (PAR2 4.1M -> 2.4M conflicts with 1,024-conflict
    /// restarts, 21 of 21 runs solved instead of 18).
    fn bump_reasons(&mut self, learned: &[Lit], buf: &mut Vec<Lit>) {
        for &l in learned {
            self.reason_lits(var(l), buf);
            for &r in buf.iter() {
                let v = var(r);
                if !self.seen[v] {
                    self.bump_var(v);
                }
            }
        }
    }

    /// Whether literal `p` of a learned clause follows from the clause's other literals
    /// (marked `seen`): every path back through reasons ends in seen or level-0
    /// variables. `levels` is a bitmask of the clause's levels, a cheap early test.
    fn redundant(
        &mut self,
        p: Lit,
        levels: u32,
        to_clear: &mut Vec<usize>,
        buf: &mut Vec<Lit>,
    ) -> bool {
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.push(p);
        let top = to_clear.len();
        let mut ok = true;
        'walk: while let Some(q) = stack.pop() {
            self.reason_lits(var(q), buf);
            for &l in buf.iter() {
                let v = var(l);
                if self.seen[v] || self.level[v] == 0 {
                    continue;
                }
                if self.reason[v] != Reason::None && (1 << (self.level[v] & 31)) & levels != 0 {
                    self.seen[v] = true;
                    stack.push(l);
                    to_clear.push(v);
                } else {
                    for &w in &to_clear[top..] {
                        self.seen[w] = false;
                    }
                    to_clear.truncate(top);
                    ok = false;
                    break 'walk;
                }
            }
        }
        self.stack = stack;
        ok
    }

    /// Stores a learned or blocking clause whose first literal is about to be asserted,
    /// with its LBD; returns its index.
    fn add_clause(&mut self, lits: Vec<Lit>, learned: bool) -> u32 {
        // The first literal is about to be asserted: its stored level is stale.
        let mut levels: Vec<u32> = lits[1..].iter().map(|&l| self.level[var(l)]).collect();
        levels.push(u32::MAX);
        levels.sort_unstable();
        levels.dedup();
        self.attach(&lits, levels.len() as u32, learned)
    }

    /// The value of literal `l` (`TRUE`, `FALSE` or `UNASSIGNED`).
    #[inline]
    fn lit_value(&self, l: Lit) -> i8 {
        let v = self.value[var(l)];
        if l & 1 == 1 { -v } else { v }
    }

    /// Adds a clause that another solver of the portfolio learned (so implied by the
    /// puzzle and the solutions found so far) with that solver's LBD, or a solution's
    /// blocking clause (LBD [`BLOCKING`], kept for good): watched from now on; when it
    /// is unit now its literal is asserted, and when it is false now the search first
    /// jumps back to where it is not. Returns false when it is false at level 0: no
    /// further solution.
    fn import(&mut self, lits: &[Lit], lbd: u32) -> bool {
        let fixed = |s: &Solver, l: Lit, value: i8| s.level[var(l)] == 0 && s.lit_value(l) == value;
        if lits.iter().any(|&l| fixed(self, l, TRUE)) {
            return true;
        }
        let mut lits: Vec<Lit> = lits
            .iter()
            .copied()
            .filter(|&l| !fixed(self, l, FALSE))
            .collect();
        loop {
            match lits.len() {
                0 => return false,
                1 => {
                    self.unassign_to(0);
                    if self.lit_value(lits[0]) == UNASSIGNED {
                        self.assign(lits[0], Reason::None);
                    }
                    return self.lit_value(lits[0]) == TRUE;
                }
                _ => {}
            }
            // Literals not false first, then false ones from the highest level down.
            lits.sort_by_key(|&l| {
                if self.lit_value(l) == FALSE {
                    u32::MAX - self.level[var(l)]
                } else {
                    0
                }
            });
            let first = self.lit_value(lits[0]);
            if first != FALSE {
                let ci = self.attach(&lits, lbd, lbd != BLOCKING);
                if first == UNASSIGNED && self.lit_value(lits[1]) == FALSE {
                    self.assign(lits[0], Reason::Clause(ci));
                }
                return true;
            }
            // False: back to the level where its highest literal is unassigned (so the
            // clause is unit there, or has two literals unassigned).
            let (top, second) = (self.level[var(lits[0])], self.level[var(lits[1])]);
            self.unassign_to(if second < top { second } else { top - 1 });
        }
    }

    /// Stores a clause with its first two literals watched; returns its index.
    fn attach(&mut self, lits: &[Lit], lbd: u32, learned: bool) -> u32 {
        let ci = self.clauses.push(lits, lbd, learned);
        self.watches[lits[0] as usize].push(Watch {
            clause: ci,
            blocker: lits[1],
        });
        self.watches[lits[1] as usize].push(Watch {
            clause: ci,
            blocker: lits[0],
        });
        if learned {
            self.learned_count += 1;
        }
        ci
    }

    /// Deletes about half of the learned clauses: those with the largest literal block
    /// distance, keeping "glue" clauses (LBD <= 2) and clauses that are reasons now.
    fn reduce(&mut self) {
        let offsets = self.clauses.offsets();
        let locked = self.locked();
        let arena = &self.clauses;
        let mut candidates: Vec<u32> = offsets
            .iter()
            .copied()
            .filter(|&ci| {
                arena.learned(ci)
                    && arena.lbd(ci) > 2
                    && !locked[ci as usize]
                    && !(arena.lbd(ci) <= TIER2 && arena.words[ci as usize + 1] & USED != 0)
            })
            .collect();
        candidates.sort_by_key(|&ci| std::cmp::Reverse(arena.lbd(ci)));
        for &ci in &candidates[..candidates.len() / 2] {
            self.clauses.words[ci as usize + 1] |= DELETED;
            self.learned_count -= 1;
        }
        for &ci in &offsets {
            self.clauses.words[ci as usize + 1] &= !USED;
        }
        self.collect(&offsets);
    }

    /// Per arena word, whether a clause starting there is the reason of an assignment.
    fn locked(&self) -> Vec<bool> {
        let mut locked = vec![false; self.clauses.words.len()];
        for &l in &self.trail {
            if let Reason::Clause(ci) = self.reason[var(l)] {
                locked[ci as usize] = true;
            }
        }
        locked
    }

    /// Compacts the arena without the deleted clauses (`offsets`: where every clause
    /// starts now) and watches the rest afresh.
    fn collect(&mut self, offsets: &[u32]) {
        // Every watch is on a clause's first two literals: clearing those lists clears
        // them all, without visiting every literal's.
        for &ci in offsets {
            let lits = self.clauses.lits(ci);
            let (a, b) = (lits[0], lits[1]);
            self.watches[a as usize].clear();
            self.watches[b as usize].clear();
        }
        let mut moved = vec![0u32; self.clauses.words.len()];
        let mut compact = Arena::default();
        for &ci in offsets {
            if self.clauses.deleted(ci) {
                continue;
            }
            let c = ci as usize;
            moved[c] = compact.words.len() as u32;
            let len = self.clauses.words[c] as usize;
            compact
                .words
                .extend_from_slice(&self.clauses.words[c..c + 2 + len]);
        }
        self.clauses = compact;
        for &l in &self.trail {
            if let Reason::Clause(ci) = &mut self.reason[var(l)] {
                *ci = moved[*ci as usize];
            }
        }
        for ci in self.clauses.offsets() {
            let lits = self.clauses.lits(ci);
            let (a, b) = (lits[0], lits[1]);
            self.watches[a as usize].push(Watch {
                clause: ci,
                blocker: b,
            });
            self.watches[b as usize].push(Watch {
                clause: ci,
                blocker: a,
            });
        }
    }

    /// The next decision: the most active candidate of an open cell (VSIDS), the first
    /// in cell and digit order among equals. The cell with the highest bound is checked:
    /// when its bound is exact, no other cell has a more active candidate.
    fn pick(&mut self) -> usize {
        loop {
            let mut best = (-1.0, usize::MAX);
            for c in 0..self.cells {
                let m = self.cell_mask[c];
                if m & (m - 1) != 0 && self.cell_best[c] > best.0 {
                    best = (self.cell_best[c], c);
                }
            }
            let c = best.1;
            let mut exact = (-1.0, usize::MAX);
            for d in bits(self.cell_mask[c]) {
                let v = self.var_of(c, d);
                if self.activity[v] > exact.0 {
                    exact = (self.activity[v], v);
                }
            }
            if exact.0 == best.0 {
                return exact.1;
            }
            self.cell_best[c] = exact.0;
        }
    }

    fn solution(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend(self.cell_mask.iter().map(|m| m.trailing_zeros() as u8 + 1));
    }

    /// The clause forbidding the current solution: its placements above level 0,
    /// negated (empty when the givens force the solution).
    fn blocking_clause(&self) -> Vec<Lit> {
        self.trail
            .iter()
            .copied()
            .filter(|&l| l & 1 == 0 && self.level[var(l)] > 0)
            .map(|l| l ^ 1)
            .collect()
    }

    /// Adds a clause forbidding a solution, from level 0; returns false if it is
    /// empty (nothing else is left).
    fn block(&mut self, lits: Vec<Lit>) -> bool {
        self.unassign_to(0);
        match lits.len() {
            0 => false,
            1 => {
                self.assign(lits[0], Reason::None);
                true
            }
            _ => {
                self.add_clause(lits, false);
                true
            }
        }
    }
}

/// Searches any geometry with clause learning; see [`super::search`]. The nodes counted
/// against the limits are decisions.
///
/// When at most two solutions of a 25x25 or wider grid are asked for (first solution,
/// uniqueness) and no node limit is set, a portfolio of solvers with different
/// tie-break seeds runs on the machine's cores, sharing what they learn, and the first
/// to finish answers: a unique puzzle's answer is the same whichever finishes, but with
/// several solutions which one comes first may vary from run to run. Run times of one
/// puzzle vary by an order of magnitude with the decision order alone, so the first of
/// two finishes much sooner than either on average.
pub fn search(grid: &Grid, limits: &Limits, on_solution: &mut dyn FnMut(&[u8]) -> bool) -> Report {
    search_excluding(grid, &[], limits, on_solution)
}

/// [`search`] for the solutions in which no cell holds the digit `excluded` pairs it
/// with (`(cell, digit)`).
pub fn search_excluding(
    grid: &Grid,
    excluded: &[(usize, u8)],
    limits: &Limits,
    on_solution: &mut dyn FnMut(&[u8]) -> bool,
) -> Report {
    let problem = Problem { grid, excluded };
    race(&problem, limits, portfolio_size(grid, limits), on_solution)
}

/// What a run solves: a grid, with some digits ruled out of some cells.
#[derive(Clone, Copy)]
struct Problem<'a> {
    grid: &'a Grid,
    excluded: &'a [(usize, u8)],
}

/// [`search`] with this many solvers (one: no portfolio).
fn race(
    problem: &Problem,
    limits: &Limits,
    solvers: usize,
    on_solution: &mut dyn FnMut(&[u8]) -> bool,
) -> Report {
    if solvers <= 1 {
        return run(problem, limits, 0, None, None, on_solution)
            .expect("a run without a cancel flag finishes");
    }
    let done = AtomicBool::new(false);
    let exchange = Exchange::new(solvers);
    let answers: Vec<Option<Report>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..solvers)
            .map(|k| {
                let (done, exchange) = (&done, &exchange);
                scope.spawn(move || {
                    let share = Some((exchange, k));
                    let report = run(problem, limits, k as u64, share, Some(done), &mut |_| true)?;
                    done.store(true, Ordering::Relaxed);
                    Some(report)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let report = answers
        .into_iter()
        .flatten()
        .next()
        .expect("the solver that raised the flag finished");
    let found = exchange.found.into_inner().expect("no panics");
    for (i, cells) in found.iter().enumerate() {
        if !on_solution(cells) {
            return Report {
                solutions: i as u64 + 1,
                stop: Stop::SolutionLimit,
                ..report
            };
        }
    }
    report
}

/// One solver's search with the tie-break order of `seed`, no portfolio: for measuring
/// how run times spread over decision orders.
#[doc(hidden)]
pub fn search_seeded(grid: &Grid, limits: &Limits, seed: u64) -> Report {
    let problem = Problem {
        grid,
        excluded: &[],
    };
    run(&problem, limits, seed, None, None, &mut |_| true)
        .expect("a run without a cancel flag finishes")
}

/// One clause-learning solver kept across the uniqueness checks of a dig, where each
/// puzzle is the last with a clue or a few fewer. The givens are assumptions made at
/// level 1, not facts at level 0, so what the solver learns stays true when a given
/// goes; the trail position after each assumption's propagation is kept, so a check
/// makes again only the assumptions after the first that changed. Givens listed in
/// an order that changes little from check to check are propagated about once, not
/// once a check (see [`crate::generate::dig`]). A 36x36 dig, 100 decisions a check:
/// a solver built for each check, 5.8 s, 70% of it propagating the givens; one
/// assumption per level as in MiniSat, 7.2 s even with a solver for each check
/// (conflicts jump back among the givens and make hundreds of them again); kept at
/// level 1 (learned clauses forgotten between checks), 3.0-4.8 s. The learned clauses
/// are kept now: twice the time of forgetting them on 25x25 to 64x64 digs with 10
/// decisions a check, but sparser puzzles (25x25, 356 empty cells on average against
/// 352; 64x64, 1,828 against 1,774), and 16x16 digs run 3x faster than with a solver
/// from scratch each check. Undoing part of level 1 may leave a learned clause unit
/// and not propagated: sound (a clause is visited when a watched literal goes false),
/// only weaker.
pub struct Checker {
    solver: Solver,
    /// The assumptions made at level 1, in order.
    assumptions: Vec<Lit>,
    /// The trail's length after each assumption and its propagation.
    marks: Vec<usize>,
}

impl Checker {
    /// A checker for the puzzles of `grid`'s geometry (its digits do not matter).
    pub fn new(grid: &Grid) -> Checker {
        Checker {
            solver: Solver::new(grid, 0),
            assumptions: Vec::new(),
            marks: Vec::new(),
        }
    }

    /// Whether the puzzle of `givens` (cell, digit) has a solution in which some cell
    /// of `cells` differs from `solution` (as [`super::differs_within`]), within
    /// `nodes` decisions for each cell's search and before `deadline`: `None` when one
    /// ran out first.
    pub fn differs_within(
        &mut self,
        givens: &[(usize, u8)],
        solution: &Grid,
        cells: &[usize],
        nodes: u64,
        deadline: Option<Instant>,
    ) -> Option<bool> {
        let s = &self.solver;
        let mut assumptions: Vec<Lit> = givens
            .iter()
            .map(|&(c, d)| pos(s.var_of(c, d as usize - 1)))
            .collect();
        let limits = Limits {
            nodes: Some(nodes),
            deadline,
            ..Limits::solutions(1)
        };
        // Some cell differs = the first differs, or it agrees and a later one does.
        for &c in cells {
            let var = self.solver.var_of(c, solution.get(c) as usize - 1);
            assumptions.push(neg(var));
            if self.assume(&assumptions) {
                let report = self
                    .solver
                    .search(1, &limits, None, None, &mut |_| true)
                    .expect("no cancel flag");
                match report.stop {
                    Stop::NodeLimit | Stop::Timeout => return None,
                    _ if report.solutions > 0 => return Some(true),
                    _ => {}
                }
            }
            *assumptions.last_mut().expect("just pushed") = pos(var);
        }
        Some(false)
    }

    /// Makes `assumptions` at level 1, keeping those already made up to the first that
    /// differs; false when they contradict each other (or what was learned).
    fn assume(&mut self, assumptions: &[Lit]) -> bool {
        let s = &mut self.solver;
        s.unassign_to(1);
        if !s.units.is_empty() || s.decision_level() == 0 {
            // Facts learned above level 0 go to level 0, under every assumption.
            s.unassign_to(0);
            for l in std::mem::take(&mut s.units) {
                if s.lit_value(l) == UNASSIGNED {
                    s.assign(l, Reason::None);
                }
            }
            if s.propagate().is_some() {
                // The houses alone have no solution: nothing differs.
                return false;
            }
            self.assumptions.clear();
            self.marks.clear();
            s.trail_lim.push(s.trail.len());
        }
        let same = self
            .assumptions
            .iter()
            .zip(assumptions)
            .take_while(|(a, b)| a == b)
            .count();
        let start = if same == 0 {
            s.trail_lim[0]
        } else {
            self.marks[same - 1]
        };
        s.unassign_from(start);
        self.assumptions.truncate(same);
        self.marks.truncate(same);
        for &a in &assumptions[same..] {
            match s.lit_value(a) {
                FALSE => return false,
                TRUE => {}
                _ => {
                    s.assign(a, Reason::None);
                    if s.propagate().is_some() {
                        return false;
                    }
                }
            }
            self.assumptions.push(a);
            self.marks.push(s.trail.len());
        }
        true
    }
}

/// Most solvers a portfolio runs at once.
const MAX_PORTFOLIO: usize = 4;

/// Grids narrower than this get one solver: they are solved at once without a race,
/// and a puzzle with several solutions always gets the same first one.
const PORTFOLIO_FROM_SIZE: usize = 25;

/// How many solvers to run side by side: one per core (at most [`MAX_PORTFOLIO`]) when
/// the answer is at most two solutions, which can be held back until the race ends; one
/// when solutions must stream, a node limit must count one deterministic search, or the
/// grid is small.
fn portfolio_size(grid: &Grid, limits: &Limits) -> usize {
    if limits.solutions > 2 || limits.nodes.is_some() || grid.size() < PORTFOLIO_FROM_SIZE {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_PORTFOLIO))
}

/// What the solvers of a portfolio share: the solutions found, and an inbox each
/// for clauses. Each solver sends the others every clause it learns with LBD up to
/// [`SHARED_LBD`] and the blocking clause of every solution new to the portfolio, and
/// takes in its inbox before each decision. A clause comes in after the blocking
/// clauses it may rest on (inboxes keep their order), so every solver's clauses
/// follow from the puzzle and the solutions found, and a solver that runs out of
/// search has found every solution.
struct Exchange {
    inboxes: Vec<Mutex<Vec<Shared>>>,
    found: Mutex<Vec<Vec<u8>>>,
}

/// The LBD that marks a shared clause as a solution's blocking clause.
const BLOCKING: u32 = 0;

/// A clause on its way to another solver, with its LBD ([`BLOCKING`] for a
/// solution's blocking clause).
type Shared = (Vec<Lit>, u32);

impl Exchange {
    fn new(solvers: usize) -> Exchange {
        Exchange {
            inboxes: (0..solvers).map(|_| Mutex::new(Vec::new())).collect(),
            found: Mutex::new(Vec::new()),
        }
    }

    /// Puts a clause in every inbox but the sender's.
    fn send(&self, from: usize, lits: &[Lit], lbd: u32) {
        for (k, inbox) in self.inboxes.iter().enumerate() {
            if k != from {
                inbox.lock().expect("no panics").push((lits.to_vec(), lbd));
            }
        }
    }
}

/// The solutions found by a solver alone (`own`), or by its whole portfolio.
fn found(share: Share, own: u64) -> u64 {
    share.map_or(own, |(exchange, _)| {
        exchange.found.lock().expect("no panics").len() as u64
    })
}

/// Learned clauses with at most this LBD go to the other solvers. Sharing halves the
/// search: refuting four hard 25x25 puzzles with one wrong given each (decisions
/// hardly depend on the seed there), the portfolio of two took 11.7 s alone and
/// 7.0 s sharing clauses of LBD up to 8 (up to 4, 6, 12 and all: 7.6, 6.6, 7.4,
/// 6.8 s); first solutions of the 18 gecode 25x25 puzzles, over four pairs of seeds,
/// 35 s on average alone and 23 s sharing.
const SHARED_LBD: u32 = 8;

/// A solver's place in a portfolio: the exchange, and its inbox there.
type Share<'a> = Option<(&'a Exchange, usize)>;

/// One solver's search; `None` when `cancel` was raised (another solver finished first).
fn run(
    problem: &Problem,
    limits: &Limits,
    seed: u64,
    share: Share,
    cancel: Option<&AtomicBool>,
    on_solution: &mut dyn FnMut(&[u8]) -> bool,
) -> Option<Report> {
    let none = |stop| {
        Some(Report {
            solutions: 0,
            guesses: 0,
            stop,
        })
    };
    if limits.solutions == 0 {
        return none(Stop::SolutionLimit);
    }
    let grid = problem.grid;
    let mut s = Solver::new(grid, seed);
    // The givens hold, the exclusions do not: facts at level 0.
    let givens = grid
        .cells()
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v != 0)
        .map(|(cell, &v)| (cell, v, true));
    let exclusions = problem.excluded.iter().map(|&(cell, v)| (cell, v, false));
    for (cell, v, holds) in givens.chain(exclusions) {
        let var = s.var_of(cell, v as usize - 1);
        let l = if holds { pos(var) } else { neg(var) };
        if s.value[var] == UNASSIGNED {
            s.assign(l, Reason::None);
        } else if !s.lit_true(l) {
            return none(Stop::Exhausted);
        }
        if s.propagate().is_some() {
            return none(Stop::Exhausted);
        }
    }
    s.search(0, limits, share, cancel, on_solution)
}

impl Solver {
    /// The search loop, above level `base`: the solutions of what is assigned at
    /// levels up to `base` (the facts at level 0; a [`Checker`]'s assumptions at level
    /// 1), which the search never undoes: a conflict there ends it (`Exhausted`).
    /// `None` when `cancel` was raised.
    fn search(
        &mut self,
        base: u32,
        limits: &Limits,
        share: Share,
        cancel: Option<&AtomicBool>,
        on_solution: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Option<Report> {
        let s = self;
        let mut budget = Budget::new(limits);
        let mut solutions = 0u64;
        let report = |solutions, budget: &Budget, stop| {
            Some(Report {
                solutions,
                guesses: budget.nodes(),
                stop,
            })
        };
        let mut learned = Vec::new();
        let mut buf = Vec::new();
        let mut buffer = Vec::new();
        let mut conflicts = 0u64;
        let mut restarts = 0u64;
        let mut next_restart = RESTART_UNIT * luby(0);
        let mut since_restart = 0u64;
        loop {
            if let Some(conflict) = s.propagate() {
                conflicts += 1;
                since_restart += 1;
                if s.decision_level() <= base {
                    return report(found(share, solutions), &budget, Stop::Exhausted);
                }
                let back = s.analyze(conflict, &mut learned, &mut buf).max(base);
                s.unassign_to(back);
                let lbd = if learned.len() == 1 {
                    // A fact; above level 0 it holds as a decision would until the
                    // checker makes it a fact.
                    if base > 0 {
                        s.units.push(learned[0]);
                    }
                    s.assign(learned[0], Reason::None);
                    1
                } else {
                    let ci = s.add_clause(learned.clone(), true);
                    s.assign(learned[0], Reason::Clause(ci));
                    s.clauses.lbd(ci)
                };
                if let Some((exchange, me)) = share.filter(|_| lbd <= SHARED_LBD) {
                    exchange.send(me, &learned, lbd);
                }
                if conflicts % 256 == 0 {
                    if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                        return None;
                    }
                    if budget.timed_out() {
                        return report(solutions, &budget, Stop::Timeout);
                    }
                }
                continue;
            }
            if s.filled == s.cells {
                s.solution(&mut buffer);
                let blocking = s.blocking_clause();
                if let Some((exchange, me)) = share {
                    let mut found = exchange.found.lock().expect("no panics");
                    if !found.contains(&buffer) && (found.len() as u64) < limits.solutions {
                        found.push(buffer.clone());
                        exchange.send(me, &blocking, BLOCKING);
                    }
                    if found.len() as u64 >= limits.solutions {
                        return report(found.len() as u64, &budget, Stop::SolutionLimit);
                    }
                } else {
                    solutions += 1;
                    if !on_solution(&buffer) || solutions >= limits.solutions {
                        return report(solutions, &budget, Stop::SolutionLimit);
                    }
                }
                if !s.block(blocking) {
                    return report(found(share, solutions), &budget, Stop::Exhausted);
                }
                continue;
            }
            if let Some((exchange, me)) = share {
                let incoming =
                    std::mem::take(&mut *exchange.inboxes[me].lock().expect("no panics"));
                if !incoming.is_empty() {
                    for (lits, lbd) in &incoming {
                        if !s.import(lits, *lbd) {
                            return report(found(share, solutions), &budget, Stop::Exhausted);
                        }
                    }
                    continue;
                }
            }
            if since_restart >= next_restart {
                restarts += 1;
                since_restart = 0;
                next_restart = RESTART_UNIT * luby(restarts);
                s.unassign_to(base);
            }
            if s.learned_count >= s.next_reduce {
                s.reduce();
                s.next_reduce += REDUCE_GROWTH;
            }
            // Decide: a placement, the most active candidate.
            let v = s.pick();
            if !budget.node() {
                let stop = budget.stopped().unwrap_or(Stop::NodeLimit);
                return report(solutions, &budget, stop);
            }
            s.trail_lim.push(s.trail.len());
            s.assign(pos(v), Reason::None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every solver of the portfolio, alone and racing, finds the same counts (up to
    /// two) and only valid solutions. The expected counts are those of the builtin
    /// puzzles' own descriptions (a unique, a two-solution, an impossible and a
    /// four-solution Lo Shu 3x3 puzzle).
    #[test]
    fn every_seed_and_the_race_agree() {
        let limits = Limits::solutions(2);
        for (name, expected) in [
            ("lo-shu", 1),
            ("lo-shu-6", 2),
            ("lo-shu-7", 0),
            ("lo-shu-0", 2),
        ] {
            let p = crate::puzzles::builtin(name).unwrap().grid();
            let problem = Problem {
                grid: &p,
                excluded: &[],
            };
            let valid = |s: &[u8]| super::super::tests::cells_solve(s, &p);
            for k in 0..6 {
                let report = run(&problem, &limits, k, None, None, &mut |s| {
                    assert!(valid(s), "{name}");
                    true
                })
                .unwrap();
                assert_eq!(report.solutions, expected, "{name}, solver {k}");
            }
            for solvers in 2..=4 {
                let mut found: Vec<Vec<u8>> = Vec::new();
                let report = race(&problem, &limits, solvers, &mut |s| {
                    assert!(valid(s), "{name}");
                    assert!(!found.iter().any(|f| f == s), "{name}: found twice");
                    found.push(s.to_vec());
                    true
                });
                assert_eq!(report.solutions, expected, "{name}, race of {solvers}");
                assert_eq!(found.len() as u64, expected, "{name}, race of {solvers}");
            }
            // A callback that stops at the first solution is obeyed after the race.
            let first = search(&p, &limits, &mut |_| false);
            assert_eq!(first.solutions, expected.min(1), "{name}");
        }
    }

    /// Racing solvers that share clauses and solutions count to two as the 9x9 engine
    /// does: on puzzles with many solutions (Serg's benchmark) and unique ones
    /// (top1465), every solution valid and none found twice.
    #[test]
    fn a_sharing_race_counts_as_the_classic_engine_does() {
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
        let lines = |name: &str| -> Vec<String> {
            std::fs::read_to_string(data.join(name))
                .map(|t| {
                    t.lines()
                        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                        .take(15)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        };
        let limits = Limits::solutions(2);
        for line in lines("puzzles7_serg_benchmark")
            .iter()
            .chain(&lines("puzzles3_magictour_top1465"))
        {
            let p = crate::format::parse_grid(line).unwrap();
            let expected = super::super::classic::search(p.cells(), &limits, &mut |_| true);
            let problem = Problem {
                grid: &p,
                excluded: &[],
            };
            for solvers in [2, 4] {
                let mut found: Vec<Vec<u8>> = Vec::new();
                let report = race(&problem, &limits, solvers, &mut |s| {
                    assert!(super::super::tests::cells_solve(s, &p), "{line}");
                    assert!(!found.iter().any(|f| f == s), "{line}: found twice");
                    found.push(s.to_vec());
                    true
                });
                assert_eq!(
                    report.solutions, expected.solutions,
                    "{line}, {solvers} solvers"
                );
                assert_eq!(found.len() as u64, expected.solutions, "{line}");
            }
        }
    }

    /// A checker kept across a whole dig answers every check as the classic engine
    /// does by counting to two: 9x9 and 16x16 digs of single clues and of clue pairs, with the
    /// givens in an order that keeps changing (kept clues first or last, a removed
    /// clue anywhere), so that assumptions are kept, undone and made again.
    #[test]
    fn a_checker_kept_across_a_dig_answers_as_counting_does() {
        let puzzle = crate::puzzles::builtin("fallin").unwrap().grid();
        let nine = crate::solve::solve(&puzzle).expect("solvable");
        let shape = crate::Shape::new(4, 4).unwrap();
        let empty = Grid::empty(crate::Geometry::standard(shape));
        let sixteen = crate::solve::solve(&empty).expect("an empty grid fills");
        let mut answers = [0, 0];
        for seed in 0..8u64 {
            let solution = if seed < 6 { &nine } else { &sixteen };
            let n = solution.geometry().cell_count();
            let mut rng = Rng::new(seed);
            let mut cells: Vec<usize> = (0..n).collect();
            rng.shuffle(&mut cells);
            let orbits: Vec<Vec<usize>> = if seed % 2 == 0 {
                cells.iter().map(|&c| vec![c]).collect()
            } else {
                let mut pairs: Vec<Vec<usize>> =
                    (0..n.div_ceil(2)).map(|c| vec![c, n - 1 - c]).collect();
                if n % 2 == 1 {
                    pairs.last_mut().unwrap().pop();
                }
                rng.shuffle(&mut pairs);
                pairs
            };
            let mut checker = Checker::new(solution);
            let mut puzzle = solution.clone();
            let mut kept: Vec<usize> = Vec::new();
            for (k, orbit) in orbits.iter().enumerate() {
                for &c in orbit {
                    puzzle.set(c, 0);
                }
                let to_try = orbits[k + 1..].iter().rev().flatten();
                let order: Vec<(usize, u8)> = if seed % 3 == 0 {
                    kept.iter()
                        .chain(to_try)
                        .map(|&c| (c, solution.get(c)))
                        .collect()
                } else {
                    to_try.chain(&kept).map(|&c| (c, solution.get(c))).collect()
                };
                let differs = checker.differs_within(&order, solution, orbit, 1_000_000, None);
                let expected = crate::solve::count_solutions(&puzzle, 2).count > 1;
                assert_eq!(differs, Some(expected), "seed {seed}, check {k}");
                answers[expected as usize] += 1;
                if expected {
                    for &c in orbit {
                        puzzle.set(c, solution.get(c));
                    }
                    kept.extend(orbit);
                }
            }
        }
        assert!(answers[0] > 100 && answers[1] > 100, "{answers:?}");
    }

    /// A Shidoku solver with `decisions` placed one level each (cell, digit).
    fn decided(decisions: &[(usize, usize)]) -> Solver {
        let grid = crate::format::parse_grid("................").unwrap();
        let mut s = Solver::new(&grid, 0);
        for &(c, d) in decisions {
            s.trail_lim.push(s.trail.len());
            s.assign(pos(s.var_of(c, d)), Reason::None);
            assert!(s.propagate().is_none());
        }
        s
    }

    /// An imported clause false under the current assignment sends the search back to
    /// where it is unit and asserts it there; one with two literals at the top level
    /// goes back below that level, unassigned; a unit clause goes to level 0.
    #[test]
    fn imported_clauses_jump_back_to_where_they_hold() {
        let (a, b, c) = ((0, 0), (5, 2), (10, 3));
        let mut s = decided(&[a, b, c]);
        let (va, vb) = (s.var_of(a.0, a.1), s.var_of(b.0, b.1));
        assert!(s.import(&[neg(va), neg(vb)], 2));
        assert_eq!(s.decision_level(), 1);
        assert_eq!(s.value[vb], FALSE);
        assert!(matches!(s.reason[vb], Reason::Clause(_)));
        assert!(s.propagate().is_none());

        let mut s = decided(&[a, b, c]);
        let vc = s.var_of(c.0, c.1);
        // b's placement at level 2 also excluded its digit from cell 4 (same box).
        let excluded = s.var_of(4, b.1);
        assert_eq!((s.value[excluded], s.level[excluded]), (FALSE, 2));
        assert!(s.import(&[neg(vb), pos(excluded), neg(vc)], 3));
        assert_eq!(s.decision_level(), 2);
        assert_eq!(s.value[vc], FALSE);

        let mut s = decided(&[a, b]);
        assert!(s.import(&[neg(vb), pos(excluded)], 2));
        assert_eq!(s.decision_level(), 1);
        assert_eq!(s.value[vb], UNASSIGNED);

        let mut s = decided(&[a, b]);
        assert!(s.import(&[neg(vb)], 1));
        assert_eq!((s.decision_level(), s.value[vb]), (0, FALSE));
        // A clause whose only literal is false at level 0 leaves no solution.
        assert!(!s.import(&[pos(vb)], 1));
    }

    #[test]
    fn luby_sequence() {
        let seq: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(seq, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
