//! Chains of implications between candidates, as Sudoku Explainer builds them: X-, Y-
//! and XY-cycles and forcing chains (6.5-7.x), Nishio (7.5+), cell and region forcing
//! chains (8.0+), dynamic forcing chains (8.5+) and their nested forms (9.0+), on 9x9.
//!
//! A *potential* is "digit d in cell c is on (true) / off (false)". From an assumption,
//! implications spread breadth-first with SE's rules and SE's visiting order: on → off
//! for the other digits of the cell (Y-links) and the other places of the digit in its
//! box, row, column (X-links); off → on when the cell has two candidates left or the
//! digit two places left in a house. Each potential remembers the potentials that
//! implied it (its parents); a deduction's *complexity* is the number of distinct
//! potentials among the ancestors of its conclusions, and its rating is the technique's
//! base plus 0.1 for each length bracket exceeded (4, 6, 8, 12, 16, 24, 32, ...), as in
//! SE. Reproducing the visiting order, the first-found parents and the hidden parents of
//! dynamic chains is what makes the ratings agree with SE to the tenth.
//!
//! Speed: potentials are small integers (cell * 9 + digit, plus the on flag); sets of
//! potentials are dense index arrays with an insertion list; the work grid is a
//! [`Board`] copy whose candidates dynamic chains remove as they go. Only the best
//! deduction (SE sorts all and takes the first) is kept as a [`Step`].

use std::collections::{HashMap, VecDeque};
use std::fmt::Write as _;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::board::{self, Board, CellSet, Digits};
use super::{Step, Technique};

/// The hints of a nested technique on one work grid, shared by the chains that use them.
type NestedHints = Arc<Vec<Arc<Hint>>>;

/// Nested hints already found on the grids of one outer step (see
/// [`Engine::nested_hints`]), keyed by nesting rule, level and work grid.
pub(crate) struct NestedCache {
    outer_cand: [Digits; 81],
    outer_value: [u8; 81],
    hints: HashMap<(u8, u8, [Digits; 81]), NestedHints>,
}

/// Most work grids the nested-hint cache remembers before it starts over.
const NESTED_CACHE_ENTRIES: usize = 100_000;

/// A nested-hint cache that engines on several threads can share.
pub(crate) type SharedCache = Arc<Mutex<NestedCache>>;

thread_local! {
    /// The nested-hint cache, shared by the engines of every level on this thread (and
    /// by a helper thread working for them, see [`Engine::helper`]).
    static NESTED_CACHE: SharedCache = new_cache();
}

/// An empty nested-hint cache.
fn new_cache() -> SharedCache {
    Arc::new(Mutex::new(NestedCache {
        outer_cand: [0; 81],
        outer_value: [0; 81],
        hints: HashMap::new(),
    }))
}

/// This thread's nested-hint cache.
pub(crate) fn thread_cache() -> SharedCache {
    NESTED_CACHE.with(Arc::clone)
}

/// Number of distinct (cell, digit, on) potentials.
const POTS: usize = 81 * 9 * 2;
const NONE: u32 = u32::MAX;
/// A set of potentials as bits (what a static chaining reaches).
#[derive(Clone, Copy)]
struct PotBits([u64; POTS.div_ceil(64)]);

impl PotBits {
    const EMPTY: PotBits = PotBits([0; POTS.div_ceil(64)]);
    const ALL: PotBits = PotBits([u64::MAX; POTS.div_ceil(64)]);

    fn has(&self, p: Pot) -> bool {
        self.0[p.0 as usize / 64] >> (p.0 % 64) & 1 == 1
    }

    /// Adds `p`; returns whether it was absent.
    fn insert(&mut self, p: Pot) -> bool {
        let (w, bit) = (p.0 as usize / 64, 1u64 << (p.0 % 64));
        let absent = self.0[w] & bit == 0;
        self.0[w] |= bit;
        absent
    }

    fn intersect(&mut self, other: &PotBits) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= b;
        }
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
}

/// Which potentials lead to their own conjugate over a set of static links: the
/// necessary condition for a unary forcing chain from them, answered for every
/// potential at once (strongly connected components, then reach bitsets over the
/// condensation, on compact indices) instead of one search per source.
#[derive(Default)]
struct ConjugateReach {
    /// Whether each potential (by key) reaches its conjugate.
    reaches: Vec<bool>,
    // Buffers, kept across calls.
    compact: Vec<u32>,
    nodes: Vec<Pot>,
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    component: Vec<u32>,
    stack: Vec<u32>,
    calls: Vec<(u32, u32)>,
    members: Vec<u32>,
    bits: Vec<u64>,
}

impl ConjugateReach {
    /// Computes [`ConjugateReach::reaches`] for the links `adj` (those of potential `p`
    /// at `adj[range(p)]`) among the potentials `present` says exist.
    fn compute(
        &mut self,
        range: impl Fn(Pot) -> Range<usize>,
        adj: &[(Pot, Cause)],
        present: impl Fn(Pot) -> bool,
    ) {
        const NEW: u32 = u32::MAX;
        self.nodes.clear();
        self.compact.clear();
        self.compact.resize(POTS, NEW);
        for key in 0..POTS {
            let p = Pot(key as u16);
            if present(p) {
                self.compact[key] = self.nodes.len() as u32;
                self.nodes.push(p);
            }
        }
        let n = self.nodes.len();
        let words = n.div_ceil(64);
        let links = |v: u32, nodes: &[Pot]| {
            let r = range(nodes[v as usize]);
            r.start as u32..r.end as u32
        };
        self.index.clear();
        self.index.resize(n, NEW);
        self.low.clear();
        self.low.resize(n, 0);
        self.on_stack.clear();
        self.on_stack.resize(n, false);
        self.component.clear();
        self.component.resize(n, NEW);
        self.bits.clear();
        self.stack.clear();
        self.calls.clear();
        let mut counter = 0;
        let mut components = 0u32;
        // Tarjan's algorithm, iterative. A component completes after every component
        // it links to, so its reach set is finished when it completes.
        for root in 0..n as u32 {
            if self.index[root as usize] != NEW {
                continue;
            }
            let first = links(root, &self.nodes).start;
            self.open(root, first, &mut counter);
            while let Some(&(v, next)) = self.calls.last() {
                if next < links(v, &self.nodes).end {
                    self.calls.last_mut().expect("a call").1 = next + 1;
                    let w = self.compact[adj[next as usize].0.0 as usize];
                    if self.index[w as usize] == NEW {
                        let first = links(w, &self.nodes).start;
                        self.open(w, first, &mut counter);
                    } else if self.on_stack[w as usize] {
                        self.low[v as usize] = self.low[v as usize].min(self.index[w as usize]);
                    }
                    continue;
                }
                self.calls.pop();
                if let Some(&(u, _)) = self.calls.last() {
                    self.low[u as usize] = self.low[u as usize].min(self.low[v as usize]);
                }
                if self.low[v as usize] != self.index[v as usize] {
                    continue;
                }
                let c = components;
                components += 1;
                let base = self.bits.len();
                self.bits.resize(base + words, 0);
                self.members.clear();
                loop {
                    let w = self.stack.pop().expect("tarjan stack");
                    self.on_stack[w as usize] = false;
                    self.component[w as usize] = c;
                    self.bits[base + w as usize / 64] |= 1 << (w % 64);
                    self.members.push(w);
                    if w == v {
                        break;
                    }
                }
                for &w in &self.members {
                    for i in links(w, &self.nodes) {
                        let x = self.compact[adj[i as usize].0.0 as usize];
                        let d = self.component[x as usize];
                        if d != c {
                            let from = d as usize * words;
                            for j in 0..words {
                                self.bits[base + j] |= self.bits[from + j];
                            }
                        }
                    }
                }
            }
        }
        self.reaches.clear();
        self.reaches.resize(POTS, false);
        for (v, &p) in self.nodes.iter().enumerate() {
            let target = self.compact[p.conj().0 as usize];
            if target != NEW {
                let c = self.component[v] as usize;
                self.reaches[p.0 as usize] =
                    self.bits[c * words + target as usize / 64] >> (target % 64) & 1 == 1;
            }
        }
    }

    /// Tarjan's visit of `v`: numbers it, stacks it, and opens a call at its first
    /// link (`first`, an index into the links).
    fn open(&mut self, v: u32, first: u32, counter: &mut u32) {
        self.index[v as usize] = *counter;
        self.low[v as usize] = *counter;
        *counter += 1;
        self.stack.push(v);
        self.on_stack[v as usize] = true;
        self.calls.push((v, first));
    }
}

/// A potential: `((cell * 9 + digit - 1) << 1) | on`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pot(pub u16);

impl Pot {
    #[inline]
    fn new(cell: usize, digit: u8, on: bool) -> Pot {
        Pot((((cell * 9 + digit as usize - 1) << 1) | on as usize) as u16)
    }
    /// "digit is not in cell".
    #[inline]
    pub(crate) fn new_off(cell: usize, digit: u8) -> Pot {
        Pot::new(cell, digit, false)
    }
    /// The cell.
    #[inline]
    pub fn cell(self) -> usize {
        (self.0 >> 1) as usize / 9
    }
    /// The digit (1-9).
    #[inline]
    pub fn digit(self) -> u8 {
        ((self.0 >> 1) % 9) as u8 + 1
    }
    /// Whether the potential says "on".
    #[inline]
    pub fn on(self) -> bool {
        self.0 & 1 == 1
    }
    #[inline]
    fn conj(self) -> Pot {
        Pot(self.0 ^ 1)
    }
    fn text(self) -> String {
        format!(
            "r{}c{}{}{}",
            self.cell() / 9 + 1,
            self.cell() % 9 + 1,
            if self.on() { "=" } else { "<>" },
            crate::symbols::Digits::mark(self.digit())
        )
    }
}

/// Most chains of further premises a chain's text writes out. On 30 of
/// forum_hardest_1106 (every 12th), the 1,082 texts with premises off their path need
/// 4 such chains at the median, 12 at the 90th percentile, 27 at the 99th, 36 at most.
const MAX_PREMISE_CHAINS: usize = 40;

/// Why a potential follows from its first parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cause {
    /// The initial assumption.
    None,
    /// The cell rule (one value per cell).
    Cell,
    /// The house rule, in the given house (0-26).
    House(u8),
    /// A nested technique.
    Advanced,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    pot: Pot,
    /// The parent itself when there is one, else where the parents start in the
    /// arena's list.
    pstart: u32,
    plen: u32,
    cause: Cause,
    /// Index into the engine's nested hints, or NONE.
    nested: u32,
}

/// Nodes and their parent lists.
#[derive(Default)]
struct Arena {
    nodes: Vec<Node>,
    parents: Vec<u32>,
}

impl Arena {
    fn clear(&mut self) {
        self.nodes.clear();
        self.parents.clear();
    }
    /// Adds a node. A single parent (every node of unary chains) is kept in the node
    /// itself (`pstart`), so the parent list grows only for nodes with several.
    #[inline]
    fn add(&mut self, pot: Pot, parents: &[u32], cause: Cause) -> u32 {
        let pstart = if let [p] = parents {
            *p
        } else {
            let start = self.parents.len() as u32;
            self.parents.extend_from_slice(parents);
            start
        };
        self.nodes.push(Node {
            pot,
            pstart,
            plen: parents.len() as u32,
            cause,
            nested: NONE,
        });
        (self.nodes.len() - 1) as u32
    }
    #[inline]
    fn parents(&self, id: u32) -> &[u32] {
        let n = &self.nodes[id as usize];
        if n.plen == 1 {
            std::slice::from_ref(&n.pstart)
        } else {
            &self.parents[n.pstart as usize..(n.pstart + n.plen) as usize]
        }
    }
    #[inline]
    fn first_parent(&self, id: u32) -> Option<u32> {
        let n = &self.nodes[id as usize];
        match n.plen {
            0 => None,
            1 => Some(n.pstart),
            _ => Some(self.parents[n.pstart as usize]),
        }
    }
    #[inline]
    fn pot(&self, id: u32) -> Pot {
        self.nodes[id as usize].pot
    }
}

/// An insertion-ordered set of potentials that remembers the node first added for each.
struct PotSet {
    ids: Vec<u32>,
    list: Vec<u32>,
}

impl PotSet {
    fn new() -> PotSet {
        PotSet {
            ids: vec![NONE; POTS],
            list: Vec::new(),
        }
    }
    fn clear(&mut self, arena: &Arena) {
        for &id in &self.list {
            self.ids[arena.pot(id).0 as usize] = NONE;
        }
        self.list.clear();
    }
    #[inline]
    fn get(&self, pot: Pot) -> u32 {
        self.ids[pot.0 as usize]
    }
    #[inline]
    fn contains(&self, pot: Pot) -> bool {
        self.ids[pot.0 as usize] != NONE
    }
    /// Adds when absent; returns whether it was added.
    #[inline]
    fn add(&mut self, arena: &Arena, id: u32) -> bool {
        let p = arena.pot(id).0 as usize;
        if self.ids[p] == NONE {
            self.ids[p] = id;
            self.list.push(id);
            true
        } else {
            false
        }
    }
}

/// The chaining from one "on" source: what it turns on and off, and the contradiction
/// (an on and an off node of one potential) that stopped it, if any.
struct Chained {
    source: Pot,
    on: PotSet,
    off: PotSet,
    clash: Option<(u32, u32)>,
}

/// The work space of one chaining: queues of nodes to expand, the implications of the
/// node in hand, and hidden parents (ranges into `hidden`).
#[derive(Default)]
struct ChainBuffers {
    pending_on: VecDeque<u32>,
    pending_off: VecDeque<u32>,
    off: Vec<(Pot, Cause)>,
    on: Vec<(Pot, Cause, Range<u32>)>,
    hidden: Vec<u32>,
    parents: Vec<u32>,
    /// [`Engine::advanced`]'s removals, their parents at `advanced_parents[range]`.
    advanced: Vec<(Pot, Range<u32>, u32)>,
    advanced_parents: Vec<u32>,
}

/// Which chaining technique to run (SE's `Chaining` constructor arguments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    /// Cell and region forcing chains.
    pub multiple: bool,
    /// Candidates turned off are removed from the work grid as the chain grows.
    pub dynamic: bool,
    /// Single-digit contradiction chains.
    pub nishio: bool,
    /// Nesting level (0 = none; 1 = + basic techniques; 2 = + forcing chains; 3 = +
    /// multiple forcing chains; 4+ = + dynamic forcing chains).
    pub level: u8,
}

impl Mode {
    /// Bidirectional cycles and forcing X-/XY-chains (6.5-7.x).
    pub const UNARY: Mode = Mode {
        multiple: false,
        dynamic: false,
        nishio: false,
        level: 0,
    };
    /// Nishio forcing chains (7.5+).
    pub const NISHIO: Mode = Mode {
        multiple: false,
        dynamic: true,
        nishio: true,
        level: 0,
    };
    /// Static cell and region forcing chains (8.0+).
    pub const MULTIPLE: Mode = Mode {
        multiple: true,
        dynamic: false,
        nishio: false,
        level: 0,
    };
    /// Dynamic forcing chains at a nesting level (8.5 + 0.5 per level; 9.5 + 0.5 per
    /// level from level 2).
    pub const fn dynamic(level: u8) -> Mode {
        Mode {
            multiple: true,
            dynamic: true,
            nishio: false,
            level,
        }
    }

    /// Base difficulty in tenths (for the multiple/dynamic/Nishio techniques).
    fn base(self) -> u16 {
        if self.level >= 2 {
            95 + 5 * (self.level as u16 - 2)
        } else if self.level > 0 {
            85 + 5 * self.level as u16
        } else if self.nishio {
            75
        } else if self.dynamic {
            85
        } else {
            80
        }
    }
}

/// SE's length increment: +0.1 for each bracket the length exceeds.
pub fn length_increment(complexity: u32) -> u16 {
    let length = complexity as i64 - 2;
    let mut ceil: i64 = 4;
    let mut added = 0;
    let mut odd = false;
    while length > ceil {
        added += 1;
        ceil = if !odd { ceil * 3 / 2 } else { ceil * 4 / 3 };
        odd = !odd;
    }
    added
}

/// Kinds of hints (SE's hint classes), with SE's sort keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Cycle { x: bool, y: bool },
    Forcing { x: bool, y: bool },
    Reduction,
    Cell,
    Region,
    Contradiction,
}

impl Kind {
    fn sort_key(self) -> u8 {
        match self {
            Kind::Cycle { x, y } | Kind::Forcing { x, y } => match (x, y) {
                (true, true) => 4,
                (false, true) => 3,
                _ => 2,
            },
            Kind::Reduction => 1,
            Kind::Cell => 5,
            Kind::Region => 6,
            Kind::Contradiction => 7,
        }
    }
}

/// A deduction found by the engine, before it becomes a [`Step`].
#[derive(Clone, Debug)]
pub struct Hint {
    kind: KindPub,
    /// Rating in tenths.
    pub rating: u16,
    /// SE's complexity (ancestor count, plus nested complexity).
    pub complexity: u32,
    sort_key: u8,
    /// Eliminations (cell, digit).
    pub eliminations: Vec<(usize, u8)>,
    /// Placement, if the hint sets a cell (SE's `getCell`).
    pub placement: Option<(usize, u8)>,
    /// Source cell / candidate of the hint.
    source: Pot,
    /// A cell or region forcing chain's branches (the cell's candidates, the digit's
    /// places in the house), and the house: named in the step, not only the first.
    branches: Vec<Pot>,
    house: Option<u8>,
    /// Text lines describing the chains.
    pub detail: Vec<String>,
    /// Title in SE's words.
    pub name: String,
    technique: Technique,
    /// Rule parents against an outer grid (for nesting): candidates the hint relies on
    /// having been removed.
    pub rule_parents: Vec<Pot>,
    /// SE's `FullChain` identity of a nested hint: its targets and the potentials of
    /// each target's chain in breadth-first order, hashed. Nested complexity counts
    /// hints with equal chains once.
    chain_key: u64,
}

/// Public mirror of [`Kind`] kept in hints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KindPub {
    Chain,
}

impl Hint {
    /// SE's sort key: (rating, complexity, sort key); of equal keys the first wins.
    fn key(&self) -> Key {
        (self.rating, self.complexity, self.sort_key)
    }

    /// The hint as a step.
    pub fn to_step(&self) -> Step {
        let mut step = Step::new(self.technique);
        step.rating = self.rating;
        step.eliminations = self.eliminations.clone();
        if let Some(p) = self.placement {
            step.placements = vec![p];
        }
        step.cells = vec![self.source.cell()];
        step.digits = vec![self.source.digit()];
        if let Some(h) = self.house {
            step.houses = vec![h as usize];
            step.cells = self.branches.iter().map(|p| p.cell()).collect();
        } else if !self.branches.is_empty() {
            step.digits = self.branches.iter().map(|p| p.digit()).collect();
        }
        step.detail = self.detail.clone();
        step.name = Some(self.name.clone());
        let _ = self.kind;
        step
    }
}

/// Keeps the first hint with the smallest (rating, complexity, sort key), as SE's stable
/// sort followed by "take the first" does; or every hint that matters, for nesting.
enum Sink<'a> {
    Best(Option<Hint>),
    All(&'a mut AllHints),
}

/// A hint's sort key: (rating, complexity, sort key).
type Key = (u16, u32, u8);

/// The hints of a nested search. An outer chain takes each removal from the first hint
/// (in SE's order) that makes it, so a hint whose every removal an earlier kept hint
/// makes with a key no larger is never used: it is not kept. `best` holds, per
/// candidate (`cell * 9 + digit - 1`), the smallest key of a kept hint removing it.
struct AllHints {
    list: Vec<Hint>,
    best: Vec<Key>,
}

impl AllHints {
    fn new() -> AllHints {
        AllHints {
            list: Vec::new(),
            best: vec![(u16::MAX, u32::MAX, u8::MAX); 81 * 9],
        }
    }

    /// Whether a hint with this key would make one of `eliminations` first.
    fn improves(&self, key: Key, eliminations: &[(usize, u8)]) -> bool {
        eliminations
            .iter()
            .any(|&(c, d)| key < self.best[c * 9 + d as usize - 1])
    }

    fn keep(&mut self, hint: Hint) {
        let key = hint.key();
        for &(c, d) in &hint.eliminations {
            let best = &mut self.best[c * 9 + d as usize - 1];
            *best = (*best).min(key);
        }
        self.list.push(hint);
    }

    /// The kept hints in SE's order (a stable sort by key), less those that a hint
    /// kept after them made useless: each hint left makes some removal first.
    fn into_sorted(mut self) -> Vec<Hint> {
        self.list.sort_by_key(Hint::key);
        let mut claimed = [false; 81 * 9];
        self.list.retain(|h| {
            let mut first = false;
            for &(c, d) in &h.eliminations {
                let k = c * 9 + d as usize - 1;
                if !claimed[k] {
                    claimed[k] = true;
                    first = true;
                }
            }
            first
        });
        self.list
    }
}

/// The best hint's key so far, for bounding searches: a hint replaces it only with a
/// strictly smaller (rating, complexity, sort key), as SE's stable sort keeps the first
/// of equal keys.
#[derive(Clone, Copy)]
struct BestKey {
    best: Option<Key>,
}

impl BestKey {
    /// Whether a hint with this key could still be kept.
    #[inline]
    fn admits(self, rating: u16, complexity: u32, sort_key: u8) -> bool {
        self.best.is_none_or(|b| (rating, complexity, sort_key) < b)
    }
}

/// Where the links of potential `p` in mode `m` (0: X only, 1: Y only, 2: both) sit
/// among the links built by [`Engine::build_adjacency`]: with X-links alone, the house
/// links (after `mid`); with Y-links alone, an on-potential's every link (house links
/// always turn a digit's other places off) but an off-potential's cell link only.
#[inline]
fn link_range(start: &[u32], mid: &[u32], m: usize, p: Pot) -> Range<usize> {
    let k = p.0 as usize;
    let (a, b, c) = (start[k] as usize, mid[k] as usize, start[k + 1] as usize);
    match m {
        0 => b..c,
        1 if !p.on() => a..b,
        _ => a..c,
    }
}

/// The chaining engine: reusable buffers for one mode.
pub struct Engine {
    mode: Mode,
    arena: Arena,
    pool: Vec<PotSet>,
    /// Work grid (modified by dynamic chains) and its copy at the start of a chain.
    work: Board,
    save: Board,
    stamp: Vec<u32>,
    generation: u32,
    /// Marks of the potentials one link before a search's target (their own epoch).
    near: Vec<u32>,
    near_generation: u32,
    /// Marks of [`Engine::mark_useful`].
    reach: Vec<u32>,
    reach_generation: u32,
    todo: Vec<u32>,
    /// Scratch for [`Engine::created_tails`].
    tails: Vec<Pot>,
    /// Static implications of the work grid, in SE's order: those of potential `k` at
    /// `adj[adj_start[k]..adj_start[k + 1]]`, cell links (before `adj_mid[k]`) ahead of
    /// house links, so each mode's links are one slice of them ([`link_range`]).
    adj: Vec<(Pot, Cause)>,
    adj_start: Vec<u32>,
    adj_mid: Vec<u32>,
    /// Scratch for the off → on links of [`Engine::build_adjacency`].
    adj_on: Vec<(Pot, Cause, Range<u32>)>,
    /// Per mode, which potentials the static links lead to their conjugate, and
    /// whether that is computed for the current links (see [`Engine::reaches_conjugate`]).
    conjugate_reach: [ConjugateReach; 3],
    conjugate_reach_ready: [bool; 3],
    scratch_a: Vec<u32>,
    scratch_b: Vec<u32>,
    scratch_e: Vec<u32>,
    scratch_f: Vec<u32>,
    /// Nested hints referenced by advanced potentials (level >= 2).
    nested: Vec<Arc<Hint>>,
    /// The outer grid for rule parents, when this engine runs nested.
    outer: Option<Board>,
    /// Nested engines, kept for reuse.
    inner: Vec<Engine>,
    /// Queues and buffers of [`Engine::do_chaining`], kept across calls.
    chain_buffers: ChainBuffers,
    /// The chainings of the current cell and region chains run (see
    /// [`Engine::on_chaining`]), and where each source's sits (`NONE`: not yet).
    chains: Vec<Chained>,
    chain_of: Vec<u32>,
    /// What static chainings reach in the current run ([`Engine::reached`]), and where
    /// each source's sits (`NONE`: not yet).
    reach_sets: Vec<PotBits>,
    reach_of: Vec<u32>,
    /// When to stop searching (the caller discards a result found after it).
    pub(crate) deadline: Option<std::time::Instant>,
    /// Set when a helper's work is no longer wanted: like a passed deadline.
    cancel: Option<Arc<AtomicBool>>,
    /// The nested-hint cache to use instead of this thread's (a helper's).
    cache: Option<SharedCache>,
    /// Cells in reverse order (a helper, filling the cache from the other end).
    reverse: bool,
}

impl Engine {
    /// An engine for `mode`.
    pub fn new(mode: Mode) -> Engine {
        let empty = Board::empty();
        Engine {
            mode,
            arena: Arena::default(),
            pool: Vec::new(),
            work: empty.clone(),
            save: empty,
            stamp: vec![0; POTS],
            generation: 0,
            near: vec![0; POTS],
            near_generation: 0,
            reach: vec![0; POTS],
            reach_generation: 0,
            todo: Vec::new(),
            tails: Vec::new(),
            adj_on: Vec::new(),
            conjugate_reach: Default::default(),
            conjugate_reach_ready: [false; 3],
            adj: Vec::new(),
            adj_start: vec![0; POTS + 1],
            adj_mid: vec![0; POTS],
            scratch_a: Vec::new(),
            scratch_b: Vec::new(),
            scratch_e: Vec::new(),
            scratch_f: Vec::new(),
            nested: Vec::new(),
            outer: None,
            inner: Vec::new(),
            chain_buffers: ChainBuffers::default(),
            chains: Vec::new(),
            chain_of: vec![NONE; POTS],
            reach_sets: Vec::new(),
            reach_of: vec![NONE; POTS],
            deadline: None,
            cancel: None,
            cache: None,
            reverse: false,
        }
    }

    /// A helper for an engine of `mode` running on another thread: it searches the
    /// same grid from the other end, sharing `cache`, only to fill the cache with
    /// the nested hints the main engine will ask for later; `cancel` stops it.
    /// The main engine's answers do not change: a cache entry is what the main engine
    /// would have computed itself, and a search cut short is never cached.
    pub(crate) fn helper(mode: Mode, cache: SharedCache, cancel: Arc<AtomicBool>) -> Engine {
        let mut e = Engine::new(mode);
        e.cache = Some(cache);
        e.cancel = Some(cancel);
        e.reverse = true;
        e
    }

    fn take_set(&mut self) -> PotSet {
        self.pool.pop().unwrap_or_else(PotSet::new)
    }

    fn give_set(&mut self, mut s: PotSet) {
        s.clear(&self.arena);
        self.pool.push(s);
    }

    /// The best hint (SE's first after sorting) on `b`, as a step.
    pub fn find(&mut self, b: &Board) -> Option<Step> {
        let mut sink = Sink::Best(None);
        self.run(b, &mut sink);
        match sink {
            Sink::Best(h) => h.map(|h| h.to_step()),
            Sink::All(_) => None,
        }
    }

    /// Every hint on `b`, sorted as SE sorts them, with rule parents against `outer`.
    pub fn all(&mut self, b: &Board, outer: &Board) -> Vec<Hint> {
        let mut out = AllHints::new();
        self.outer = Some(outer.clone());
        {
            let mut sink = Sink::All(&mut out);
            self.run(b, &mut sink);
        }
        self.outer = None;
        out.into_sorted()
    }

    fn run(&mut self, b: &Board, sink: &mut Sink) {
        self.work = b.clone();
        if self.mode.multiple || self.mode.dynamic {
            if !self.mode.dynamic && !self.mode.nishio {
                // The static links, for `reached`.
                self.build_adjacency();
            }
            self.multiple_chains(sink);
        } else {
            // Nested, only chains through a link an outer removal created count: without
            // such links (a third of the nested runs on the hardest puzzles), nothing.
            let created = match sink {
                Sink::All(_) => self.created_links(),
                Sink::Best(_) => (true, true),
            };
            if created == (false, false) {
                return;
            }
            // One round without a rating limit: the first hints found bound the rest
            // of the search (rounds of increasing limits were tried and cost more).
            self.build_adjacency();
            for (y, x) in [(false, true), (true, false), (true, true)] {
                let base = if x && y { 70 } else { 65 };
                // X-links come from houses, Y-links from cells.
                if base > self.bound(sink) || !((x && created.1) || (y && created.0)) {
                    continue;
                }
                // Mode 0 has X-links only, mode 1 Y-links only, mode 2 both.
                let m = if x && y {
                    2
                } else if y {
                    1
                } else {
                    0
                };
                let useful = match sink {
                    Sink::All(_) if self.outer.is_some() => Some(self.mark_useful(m)),
                    _ => None,
                };
                // Nested runs are short and many: the clock is read once a mode.
                if self.expired() {
                    break;
                }
                for cell in 0..81 {
                    let cand = self.work.cand[cell];
                    if board::at_most_one(CellSet::from(cand)) {
                        continue;
                    }
                    for d in board::digits(cand) {
                        let p = Pot::new(cell, d, true);
                        // Nothing starts from a source useless both ways.
                        if self.useful(useful, p) || self.useful(useful, p.conj()) {
                            self.unary(p, y, x, useful, sink);
                        }
                    }
                }
            }
        }
        self.arena.clear();
        self.nested.clear();
    }

    // ---------------------------------------------------------------- rules

    /// Builds the static implications of the work grid in SE's order, for every mode
    /// at once (see [`Engine::adj`]).
    fn build_adjacency(&mut self) {
        let mut all = std::mem::take(&mut self.adj);
        let mut tmp_on = std::mem::take(&mut self.adj_on);
        let mut no_parents = Vec::new();
        let empty = PotSet {
            ids: Vec::new(),
            list: Vec::new(),
        };
        all.clear();
        for key in 0..POTS {
            let start = all.len();
            self.adj_start[key] = start as u32;
            let p = Pot(key as u16);
            if self.work.has(p.cell(), p.digit()) {
                if p.on() {
                    self.on_to_off(p, true, &mut all);
                } else {
                    tmp_on.clear();
                    self.off_to_on(p, true, true, false, &empty, &mut tmp_on, &mut no_parents);
                    all.extend(tmp_on.iter().map(|&(q, cause, _)| (q, cause)));
                }
            }
            let cell_links = all[start..].iter().take_while(|e| e.1 == Cause::Cell);
            self.adj_mid[key] = (start + cell_links.count()) as u32;
        }
        self.adj_start[POTS] = all.len() as u32;
        self.adj = all;
        self.adj_on = tmp_on;
        self.conjugate_reach_ready = [false; 3];
    }

    /// Whether the links of mode `m` lead from `p` to its conjugate, answered for every
    /// potential at once on first use ([`ConjugateReach`]).
    fn reaches_conjugate(&mut self, m: usize, p: Pot) -> bool {
        if !self.conjugate_reach_ready[m] {
            let (work, start, mid) = (&self.work, &self.adj_start, &self.adj_mid);
            self.conjugate_reach[m].compute(
                |q| link_range(start, mid, m, q),
                &self.adj,
                |q| work.has(q.cell(), q.digit()),
            );
            self.conjugate_reach_ready[m] = true;
        }
        self.conjugate_reach[m].reaches[p.0 as usize]
    }

    /// Off-potentials implied by an on-potential (SE `getOnToOff`): other digits of the
    /// cell (with Y-links), then the digit's other places in the box, the row outside
    /// the box, the column outside the box.
    fn on_to_off(&self, p: Pot, y: bool, out: &mut Vec<(Pot, Cause)>) {
        let t = board::tables();
        let (cell, d) = (p.cell(), p.digit());
        let g = &self.work;
        if y {
            for e in board::digits(g.cand[cell] & !(1 << (d - 1))) {
                out.push((Pot::new(cell, e, false), Cause::Cell));
            }
        }
        let dc = g.digit(d) & !(1u128 << cell);
        let [r, c, bx] = t.houses_of[cell];
        let bcells = t.house[bx as usize];
        for x in board::cells(dc & bcells) {
            out.push((Pot::new(x, d, false), Cause::House(bx)));
        }
        for x in board::cells(dc & t.house[r as usize] & !bcells) {
            out.push((Pot::new(x, d, false), Cause::House(r)));
        }
        for x in board::cells(dc & t.house[c as usize] & !bcells) {
            out.push((Pot::new(x, d, false), Cause::House(c)));
        }
    }

    /// On-potentials implied by an off-potential (SE `getOffToOn`), each with its hidden
    /// parents (candidates of the cell/house removed earlier in a dynamic chain, looked
    /// up in `to_off`). `hidden` is false for static chains (no removals).
    #[allow(clippy::too_many_arguments)]
    fn off_to_on(
        &self,
        p: Pot,
        y: bool,
        x: bool,
        hidden: bool,
        to_off: &PotSet,
        out: &mut Vec<(Pot, Cause, Range<u32>)>,
        parents: &mut Vec<u32>,
    ) {
        let t = board::tables();
        let (cell, d) = (p.cell(), p.digit());
        let g = &self.work;
        if y {
            let cand = g.cand[cell];
            if board::is_digit_pair(cand) {
                let other = board::digits(cand & !(1 << (d - 1))).next();
                if let Some(e) = other {
                    let start = parents.len() as u32;
                    if hidden {
                        let removed = self.save.cand[cell] & !cand;
                        for v in board::digits(removed) {
                            let id = to_off.get(Pot::new(cell, v, false));
                            debug_assert!(id != NONE, "hidden parent not found");
                            if id != NONE {
                                parents.push(id);
                            }
                        }
                    }
                    let hp = start..parents.len() as u32;
                    out.push((Pot::new(cell, e, true), Cause::Cell, hp));
                }
            }
        }
        if x {
            let [r, c, bx] = t.houses_of[cell];
            for h in [bx, r, c] {
                let hm = t.house[h as usize];
                let pos = g.digit(d) & hm;
                if board::is_pair(pos) {
                    let other = board::first(pos & !(1u128 << cell));
                    let pot = Pot::new(other, d, true);
                    if out.iter().any(|o| o.0 == pot) {
                        continue;
                    }
                    let start = parents.len() as u32;
                    if hidden {
                        let removed = self.save.digit(d) & hm & !pos;
                        for z in board::cells(removed) {
                            let id = to_off.get(Pot::new(z, d, false));
                            debug_assert!(id != NONE, "hidden parent not found");
                            if id != NONE {
                                parents.push(id);
                            }
                        }
                    }
                    let hp = start..parents.len() as u32;
                    out.push((pot, Cause::House(h), hp));
                }
            }
        }
    }

    /// SE's `getComplexity` of a hint with these targets: for each target, the distinct
    /// potentials among its ancestors (itself included), plus the complexities of the
    /// nested hints among them (`getNestedComplexity`), hints with equal chains counted
    /// once. Each target is walked on its own: a potential two branches reach is a
    /// different node in each, possibly with a different nested hint.
    fn complexity(&mut self, targets: &[u32]) -> u32 {
        let mut seen: Vec<u64> = Vec::new();
        let mut sum = 0;
        let mut todo = std::mem::take(&mut self.todo);
        for &target in targets {
            self.generation += 1;
            let epoch = self.generation;
            todo.clear();
            todo.push(target);
            while let Some(n) = todo.pop() {
                let p = self.arena.pot(n).0 as usize;
                if self.stamp[p] == epoch {
                    continue;
                }
                self.stamp[p] = epoch;
                sum += 1;
                let nested = self.arena.nodes[n as usize].nested;
                if nested != NONE {
                    let hint = &self.nested[nested as usize];
                    if !seen.contains(&hint.chain_key) {
                        seen.push(hint.chain_key);
                        sum += hint.complexity;
                    }
                }
                todo.extend_from_slice(self.arena.parents(n));
            }
        }
        self.todo = todo;
        sum
    }

    /// The [`Hint::chain_key`] of a hint with these targets: each target's chain in
    /// SE's `getChain` order (breadth first, first node of each potential), hashed.
    fn chain_key(&mut self, targets: &[u32]) -> u64 {
        const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;
        let mix = |h: u64, v: u64| (h.rotate_left(5) ^ v).wrapping_mul(MULTIPLIER);
        let mut hash = 0u64;
        let mut level: Vec<u32> = Vec::new();
        let mut next: Vec<u32> = Vec::new();
        for &target in targets {
            self.generation += 1;
            let epoch = self.generation;
            hash = mix(hash, u64::MAX);
            level.clear();
            level.push(target);
            while !level.is_empty() {
                next.clear();
                for &n in &level {
                    let p = self.arena.pot(n).0 as usize;
                    if self.stamp[p] == epoch {
                        continue;
                    }
                    self.stamp[p] = epoch;
                    hash = mix(hash, p as u64);
                    next.extend_from_slice(self.arena.parents(n));
                }
                std::mem::swap(&mut level, &mut next);
            }
        }
        hash
    }

    // ---------------------------------------------------------------- unary chains

    /// The implications of `p` in mode `m` (0: X, 1: Y, 2: both).
    #[inline]
    fn edges(&self, m: usize, p: Pot) -> &[(Pot, Cause)] {
        &self.adj[self.edge_range(m, p)]
    }

    /// Where the implications of `p` in mode `m` sit in `adj`: for loops that add nodes
    /// to the arena while they walk the links (a slice would hold `self`).
    #[inline]
    fn edge_range(&self, m: usize, p: Pot) -> Range<usize> {
        link_range(&self.adj_start, &self.adj_mid, m, p)
    }

    /// Marks the potentials with a link to `target` in mode `m`, returning the epoch of
    /// the marks. The links are contrapositive pairs (a → b with ¬b → ¬a, same rule),
    /// so they are the conjugates of what `target`'s conjugate implies.
    fn mark_near(&mut self, m: usize, target: Pot) -> u32 {
        self.near_generation += 1;
        let epoch = self.near_generation;
        for i in self.edge_range(m, target.conj()) {
            let q = self.adj[i].0.conj();
            self.near[q.0 as usize] = epoch;
        }
        epoch
    }

    /// The rule of the link from `p` to `q` in mode `m` (known to exist).
    fn cause_of(&self, m: usize, p: Pot, q: Pot) -> Cause {
        let found = self.edges(m, p).iter().find(|e| e.0 == q);
        debug_assert!(found.is_some(), "no link {p:?} -> {q:?}");
        found.map_or(Cause::None, |e| e.1)
    }

    /// The key a new hint must beat (see [`Engine::better`]).
    fn best_key(&self, sink: &Sink) -> BestKey {
        BestKey {
            best: match sink {
                Sink::Best(Some(h)) => Some(h.key()),
                _ => None,
            },
        }
    }

    /// The rating a new hint must not exceed to matter (u16::MAX when collecting all).
    fn bound(&self, sink: &Sink) -> u16 {
        match sink {
            Sink::Best(Some(h)) => h.rating,
            Sink::Best(None) | Sink::All(_) => u16::MAX,
        }
    }

    /// Nested (an outer grid is set), a hint is kept only when one of its "on"
    /// potentials follows by a link that an outer removal created (SE's rule
    /// parents). Marks, with the returned epoch, the conjugates of the potentials that
    /// can reach such a link in mode `m`: a search from a potential whose conjugate is
    /// unmarked finds no hint worth keeping. (p reaches the link's tail z exactly when
    /// ¬z reaches ¬p: links come in contrapositive pairs.)
    fn mark_useful(&mut self, m: usize) -> u32 {
        self.reach_generation += 1;
        let epoch = self.reach_generation;
        let mut todo = std::mem::take(&mut self.todo);
        todo.clear();
        let mut tails = std::mem::take(&mut self.tails);
        tails.clear();
        // Mode 0 has X-links only, mode 1 Y-links only.
        self.created_tails(m != 0, m != 1, &mut tails);
        for &z in &tails {
            if self.reach[z.conj().0 as usize] != epoch {
                self.reach[z.conj().0 as usize] = epoch;
                todo.push(z.conj().0 as u32);
            }
        }
        self.tails = tails;
        while let Some(u) = todo.pop() {
            for i in self.edge_range(m, Pot(u as u16)) {
                let v = self.adj[i].0.0 as usize;
                if self.reach[v] != epoch {
                    self.reach[v] = epoch;
                    todo.push(v as u32);
                }
            }
        }
        self.todo = todo;
        epoch
    }

    /// The tails (off-potentials) of the links the outer removals created: Y-links
    /// (`cells`) of bivalue cells that lost a candidate, X-links (`houses`) of digits
    /// with two places left in a house that lost one. SE's rule parents of a nested
    /// unary chain come from these links.
    fn created_tails(&self, cells: bool, houses: bool, out: &mut Vec<Pot>) {
        let t = board::tables();
        let (outer, work) = (self.outer.as_ref().expect("nested"), &self.work);
        if cells {
            for c in 0..81 {
                let cand = work.cand[c];
                if board::is_digit_pair(cand) && outer.cand[c] & !cand != 0 {
                    out.extend(board::digits(cand).map(|d| Pot::new(c, d, false)));
                }
            }
        }
        if houses {
            for d in 1..=9u8 {
                let gone = outer.digit(d) & !work.digit(d);
                if gone == 0 {
                    continue;
                }
                for &h in t.house_sets() {
                    let pos = work.digit(d) & h;
                    if gone & h != 0 && board::is_pair(pos) {
                        out.extend(board::cells(pos).map(|x| Pot::new(x, d, false)));
                    }
                }
            }
        }
    }

    /// Whether the outer removals created (Y, X) links ([`Engine::created_tails`]).
    fn created_links(&mut self) -> (bool, bool) {
        let mut tails = std::mem::take(&mut self.tails);
        tails.clear();
        self.created_tails(true, false, &mut tails);
        let cells = !tails.is_empty();
        tails.clear();
        self.created_tails(false, true, &mut tails);
        let houses = !tails.is_empty();
        self.tails = tails;
        (cells, houses)
    }

    /// Whether a search from `p` can find a hint worth keeping (see
    /// [`Engine::mark_useful`]).
    #[inline]
    fn useful(&self, useful: Option<u32>, p: Pot) -> bool {
        useful.is_none_or(|e| self.reach[p.conj().0 as usize] == e)
    }

    fn unary(&mut self, source: Pot, y: bool, x: bool, useful: Option<u32>, sink: &mut Sink) {
        if self.work.cand[source.cell()].count_ones() > 2 && !x {
            return; // Y-cycles start from bivalue cells only
        }
        let mark = self.arena.nodes.len();
        let pmark = self.arena.parents.len();
        let src = self.arena.add(source, &[], Cause::None);
        // Cycles close, and chains from "source off" end, on a link into "source on":
        // there is none when "source off" implies nothing (contrapositive links).
        let m = if x && y {
            2
        } else if y {
            1
        } else {
            0
        };
        let linked = !self.edges(m, source.conj()).is_empty();
        let (from_on, from_off) = (
            self.useful(useful, source),
            self.useful(useful, source.conj()),
        );
        // Cycles. Nested, one through a created link z → h returns to the source from
        // h: the source is useful both ways (it reaches z, and h reaches it).
        let mut cycles = std::mem::take(&mut self.scratch_e);
        cycles.clear();
        if linked && from_on && from_off {
            let mut to_on = self.take_set();
            to_on.add(&self.arena, src);
            let best = self.best_key(sink);
            self.do_cycles(&mut to_on, y, x, src, best, &mut cycles);
            self.give_set(to_on);
        }
        let mut chains = std::mem::take(&mut self.scratch_f);
        chains.clear();
        if x {
            for start_on in [true, false] {
                let wanted = if start_on {
                    from_on
                } else {
                    linked && from_off
                };
                // A forcing chain from p ends on its conjugate: no search when the
                // static links cannot get there. Every source asks at the top level,
                // so all are answered at once; nested searches ask for the few
                // `useful` sources, one search each.
                let from = if start_on { source } else { source.conj() };
                if !wanted {
                    continue;
                }
                let reachable = if useful.is_none() {
                    self.reaches_conjugate(m, from)
                } else {
                    self.reaches(m, from, from.conj())
                };
                if !reachable {
                    continue;
                }
                let mut to_on = self.take_set();
                let mut to_off = self.take_set();
                let start = if start_on {
                    to_on.add(&self.arena, src);
                    src
                } else {
                    let off = self.arena.add(source.conj(), &[], Cause::None);
                    to_off.add(&self.arena, off);
                    off
                };
                let best = self.best_key(sink);
                self.do_forcing_chains(&mut to_on, &mut to_off, y, start, best, &mut chains);
                self.give_set(to_on);
                self.give_set(to_off);
            }
        }
        for &dst in &cycles {
            self.cycle_hint(dst, y, x, sink);
        }
        for &target in &chains {
            self.forcing_hint(target, y, x, sink);
        }
        self.scratch_e = cycles;
        self.scratch_f = chains;
        // Nodes of this source are not needed any more (hints keep their own text).
        self.arena.nodes.truncate(mark);
        self.arena.parents.truncate(pmark);
    }

    /// Whether the links of mode `m` lead from `from` to `target` (a search without
    /// nodes, on the `stamp` marks).
    fn reaches(&mut self, m: usize, from: Pot, target: Pot) -> bool {
        self.generation += 1;
        let epoch = self.generation;
        let mut todo = std::mem::take(&mut self.todo);
        todo.clear();
        todo.push(from.0 as u32);
        self.stamp[from.0 as usize] = epoch;
        let mut found = false;
        'search: while let Some(p) = todo.pop() {
            for i in self.edge_range(m, Pot(p as u16)) {
                let q = self.adj[i].0;
                if q == target {
                    found = true;
                    break 'search;
                }
                if self.stamp[q.0 as usize] != epoch {
                    self.stamp[q.0 as usize] = epoch;
                    todo.push(q.0 as u32);
                }
            }
        }
        self.todo = todo;
        found
    }

    #[allow(clippy::too_many_arguments)]
    fn do_cycles(
        &mut self,
        to_on: &mut PotSet,
        y: bool,
        x: bool,
        source: u32,
        best: BestKey,
        cycles: &mut Vec<u32>,
    ) {
        let source_pot = self.arena.pot(source);
        let m = if x && y {
            2
        } else if y {
            1
        } else {
            0
        };
        let mut on_list = std::mem::take(&mut self.scratch_a);
        let mut off_list = std::mem::take(&mut self.scratch_b);
        on_list.clear();
        off_list.clear();
        on_list.extend_from_slice(&to_on.list);
        let mut length = 0;
        // A cycle closed at phase p has exactly p distinct potentials (the first-parent
        // path has no repeats): stop when such a hint could not replace the best so far.
        let base = if x && y { 70 } else { 65 };
        let sort_key = Kind::Cycle { x, y }.sort_key();
        while !on_list.is_empty() || !off_list.is_empty() {
            if !best.admits(base + length_increment(length + 2), length + 2, sort_key) {
                break;
            }
            if !best.admits(base + length_increment(length + 4), length + 4, sort_key) {
                // The last round: only the off-potentials linked back to the source
                // matter (the cycles closed now); the rest of the round is skipped.
                if length + 2 >= 4 {
                    self.close_cycles(&on_list, m, source_pot, cycles);
                }
                break;
            }
            length += 1;
            for &p in on_list.iter() {
                let links = self.edge_range(m, self.arena.pot(p));
                // Mark p's strict first-parent ancestors once (SE `isParent`).
                self.generation += 1;
                let epoch = self.generation;
                let mut cur = p;
                while let Some(q) = self.arena.first_parent(cur) {
                    self.stamp[self.arena.pot(q).0 as usize] = epoch;
                    cur = q;
                }
                for ei in links {
                    let (pot, cause) = self.adj[ei];
                    if self.stamp[pot.0 as usize] != epoch {
                        // Off-potentials repeat in cycles (SE keeps them all): no set.
                        off_list.push(self.arena.add(pot, &[p], cause));
                    }
                }
            }
            on_list.clear();
            length += 1;
            for &p in off_list.iter() {
                let links = self.edge_range(m, self.arena.pot(p));
                for ei in links {
                    let (pot, cause) = self.adj[ei];
                    let is_source = length >= 4 && pot == source_pot;
                    let fresh = !to_on.contains(pot);
                    if is_source || fresh {
                        let id = self.arena.add(pot, &[p], cause);
                        if is_source {
                            cycles.push(id);
                        }
                        if fresh {
                            on_list.push(id);
                            to_on.add(&self.arena, id);
                        }
                    }
                }
            }
            off_list.clear();
        }
        self.scratch_a = on_list;
        self.scratch_b = off_list;
    }

    /// The last round of [`Engine::do_cycles`]: from each on-potential of `on_list`
    /// (in order), the links to off-potentials that imply `source` and are not among
    /// its first-parent ancestors (SE `isParent`) close a cycle, in the order the full
    /// round would find them.
    fn close_cycles(&mut self, on_list: &[u32], m: usize, source: Pot, cycles: &mut Vec<u32>) {
        let near = self.mark_near(m, source);
        for &p in on_list {
            let links = self.edge_range(m, self.arena.pot(p));
            let mut epoch = None;
            for ei in links {
                let (pot, cause) = self.adj[ei];
                if self.near[pot.0 as usize] != near {
                    continue;
                }
                let epoch = *epoch.get_or_insert_with(|| {
                    self.generation += 1;
                    let epoch = self.generation;
                    let mut cur = p;
                    while let Some(q) = self.arena.first_parent(cur) {
                        self.stamp[self.arena.pot(q).0 as usize] = epoch;
                        cur = q;
                    }
                    epoch
                });
                if self.stamp[pot.0 as usize] != epoch {
                    let off = self.arena.add(pot, &[p], cause);
                    let back = self.cause_of(m, pot, source);
                    let id = self.arena.add(source, &[off], back);
                    cycles.push(id);
                }
            }
        }
    }

    /// SE `doForcingChains` from one assumption: breadth-first until the source's
    /// conjugate is implied (the only hit possible, recorded once, so the search ends
    /// there) or the depth where such a hint could not replace the best so far.
    #[allow(clippy::too_many_arguments)]
    fn do_forcing_chains(
        &mut self,
        to_on: &mut PotSet,
        to_off: &mut PotSet,
        y: bool,
        source: u32,
        best: BestKey,
        chains: &mut Vec<u32>,
    ) {
        let target = self.arena.pot(source).conj();
        let m = if y { 2 } else { 0 };
        let base = if y { 70 } else { 66 };
        let sort_key = Kind::Forcing { x: true, y }.sort_key();
        let mut phase = 0u32;
        let mut pending_on = std::mem::take(&mut self.scratch_a);
        let mut pending_off = std::mem::take(&mut self.scratch_b);
        pending_on.clear();
        pending_off.clear();
        pending_on.extend_from_slice(&to_on.list);
        pending_off.extend_from_slice(&to_off.list);
        // The target is hit at phase p with p potentials on the path.
        'search: while !pending_on.is_empty() || !pending_off.is_empty() {
            if !best.admits(base + length_increment(phase + 2), phase + 2, sort_key) {
                break;
            }
            if !best.admits(base + length_increment(phase + 4), phase + 4, sort_key) {
                self.last_forcing_round(&pending_on, &pending_off, to_off, m, target, chains);
                break;
            }
            phase += 2;
            // On to off, then off to on: the same expansion with the roles swapped.
            if let Some(hit) =
                self.forcing_half_round(m, target, &pending_on, &mut pending_off, to_off)
            {
                chains.push(hit);
                break 'search;
            }
            pending_on.clear();
            if let Some(hit) =
                self.forcing_half_round(m, target, &pending_off, &mut pending_on, to_on)
            {
                chains.push(hit);
                break 'search;
            }
            pending_off.clear();
        }
        self.scratch_a = pending_on;
        self.scratch_b = pending_off;
    }

    /// Half a round of [`Engine::do_forcing_chains`]: every implication of the
    /// potentials in `from` not implied before goes to `next` and `seen`; the node that
    /// reaches `target`, if one does (the search then ends).
    fn forcing_half_round(
        &mut self,
        m: usize,
        target: Pot,
        from: &[u32],
        next: &mut Vec<u32>,
        seen: &mut PotSet,
    ) -> Option<u32> {
        for &p in from {
            let links = self.edge_range(m, self.arena.pot(p));
            for ei in links {
                let (pot, cause) = self.adj[ei];
                if pot == target {
                    return Some(self.arena.add(pot, &[p], cause));
                }
                if !seen.contains(pot) {
                    let id = self.arena.add(pot, &[p], cause);
                    next.push(id);
                    seen.add(&self.arena, id);
                }
            }
        }
        None
    }

    /// The last round of [`Engine::do_forcing_chains`]: only the first link into the
    /// target matters, so the round's other implications are not built. An off target
    /// is hit from an on-potential of `pending_on`; an on target from an off-potential
    /// pending or new this round (new ones are only those not implied before).
    fn last_forcing_round(
        &mut self,
        pending_on: &[u32],
        pending_off: &[u32],
        to_off: &PotSet,
        m: usize,
        target: Pot,
        chains: &mut Vec<u32>,
    ) {
        let near = self.mark_near(m, target);
        if !target.on() {
            for &p in pending_on {
                let pot = self.arena.pot(p);
                if self.near[pot.0 as usize] == near {
                    let cause = self.cause_of(m, pot, target);
                    chains.push(self.arena.add(target, &[p], cause));
                    return;
                }
            }
            return;
        }
        for &p in pending_off {
            let pot = self.arena.pot(p);
            if self.near[pot.0 as usize] == near {
                let cause = self.cause_of(m, pot, target);
                chains.push(self.arena.add(target, &[p], cause));
                return;
            }
        }
        for &p in pending_on {
            let links = self.edge_range(m, self.arena.pot(p));
            for ei in links {
                let (pot, cause) = self.adj[ei];
                if self.near[pot.0 as usize] == near && !to_off.contains(pot) {
                    let off = self.arena.add(pot, &[p], cause);
                    let back = self.cause_of(m, pot, target);
                    chains.push(self.arena.add(target, &[off], back));
                    return;
                }
            }
        }
    }

    fn cycle_hint(&mut self, dst: u32, y: bool, x: bool, sink: &mut Sink) {
        let t = board::tables();
        // The key first: most cycles found cannot beat the best hint so far.
        let complexity = self.complexity(&[dst]);
        let base = if x && y { 70 } else { 65 };
        let rating = base + length_increment(complexity);
        let kind = Kind::Cycle { x, y };
        if !self.better(sink, rating, complexity, kind.sort_key()) {
            return;
        }
        // Most cycles eliminate nothing: settle that on cell sets before building
        // the (ordered) lists.
        {
            let mut cells: CellSet = 0;
            let mut cur = dst;
            while let Some(p) = self.arena.first_parent(cur) {
                cells |= 1u128 << self.arena.pot(cur).cell();
                cur = p;
            }
            let (mut forw, mut back) = ([0 as CellSet; 9], [0 as CellSet; 9]);
            let mut cur = dst;
            while let Some(p) = self.arena.first_parent(cur) {
                let pot = self.arena.pot(cur);
                let d = pot.digit();
                let victims = t.peers[pot.cell()] & !cells & self.work.digit(d);
                let side = if pot.on() { &mut forw } else { &mut back };
                side[d as usize - 1] |= victims;
                cur = p;
            }
            if forw.iter().zip(&back).all(|(f, b)| f & b == 0) {
                return;
            }
        }
        // Cells along the cycle (first parents, up to the source which has none).
        let mut chain: Vec<u32> = Vec::new();
        let mut cur = dst;
        while let Some(p) = self.arena.first_parent(cur) {
            chain.push(cur);
            cur = p;
        }
        let cells: CellSet = chain
            .iter()
            .fold(0, |a, &n| a | 1u128 << self.arena.pot(n).cell());
        let mut forw: Vec<(usize, u8)> = Vec::new();
        let mut back: Vec<(usize, u8)> = Vec::new();
        for &n in &chain {
            let pot = self.arena.pot(n);
            let d = pot.digit();
            let victims = t.peers[pot.cell()] & !cells & self.work.digit(d);
            for v in board::cells(victims) {
                let list = if pot.on() { &mut forw } else { &mut back };
                if !list.contains(&(v, d)) {
                    list.push((v, d));
                }
            }
        }
        let removable: Vec<(usize, u8)> = forw.into_iter().filter(|e| back.contains(e)).collect();
        if removable.is_empty()
            || !self.wanted(sink, (rating, complexity, kind.sort_key()), &removable)
        {
            return;
        }
        let (technique, name) = match (x, y) {
            (true, true) => (Technique::XYCycle, "Bidirectional Cycle"),
            (false, true) => (Technique::YCycle, "Bidirectional Y-Cycle"),
            _ => (Technique::XCycle, "Bidirectional X-Cycle"),
        };
        let detail = if matches!(sink, Sink::All(_)) {
            Vec::new()
        } else {
            vec![format!("Cycle: {}", self.path_text(dst))]
        };
        let hint = Hint {
            kind: KindPub::Chain,
            rating,
            complexity,
            sort_key: kind.sort_key(),
            eliminations: removable,
            placement: None,
            source: self.arena.pot(dst),
            detail,
            name: name.to_string(),
            technique,
            rule_parents: Vec::new(),
            chain_key: 0,
            branches: Vec::new(),
            house: None,
        };
        self.offer(sink, hint, &[dst], Cause::None);
    }

    fn forcing_hint(&mut self, target: u32, y: bool, x: bool, sink: &mut Sink) {
        let pot = self.arena.pot(target);
        let (cell, d) = (pot.cell(), pot.digit());
        let (eliminations, placement) = if !pot.on() {
            (vec![(cell, d)], None)
        } else {
            let others: Vec<(usize, u8)> = board::digits(self.work.cand[cell] & !(1 << (d - 1)))
                .map(|e| (cell, e))
                .collect();
            (others, Some((cell, d)))
        };
        if eliminations.is_empty() {
            return;
        }
        let complexity = self.complexity(&[target]);
        let base = if x && y { 70 } else { 66 };
        let rating = base + length_increment(complexity);
        let kind = Kind::Forcing { x, y };
        if !self.wanted(sink, (rating, complexity, kind.sort_key()), &eliminations) {
            return;
        }
        let (technique, name) = if x && y {
            (Technique::ForcingChain, "Forcing Chain")
        } else if complexity == 6 {
            (Technique::ForcingXChain, "Turbot Fish")
        } else {
            (Technique::ForcingXChain, "Forcing X-Chain")
        };
        let detail = if matches!(sink, Sink::All(_)) {
            Vec::new()
        } else {
            vec![format!("Chain: {}", self.path_text(target))]
        };
        let hint = Hint {
            kind: KindPub::Chain,
            rating,
            complexity,
            sort_key: kind.sort_key(),
            eliminations,
            placement,
            source: pot,
            detail,
            name: name.to_string(),
            technique,
            rule_parents: Vec::new(),
            chain_key: 0,
            branches: Vec::new(),
            house: None,
        };
        self.offer(sink, hint, &[target], Cause::None);
    }

    /// Whether a hint with this key would be kept (saves building text for losers).
    fn better(&self, sink: &Sink, rating: u16, complexity: u32, sort_key: u8) -> bool {
        self.best_key(sink).admits(rating, complexity, sort_key)
    }

    /// Whether a hint with this key and these removals would be kept ([`AllHints`]).
    fn wanted(
        &self,
        sink: &Sink,
        (rating, complexity, sort_key): Key,
        eliminations: &[(usize, u8)],
    ) -> bool {
        match sink {
            Sink::All(all) => all.improves((rating, complexity, sort_key), eliminations),
            Sink::Best(_) => self.better(sink, rating, complexity, sort_key),
        }
    }

    /// Keeps a hint: the best so far, or (nested) every hint relying on an outer
    /// removal that [`Engine::wanted`] let through. `source_cause` is how the
    /// assumption itself counts for SE's rule parents: the cell rule for cell chains,
    /// the house rule for region chains, none otherwise.
    fn offer(&mut self, sink: &mut Sink, mut hint: Hint, targets: &[u32], source_cause: Cause) {
        match sink {
            Sink::Best(best) => {
                let replace = match best {
                    None => true,
                    Some(h) => hint.key() < h.key(),
                };
                if replace {
                    *best = Some(hint);
                }
            }
            Sink::All(all) => {
                // Only hints that rely on a removal of the outer chain are used.
                let parents = self.rule_parents(targets, source_cause);
                if !parents.is_empty() {
                    hint.rule_parents = parents;
                    hint.chain_key = self.chain_key(targets);
                    all.keep(hint);
                }
            }
        }
    }

    /// The assumption a chain to `id` starts from (its first parents' first node).
    fn root(&self, id: u32) -> u32 {
        let mut cur = id;
        while let Some(p) = self.arena.first_parent(cur) {
            cur = p;
        }
        cur
    }

    /// The chain from the assumption to `id` along first parents, as text. A node
    /// implied by several premises (a single whose other places or digits went earlier
    /// in a dynamic chain) names the others, `(with ...)`, and their own chains follow
    /// (`where ...`), each from the first node already written: every premise of the
    /// deduction is shown (up to [`MAX_PREMISE_CHAINS`] chains).
    fn path_text(&self, id: u32) -> String {
        let mut shown = std::collections::HashSet::new();
        let mut premises = Vec::new();
        let mut s = String::new();
        self.write_path(id, &mut shown, &mut premises, &mut s);
        let mut chains = Vec::new();
        let mut omitted = 0;
        let mut next = 0;
        while let Some(&p) = premises.get(next) {
            next += 1;
            if shown.contains(&p) {
                continue;
            }
            if chains.len() == MAX_PREMISE_CHAINS {
                omitted += 1;
                shown.insert(p);
                continue;
            }
            let mut chain = String::new();
            self.write_path(p, &mut shown, &mut premises, &mut chain);
            chains.push(chain);
        }
        if !chains.is_empty() {
            let _ = write!(s, " (where {}", chains.join("; "));
            if omitted > 0 {
                let _ = write!(s, "; and {omitted} more");
            }
            s.push(')');
        }
        s
    }

    /// Writes the first-parent chain to `id`, from the assumption or from the first
    /// node of it in `shown`; adds the chain's nodes to `shown` and their other
    /// parents to `premises`.
    fn write_path(
        &self,
        id: u32,
        shown: &mut std::collections::HashSet<u32>,
        premises: &mut Vec<u32>,
        out: &mut String,
    ) {
        let mut path = vec![id];
        let mut cur = id;
        while !shown.contains(&cur) && path.len() <= 200 {
            let Some(p) = self.arena.first_parent(cur) else {
                break;
            };
            path.push(p);
            cur = p;
        }
        path.reverse();
        for (i, &n) in path.iter().enumerate() {
            if i > 0 {
                out.push_str(" => ");
            }
            let _ = write!(out, "{}", self.arena.pot(n).text());
            let others = self.arena.parents(n).get(1..).unwrap_or(&[]);
            if shown.insert(n) && !others.is_empty() {
                let names: Vec<String> = others.iter().map(|&o| self.arena.pot(o).text()).collect();
                let _ = write!(out, " (with {})", names.join(", "));
                premises.extend_from_slice(others);
            }
        }
    }

    // ---------------------------------------------------------------- multiple chains

    /// SE `doChaining`: completes `to_on`/`to_off` from their contents; returns the two
    /// nodes of a contradiction (on, off) if one appears.
    fn do_chaining(&mut self, to_on: &mut PotSet, to_off: &mut PotSet) -> Option<(u32, u32)> {
        // Only dynamic chains (nested ones included) change the work grid and read the
        // saved one (hidden parents, nested rules); static ones skip the two copies.
        let dynamic = self.mode.dynamic;
        if dynamic {
            self.save = self.work.clone();
        }
        let mut b = std::mem::take(&mut self.chain_buffers);
        let result = self.do_chaining_inner(to_on, to_off, &mut b);
        self.chain_buffers = b;
        if dynamic {
            self.work = self.save.clone();
        }
        result
    }

    fn do_chaining_inner(
        &mut self,
        to_on: &mut PotSet,
        to_off: &mut PotSet,
        b: &mut ChainBuffers,
    ) -> Option<(u32, u32)> {
        let y = !self.mode.nishio;
        let dynamic = self.mode.dynamic;
        b.pending_on.clear();
        b.pending_on.extend(to_on.list.iter().copied());
        b.pending_off.clear();
        b.pending_off.extend(to_off.list.iter().copied());
        loop {
            if let Some(p) = b.pending_on.pop_front() {
                b.off.clear();
                self.on_to_off(self.arena.pot(p), y, &mut b.off);
                for &(pot, cause) in &b.off {
                    let conj = to_on.get(pot.conj());
                    if conj != NONE {
                        let off = self.arena.add(pot, &[p], cause);
                        return Some((conj, off));
                    }
                    if !to_off.contains(pot) {
                        let id = self.arena.add(pot, &[p], cause);
                        to_off.add(&self.arena, id);
                        b.pending_off.push_back(id);
                    }
                }
            } else if let Some(p) = b.pending_off.pop_front() {
                let pot = self.arena.pot(p);
                b.on.clear();
                b.hidden.clear();
                self.off_to_on(pot, y, true, dynamic, to_off, &mut b.on, &mut b.hidden);
                if dynamic {
                    self.work.remove(pot.cell(), pot.digit());
                }
                for &(on, cause, ref hidden) in &b.on {
                    let conj = to_off.get(on.conj());
                    b.parents.clear();
                    b.parents.push(p);
                    b.parents
                        .extend_from_slice(&b.hidden[hidden.start as usize..hidden.end as usize]);
                    if conj != NONE {
                        let id = self.arena.add(on, &b.parents, cause);
                        return Some((id, conj));
                    }
                    if !to_on.contains(on) {
                        let id = self.arena.add(on, &b.parents, cause);
                        to_on.add(&self.arena, id);
                        b.pending_on.push_back(id);
                    }
                }
            } else {
                break;
            }
            if b.pending_on.is_empty() && b.pending_off.is_empty() && self.mode.level > 0 {
                self.advanced(to_off, &mut b.advanced, &mut b.advanced_parents);
                for &(pot, ref parents, nested) in &b.advanced {
                    if !to_off.contains(pot) {
                        let parents =
                            &b.advanced_parents[parents.start as usize..parents.end as usize];
                        let id = self.arena.add(pot, parents, Cause::Advanced);
                        self.arena.nodes[id as usize].nested = nested;
                        to_off.add(&self.arena, id);
                        b.pending_off.push_back(id);
                    }
                }
            }
        }
        None
    }

    /// Whether the deadline has passed.
    fn expired(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
            || self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
    }

    fn multiple_chains(&mut self, sink: &mut Sink) {
        let mode = self.mode;
        for i in 0..81 {
            let cell = if self.reverse { 80 - i } else { i };
            if self.expired() {
                break;
            }
            let card = self.work.cand[cell].count_ones();
            if !(card > 2 || (card > 1 && mode.dynamic)) {
                continue;
            }
            self.cell_chains(cell, card, sink);
        }
        for chained in std::mem::take(&mut self.chains) {
            self.chain_of[chained.source.0 as usize] = NONE;
            self.give_set(chained.on);
            self.give_set(chained.off);
        }
        self.reach_of.fill(NONE);
        self.reach_sets.clear();
    }

    /// The chaining from `p_on` on the run's grid, as an index into `chains`: computed
    /// on first use. A source's chaining serves its cell's chains and again the region
    /// chains of every house where its digit has another first place; each used to be
    /// computed up to four times per run.
    fn on_chaining(&mut self, p_on: Pot) -> usize {
        let k = p_on.0 as usize;
        if self.chain_of[k] != NONE {
            return self.chain_of[k] as usize;
        }
        let mut on = self.take_set();
        let mut off = self.take_set();
        let src = self.arena.add(p_on, &[], Cause::None);
        on.add(&self.arena, src);
        let clash = self.do_chaining(&mut on, &mut off);
        self.chains.push(Chained {
            source: p_on,
            on,
            off,
            clash,
        });
        self.chain_of[k] = (self.chains.len() - 1) as u32;
        self.chains.len() - 1
    }

    /// The potentials that chaining `i` turns on (`on`) or off.
    fn chained(&self, i: usize, on: bool) -> &PotSet {
        if on {
            &self.chains[i].on
        } else {
            &self.chains[i].off
        }
    }

    /// Offers a reduction for every potential implied by all the chainings `branches`
    /// (on or off alike): the cell's values, or the digit's places in a house.
    fn common_reductions(
        &mut self,
        kind: Kind,
        branches: &[usize],
        sources: &[Pot],
        source_cause: Cause,
        sink: &mut Sink,
    ) {
        for on in [true, false] {
            // Potentials implied by every branch, in the first branch's order.
            let common: Vec<Pot> = self
                .chained(branches[0], on)
                .list
                .iter()
                .map(|&id| self.arena.pot(id))
                .filter(|&pot| {
                    branches[1..]
                        .iter()
                        .all(|&b| self.chained(b, on).contains(pot))
                })
                .collect();
            for pot in common {
                let targets: Vec<u32> = branches
                    .iter()
                    .map(|&b| self.chained(b, on).get(pot))
                    .collect();
                self.reduction_hint(kind, pot, &targets, sources, source_cause, sink);
            }
        }
    }

    fn cell_chains(&mut self, cell: usize, card: u32, sink: &mut Sink) {
        let mode = self.mode;
        // On the stack: this runs for every cell of every nested search.
        let mut buf = [Pot(0); 9];
        let mut n = 0;
        for d in board::digits(self.work.cand[cell]) {
            buf[n] = Pot::new(cell, d, true);
            n += 1;
        }
        let sources = &buf[..n];
        let do_double = card >= 3 && !mode.nishio && mode.dynamic;
        let do_contradiction = mode.dynamic || mode.nishio;
        for &p_on in sources {
            // Static multiple chains only look for reductions: their chainings are made
            // when a reduction may need them (`branches`).
            if do_double || do_contradiction {
                self.binary_chaining(p_on, do_double, do_contradiction, sink);
            }
            if !mode.nishio {
                self.region_chainings(cell, p_on.digit(), sink);
            }
        }
        if !mode.nishio && (card == 2 || (mode.multiple && card > 2)) {
            if let Some(branches) = self.branches(sources) {
                self.common_reductions(Kind::Cell, &branches, sources, Cause::Cell, sink);
            }
        }
    }

    /// The chainings of `sources`, the branches of one cell or region forcing chain; None
    /// when static chains from them share no potential, so that no reduction can come
    /// of them. Most branch sets share nothing (in the nested searches of a hard
    /// puzzle, 99.9 %), and [`Engine::reached`] tells so without building chains.
    fn branches(&mut self, sources: &[Pot]) -> Option<Vec<usize>> {
        if !self.mode.dynamic && !self.mode.nishio {
            let mut common = PotBits::ALL;
            for &p in sources {
                let r = self.reached(p);
                common.intersect(&self.reach_sets[r]);
            }
            if common.is_empty() {
                return None;
            }
        }
        Some(sources.iter().map(|&p| self.on_chaining(p)).collect())
    }

    /// What a static chaining from `p_on` reaches (on and off potentials as one bitset,
    /// an index into `reach_sets`), computed once per run: the visiting order and the
    /// stop at a contradiction of [`Engine::do_chaining`], without building nodes, over
    /// the links [`Engine::build_adjacency`] listed for the run.
    fn reached(&mut self, p_on: Pot) -> usize {
        let k = p_on.0 as usize;
        if self.reach_of[k] != NONE {
            return self.reach_of[k] as usize;
        }
        let mut seen = PotBits::EMPTY;
        seen.insert(p_on);
        let mut b = std::mem::take(&mut self.chain_buffers);
        b.pending_on.clear();
        b.pending_off.clear();
        b.pending_on.push_back(p_on.0 as u32);
        // "On" potentials first, as `do_chaining` takes them.
        'chain: while let Some(p) = b
            .pending_on
            .pop_front()
            .or_else(|| b.pending_off.pop_front())
        {
            for i in self.edge_range(2, Pot(p as u16)) {
                let pot = self.adj[i].0;
                if seen.has(pot.conj()) {
                    break 'chain;
                }
                if seen.insert(pot) {
                    if pot.on() {
                        b.pending_on.push_back(pot.0 as u32);
                    } else {
                        b.pending_off.push_back(pot.0 as u32);
                    }
                }
            }
        }
        self.chain_buffers = b;
        self.reach_sets.push(seen);
        self.reach_of[k] = (self.reach_sets.len() - 1) as u32;
        self.reach_sets.len() - 1
    }

    /// Chains from `p_on` and from its conjugate: a contradiction from either decides
    /// `p_on`; a potential implied by both is a reduction. Returns `p_on`'s chaining.
    fn binary_chaining(
        &mut self,
        p_on: Pot,
        do_reduction: bool,
        do_contradiction: bool,
        sink: &mut Sink,
    ) -> usize {
        let i = self.on_chaining(p_on);
        if let Some((on, off)) = self.chains[i].clash {
            if do_contradiction {
                // p cannot be on.
                self.binary_hint(Kind::Contradiction, p_on, on, off, p_on, false, sink);
            }
        }
        // The chaining from "p off" only ever yields contradictions and reductions.
        if !do_contradiction && !do_reduction {
            return i;
        }
        let mut off_to_on = self.take_set();
        let mut off_to_off = self.take_set();
        let src_off = self.arena.add(p_on.conj(), &[], Cause::None);
        off_to_off.add(&self.arena, src_off);
        if let Some((on, off)) = self.do_chaining(&mut off_to_on, &mut off_to_off) {
            if do_contradiction {
                // p must be on.
                self.binary_hint(Kind::Contradiction, p_on.conj(), on, off, p_on, true, sink);
            }
        }
        if do_reduction {
            // By index: the hints borrow the engine, and the list stays as it is.
            for k in 0..self.chains[i].on.list.len() {
                let from_on = self.chains[i].on.list[k];
                let pot = self.arena.pot(from_on);
                let from_off = off_to_on.get(pot);
                if from_off != NONE {
                    self.binary_hint(Kind::Reduction, p_on, from_on, from_off, pot, true, sink);
                }
            }
            for k in 0..self.chains[i].off.list.len() {
                let from_on = self.chains[i].off.list[k];
                let pot = self.arena.pot(from_on);
                let from_off = off_to_off.get(pot);
                if from_off != NONE {
                    self.binary_hint(
                        Kind::Reduction,
                        p_on.conj(),
                        from_on,
                        from_off,
                        pot,
                        false,
                        sink,
                    );
                }
            }
        }
        self.give_set(off_to_on);
        self.give_set(off_to_off);
        i
    }

    /// A double forcing (reduction) or contradiction hint. `target` is the candidate
    /// concluded; `place` whether it is concluded on (place it) or off (remove it).
    #[allow(clippy::too_many_arguments)]
    fn binary_hint(
        &mut self,
        kind: Kind,
        source: Pot,
        dst_on: u32,
        dst_off: u32,
        target: Pot,
        place: bool,
        sink: &mut Sink,
    ) {
        let (cell, d) = (target.cell(), target.digit());
        let (eliminations, placement) = if place {
            let e: Vec<(usize, u8)> = board::digits(self.work.cand[cell] & !(1 << (d - 1)))
                .map(|e| (cell, e))
                .collect();
            (e, Some((cell, d)))
        } else {
            (vec![(cell, d)], None)
        };
        if eliminations.is_empty() {
            return;
        }
        let complexity = self.complexity(&[dst_on, dst_off]);
        let rating = self.mode.base() + length_increment(complexity);
        if !self.wanted(sink, (rating, complexity, kind.sort_key()), &eliminations) {
            return;
        }
        let (technique, what) = if self.mode.nishio {
            (Technique::NishioForcingChain, "Forcing")
        } else if kind == Kind::Contradiction {
            (
                Technique::ContradictionForcingChain,
                "Contradiction Forcing",
            )
        } else {
            (Technique::DoubleForcingChain, "Double Forcing")
        };
        let technique = if self.mode.dynamic && !self.mode.nishio {
            Technique::ForcingNet
        } else {
            technique
        };
        let name = self.name(what);
        let detail = if matches!(sink, Sink::All(_)) {
            Vec::new()
        } else {
            // A contradiction's two chains start from one assumption; a reduction's
            // from a candidate and from its opposite (`source`, the hint's candidate,
            // is either).
            let [on, off] = [dst_on, dst_off].map(|id| {
                let assumption = self.arena.pot(self.root(id)).text();
                (assumption, self.path_text(id))
            });
            if kind == Kind::Contradiction {
                vec![format!("If {}: {}", on.0, on.1), format!("Also: {}", off.1)]
            } else {
                vec![
                    format!("If {}: {}", on.0, on.1),
                    format!("If {}: {}", off.0, off.1),
                ]
            }
        };
        let hint = Hint {
            kind: KindPub::Chain,
            rating,
            complexity,
            sort_key: kind.sort_key(),
            eliminations,
            placement,
            source,
            detail,
            name,
            technique,
            rule_parents: Vec::new(),
            chain_key: 0,
            branches: Vec::new(),
            house: None,
        };
        self.offer(sink, hint, &[dst_on, dst_off], Cause::None);
    }

    fn name(&self, what: &str) -> String {
        let m = self.mode;
        let prefix = if m.level > 0 || (m.dynamic && !m.nishio) {
            "Dynamic "
        } else if m.nishio {
            "Nishio "
        } else {
            ""
        };
        let suffix = match m.level {
            0 => "",
            1 => " (+)",
            2 => " (+ Forcing Chains)",
            3 => " (+ Multiple Forcing Chains)",
            _ => " (+ Dynamic Forcing Chains)",
        };
        format!("{prefix}{what} Chains{suffix}")
    }

    /// Region forcing chains of digit `d` from `cell`: in each of its
    /// houses where `cell` is the digit's first place, what every place implies.
    fn region_chainings(&mut self, cell: usize, d: u8, sink: &mut Sink) {
        let t = board::tables();
        let [r, c, bx] = t.houses_of[cell];
        for h in [bx, r, c] {
            let pos = self.work.digit(d) & t.house[h as usize];
            let n = board::count(pos);
            if !(n == 2 || (self.mode.multiple && n > 2)) {
                continue;
            }
            // Only from the first place of the digit in the house (house order is cell
            // order).
            if board::first(pos) != cell {
                continue;
            }
            let sources: Vec<Pot> = board::cells(pos).map(|x| Pot::new(x, d, true)).collect();
            if let Some(branches) = self.branches(&sources) {
                self.common_reductions(Kind::Region, &branches, &sources, Cause::House(h), sink);
            }
        }
    }

    /// A cell or region forcing chain concluding `pot` from every branch (`targets`).
    #[allow(clippy::too_many_arguments)]
    fn reduction_hint(
        &mut self,
        kind: Kind,
        pot: Pot,
        targets: &[u32],
        sources: &[Pot],
        source_cause: Cause,
        sink: &mut Sink,
    ) {
        let source = sources[0];
        let (cell, d) = (pot.cell(), pot.digit());
        let (eliminations, placement) = if pot.on() {
            let e: Vec<(usize, u8)> = board::digits(self.work.cand[cell] & !(1 << (d - 1)))
                .map(|e| (cell, e))
                .collect();
            (e, Some((cell, d)))
        } else {
            (vec![(cell, d)], None)
        };
        if eliminations.is_empty() {
            return;
        }
        let complexity = self.complexity(targets);
        let rating = self.mode.base() + length_increment(complexity);
        if !self.wanted(sink, (rating, complexity, kind.sort_key()), &eliminations) {
            return;
        }
        let (technique, what) = if kind == Kind::Cell {
            (Technique::CellForcingChain, "Cell Forcing")
        } else {
            (Technique::RegionForcingChain, "Region Forcing")
        };
        let technique = if self.mode.dynamic {
            Technique::ForcingNet
        } else {
            technique
        };
        let name = self.name(what);
        let detail: Vec<String> = if matches!(sink, Sink::All(_)) {
            Vec::new()
        } else {
            targets.iter().map(|&t| self.path_text(t)).collect()
        };
        let hint = Hint {
            kind: KindPub::Chain,
            rating,
            complexity,
            sort_key: kind.sort_key(),
            eliminations,
            placement,
            source,
            detail,
            name,
            technique,
            rule_parents: Vec::new(),
            chain_key: 0,
            // Only the hints that are shown need them (not a nested search's).
            branches: if matches!(sink, Sink::All(_)) {
                Vec::new()
            } else {
                sources.to_vec()
            },
            house: match source_cause {
                Cause::House(h) => Some(h),
                _ => None,
            },
        };
        self.offer(sink, hint, targets, source_cause);
    }

    // ---------------------------------------------------------------- nesting

    /// SE `getAdvancedPotentials`: the eliminations of the first nested technique that
    /// finds some on the work grid and needs a candidate the chain removed; each with
    /// the removed candidates it relies on as parents.
    fn advanced(
        &mut self,
        to_off: &PotSet,
        result: &mut Vec<(Pot, Range<u32>, u32)>,
        parents_out: &mut Vec<u32>,
    ) {
        let level = self.mode.level;
        result.clear();
        parents_out.clear();
        let rules: &[u8] = match level {
            0 => &[],
            1 => &[0, 1, 2, 3],
            2 => &[0, 1, 2, 3, 4],
            3 => &[0, 1, 2, 3, 4, 5],
            _ => &[0, 1, 2, 3, 6],
        };
        for &rule in rules {
            if !result.is_empty() {
                break;
            }
            match rule {
                0..=3 => {
                    let found = super::se::nested_basic(rule, &self.work, &self.save);
                    for (elims, parents) in found {
                        if parents.is_empty() {
                            continue;
                        }
                        let start = parents_out.len() as u32;
                        parents_out.extend(
                            parents
                                .iter()
                                .map(|&p| to_off.get(p))
                                .filter(|&id| id != NONE),
                        );
                        let ids = start..parents_out.len() as u32;
                        for (c, d) in elims {
                            result.push((Pot::new(c, d, false), ids.clone(), NONE));
                        }
                    }
                }
                _ => {
                    let mode = match rule {
                        4 => Mode::UNARY,
                        5 => Mode::MULTIPLE,
                        _ => Mode::dynamic(level.saturating_sub(4).min(1)),
                    };
                    let hints = self.nested_hints(rule, mode);
                    for hint in hints.iter() {
                        if hint.rule_parents.is_empty() {
                            continue;
                        }
                        let start = parents_out.len() as u32;
                        parents_out.extend(
                            hint.rule_parents
                                .iter()
                                .map(|&p| to_off.get(p))
                                .filter(|&id| id != NONE),
                        );
                        let ids = start..parents_out.len() as u32;
                        self.nested.push(Arc::clone(hint));
                        let idx = (self.nested.len() - 1) as u32;
                        for &(c, d) in &hint.eliminations {
                            result.push((Pot::new(c, d, false), ids.clone(), idx));
                        }
                    }
                }
            }
        }
    }

    /// Every hint of the nested `mode` (nesting rule `rule`) on the work grid, rule
    /// parents against the saved grid. Different sources of one step, and the levels
    /// tried one after another on it, stall on the same work grids again and again
    /// (70% of the calls on a hard puzzle), so the answers are remembered per grid
    /// pair ([`NESTED_CACHE`]).
    fn nested_hints(&mut self, rule: u8, mode: Mode) -> NestedHints {
        let key = (rule, mode.level, self.work.cand);
        // Engines running nested (with an outer grid of their own) do not use it.
        let cache = match (&self.outer, &self.cache) {
            (Some(_), _) => None,
            (None, Some(c)) => Some(Arc::clone(c)),
            (None, None) => Some(thread_cache()),
        };
        if let Some(cache) = &cache {
            let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
            if c.outer_cand != self.save.cand || c.outer_value != self.save.value {
                c.outer_cand = self.save.cand;
                c.outer_value = self.save.value;
                c.hints.clear();
            }
            if let Some(hints) = c.hints.get(&key) {
                return Arc::clone(hints);
            }
        }
        // Reuse the nested engine of this mode (its buffers are large).
        let mut inner = match self.inner.iter().position(|e| e.mode == mode) {
            Some(i) => self.inner.swap_remove(i),
            None => Engine::new(mode),
        };
        inner.deadline = self.deadline;
        inner.cancel.clone_from(&self.cancel);
        let hints: NestedHints = Arc::new(
            inner
                .all(&self.work, &self.save)
                .into_iter()
                .map(Arc::new)
                .collect(),
        );
        self.inner.push(inner);
        // A search cut short by the deadline is incomplete: never reused.
        if let Some(cache) = cache {
            if !self.expired() {
                let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
                // Bounds memory on the longest searches (~1 KB an entry).
                if c.hints.len() >= NESTED_CACHE_ENTRIES {
                    c.hints.clear();
                }
                c.hints.insert(key, Arc::clone(&hints));
            }
        }
        hints
    }

    /// SE `collectRuleParents` of a hint against the outer grid: for every "on"
    /// potential among the ancestors, the candidates of its cell (cell rule) or of its
    /// house (house rule) present in the outer grid but removed in this one.
    fn rule_parents(&mut self, targets: &[u32], source_cause: Cause) -> Vec<Pot> {
        let Some(outer) = self.outer.as_ref() else {
            return Vec::new();
        };
        let t = board::tables();
        let mut out: Vec<Pot> = Vec::new();
        let current = &self.work;
        let mut todo = std::mem::take(&mut self.todo);
        for &target in targets {
            self.generation += 1;
            let epoch = self.generation;
            todo.clear();
            todo.push(target);
            while let Some(n) = todo.pop() {
                let pot = self.arena.pot(n);
                if self.stamp[pot.0 as usize] == epoch {
                    continue;
                }
                self.stamp[pot.0 as usize] = epoch;
                let node = self.arena.nodes[n as usize];
                let mut cause = node.cause;
                if cause == Cause::None {
                    cause = source_cause;
                }
                if pot.on() {
                    match cause {
                        Cause::Cell => {
                            let cell = pot.cell();
                            for v in board::digits(outer.cand[cell] & !current.cand[cell]) {
                                let p = Pot::new(cell, v, false);
                                if !out.contains(&p) {
                                    out.push(p);
                                }
                            }
                        }
                        Cause::House(h) => {
                            let d = pot.digit();
                            let removed = outer.digit(d) & !current.digit(d) & t.house[h as usize];
                            for z in board::cells(removed) {
                                let p = Pot::new(z, d, false);
                                if !out.contains(&p) {
                                    out.push(p);
                                }
                            }
                        }
                        _ => {}
                    }
                }
                todo.extend_from_slice(self.arena.parents(n));
            }
        }
        self.todo = todo;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{SAMPLES, check_sound, state};

    /// A nested hint with this key and these removals (cell, digit).
    fn nested_hint(rating: u16, complexity: u32, eliminations: &[(usize, u8)]) -> Hint {
        Hint {
            kind: KindPub::Chain,
            rating,
            complexity,
            sort_key: Kind::Cell.sort_key(),
            eliminations: eliminations.to_vec(),
            placement: None,
            source: Pot::new(0, 1, true),
            detail: Vec::new(),
            name: String::new(),
            technique: Technique::ForcingNet,
            rule_parents: Vec::new(),
            chain_key: 0,
            branches: Vec::new(),
            house: None,
        }
    }

    /// An outer chain takes each removal from the first nested hint making it after a
    /// stable sort by key (SE sorts, then walks the hints in order): a hint tying an
    /// earlier one is never first, and one that a better, later hint overtakes on every
    /// removal is dropped; the order of those kept is SE's.
    #[test]
    fn nested_hints_keep_the_first_maker_of_each_removal() {
        let mut all = AllHints::new();
        let a = nested_hint(95, 10, &[(0, 1)]);
        assert!(all.improves((95, 10, a.sort_key), &a.eliminations));
        all.keep(a);
        // Same key, same removal, found later: SE's stable sort puts it second.
        assert!(!all.improves((95, 10, Kind::Cell.sort_key()), &[(0, 1)]));
        // Worse on (0, 1) but the only maker of (1, 2).
        assert!(all.improves((97, 14, Kind::Cell.sort_key()), &[(0, 1), (1, 2)]));
        all.keep(nested_hint(97, 14, &[(0, 1), (1, 2)]));
        // Better on both: overtakes the first hint, which then makes nothing first.
        all.keep(nested_hint(90, 4, &[(0, 1), (2, 3)]));
        let kept: Vec<(u16, u32)> = all
            .into_sorted()
            .iter()
            .map(|h| (h.rating, h.complexity))
            .collect();
        assert_eq!(kept, vec![(90, 4), (97, 14)]);
    }

    #[test]
    fn length_brackets() {
        // length = complexity - 2; brackets 4, 6, 8, 12, 16, 24.
        assert_eq!(length_increment(6), 0);
        assert_eq!(length_increment(7), 1);
        assert_eq!(length_increment(8), 1);
        assert_eq!(length_increment(9), 2);
        assert_eq!(length_increment(10), 2);
        assert_eq!(length_increment(11), 3);
        assert_eq!(length_increment(14), 3);
        assert_eq!(length_increment(15), 4);
        assert_eq!(length_increment(19), 5);
        assert_eq!(length_increment(27), 6);
    }

    /// A unary engine on a sample with its static links built, and the sample's board.
    fn linked_engine(p: &str) -> (Board, Engine) {
        let b = Board::from_state(&state(p));
        let mut e = Engine::new(Mode::UNARY);
        e.work = b.clone();
        e.build_adjacency();
        (b, e)
    }

    /// A nested unary chain needs a link an outer removal created: none when nothing
    /// was removed; a cell left with two candidates by a removal gives both of its
    /// "off" potentials as tails.
    #[test]
    fn created_links_come_from_removals() {
        let (b, mut e) = linked_engine(SAMPLES[0]);
        e.outer = Some(b.clone());
        assert_eq!(e.created_links(), (false, false));
        let cell = (0..81)
            .find(|&c| b.cand[c].count_ones() == 3)
            .expect("a cell with three candidates");
        let d = board::digits(b.cand[cell]).next().expect("a candidate");
        e.work.remove(cell, d);
        assert!(e.created_links().0);
        let mut tails = Vec::new();
        e.created_tails(true, false, &mut tails);
        let expected: Vec<Pot> = board::digits(e.work.cand[cell])
            .map(|x| Pot::new(cell, x, false))
            .collect();
        assert_eq!(tails, expected);
    }

    #[test]
    fn links_come_in_contrapositive_pairs() {
        // The searches rely on it: a -> b in a mode exactly when !b -> !a.
        for p in SAMPLES {
            let (_, e) = linked_engine(p);
            for m in 0..3 {
                for k in 0..POTS {
                    let a = Pot(k as u16);
                    for &(q, cause) in e.edges(m, a) {
                        let back = e.edges(m, q.conj()).iter().find(|x| x.0 == a.conj());
                        assert!(back.is_some(), "{a:?} -> {q:?} in mode {m}");
                        let rule = |c: Cause| c == Cause::Cell;
                        assert_eq!(rule(back.expect("link").1), rule(cause));
                    }
                }
            }
        }
    }

    #[test]
    fn conjugate_reach_agrees_with_one_search_per_source() {
        for p in SAMPLES {
            let (b, mut e) = linked_engine(p);
            for m in 0..3 {
                let mut some = false;
                for k in 0..POTS {
                    let a = Pot(k as u16);
                    if !b.has(a.cell(), a.digit()) {
                        continue;
                    }
                    let each = e.reaches(m, a, a.conj());
                    assert_eq!(e.reaches_conjugate(m, a), each, "{a:?} in mode {m}");
                    some |= each;
                }
                // (Y-links alone never lead to a conjugate: no forcing Y-chains.)
                assert!(
                    some || m == 1,
                    "no potential reaches its conjugate in mode {m}"
                );
            }
        }
    }

    #[test]
    fn a_helper_fills_the_cache_with_what_the_engine_would_find() {
        // Level-2 chains from top1465 #1's givens stall on many work grids.
        let b = Board::from_state(&state(SAMPLES[0]));
        let mode = Mode::dynamic(2);
        let mut alone = Engine::new(mode);
        alone.cache = Some(new_cache());
        let expected = alone.find(&b);
        assert!(expected.is_some());
        // The helper runs to the end first, so the engine finds every grid it asks for
        // in the cache.
        let shared = new_cache();
        let cancel = Arc::new(AtomicBool::new(false));
        Engine::helper(mode, Arc::clone(&shared), cancel).find(&b);
        let filled = shared.lock().unwrap().hints.len();
        assert!(filled > 0);
        let mut helped = Engine::new(mode);
        helped.cache = Some(Arc::clone(&shared));
        assert_eq!(helped.find(&b), expected);
        // Nothing was left for the engine to search.
        assert_eq!(shared.lock().unwrap().hints.len(), filled);
    }

    #[test]
    fn dynamic_chain_texts_derive_every_premise() {
        // The first of forum_hardest_1106: its dynamic chains place singles whose other
        // places went earlier in the chain. Each such premise, named `(with P)`, must
        // itself be the end of a written chain (`=> P`), or be the assumption.
        let p = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
        let path = crate::logic::explain(&state(p));
        let text = |st: &Step| st.detail_in(crate::symbols::Digits::NUMBERS).join(" ");
        let step = path
            .steps
            .iter()
            .find(|st| text(st).contains("(with "))
            .expect("a chain with a premise off its path");
        check_sound(p, step);
        let text = text(step);
        let mut premises = 0;
        for group in text.split("(with ").skip(1) {
            for premise in group[..group.find(')').unwrap()].split(", ") {
                premises += 1;
                assert!(
                    text.contains(&format!("=> {premise}"))
                        || text.starts_with(&format!("If {premise}:")),
                    "{premise} not derived in: {text}"
                );
            }
        }
        assert!(premises > 0, "{text}");
        assert!(!text.contains("more)"), "{text}");
    }

    #[test]
    fn each_branch_of_a_double_forcing_chain_starts_from_its_own_assumption() {
        // From forum_hardest_1106; its path takes Sudoku Explainer's double forcing
        // chains (dynamic, where HoDoKu's nets find nothing), each from a candidate and
        // from its opposite. The second branch was once introduced as "If r9c3<>1:"
        // over both (on another puzzle).
        let p = "1.......9.4...3.8...2...6...7..58.......2.......7.4.5...6...2...3.8...7.9.......1";
        let path = crate::logic::explain(&state(p));
        let mut doubles = 0;
        for step in path
            .steps
            .iter()
            .filter(|st| st.technique == Technique::ForcingNet)
        {
            let lines = step.detail_in(crate::symbols::Digits::NUMBERS);
            for line in &lines {
                if let Some((head, chain)) =
                    line.strip_prefix("If ").and_then(|l| l.split_once(": "))
                {
                    assert!(chain.starts_with(&format!("{head} =>")), "{line}");
                }
            }
            if lines.len() == 2 && lines.iter().all(|l| l.starts_with("If ")) {
                doubles += 1;
                let on = lines[0].split_once(':').unwrap().0.replace("If ", "");
                assert!(
                    lines[1].starts_with(&format!("If {}:", on.replace('=', "<>"))),
                    "{lines:?}"
                );
            }
        }
        assert!(doubles > 0);
    }

    #[test]
    fn every_mode_is_sound_on_samples() {
        for p in SAMPLES {
            let s = state(p);
            let b = Board::from_state(&s);
            for mode in [Mode::UNARY, Mode::NISHIO, Mode::MULTIPLE, Mode::dynamic(0)] {
                if let Some(step) = Engine::new(mode).find(&b) {
                    check_sound(p, &step);
                }
            }
        }
    }
}
