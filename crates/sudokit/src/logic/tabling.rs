//! HoDoKu's nice loops, AICs and forcing chains, found the way HoDoKu's tabling search
//! finds them (classic 9x9, the human path only).
//!
//! A premise is a candidate set ("on") or removed ("off"). Its table lists everything
//! the premise implies through alternating links, breadth first, at most 1,000
//! entries; each entry remembers the one it came from, so every entry has exactly one
//! chain back to the premise. An entry back in the premise's cell closes a nice loop
//! (discontinuous: one candidate of that cell goes or is set; continuous: the weak
//! links of the loop clear their houses); an "on" entry reached from an "off" premise
//! in another cell ends an AIC. A chain that comes back to a cell it left is dropped,
//! not searched for anew: that is what decides, on a real grid, which loops and AICs
//! HoDoKu finds and which it misses, and so which one its path takes. Among the steps
//! found, the one with the most eliminations wins, then the smallest weighted sum of
//! the eliminated candidates, then the shortest chain ([`Step::hodoku_rank`]).
//!
//! Forcing chains ([`forcing_chains`]) read the same tables (with group nodes) as sets:
//! a premise whose consequences break the grid is false; what a candidate and its
//! opposite, every candidate of a cell or every place of a digit in a house all imply
//! is true. Forcing nets ([`forcing_nets`]) do the same over tables whose direct links
//! follow each premise through four rounds of singles.
//!
//! The breadth-first search over shortest paths in [`super::chains`] finds other
//! chains (it keeps the first path to each node that avoids the nodes on it), so it
//! serves the other geometries, and Sudoku Explainer's ratings are unaffected.

use super::board::{self, Bits, Board, CellSet};
use super::step;
use super::{Emit, Node, Step, Technique};
use crate::Geometry;
use crate::symbols::Digits;

/// A literal. Cells' literals come first: `(cell * 9 + digit - 1) * 2 + 1` for "cell
/// holds digit", `+ 0` for "cell does not hold digit"; then group `g`'s, at
/// `GROUPS + 2 * g (+ 1 for "on")`.
type Lit = u16;

/// The first group literal.
const GROUPS: usize = 81 * 9 * 2;

/// HoDoKu's `MAX_TABLE_ENTRY_LENGTH`: a table holds at most this many entries, the
/// premise included.
const TABLE_LIMIT: usize = 1000;

fn lit(c: usize, d: u8, on: bool) -> Lit {
    ((c * 9 + d as usize - 1) * 2 + on as usize) as Lit
}

fn is_on(l: Lit) -> bool {
    l & 1 == 1
}

/// A group node: a digit's places (two or three) where a row or column crosses a box.
struct Group {
    digit: u8,
    cells: CellSet,
    block: usize,
    /// The row or column house.
    line: usize,
}

/// The literals' direct implications, and the group nodes.
struct Graph {
    links: Vec<Vec<Lit>>,
    groups: Vec<Group>,
}

impl Graph {
    /// The literal's cell; a group's first cell (HoDoKu compares groups by it).
    fn cell(&self, l: Lit) -> usize {
        match (l as usize).checked_sub(GROUPS) {
            Some(g) => board::first(self.groups[g / 2].cells),
            None => l as usize / 18,
        }
    }

    fn cells(&self, l: Lit) -> CellSet {
        match (l as usize).checked_sub(GROUPS) {
            Some(g) => self.groups[g / 2].cells,
            None => CellSet::bit(l as usize / 18),
        }
    }

    fn digit(&self, l: Lit) -> u8 {
        match (l as usize).checked_sub(GROUPS) {
            Some(g) => self.groups[g / 2].digit,
            None => (l as usize / 2 % 9) as u8 + 1,
        }
    }

    fn is_group(&self, l: Lit) -> bool {
        l as usize >= GROUPS
    }

    /// What each literal implies directly, in HoDoKu's order: "on" turns off the
    /// cell's other digits, then the digit in the rest of the cell's row, column and
    /// box; "off" turns on the other digit of a bivalue cell, then the digit's other
    /// place in each of the cell's houses where only two are left. Each implication is
    /// listed once. With `grouped`, the group nodes' links follow ([`Graph::group`]).
    fn new(b: &Board, grouped: bool) -> Graph {
        let t = b.tables();
        let mut links = vec![Vec::new(); GROUPS];
        for c in board::cells(b.unsolved()) {
            for d in board::digits(b.cand[c]) {
                let (mut on, mut off) = (Vec::new(), Vec::new());
                let bivalue = b.cand[c].count_ones() == 2;
                for e in board::digits(b.cand[c]).filter(|&e| e != d) {
                    on.push(lit(c, e, false));
                    if bivalue {
                        off.push(lit(c, e, true));
                    }
                }
                for &h in &t.houses_of[c] {
                    let others = b.digit(d) & t.house[h as usize] & !CellSet::bit(c);
                    for p in board::cells(others) {
                        if !on.contains(&lit(p, d, false)) {
                            on.push(lit(p, d, false));
                        }
                    }
                    if board::count(others) == 1 {
                        let p = board::first(others);
                        if !off.contains(&lit(p, d, true)) {
                            off.push(lit(p, d, true));
                        }
                    }
                }
                links[lit(c, d, true) as usize] = on;
                links[lit(c, d, false) as usize] = off;
            }
        }
        let mut graph = Graph {
            links,
            groups: Vec::new(),
        };
        if grouped {
            graph.group(b);
        }
        graph
    }

    /// Adds HoDoKu's group nodes (rows crossing boxes, then columns; by line, digit
    /// and box) and their links: "on" turns off the digit in the cells and groups
    /// that see the whole group; "off" turns on the one cell, or the one group, left
    /// for the digit in the group's box or line. The cells' links to groups come after
    /// their own (`fillTablesWithGroupNodes`).
    fn group(&mut self, b: &Board) {
        let t = b.tables();
        for line in 0..18 {
            for d in 1..=9u8 {
                let in_line = b.digit(d) & t.house[line];
                for &bx in &t.boxes {
                    let cells = in_line & t.house[bx];
                    if board::count(cells) >= 2 {
                        self.groups.push(Group {
                            digit: d,
                            cells,
                            block: bx,
                            line,
                        });
                    }
                }
            }
        }
        let n = self.groups.len();
        self.links.resize(GROUPS + 2 * n, Vec::new());
        for i in 0..n {
            let (on, off) = ((GROUPS + 2 * i + 1) as Lit, (GROUPS + 2 * i) as Lit);
            let g = &self.groups[i];
            let d = g.digit;
            let visible = t.seen_by_all(g.cells) & b.digit(d);
            for c in board::cells(visible) {
                self.links[on as usize].push(lit(c, d, false));
                self.links[lit(c, d, true) as usize].push(off);
            }
            for house in [g.block, g.line] {
                let left = visible & t.house[house];
                if board::count(left) == 1 {
                    let c = board::first(left);
                    self.links[off as usize].push(lit(c, d, true));
                    self.links[lit(c, d, false) as usize].push(on);
                }
            }
            let mut alone: [Option<usize>; 2] = [None; 2];
            let mut count = [0; 2];
            for (j, h) in self.groups.iter().enumerate() {
                if j == i || h.digit != d || !(h.cells & g.cells).is_empty() {
                    continue;
                }
                for (k, same) in [h.line == g.line, h.block == g.block]
                    .into_iter()
                    .enumerate()
                {
                    if same {
                        count[k] += 1;
                        alone[k].get_or_insert(j);
                        self.links[on as usize].push((GROUPS + 2 * j) as Lit);
                    }
                }
            }
            for (k, house) in [g.line, g.block].into_iter().enumerate() {
                let Some(j) = alone[k].filter(|_| count[k] == 1) else {
                    continue;
                };
                let rest = t.house[house] & b.digit(d) & !g.cells & !self.groups[j].cells;
                if rest.is_empty() {
                    self.links[off as usize].push((GROUPS + 2 * j + 1) as Lit);
                }
            }
        }
    }
}

/// One premise's table: its entries in the order found, each with the index of the
/// entry it came from and its distance from the premise (entry 0).
#[derive(Default)]
struct Table {
    lits: Vec<Lit>,
    from: Vec<u16>,
    dist: Vec<u16>,
    /// Generation stamp per literal: entered in the table being built.
    seen: Vec<u32>,
    stamp: u32,
}

impl Table {
    fn build(&mut self, links: &[Vec<Lit>], premise: Lit) {
        self.lits.clear();
        self.from.clear();
        self.dist.clear();
        if self.seen.len() != links.len() {
            self.seen = vec![0; links.len()];
        }
        self.stamp += 1;
        self.push(premise, 0, 0);
        let mut j = 0;
        while j < self.lits.len() && self.lits.len() < TABLE_LIMIT {
            let src = self.lits[j] as usize;
            let dist = self.dist[j] + 1;
            for &l in &links[src] {
                if self.lits.len() == TABLE_LIMIT {
                    break;
                }
                if self.seen[l as usize] != self.stamp {
                    self.push(l, j as u16, dist);
                }
            }
            j += 1;
        }
    }

    fn push(&mut self, l: Lit, from: u16, dist: u16) {
        self.seen[l as usize] = self.stamp;
        self.lits.push(l);
        self.from.push(from);
        self.dist.push(dist);
    }

    /// The chain from the premise to entry `j`.
    fn chain(&self, mut j: usize) -> Vec<Lit> {
        let mut out = vec![self.lits[j]];
        while j != 0 {
            j = self.from[j] as usize;
            out.push(self.lits[j]);
        }
        out.reverse();
        out
    }
}

/// Whether `chain` comes back to a cell it has left (a nice loop may come back to its
/// first cell), as HoDoKu checks it: a node is placed by its first cell, and a cell
/// counts as left once the chain has gone on from it.
fn lasso(g: &Graph, chain: &[Lit], nice_loop: bool) -> bool {
    let first = g.cell(chain[0]);
    let mut left = CellSet::ZERO;
    let mut last: Option<Lit> = None;
    for &l in chain {
        if left.has(g.cell(l)) {
            return true;
        }
        if let Some(p) = last.filter(|&p| g.cell(p) != first || !nice_loop) {
            left |= g.cells(p);
        }
        last = Some(l);
    }
    false
}

/// One step found, before HoDoKu's de-duplication and order.
struct Found {
    technique: Technique,
    chain: Vec<Lit>,
    eliminations: Vec<(usize, u8)>,
}

/// The eliminations of the nice loop `chain` (from its premise back to the premise's
/// cell), with whether it is continuous, as HoDoKu's `checkNiceLoop` works them out;
/// `None` when it is no nice loop or removes nothing.
fn nice_loop(b: &Board, g: &Graph, chain: &[Lit]) -> Option<(bool, Vec<(usize, u8)>)> {
    let t = b.tables();
    let (start, end) = (chain[0], chain[chain.len() - 1]);
    let c = g.cell(start);
    let (d, e) = (g.digit(start), g.digit(end));
    // The premise's first link is strong when the premise is "off".
    let first_strong = !is_on(start);
    let last_strong = is_on(end);
    let mut elims = Vec::new();
    let mut continuous = false;
    if !first_strong && !last_strong && d == e {
        elims.push((c, d));
    } else if first_strong && last_strong && d == e {
        elims.extend(board::digits(b.cand[c]).filter(|&x| x != d).map(|x| (c, x)));
    } else if first_strong != last_strong && d != e {
        elims.push((c, if first_strong { e } else { d }));
    } else if (!first_strong && !last_strong && b.cand[c].count_ones() == 2)
        || (first_strong && last_strong)
        || (first_strong != last_strong)
    {
        // The cases left: d != e in the first two, d == e in the third.
        continuous = true;
        let mut on_chain = CellSet::ZERO;
        for &l in chain {
            on_chain |= g.cells(l);
        }
        let last = chain.len() - 1;
        let keep_two = |x: usize, d1: u8, d2: u8, elims: &mut Vec<(usize, u8)>| {
            for y in board::digits(b.cand[x]).filter(|&y| y != d1 && y != d2) {
                elims.push((x, y));
            }
        };
        let cell = |i: usize| g.cell(chain[i]);
        for (i, &l) in chain.iter().enumerate() {
            // A cell entered and left by strong links keeps only those two digits.
            if i == 0 && first_strong && last_strong {
                keep_two(c, d, e, &mut elims);
            } else if i > 0
                && is_on(l)
                && i + 2 <= last
                && cell(i - 1) != cell(i)
                && !is_on(chain[i + 1])
                && cell(i) == cell(i + 1)
                && is_on(chain[i + 2])
                && cell(i + 1) != cell(i + 2)
            {
                keep_two(cell(i), g.digit(l), g.digit(chain[i + 2]), &mut elims);
            }
            // A weak link between two nodes clears the digit from the cells seeing
            // both.
            if i > 0 && !is_on(l) && cell(i - 1) != cell(i) {
                let x = g.digit(l);
                let victims = t.seen_by_all(g.cells(chain[i - 1]))
                    & t.seen_by_all(g.cells(l))
                    & !on_chain
                    & !CellSet::bit(c)
                    & b.digit(x);
                elims.extend(board::cells(victims).map(|v| (v, x)));
            }
        }
    } else {
        return None;
    }
    (!elims.is_empty()).then_some((continuous, elims))
}

/// The eliminations of an AIC from "`cs` is not `d`" to "`ce` is `e`", as HoDoKu's
/// `checkAics` and `checkAic` work them out: one digit, the cells seeing both ends when
/// there are two or more (one is left to the nice loops); two digits, ends that see
/// each other and hold each other's digit, which both lose. Empty when it is no AIC.
fn aic(b: &Board, cs: usize, d: u8, ce: usize, e: u8) -> Vec<(usize, u8)> {
    let t = b.tables();
    if d == e {
        let common = t.peers[cs] & t.peers[ce] & b.digit(d);
        if board::count(common) > 1 {
            return board::cells(common).map(|v| (v, d)).collect();
        }
    } else if t.peers[cs].has(ce) && b.has(ce, d) && b.has(cs, e) {
        return vec![(cs, e), (ce, d)];
    }
    Vec::new()
}

/// Finds HoDoKu's nice loops and AICs (its `getNiceLoops`; with `grouped`, through
/// group nodes too) and emits them best first.
pub fn nice_loops(b: &Board, grouped: bool, emit: Emit) -> bool {
    let g = Graph::new(b, grouped);
    let mut table = Table::default();
    // HoDoKu's finding order: nice loops from every "on" premise, then from every
    // "off" premise, then AICs (from "off" premises).
    let (mut found, mut aics): (Vec<Found>, Vec<Found>) = (Vec::new(), Vec::new());
    for on in [true, false] {
        for c in board::cells(b.unsolved()) {
            for d in board::digits(b.cand[c]) {
                table.build(&g.links, lit(c, d, on));
                for j in 1..table.lits.len() {
                    let l = table.lits[j];
                    if table.dist[j] <= 2 || g.is_group(l) {
                        continue;
                    }
                    let (ce, e) = (g.cell(l), g.digit(l));
                    if ce == c {
                        let chain = table.chain(j);
                        // The loop leaves the premise's cell at once and comes back
                        // from another cell.
                        if g.cell(chain[chain.len() - 2]) == c
                            || g.cell(chain[1]) == c
                            || lasso(&g, &chain, true)
                        {
                            continue;
                        }
                        if let Some((continuous, eliminations)) = nice_loop(b, &g, &chain) {
                            let grouped = chain.iter().any(|&l| g.is_group(l));
                            let technique = match (continuous, grouped) {
                                (true, false) => Technique::ContinuousNiceLoop,
                                (false, false) => Technique::DiscontinuousNiceLoop,
                                (true, true) => Technique::GroupedContinuousNiceLoop,
                                (false, true) => Technique::GroupedDiscontinuousNiceLoop,
                            };
                            found.push(Found {
                                technique,
                                chain,
                                eliminations,
                            });
                        }
                        continue;
                    }
                    if on || !is_on(l) {
                        continue;
                    }
                    let eliminations = aic(b, c, d, ce, e);
                    if eliminations.is_empty() {
                        continue;
                    }
                    let chain = table.chain(j);
                    if !lasso(&g, &chain, false) {
                        let grouped = chain.iter().any(|&l| g.is_group(l));
                        aics.push(Found {
                            technique: if grouped {
                                Technique::GroupedAic
                            } else {
                                Technique::Aic
                            },
                            chain,
                            eliminations,
                        });
                    }
                }
            }
        }
    }
    found.append(&mut aics);
    for st in hodoku_order(&g, found) {
        if !emit(st) {
            return false;
        }
    }
    true
}

/// The steps found, in the order HoDoKu's `getNiceLoops` leaves them: one chain per
/// kind and set of eliminations (a later one replaces the first only when shorter, and
/// the first stays listed, behind it), then a stable sort by most eliminations,
/// smallest weighted sum, and, between chains of one kind with the same eliminations,
/// the shortest. Eliminations are counted as hodoku-py lists them: a candidate that two
/// weak links clear counts twice.
fn hodoku_order(g: &Graph, found: Vec<Found>) -> Vec<Step> {
    type Kind = (Technique, Vec<(u8, usize)>);
    // Per kind: the position of its first step and its shortest chain.
    let mut kept: std::collections::HashMap<Kind, (usize, usize)> = Default::default();
    let mut ranked = Vec::new();
    for f in found {
        let mut key: Vec<(u8, usize)> = f.eliminations.iter().map(|&(c, d)| (d, c)).collect();
        key.sort_unstable();
        let first = match kept.get(&(f.technique, key.clone())) {
            Some(&(_, len)) if len <= f.chain.len() => continue,
            Some(&(first, _)) => first,
            None => ranked.len(),
        };
        kept.insert((f.technique, key), (first, f.chain.len()));
        let mut raw = Step::new(f.technique);
        raw.eliminations = f.eliminations.clone();
        let rank = (raw.hodoku_rank(81), first, f.chain.len());
        ranked.push((rank, make_step(g, f)));
    }
    ranked.sort_by_key(|r| r.0);
    ranked.into_iter().map(|r| r.1).collect()
}

fn make_step(g: &Graph, f: Found) -> Step {
    let mut st = Step::new(f.technique);
    for (i, &l) in f.chain.iter().enumerate() {
        let digit = g.digit(l);
        st.chain.push(Node {
            digit,
            cells: board::cells(g.cells(l)).collect(),
        });
        if i > 0 {
            st.strong.push(is_on(l));
        }
        if !st.digits.contains(&digit) {
            st.digits.push(digit);
        }
    }
    st.digits.sort_unstable();
    // HoDoKu removes them in (digit, cell) order, which decides its next singles.
    let mut elims = f.eliminations;
    elims.sort_unstable_by_key(|&(c, d)| (d, c));
    elims.dedup();
    st.eliminations = elims;
    st.rating = 66 + super::forcing::length_increment(f.chain.len() as u32);
    st
}

/// A premise's consequences as HoDoKu's `onSets` and `offSets` list them: per digit,
/// the cells its table sets ("on") and clears ("off"); group nodes do not count.
#[derive(Clone, Copy)]
struct Sets {
    on: [CellSet; 9],
    off: [CellSet; 9],
}

impl Sets {
    const NONE: Sets = Sets {
        on: [CellSet::ZERO; 9],
        off: [CellSet::ZERO; 9],
    };

    fn of(g: &Graph, table: &Table) -> Sets {
        let mut s = Sets::NONE;
        for &l in table.lits.iter().filter(|&&l| !g.is_group(l)) {
            let (c, d) = (l as usize / 18, g.digit(l) as usize - 1);
            if is_on(l) {
                s.on[d] |= CellSet::bit(c);
            } else {
                s.off[d] |= CellSet::bit(c);
            }
        }
        s
    }
}

/// What a premise that breaks the grid runs into.
#[derive(Clone, Copy)]
enum Clash {
    /// The candidate both set and cleared.
    Both(usize, u8),
    /// Two digits set in one cell.
    TwoDigits(usize, u8, u8),
    /// A digit set twice in a house.
    Twice(usize, u8),
    /// Every candidate of a cell cleared.
    Empty(usize),
    /// A digit left without a place in a house.
    Nowhere(usize, u8),
}

/// One forcing chain found: its conclusion, and the chains that show it, as (premise,
/// table entries to follow back to it).
struct Forcing {
    technique: Technique,
    /// Sets the digit (else removes it).
    place: bool,
    cell: usize,
    digit: u8,
    branches: Vec<(Lit, Vec<Lit>)>,
    clash: Option<Clash>,
    /// The house whose places of a digit are the premises (region forcing chains).
    house: Option<usize>,
}

/// Finds HoDoKu's forcing chains (its `getForcingChains`: chains only, through group
/// nodes) and emits them in the order HoDoKu ranks them: placements first, by cell,
/// then eliminations by cell and digit; each with its shortest chains.
///
/// Every premise's table is built as for the nice loops; a premise whose table sets
/// and clears one candidate, sets two digits in a cell or a digit twice in a house, or
/// clears a cell or (among the places its placed digits leave it, as HoDoKu counts
/// them) a digit's every place in a house is false (contradiction). What both a
/// candidate and its opposite imply, or every candidate of a cell, or every place of a
/// digit in a house, is true (verity).
pub fn forcing_chains(b: &Board, emit: Emit) -> bool {
    forcing(b, &Graph::new(b, true), false, emit)
}

/// Finds HoDoKu's forcing nets (its `getForcingNets`), as [`forcing_chains`] does its
/// chains, but each candidate set or removed implies directly what follows from it
/// through four rounds of singles, not its neighbours alone.
pub fn forcing_nets(b: &Board, emit: Emit) -> bool {
    let mut g = Graph {
        links: net_links(b),
        groups: Vec::new(),
    };
    g.group(b);
    forcing(b, &g, true, emit)
}

/// HoDoKu's `ANZ_TABLE_LOOK_AHEAD`: rounds of singles a net premise is followed through.
const LOOK_AHEAD: usize = 4;

/// A premise followed on a copy of the grid as HoDoKu's `getTableEntry` follows it in
/// net mode: its singles queued as its `Sudoku2` queues them (a cell left with one
/// candidate, a house with one place left for a digit), in that order.
struct Follow<'a> {
    b: &'a Board,
    cand: [board::Digits; 81],
    value: [u8; 81],
    /// Places left per house and digit (HoDoKu's `free`).
    free: [[u8; 10]; 27],
    naked: Vec<(usize, u8)>,
    hidden: Vec<(usize, u8)>,
    /// What has been recorded (each candidate on or off once).
    recorded: Sets,
    /// What the premise implies, in the order found (the premise first).
    out: Vec<Lit>,
}

impl<'a> Follow<'a> {
    fn new(b: &'a Board) -> Follow<'a> {
        let t = b.tables();
        let mut free = [[0u8; 10]; 27];
        for (h, f) in free.iter_mut().enumerate() {
            for d in 1..=9u8 {
                f[d as usize] = board::count(t.house[h] & b.digit(d)) as u8;
            }
        }
        let mut cand = [0; 81];
        let mut value = [0; 81];
        cand.copy_from_slice(&b.cand[..81]);
        value.copy_from_slice(&b.value[..81]);
        Follow {
            b,
            cand,
            value,
            free,
            naked: Vec::new(),
            hidden: Vec::new(),
            recorded: Sets::NONE,
            out: Vec::new(),
        }
    }

    fn add(&mut self, c: usize, d: u8, on: bool) {
        let set = if on {
            &mut self.recorded.on
        } else {
            &mut self.recorded.off
        };
        if !set[d as usize - 1].has(c) {
            set[d as usize - 1] |= CellSet::bit(c);
            self.out.push(lit(c, d, on));
        }
    }

    /// The one cell of house `h` left with `d`, queued as a hidden single.
    fn queue_hidden(&mut self, h: usize, d: u8) {
        let t = self.b.tables();
        if let Some(&c) = t
            .cells_of(h)
            .iter()
            .find(|&&c| self.cand[c as usize] >> (d - 1) & 1 == 1)
        {
            self.hidden.push((c as usize, d));
        }
    }

    fn remove(&mut self, c: usize, d: u8) {
        if self.cand[c] >> (d - 1) & 1 == 0 {
            return;
        }
        self.cand[c] &= !(1 << (d - 1));
        for h in self.b.tables().houses_of[c] {
            let h = h as usize;
            self.free[h][d as usize] -= 1;
            if self.free[h][d as usize] == 1 {
                self.queue_hidden(h, d);
            }
        }
        if self.cand[c].count_ones() == 1 {
            self.naked
                .push((c, self.cand[c].trailing_zeros() as u8 + 1));
        }
    }

    fn place(&mut self, c: usize, v: u8) {
        if self.value[c] == v {
            return;
        }
        self.value[c] = v;
        for p in board::cells(self.b.tables().peers[c]) {
            self.remove(p, v);
        }
        let old = std::mem::take(&mut self.cand[c]);
        for d in board::digits(old) {
            for h in self.b.tables().houses_of[c] {
                let h = h as usize;
                self.free[h][d as usize] -= 1;
                if self.free[h][d as usize] == 1 && d != v {
                    self.queue_hidden(h, d);
                }
            }
        }
    }

    /// Sets `c` to `d` and records it (HoDoKu's `setCell`): the digit, then its
    /// places among the peers as the grid had them, then the cell's other digits.
    fn set(&mut self, c: usize, d: u8) {
        let others = self.cand[c];
        self.place(c, d);
        self.add(c, d, true);
        for p in board::cells(self.b.digit(d) & self.b.tables().peers[c]) {
            self.add(p, d, false);
        }
        for e in board::digits(others).filter(|&e| e != d) {
            self.add(c, e, false);
        }
    }

    /// Follows the premise "`c` is (not) `d`".
    fn premise(&mut self, c: usize, d: u8, on: bool) {
        if on {
            self.set(c, d);
        } else {
            self.remove(c, d);
            self.add(c, d, false);
            if self.cand[c].count_ones() == 1 {
                self.set(c, self.cand[c].trailing_zeros() as u8 + 1);
            }
        }
        for _ in 0..LOOK_AHEAD {
            // The queues are read whole each round, as HoDoKu reads them; what a
            // round sets was queued before it.
            let mut singles: Vec<(usize, u8)> = self
                .naked
                .iter()
                .copied()
                .filter(|&(x, _)| self.value[x] == 0)
                .collect();
            let mut found = CellSet::ZERO;
            for &(x, e) in &self.hidden {
                if self.value[x] != 0 || found.has(x) || self.cand[x] >> (e - 1) & 1 == 0 {
                    continue;
                }
                let houses = self.b.tables().houses_of[x];
                if houses
                    .iter()
                    .any(|&h| self.free[h as usize][e as usize] == 1)
                {
                    singles.push((x, e));
                    found |= CellSet::bit(x);
                }
            }
            if singles.is_empty() {
                break;
            }
            for (x, e) in singles {
                self.set(x, e);
            }
        }
    }
}

/// The net tables' direct implications: per literal, what HoDoKu's net mode records
/// for it ([`Follow`]), the premise left out.
fn net_links(b: &Board) -> Vec<Vec<Lit>> {
    let mut links = vec![Vec::new(); GROUPS];
    for c in board::cells(b.unsolved()) {
        for d in board::digits(b.cand[c]) {
            for on in [true, false] {
                let mut f = Follow::new(b);
                f.premise(c, d, on);
                f.out.retain(|&l| l != lit(c, d, on));
                links[lit(c, d, on) as usize] = f.out;
            }
        }
    }
    links
}

/// [`forcing_chains`] (or with `net`, [`forcing_nets`]) over the tables of `g`.
fn forcing(b: &Board, g: &Graph, net: bool, emit: Emit) -> bool {
    let t = b.tables();
    let mut table = Table::default();
    let mut sets: Vec<Option<Sets>> = vec![None; GROUPS];
    for c in board::cells(b.unsolved()) {
        for d in board::digits(b.cand[c]) {
            for on in [true, false] {
                table.build(&g.links, lit(c, d, on));
                sets[lit(c, d, on) as usize] = Some(Sets::of(g, &table));
            }
        }
    }
    // HoDoKu's `candidatesAllowed`: the places the placed digits leave each digit.
    let mut allowed = [b.unsolved(); 9];
    for c in 0..81 {
        if b.value[c] != 0 {
            allowed[b.value[c] as usize - 1] &= !t.peers[c];
        }
    }
    // The houses in HoDoKu's order, which is theirs here: rows, columns, boxes.
    let houses = 0..t.houses;
    let mut found: Vec<Forcing> = Vec::new();
    let on_lits = |s: CellSet, d: u8| board::cells(s).map(move |x| lit(x, d, true)).collect();
    let off_lits = |s: CellSet, d: u8| board::cells(s).map(move |x| lit(x, d, false)).collect();
    for c in board::cells(b.unsolved()) {
        for d in board::digits(b.cand[c]) {
            for on in [true, false] {
                let p = lit(c, d, on);
                let s = sets[p as usize].expect("built above");
                let mut add = |entries: Vec<Lit>, clash: Clash| {
                    found.push(Forcing {
                        technique: Technique::ContradictionForcingChain,
                        place: !on,
                        cell: c,
                        digit: d,
                        branches: vec![(p, entries)],
                        clash: Some(clash),
                        house: None,
                    })
                };
                if (if on {
                    s.off[d as usize - 1]
                } else {
                    s.on[d as usize - 1]
                })
                .has(c)
                {
                    add(vec![lit(c, d, !on)], Clash::Both(c, d));
                }
                for e in 1..=9u8 {
                    let both = s.on[e as usize - 1] & s.off[e as usize - 1];
                    if !both.is_empty() {
                        let x = board::first(both);
                        add(vec![lit(x, e, false), lit(x, e, true)], Clash::Both(x, e));
                    }
                }
                for e in 1..=9u8 {
                    for f in e + 1..=9 {
                        let two = s.on[e as usize - 1] & s.on[f as usize - 1];
                        if !two.is_empty() {
                            let x = board::first(two);
                            add(
                                vec![lit(x, e, true), lit(x, f, true)],
                                Clash::TwoDigits(x, e, f),
                            );
                        }
                    }
                }
                for e in 1..=9u8 {
                    for h in houses.clone() {
                        let twice = t.house[h] & s.on[e as usize - 1];
                        if board::count(twice) > 1 {
                            add(on_lits(twice, e), Clash::Twice(h, e));
                        }
                    }
                }
                let mut emptied = b.unsolved();
                for e in 1..=9u8 {
                    emptied &= s.off[e as usize - 1] | !b.digit(e);
                    emptied &= !s.on[e as usize - 1];
                }
                for x in board::cells(emptied) {
                    let all = board::digits(b.cand[x]).map(|e| lit(x, e, false)).collect();
                    add(all, Clash::Empty(x));
                }
                for e in 1..=9u8 {
                    for h in houses.clone() {
                        let places = t.house[h] & allowed[e as usize - 1];
                        if !places.is_empty() && places & s.off[e as usize - 1] == places {
                            add(off_lits(places, e), Clash::Nowhere(h, e));
                        }
                    }
                }
            }
        }
    }
    let mut verity =
        |technique: Technique, premises: Vec<Lit>, exclude: CellSet, house: Option<usize>| {
            let all: Vec<Sets> = premises
                .iter()
                .map(|&p| sets[p as usize].expect("built"))
                .collect();
            for e in 1..=9u8 {
                for place in [true, false] {
                    let pick = |s: &Sets| {
                        if place {
                            s.on[e as usize - 1]
                        } else {
                            s.off[e as usize - 1]
                        }
                    };
                    let common = all.iter().fold(!exclude, |m, s| m & pick(s));
                    for x in board::cells(common) {
                        found.push(Forcing {
                            technique,
                            place,
                            cell: x,
                            digit: e,
                            branches: premises
                                .iter()
                                .map(|&p| (p, vec![lit(x, e, place)]))
                                .collect(),
                            clash: None,
                            house,
                        });
                    }
                }
            }
        };
    for c in board::cells(b.unsolved()) {
        for d in board::digits(b.cand[c]) {
            verity(
                Technique::DoubleForcingChain,
                vec![lit(c, d, true), lit(c, d, false)],
                CellSet::bit(c),
                None,
            );
        }
    }
    for c in board::cells(b.unsolved()) {
        let premises = board::digits(b.cand[c]).map(|d| lit(c, d, true)).collect();
        verity(Technique::CellForcingChain, premises, CellSet::ZERO, None);
    }
    for h in houses.clone() {
        for d in 1..=9u8 {
            let places = t.house[h] & b.digit(d);
            if !places.is_empty() {
                verity(
                    Technique::RegionForcingChain,
                    on_lits(places, d),
                    CellSet::ZERO,
                    Some(h),
                );
            }
        }
    }
    // HoDoKu's order (its `TablingComparator`): placements by cell, then eliminations
    // by cell and digit; of one conclusion, the shortest chains (the first found).
    found.sort_by_key(|f| (!f.place, f.cell, if f.place { 0 } else { f.digit }));
    let mut i = 0;
    while i < found.len() {
        let key = |f: &Forcing| (f.place, f.cell, f.digit);
        let same = found[i..]
            .iter()
            .take_while(|f| key(f) == key(&found[i]))
            .count();
        let chains = found[i..i + same]
            .iter()
            .map(|f| chains_of(g, &mut table, f));
        let (best, chains) = chains
            .enumerate()
            .min_by_key(|(_, ch)| ch.iter().map(Vec::len).sum::<usize>())
            .expect("one conclusion at least");
        if !emit(forcing_step(g, &found[i + best], chains, net)) {
            return false;
        }
        i += same;
    }
    true
}

/// The chains of a forcing chain: from each premise to each of its entries.
fn chains_of(g: &Graph, table: &mut Table, f: &Forcing) -> Vec<Vec<Lit>> {
    let mut out = Vec::new();
    for (premise, entries) in &f.branches {
        table.build(&g.links, *premise);
        for &l in entries {
            if let Some(j) = table.lits.iter().position(|&x| x == l) {
                out.push(table.chain(j));
            }
        }
    }
    out
}

/// A literal as text: `r1c1=5`, `r1c1<>5`, a group `r1c12=5`.
fn lit_text(gm: &Geometry, g: &Graph, l: Lit) -> String {
    let cells: Vec<usize> = board::cells(g.cells(l)).collect();
    let sign = if is_on(l) { "=" } else { "<>" };
    format!(
        "{}{sign}{}",
        step::group_name(gm, &cells),
        Digits::mark(g.digit(l))
    )
}

fn forcing_step(g: &Graph, f: &Forcing, chains: Vec<Vec<Lit>>, net: bool) -> Step {
    let gm = Geometry::classic();
    let mut st = Step::new(f.technique);
    if net {
        // HoDoKu's forcing nets score as nets, whatever the kind.
        st.technique = Technique::ForcingNet;
        let kind = f.technique.title().trim_end_matches(" Chains");
        st.name = Some(format!("{kind} Net"));
    }
    // The premises: one candidate (and its opposite), a cell's digits, a digit's
    // places in a house.
    for &(p, _) in &f.branches {
        let (c, d) = (g.cell(p), g.digit(p));
        if !st.cells.contains(&c) {
            st.cells.push(c);
        }
        if !st.digits.contains(&d) {
            st.digits.push(d);
        }
    }
    st.houses.extend(f.house);
    if f.place {
        st.placements = vec![(f.cell, f.digit)];
    } else {
        st.eliminations = vec![(f.cell, f.digit)];
    }
    let length: usize = chains.iter().map(Vec::len).sum();
    st.detail = chains
        .iter()
        .map(|ch| {
            ch.iter()
                .map(|&l| lit_text(&gm, g, l))
                .collect::<Vec<_>>()
                .join(" => ")
        })
        .collect();
    if let Some(clash) = f.clash {
        let d = Digits::mark;
        st.detail.push(match clash {
            Clash::Both(x, e) => {
                format!("So {} would be {} and not {}", gm.cell_name(x), d(e), d(e))
            }
            Clash::TwoDigits(x, e, e2) => format!(
                "So {} would be both {} and {}",
                gm.cell_name(x),
                d(e),
                d(e2)
            ),
            Clash::Twice(h, e) => {
                format!("So {} would be twice in {}", d(e), step::house_name(&gm, h))
            }
            Clash::Empty(x) => format!("So {} would have no candidate left", gm.cell_name(x)),
            Clash::Nowhere(h, e) => format!(
                "So {} would have no place in {}",
                d(e),
                step::house_name(&gm, h)
            ),
        });
    }
    st.rating = if net { 90 } else { 80 } + super::forcing::length_increment(length as u32);
    st
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{SAMPLES, check_sound, state};

    #[test]
    fn every_loop_and_aic_is_sound_on_samples() {
        let mut seen = std::collections::BTreeSet::new();
        for p in SAMPLES {
            let b = Board::from_state(&state(p));
            for grouped in [false, true] {
                nice_loops(&b, grouped, &mut |st| {
                    check_sound(p, &st);
                    seen.insert(st.technique);
                    true
                });
            }
        }
        assert!(seen.contains(&Technique::Aic), "{seen:?}");
        assert!(seen.contains(&Technique::DiscontinuousNiceLoop), "{seen:?}");
    }

    #[test]
    fn every_forcing_chain_is_sound_on_samples() {
        let mut seen = std::collections::BTreeSet::new();
        for p in SAMPLES {
            let b = Board::from_state(&state(p));
            forcing_chains(&b, &mut |st| {
                check_sound(p, &st);
                assert!(!st.detail.is_empty(), "{st:?}");
                seen.insert(st.technique);
                true
            });
        }
        assert!(
            seen.contains(&Technique::ContradictionForcingChain),
            "{seen:?}"
        );
    }

    #[test]
    fn every_forcing_net_is_sound_on_samples() {
        let mut n = 0;
        for p in &SAMPLES[..4] {
            let b = Board::from_state(&state(p));
            forcing_nets(&b, &mut |st| {
                check_sound(p, &st);
                assert_eq!(st.technique, Technique::ForcingNet);
                n += 1;
                n % 20 != 0
            });
        }
        assert!(n > 0);
    }

    #[test]
    fn a_chain_may_not_come_back_to_a_cell_it_left() {
        let g = Graph {
            links: Vec::new(),
            groups: Vec::new(),
        };
        // Two digits of one cell in a row are one step inside the cell.
        assert!(!lasso(
            &g,
            &[lit(0, 1, false), lit(0, 2, true), lit(5, 2, false)],
            false
        ));
        // Back in cell 0 after leaving it: an AIC may not, a nice loop may.
        let back = [
            lit(0, 1, true),
            lit(5, 1, false),
            lit(5, 2, true),
            lit(0, 2, false),
        ];
        assert!(lasso(&g, &back, false));
        assert!(!lasso(&g, &back, true));
        // Back in cell 5 after leaving it: neither may.
        let twice = [
            lit(0, 1, true),
            lit(5, 1, false),
            lit(6, 1, true),
            lit(5, 3, false),
        ];
        assert!(lasso(&g, &twice, true));
    }
}
