//! Alternating inference chains (HoDoKu style), on grids up to 32x32: X-chains (one digit),
//! XY-chains (bivalue cells), remote pairs, AICs and grouped AICs.
//!
//! A node is a digit in a cell, or (grouped) in two or three cells of one box-line
//! intersection. A strong link (`=`) joins two nodes of which one must be true: the two
//! places of a digit in a house, or the two digits of a bivalue cell. A weak link (`-`)
//! joins two nodes that cannot both be true: one digit in cells that see each other, or
//! two digits of one cell. A chain that starts and ends with strong links proves that
//! one of its ends is true, so a candidate that conflicts with both ends goes. When the
//! two ends are also weakly linked, the chain closes into a continuous nice loop: every
//! weak link of the loop then holds exactly one true node, so what conflicts with both
//! nodes of any weak link goes (AIC and grouped searches).
//!
//! Search: breadth-first from every start node, so the shortest chain of each kind is
//! found; among equal lengths the first start (cell order, then digit) wins. HoDoKu's
//! XY-chains and remote pairs (its path's order, up to 9x9) are enumerated depth first
//! instead, as HoDoKu does (`every_xy_chain`), and so are its turbot fish, X-chains of
//! four cells (`every_x_chain`); on classic 9x9 its path takes AICs and nice loops from
//! [`super::tabling`], HoDoKu's own search.

use super::board::{self, Bits, Board, Digits};
use super::{Emit, Node, Step, Technique};

/// Which chains to look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One digit, single cells.
    X,
    /// Strong links in bivalue cells only, weak links on one digit between cells.
    XY,
    /// XY-chains whose cells all hold the same two digits.
    RemotePair,
    /// Any links between single cells.
    Aic,
    /// Any links, groups allowed.
    Grouped,
}

#[derive(Clone, Copy, Debug)]
struct N<S: Bits> {
    digit: u8,
    cells: S,
}

struct Graph<S: Bits> {
    nodes: Vec<N<S>>,
    /// The node of digit `d` alone in cell `c`, at `(d - 1) * cells + c` (`u32::MAX`:
    /// none).
    single: Vec<u32>,
    strong: Vec<Vec<u32>>,
    weak: Vec<Vec<u32>>,
}

fn build<S: Bits>(b: &Board<S>, kind: Kind, digit: Option<u8>) -> Graph<S> {
    let t = b.tables();
    let mut nodes: Vec<N<S>> = Vec::new();
    let digits: Vec<u8> = match digit {
        Some(d) => vec![d],
        None => b.digit_range().collect(),
    };
    for &d in &digits {
        for c in board::cells(b.digit(d)) {
            nodes.push(N {
                digit: d,
                cells: S::bit(c),
            });
        }
    }
    if kind == Kind::Grouped {
        for &d in &digits {
            for &bx in &t.boxes {
                for line in 0..t.lines {
                    let seg = t.house[bx] & t.house[line] & b.digit(d);
                    if board::count(seg) >= 2 {
                        nodes.push(N {
                            digit: d,
                            cells: seg,
                        });
                    }
                }
            }
        }
    }
    // Links are looked up, not tested pair by pair (on 16x16 the pairs run to millions):
    // a single-cell node by (digit, cell), a group by its digit and cells.
    let n = nodes.len();
    let mut single = vec![u32::MAX; t.n * t.cell_count()];
    let mut groups: std::collections::HashMap<(u8, S), u32> = std::collections::HashMap::new();
    for (i, nd) in nodes.iter().enumerate() {
        if board::count(nd.cells) == 1 {
            single[(nd.digit as usize - 1) * t.cell_count() + board::first(nd.cells)] = i as u32;
        } else {
            groups.insert((nd.digit, nd.cells), i as u32);
        }
    }
    let node_at = |d: u8, cells: S| -> Option<u32> {
        if board::count(cells) == 1 {
            let i = single[(d as usize - 1) * t.cell_count() + board::first(cells)];
            (i != u32::MAX).then_some(i)
        } else {
            groups.get(&(d, cells)).copied()
        }
    };
    let group_list: Vec<u32> = groups.values().copied().collect();
    let mut strong = vec![Vec::new(); n];
    let mut weak = vec![Vec::new(); n];
    for (i, a) in nodes.iter().enumerate() {
        let (d, dc) = (a.digit, b.digit(a.digit));
        // Weak: every cell of one sees every cell of the other.
        let seen = t.seen_by_all(a.cells) & dc;
        for c in board::cells(seen) {
            if let Some(j) = node_at(d, S::bit(c)) {
                weak[i].push(j);
            }
        }
        for &j in &group_list {
            let z = nodes[j as usize];
            if z.digit == d && (z.cells & !seen).is_empty() {
                weak[i].push(j);
            }
        }
        // Strong: the two are all the places of the digit in some house.
        if kind != Kind::XY && kind != Kind::RemotePair {
            for h in 0..t.houses {
                let hm = t.house[h];
                if !(a.cells & !hm).is_empty() {
                    continue;
                }
                let rest = dc & hm & !a.cells;
                if rest.is_empty() {
                    continue;
                }
                if let Some(j) = node_at(d, rest) {
                    strong[i].push(j);
                }
            }
        }
        // Two digits of one cell: weak, and strong when the cell is bivalue.
        if board::count(a.cells) == 1 && kind != Kind::X {
            let c = board::first(a.cells);
            for e in board::digits(b.cand[c]) {
                let Some(j) = node_at(e, a.cells).filter(|_| e != d) else {
                    continue;
                };
                if b.cand[c].count_ones() == 2 {
                    strong[i].push(j);
                }
                if kind == Kind::Aic || kind == Kind::Grouped {
                    weak[i].push(j);
                }
            }
        }
        // Searches follow links in node order.
        for list in [&mut strong[i], &mut weak[i]] {
            list.sort_unstable();
            list.dedup();
        }
    }
    Graph {
        nodes,
        single,
        strong,
        weak,
    }
}

/// Eliminations proved by "one of `x`, `z` is true".
fn eliminations<S: Bits>(b: &Board<S>, x: N<S>, z: N<S>) -> Vec<(usize, u8)> {
    let t = b.tables();
    let mut out = Vec::new();
    if x.digit == z.digit {
        let victims = b.seen_by_all(x.cells | z.cells) & b.digit(x.digit);
        out.extend(board::cells(victims).map(|c| (c, x.digit)));
    } else if x.cells == z.cells && board::count(x.cells) == 1 {
        let c = board::first(x.cells);
        let keep = ((1 as Digits) << (x.digit - 1)) | (1 << (z.digit - 1));
        out.extend(board::digits(b.cand[c] & !keep).map(|d| (c, d)));
    } else if board::count(x.cells) == 1 && board::count(z.cells) == 1 {
        let (cx, cz) = (board::first(x.cells), board::first(z.cells));
        if t.peers[cx].has(cz) {
            if b.has(cz, x.digit) {
                out.push((cz, x.digit));
            }
            if b.has(cx, z.digit) {
                out.push((cx, z.digit));
            }
        }
    }
    out
}

/// The order in which [`find`] emits the chains it finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Shortest first (Sudoku Explainer: a chain's rating grows with its length).
    Shortest,
    /// HoDoKu's: most eliminations first, then the smallest weighted sum of the
    /// eliminated candidates (HoDoKu's `getIndexSumme`), then the shortest.
    MostEliminations,
}

/// Finds chains of `kind` and emits them in `order`.
pub fn find<S: Bits>(b: &Board<S>, kind: Kind, order: Order, emit: Emit) -> bool {
    let digits: Vec<Option<u8>> = if kind == Kind::X {
        b.digit_range().map(Some).collect()
    } else {
        vec![None]
    };
    let mut found: Vec<(usize, Step)> = Vec::new();
    for digit in digits {
        let g = build(b, kind, digit);
        let depth_first = matches!(kind, Kind::XY | Kind::RemotePair);
        if depth_first && order == Order::MostEliminations && b.tables().n <= 9 {
            every_xy_chain(b, &g, kind == Kind::RemotePair, &mut found);
        } else {
            search(b, &g, kind, order, &mut found);
        }
    }
    match order {
        Order::Shortest => found.sort_by_key(|f| f.0),
        Order::MostEliminations => found.sort_by_cached_key(|(len, st)| {
            let cells = b.tables().n * b.tables().n;
            (st.hodoku_rank(cells), *len)
        }),
    }
    for (_, st) in found {
        if !emit(st) {
            return false;
        }
    }
    true
}

fn search<S: Bits>(
    b: &Board<S>,
    g: &Graph<S>,
    kind: Kind,
    order: Order,
    found: &mut Vec<(usize, Step)>,
) {
    let n = g.nodes.len();
    const MAX: usize = 16;
    // parent[state] with state = node * 2 + (1 if reached by a strong link).
    let mut parent = vec![u32::MAX; 2 * n];
    let mut depth = vec![0u8; 2 * n];
    let mut best_len = usize::MAX;
    // The nodes weakly linked to the start (weak links go both ways): a chain ending on
    // one closes into a loop.
    let mut closes = vec![false; n];
    for start in 0..n {
        if kind == Kind::XY || kind == Kind::RemotePair {
            // Chains start with a strong link inside a bivalue cell.
            if board::count(g.nodes[start].cells) != 1 {
                continue;
            }
        }
        parent.iter_mut().for_each(|p| *p = u32::MAX);
        closes.iter_mut().for_each(|c| *c = false);
        for &m in &g.weak[start] {
            closes[m as usize] = true;
        }
        let mut queue: Vec<u32> = Vec::new();
        // Start: we leave the start node by a strong link.
        let s0 = (start * 2) as u32; // "reached by weak" = must leave by strong
        parent[s0 as usize] = s0;
        depth[s0 as usize] = 1;
        queue.push(s0);
        let mut qi = 0;
        while qi < queue.len() {
            let st = queue[qi];
            qi += 1;
            let node = st as usize / 2;
            let by_strong = st & 1 == 1;
            let d = depth[st as usize] as usize;
            // Shortest first needs no chain much longer than the shortest found; the
            // most eliminations may come from any length.
            if d >= MAX || (order == Order::Shortest && d > best_len) {
                continue;
            }
            let next = if by_strong {
                &g.weak[node]
            } else {
                &g.strong[node]
            };
            for &m in next {
                // Back at the start by a strong link: the start is true (were it
                // false, the nodes after and before it would both be true, which the
                // chain between them forbids), so its cell loses every other digit:
                // HoDoKu's discontinuous nice loop (its path only; Sudoku
                // Explainer's counts such a chain as a forcing chain).
                if !by_strong
                    && order == Order::MostEliminations
                    && m as usize == start
                    && d + 1 >= 4
                    && matches!(kind, Kind::Aic | Kind::Grouped)
                    && board::count(g.nodes[start].cells) == 1
                {
                    let x = g.nodes[start];
                    let c = board::first(x.cells);
                    let others = b.cand[c] & !(1 << (x.digit - 1));
                    if others != 0 {
                        let mut path = collect_path(&parent, st);
                        path.push(s0 | 1);
                        let elims = board::digits(others).map(|e| (c, e)).collect();
                        found.push((path.len(), make_step(g, kind, &path, elims)));
                    }
                    continue;
                }
                let ns = m * 2 + if by_strong { 0 } else { 1 };
                if parent[ns as usize] != u32::MAX {
                    continue;
                }
                // Do not revisit a node already on the path.
                if on_path(&parent, st, m) {
                    continue;
                }
                parent[ns as usize] = st;
                depth[ns as usize] = (d + 1) as u8;
                queue.push(ns);
                if !by_strong {
                    // Just crossed a strong link: the chain may end here.
                    let (x, z) = (g.nodes[start], g.nodes[m as usize]);
                    if d + 1 < 4 {
                        continue;
                    }
                    let loops = matches!(kind, Kind::Aic | Kind::Grouped);
                    if loops && closes[m as usize] {
                        let path = collect_path(&parent, ns);
                        let elims = loop_eliminations(b, g, &path);
                        if !elims.is_empty() {
                            let len = path.len() + 1;
                            best_len = best_len.min(len + 2);
                            let mut st = make_step(g, kind, &path, elims);
                            st.technique = Technique::ContinuousNiceLoop;
                            // The loop closes on its first node, by a weak link.
                            let first = st.chain[0].clone();
                            st.chain.push(first);
                            st.strong.push(false);
                            st.rating = 66 + super::forcing::length_increment(len as u32);
                            found.push((len, st));
                        }
                        continue;
                    }
                    if (kind == Kind::XY || kind == Kind::RemotePair) && x.digit != z.digit {
                        continue;
                    }
                    let elims = eliminations(b, x, z);
                    if elims.is_empty() {
                        continue;
                    }
                    let path = collect_path(&parent, ns);
                    // A node of the chain that sees both ends is false too; HoDoKu's
                    // X- and XY-chains clear it, Sudoku Explainer's keep it.
                    let inner =
                        order == Order::MostEliminations && matches!(kind, Kind::X | Kind::XY);
                    let elims: Vec<(usize, u8)> = elims
                        .into_iter()
                        .filter(|&(c, dd)| inner || !path_has(g, &path, c, dd))
                        .collect();
                    if elims.is_empty() {
                        continue;
                    }
                    if kind == Kind::RemotePair {
                        let pair = b.cand[board::first(g.nodes[path[0] as usize / 2].cells)];
                        if path
                            .iter()
                            .any(|&s| b.cand[board::first(g.nodes[s as usize / 2].cells)] != pair)
                        {
                            continue;
                        }
                    }
                    let len = path.len();
                    best_len = best_len.min(len + 2);
                    found.push((len, make_step(g, kind, &path, elims)));
                }
            }
        }
    }
}

/// Nodes a HoDoKu XY-chain may have: two a cell, so up to ten cells.
const XY_MAX_NODES: usize = 20;

/// Cells [`every_xy_chain`] may add to chains, in all: HoDoKu has no bound, but a typed
/// pencil-mark grid full of bivalue cells could hold billions of chains. Over 52,389
/// searches along the paths of 6,000 diabolical and top1465 puzzles the most was 84,000
/// (median 20).
const XY_BUDGET: usize = 2_000_000;

/// HoDoKu's XY-chains (or, `remote`, remote pairs): every chain of bivalue cells up to
/// ten cells long, depth first from each cell (in order) and each of its digits,
/// stepping to a neighbour by row, then column, then box (a box neighbour only when not
/// in the same row or column); for each set of eliminations, the shortest chain (the
/// first found among equals). A breadth-first search finds one chain to each node, so
/// it misses sets that only longer or other chains prove; up to 9x9 (on larger grids
/// the chains are too many). A remote pair's cells all hold the same two digits, and
/// it has four cells or more: any two of its cells an odd number of steps apart (three
/// or more) hold both digits between them, so the cells that see both lose both (HoDoKu
/// looks for those only once the ends prove an elimination).
fn every_xy_chain<S: Bits>(
    b: &Board<S>,
    g: &Graph<S>,
    remote: bool,
    found: &mut Vec<(usize, Step)>,
) {
    let t = b.tables();
    let cells = t.cell_count();
    let mut dfs = XyDfs {
        b,
        g,
        start_digit: 0,
        start_buddies: S::ZERO,
        remote: None,
        path: Vec::new(),
        visited: S::ZERO,
        by_eliminations: std::collections::HashMap::new(),
        budget: XY_BUDGET,
        found,
    };
    for c in 0..cells {
        if b.cand[c].count_ones() != 2 {
            continue;
        }
        let digits: Vec<u8> = board::digits(b.cand[c]).collect();
        for (x, y) in [(digits[0], digits[1]), (digits[1], digits[0])] {
            dfs.start_buddies = b.digit(x) & t.peers[c];
            if dfs.start_buddies.is_empty() {
                continue;
            }
            dfs.start_digit = x;
            dfs.remote = remote.then_some(b.cand[c]);
            dfs.path = vec![dfs.node(x, c) * 2, dfs.node(y, c) * 2 + 1];
            dfs.visited = S::bit(c);
            dfs.step_out(c, y);
        }
    }
}

/// The state of [`every_xy_chain`]'s search.
struct XyDfs<'a, S: Bits> {
    b: &'a Board<S>,
    g: &'a Graph<S>,
    start_digit: u8,
    /// The cells holding the start digit that see the start cell.
    start_buddies: S,
    /// For a remote pair, its two digits.
    remote: Option<Digits>,
    /// The chain's states (node * 2, + 1 when reached by a strong link).
    path: Vec<u32>,
    /// The chain's cells.
    visited: S,
    /// Where each set of eliminations is in `found`.
    by_eliminations: std::collections::HashMap<Vec<(usize, u8)>, usize>,
    /// Cells the search may still add ([`XY_BUDGET`]).
    budget: usize,
    found: &'a mut Vec<(usize, Step)>,
}

impl<S: Bits> XyDfs<'_, S> {
    fn kind(&self) -> Kind {
        match self.remote {
            Some(_) => Kind::RemotePair,
            None => Kind::XY,
        }
    }

    fn node(&self, d: u8, c: usize) -> u32 {
        self.g.single[(d as usize - 1) * self.b.tables().cell_count() + c]
    }

    /// Extends the chain, which ends on digit `d` of `cell`, by a weak link to another
    /// bivalue cell and the strong link inside it.
    fn step_out(&mut self, cell: usize, d: u8) {
        if self.path.len() >= XY_MAX_NODES {
            return;
        }
        let (b, t) = (self.b, self.b.tables());
        let [row, col, bx] = t.houses_of[cell];
        let (same_row, same_col) = (t.house[row as usize], t.house[col as usize]);
        for h in [row, col, bx] {
            for next in board::cells(t.house[h as usize] & b.digit(d) & !self.visited) {
                if b.cand[next].count_ones() != 2
                    || self.remote.is_some_and(|pair| b.cand[next] != pair)
                    || (h == bx && (same_row.has(next) || same_col.has(next)))
                {
                    continue;
                }
                if self.budget == 0 {
                    return;
                }
                self.budget -= 1;
                let other = board::digits(b.cand[next] & !(1 << (d - 1)))
                    .next()
                    .expect("bivalue");
                self.path.push(self.node(d, next) * 2);
                self.path.push(self.node(other, next) * 2 + 1);
                self.visited |= S::bit(next);
                if other == self.start_digit {
                    let victims = self.start_buddies & t.peers[next];
                    match self.remote {
                        None if !victims.is_empty() => {
                            self.record(board::cells(victims).map(|c| (c, other)).collect());
                        }
                        Some(pair) if !victims.is_empty() && self.path.len() >= 8 => {
                            let elims = self.remote_eliminations(pair);
                            if !elims.is_empty() {
                                self.record(elims);
                            }
                        }
                        _ => {}
                    }
                }
                self.step_out(next, other);
                self.visited &= !S::bit(next);
                self.path.truncate(self.path.len() - 2);
            }
        }
    }

    /// What a remote pair's cells clear: both digits from the cells that see two of
    /// them an odd number (three or more) of steps apart, in cell order.
    fn remote_eliminations(&self, pair: Digits) -> Vec<(usize, u8)> {
        let (b, t) = (self.b, self.b.tables());
        let cells: Vec<usize> = self
            .path
            .iter()
            .step_by(2)
            .map(|&st| board::first(self.g.nodes[st as usize / 2].cells))
            .collect();
        let mut seen = S::ZERO;
        for (k, &x) in cells.iter().enumerate() {
            for &y in cells.iter().skip(k + 3).step_by(2) {
                seen |= t.peers[x] & t.peers[y];
            }
        }
        let mut elims = Vec::new();
        for c in board::cells(seen) {
            for d in board::digits(b.cand[c] & pair) {
                elims.push((c, d));
            }
        }
        elims
    }

    fn record(&mut self, elims: Vec<(usize, u8)>) {
        let len = self.path.len();
        match self.by_eliminations.get(&elims) {
            Some(&i) if self.found[i].0 <= len => {}
            Some(&i) => self.found[i] = (len, make_step(self.g, self.kind(), &self.path, elims)),
            None => {
                let step = make_step(self.g, self.kind(), &self.path, elims.clone());
                self.by_eliminations.insert(elims, self.found.len());
                self.found.push((len, step));
            }
        }
    }
}

/// How many chain extensions [`every_x_chain`] may try in one call (HoDoKu has no
/// bound; a pencil-mark grid could hold billions of chains).
const X_BUDGET: usize = 2_000_000;

/// HoDoKu's X-chains (its `ChainSolver`), up to `max_nodes` cells, as `technique` (its
/// turbot fish is the same search up to four): for each digit, from each cell in order
/// by each strong link, depth first, a link of either kind then a strong one,
/// alternately; a cell's neighbours by row, column, then box cells off that row and
/// column. A chain that has just crossed a strong link (three cells or more) clears the
/// digit from every cell seeing both ends, chain cells included (back at its start
/// that way, the start is true: every cell seeing it). For each set of eliminations
/// the shortest chain (the first found among equals), then most eliminations and
/// [`Step::hodoku_rank`]'s sum, ties in the order found.
pub fn every_x_chain<S: Bits>(
    b: &Board<S>,
    technique: Technique,
    max_nodes: usize,
    emit: Emit,
) -> bool {
    let t = b.tables();
    let mut found: Vec<Step> = Vec::new();
    let mut kept: std::collections::HashMap<(u8, Vec<usize>), usize> = Default::default();
    let mut budget = X_BUDGET;
    for d in b.digit_range() {
        let places = b.digit(d);
        let mut links: Vec<Vec<(usize, bool)>> = vec![Vec::new(); t.cell_count()];
        for c in board::cells(places) {
            for (k, &h) in t.houses_of[c].iter().enumerate() {
                let h = h as usize;
                let strong = board::count(places & t.house[h]) == 2;
                for &nb in t.cells_of(h) {
                    let nb = nb as usize;
                    let off_lines = t.row(nb) != t.row(c) && t.col(nb) != t.col(c);
                    if nb != c && places.has(nb) && (k < 2 || off_lines) {
                        links[c].push((nb, strong));
                    }
                }
            }
        }
        let mut search = XSearch {
            b,
            d,
            links: &links,
            max_nodes,
            chain: Vec::new(),
            start_buddies: S::ZERO,
            found: &mut found,
            kept: &mut kept,
            budget: &mut budget,
            technique,
        };
        for start in board::cells(places) {
            search.start_buddies = places & t.peers[start];
            if search.start_buddies.is_empty() {
                continue;
            }
            for &(nb, strong) in &links[start] {
                if strong {
                    search.chain = vec![start, nb];
                    search.extend(false);
                }
            }
        }
    }
    let cells = t.cell_count();
    found.sort_by_cached_key(|st| st.hodoku_rank(cells));
    found.into_iter().all(emit)
}

/// The state of one digit's [`every_x_chain`] search.
struct XSearch<'a, S: Bits> {
    b: &'a Board<S>,
    d: u8,
    links: &'a [Vec<(usize, bool)>],
    max_nodes: usize,
    chain: Vec<usize>,
    start_buddies: S,
    found: &'a mut Vec<Step>,
    /// Per set of eliminations (digit, cells), the index of its step in `found`.
    kept: &'a mut std::collections::HashMap<(u8, Vec<usize>), usize>,
    budget: &'a mut usize,
    technique: Technique,
}

impl<S: Bits> XSearch<'_, S> {
    /// Extends the chain by every link it may take next (`strong_only`: the next link
    /// must be strong).
    fn extend(&mut self, strong_only: bool) {
        if self.chain.len() >= self.max_nodes || *self.budget == 0 {
            return;
        }
        let start = self.chain[0];
        let cur = self.chain[self.chain.len() - 1];
        for &(nb, strong) in &self.links[cur] {
            if strong_only && !strong {
                continue;
            }
            let back = nb == start;
            if !back && self.chain[1..].contains(&nb) {
                continue;
            }
            *self.budget = self.budget.saturating_sub(1);
            self.chain.push(nb);
            if strong_only && self.chain.len() > 2 {
                let victims = self.start_buddies & self.b.tables().peers[nb];
                if !victims.is_empty() {
                    self.record(board::cells(victims).collect());
                }
            }
            if !back {
                self.extend(!strong_only);
            }
            self.chain.pop();
        }
    }

    fn record(&mut self, victims: Vec<usize>) {
        let len = self.chain.len();
        let key = (self.d, victims);
        let at = match self.kept.get(&key) {
            Some(&i) if self.found[i].chain.len() <= len => return,
            Some(&i) => Some(i),
            None => None,
        };
        let mut st = Step::new(self.technique);
        st.digits = vec![self.d];
        for (i, &c) in self.chain.iter().enumerate() {
            st.chain.push(Node {
                digit: self.d,
                cells: vec![c],
            });
            if i > 0 {
                st.strong.push(i % 2 == 1);
            }
        }
        st.eliminations = key.1.iter().map(|&c| (c, self.d)).collect();
        st.rating = 66 + super::forcing::length_increment(len as u32);
        match at {
            Some(i) => self.found[i] = st,
            None => {
                self.kept.insert(key, self.found.len());
                self.found.push(st);
            }
        }
    }
}

/// Eliminations of a continuous nice loop: `path` runs from its first node by a strong
/// link, alternating, to its last node by a strong link, and the last node is weakly
/// linked to the first. Each weak link (the closing one too) then joins two nodes of
/// which exactly one is true; candidates in the loop are kept.
fn loop_eliminations<S: Bits>(b: &Board<S>, g: &Graph<S>, path: &[u32]) -> Vec<(usize, u8)> {
    let node = |i: usize| g.nodes[path[i % path.len()] as usize / 2];
    let mut out: Vec<(usize, u8)> = Vec::new();
    // Weak links join nodes 1-2, 3-4, ..., and the last node to the first.
    for i in (1..path.len()).step_by(2) {
        for e in eliminations(b, node(i), node(i + 1)) {
            if !path_has(g, path, e.0, e.1) && !out.contains(&e) {
                out.push(e);
            }
        }
    }
    out
}

fn on_path(parent: &[u32], mut st: u32, node: u32) -> bool {
    loop {
        if st / 2 == node {
            return true;
        }
        let p = parent[st as usize];
        if p == st {
            return false;
        }
        st = p;
    }
}

fn collect_path(parent: &[u32], mut st: u32) -> Vec<u32> {
    let mut out = vec![st];
    loop {
        let p = parent[st as usize];
        if p == st {
            break;
        }
        out.push(p);
        st = p;
    }
    out.reverse();
    out
}

/// Whether digit `d` in cell `c` is part of a node of `path`.
fn path_has<S: Bits>(g: &Graph<S>, path: &[u32], c: usize, d: u8) -> bool {
    path.iter().any(|&s| {
        let n = g.nodes[s as usize / 2];
        n.digit == d && n.cells.has(c)
    })
}

fn make_step<S: Bits>(g: &Graph<S>, kind: Kind, path: &[u32], elims: Vec<(usize, u8)>) -> Step {
    let grouped = path
        .iter()
        .any(|&s| board::count(g.nodes[s as usize / 2].cells) > 1);
    let technique = match kind {
        Kind::X => Technique::XChain,
        Kind::XY => Technique::XYChain,
        Kind::RemotePair => Technique::RemotePair,
        Kind::Aic => Technique::Aic,
        Kind::Grouped if grouped => Technique::GroupedAic,
        Kind::Grouped => Technique::Aic,
    };
    let mut st = Step::new(technique);
    let mut digits: Vec<u8> = Vec::new();
    for (i, &s) in path.iter().enumerate() {
        let n = g.nodes[s as usize / 2];
        st.chain.push(Node {
            digit: n.digit,
            cells: board::cells(n.cells).collect(),
        });
        if i > 0 {
            st.strong.push(s & 1 == 1);
        }
        if !digits.contains(&n.digit) {
            digits.push(n.digit);
        }
    }
    digits.sort_unstable();
    st.digits = digits;
    st.eliminations = elims;
    // SE-like rating: chains of 6.6 and more, growing with length.
    st.rating = 66 + super::forcing::length_increment(path.len() as u32);
    st
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{SAMPLES, check_sound, state};

    #[test]
    fn finds_the_continuous_loop_of_carculs_nice_loop_exercise_4() {
        // Mike Barker's solution to Carcul's "Nice loop Exercise #4" (Sudoku Players'
        // Forums) lists the continuous loop r1c6=1=r1c8-1-r9c8=1=r9c6-1-r1c6 with the
        // elimination r2c8<>1, saying he does not show all of the exclusions: the
        // loop's weak links in columns 8 and 6 also take r8c8, r2c6 and r8c6 (the
        // post reaches r8c6<>1 by another loop). Every step is checked against the
        // solution.
        let p = "23.54.9.894......318.9...4..54.1.89..938.45.182179536431.4...8.46......957.2..4.6";
        let b = Board::from_state(&state(p));
        let mut loops = Vec::new();
        find(&b, Kind::Aic, Order::Shortest, &mut |st| {
            check_sound(p, &st);
            if st.technique == Technique::ContinuousNiceLoop {
                loops.push(st);
            }
            true
        });
        let x_loop = loops
            .iter()
            .find(|st| st.digits == [1] && st.chain.len() == 5)
            .expect("the 1-loop");
        // Cells are numbered from 0 (r2c8 = 1 * 9 + 7).
        let mut elims = x_loop.eliminations.clone();
        elims.sort_unstable();
        assert_eq!(elims, vec![(14, 1), (16, 1), (68, 1), (70, 1)]);
    }

    #[test]
    fn chains_are_sound_on_samples() {
        for p in SAMPLES {
            let b = Board::from_state(&state(p));
            for kind in [
                Kind::X,
                Kind::XY,
                Kind::RemotePair,
                Kind::Aic,
                Kind::Grouped,
            ] {
                let mut n = 0;
                find(&b, kind, Order::Shortest, &mut |st| {
                    check_sound(p, &st);
                    n += 1;
                    n < 20
                });
            }
            for (technique, nodes) in [(Technique::TurbotFish, 4), (Technique::XChain, 20)] {
                every_x_chain(&b, technique, nodes, &mut |st| {
                    check_sound(p, &st);
                    assert!(st.chain.len() <= nodes);
                    true
                });
            }
        }
    }
}
