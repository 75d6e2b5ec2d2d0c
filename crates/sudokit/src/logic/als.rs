//! Almost locked sets (ALS), on grids up to 32x32: `n` cells of one house holding `n + 1` digits
//! between them (a bivalue cell is the smallest). Remove any one digit and the rest is
//! locked. Techniques: ALS-XZ, ALS-XY-Wing, Death Blossom, Sue de Coq.
//!
//! Two ALS are joined by a restricted common candidate `x` when every `x` of one sees
//! every `x` of the other: they cannot both keep `x`, so one of them is locked without
//! `x`, and each other common digit `z` is then held by one of them: `z` leaves every
//! cell seeing all the `z`s of both.

use super::board::{self, Bits, Board, CellSet, Digits};
use super::{Emit, Step, Technique};

/// One almost locked set.
#[derive(Clone, Copy, Debug)]
pub struct Als<S: Bits = CellSet> {
    /// Its cells.
    pub cells: S,
    /// Its digits (n + 1 of them).
    pub digits: Digits,
    /// The house it was found in.
    pub house: usize,
    /// For each digit (index `d - 1`), the cells seeing all the ALS's cells holding it:
    /// two ALS are linked by `d` when one's `d`s all lie in the other's `seen`.
    seen: S::PerDigit<S>,
}

impl<S: Bits> Als<S> {
    /// Cells of the ALS holding `d`.
    fn holders(&self, b: &Board<S>, d: u8) -> S {
        self.cells & b.digit(d)
    }
}

/// Every ALS of up to `max` cells (each set once, found in its first house), in
/// HoDoKu's order: house by house, each house's sets depth first (`{1}`, `{1, 2}`,
/// `{1, 2, 3}`, ..., `{2}`, ...), which its forward-only ALS chains depend on.
pub fn all_als<S: Bits>(b: &Board<S>, max: usize) -> Vec<Als<S>> {
    let t = b.tables();
    let mut out: Vec<Als<S>> = Vec::new();
    let mut known = std::collections::HashSet::new();
    for h in 0..t.houses {
        let cells: Vec<usize> = t
            .cells_of(h)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| b.cand[c] != 0)
            .collect();
        // A house's ALS leave at least one of its empty cells out.
        let max = max.min(cells.len().saturating_sub(1));
        // Depth-first: (next index to try, set so far, its size, its digits).
        let mut stack: Vec<(usize, S, usize, Digits)> = vec![(0, S::ZERO, 0, 0)];
        while let Some((from, set, size, digits)) = stack.pop() {
            // Push in reverse so the smallest next cell comes off first.
            for i in (from..cells.len()).rev() {
                if size < max {
                    stack.push((
                        i + 1,
                        set | S::bit(cells[i]),
                        size + 1,
                        digits | b.cand[cells[i]],
                    ));
                }
            }
            if size > 0 && digits.count_ones() as usize == size + 1 && known.insert(set) {
                let mut seen = S::per_digit(S::ZERO);
                for d in board::digits(digits) {
                    seen[d as usize - 1] = t.seen_by_all(set & b.digit(d));
                }
                out.push(Als {
                    cells: set,
                    digits,
                    house: h,
                    seen,
                });
            }
        }
    }
    out
}

/// The largest ALS the HoDoKu techniques look for: any (HoDoKu's) up to 9x9, four
/// cells above (a 16-cell house has 65,000 subsets).
fn hodoku_als_size<S: Bits>(b: &Board<S>) -> usize {
    let n = b.tables().n;
    if n <= 9 { n.saturating_sub(1) } else { 4 }
}

/// The links of every ALS to the disjoint ALS it shares restricted common digits with
/// (at most two, the lowest, as HoDoKu keeps), others in increasing order. Only ALS
/// whose first cell holding a digit sees all of this ALS's holders can share it, so
/// each ALS is filed by (digit, that cell) and the pairs come from the file, not from
/// every pair of ALS.
fn rc_links<S: Bits>(b: &Board<S>, list: &[Als<S>]) -> Vec<Vec<(usize, Digits)>> {
    let cells = b.tables().n * b.tables().n;
    let mut filed: Vec<Vec<u32>> = vec![Vec::new(); b.tables().n * cells];
    for (i, a) in list.iter().enumerate() {
        for d in board::digits(a.digits) {
            filed[(d as usize - 1) * cells + board::first(a.holders(b, d))].push(i as u32);
        }
    }
    let mut out = Vec::with_capacity(list.len());
    let mut acc: Vec<(usize, Digits)> = Vec::new();
    for a in list {
        acc.clear();
        for d in board::digits(a.digits) {
            let seen = a.seen[d as usize - 1];
            for c in board::cells(seen & b.digit(d)) {
                for &j in &filed[(d as usize - 1) * cells + c] {
                    let z = &list[j as usize];
                    if (z.cells & a.cells).is_empty() && (z.holders(b, d) & !seen).is_empty() {
                        acc.push((j as usize, 1 << (d - 1)));
                    }
                }
            }
        }
        acc.sort_unstable();
        let mut links: Vec<(usize, Digits)> = Vec::new();
        for &(j, d) in &acc {
            match links.last_mut() {
                Some((k, r)) if *k == j => {
                    if r.count_ones() < 2 {
                        *r |= d;
                    }
                }
                _ => links.push((j, d)),
            }
        }
        out.push(links);
    }
    out
}

fn als_step<S: Bits>(
    technique: Technique,
    sets: &[&Als<S>],
    digits: Digits,
    elims: Vec<(usize, u8)>,
) -> Step {
    let mut st = Step::new(technique);
    st.digits = board::digits(digits).collect();
    st.cells = sets.iter().flat_map(|a| board::cells(a.cells)).collect();
    st.houses = sets.iter().map(|a| a.house).collect();
    st.eliminations = elims;
    st.rating = match technique {
        Technique::AlsXz => 68,
        Technique::AlsXyWing => 70,
        Technique::AlsXyChain => 71,
        Technique::DeathBlossom => 72,
        _ => 60,
    };
    st
}

/// ALS-XZ (including the doubly linked case), the first found in HoDoKu's order first
/// (its `getStep` takes that one, not the best): pairs of ALS in [`all_als`]'s order,
/// eliminations in the order HoDoKu makes them.
pub fn als_xz<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    let list = all_als(b, hodoku_als_size(b));
    let links = rc_links(b, &list);
    for i in 0..list.len() {
        for &(j, r) in links[i].iter().filter(|&&(j, _)| j > i) {
            let (a, z) = (&list[i], &list[j]);
            let mut elims: Vec<(usize, u8)> = Vec::new();
            // Each link digit leaves the others (both links' sets: the first link's
            // digit comes last).
            for link in board::digits(r) {
                for d in board::digits(a.digits & z.digits & !(1 << (link - 1))) {
                    let holders = a.holders(b, d) | z.holders(b, d);
                    elims.extend(board::cells(b.seen_by_all(holders) & b.digit(d)).map(|v| (v, d)));
                }
            }
            if r.count_ones() >= 2 {
                // Doubly linked: each ALS is locked; its other digits leave its houses.
                for s in [a, z] {
                    for d in board::digits(s.digits & !r) {
                        let seen = b.seen_by_all(s.holders(b, d)) & b.digit(d);
                        elims.extend(board::cells(seen).map(|v| (v, d)));
                    }
                }
            }
            elims.retain(|&(c, _)| !(a.cells | z.cells).has(c));
            let mut once = std::collections::HashSet::new();
            elims.retain(|&e| once.insert(e));
            if !elims.is_empty() && !emit(als_step(Technique::AlsXz, &[a, z], r, elims)) {
                return false;
            }
        }
    }
    true
}

/// ALS-XY-Wing, HoDoKu's, the first found first: a pivot ALS `c` linked to `a` by `x`
/// and to `b` by `y`; a digit `z` common to `a` and `b` and no link digit leaves the
/// cells seeing all their `z`s (pivot cells too: the proof does not need them spared).
/// Its restricted commons are listed by (first ALS, second ALS) in [`all_als`]'s order,
/// and every pair of them in list order that shares exactly one ALS (the pivot) is
/// tried; `a` and `b` disjoint, neither holding the other, not both links one digit.
pub fn als_xy_wing<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    let list = all_als(b, hodoku_als_size(b));
    let links = rc_links(b, &list);
    let mut rcs: Vec<(usize, usize, Digits)> = Vec::new();
    for (i, l) in links.iter().enumerate() {
        rcs.extend(l.iter().filter(|&&(j, _)| j > i).map(|&(j, r)| (i, j, r)));
    }
    // The restricted commons of each ALS, so pairs come from shared ALS only.
    let mut of: Vec<Vec<usize>> = vec![Vec::new(); list.len()];
    for (k, &(i, j, _)) in rcs.iter().enumerate() {
        of[i].push(k);
        of[j].push(k);
    }
    let mut partners: Vec<usize> = Vec::new();
    for (p, &(i1, j1, r1)) in rcs.iter().enumerate() {
        partners.clear();
        partners.extend(of[i1].iter().chain(&of[j1]).filter(|&&q| q > p));
        partners.sort_unstable();
        partners.dedup();
        for &q in &partners {
            let (i2, j2, r2) = rcs[q];
            if r1.count_ones() == 1 && r1 == r2 {
                continue;
            }
            let (c, a, z) = if i1 == i2 && j1 != j2 {
                (i1, j1, j2)
            } else if i1 == j2 && j1 != i2 {
                (i1, j1, i2)
            } else if j1 == i2 && i1 != j2 {
                (j1, i1, j2)
            } else if j1 == j2 && i1 != i2 {
                (j1, i1, i2)
            } else {
                continue;
            };
            let (a, z, c) = (&list[a], &list[z], &list[c]);
            let union = a.cells | z.cells;
            if !(a.cells & z.cells).is_empty() || union == a.cells || union == z.cells {
                continue;
            }
            let mut elims = Vec::new();
            for d in board::digits(a.digits & z.digits & !(r1 | r2)) {
                let holders = a.holders(b, d) | z.holders(b, d);
                elims.extend(board::cells(b.seen_by_all(holders) & b.digit(d)).map(|v| (v, d)));
            }
            if elims.is_empty() {
                continue;
            }
            if !emit(als_step(Technique::AlsXyWing, &[a, z, c], r1 | r2, elims)) {
                return false;
            }
        }
    }
    true
}

/// Emits `steps` as HoDoKu ranks ALS steps: one per set of eliminations (the fewest
/// cells), most eliminations first, then [`Step::hodoku_rank`]'s sum, then the fewest
/// sets and cells.
fn emit_in_hodoku_order<S: Bits>(b: &Board<S>, mut steps: Vec<Step>, emit: Emit) -> bool {
    let cells = b.tables().n * b.tables().n;
    for st in &mut steps {
        st.eliminations.sort_unstable();
    }
    steps.sort_by_cached_key(|st| (st.hodoku_rank(cells), st.houses.len(), st.cells.len()));
    let mut seen = std::collections::HashSet::new();
    steps.retain(|st| seen.insert(st.eliminations.clone()));
    steps.into_iter().all(emit)
}

/// The longest ALS chain looked for, in links (HoDoKu allows 50).
const CHAIN_LINKS: usize = 8;
/// How many chain extensions one search may try before it gives up (the search is
/// exponential; HoDoKu's own takes seconds on hard grids).
const CHAIN_BUDGET: usize = 200_000;

/// ALS-XY-Chain (HoDoKu's): ALS `A1 - A2 - ... - An` (n >= 4), each linked to the next
/// by a restricted common digit other than the one linking it to the previous. If
/// `A1` lacks a digit `z`, it is locked and holds its link digit, which leaves `A2`
/// locked and holding the next, and so on: `An` then holds `z`. So a `z` common to
/// the two ends (and linking neither) leaves every cell seeing all their `z`s. As in
/// HoDoKu, ALS of any size (four cells at most above 9x9), links only from an ALS to a
/// later one in [`all_als`]'s order, at most two link digits for a pair.
pub fn als_xy_chain<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    let list = all_als(b, hodoku_als_size(b));
    // Forward links of each ALS: (later ALS, link digits).
    let links: Vec<Vec<(usize, Digits)>> = rc_links(b, &list)
        .into_iter()
        .enumerate()
        .map(|(i, l)| l.into_iter().filter(|&(j, _)| j > i).collect())
        .collect();
    let mut search = ChainSearch {
        b,
        list: &list,
        links: &links,
        start: 0,
        path: Vec::new(),
        in_chain: vec![false; list.len()],
        budget: CHAIN_BUDGET,
        found: Vec::new(),
    };
    for start in 0..list.len() {
        search.start = start;
        search.in_chain[start] = true;
        search.extend(start, 0);
        search.in_chain[start] = false;
        if search.budget == 0 {
            break;
        }
    }
    let found = std::mem::take(&mut search.found);
    emit_in_hodoku_order(b, found, emit)
}

struct ChainSearch<'a, S: Bits> {
    b: &'a Board<S>,
    list: &'a [Als<S>],
    links: &'a [Vec<(usize, Digits)>],
    /// The chain's first ALS.
    start: usize,
    /// The chain so far after its first ALS: (ALS, the digits linking it to the one
    /// before).
    path: Vec<(usize, Digits)>,
    in_chain: Vec<bool>,
    budget: usize,
    found: Vec<Step>,
}

impl<S: Bits> ChainSearch<'_, S> {
    /// Extends the chain whose last ALS is `at`, linked to the one before by `came`.
    fn extend(&mut self, at: usize, came: Digits) {
        if self.path.len() >= CHAIN_LINKS {
            return;
        }
        for &(next, digits) in &self.links[at] {
            if self.in_chain[next] || self.budget == 0 {
                continue;
            }
            // The first link may use either of two digits, but only one at a time.
            let choices = if self.path.is_empty() {
                let low = digits & digits.wrapping_neg();
                [low, digits & !low]
            } else {
                [digits & !came, 0]
            };
            for active in choices {
                if active == 0 {
                    continue;
                }
                self.budget = self.budget.saturating_sub(1);
                self.path.push((next, active));
                self.in_chain[next] = true;
                if self.path.len() >= 3 {
                    self.record();
                }
                self.extend(next, active);
                self.in_chain[next] = false;
                self.path.pop();
            }
        }
    }

    /// Records the eliminations of the chain as it stands, if any.
    fn record(&mut self) {
        let b = self.b;
        let (a, z) = (
            &self.list[self.start],
            &self.list[self.path.last().unwrap().0],
        );
        let (first_link, last_link) = (self.path[0].1, self.path.last().unwrap().1);
        let ends = a.cells | z.cells;
        let mut elims = Vec::new();
        for d in board::digits(a.digits & z.digits & !first_link & !last_link) {
            let i = d as usize - 1;
            for v in board::cells(a.seen[i] & z.seen[i] & b.digit(d) & !ends) {
                elims.push((v, d));
            }
        }
        if elims.is_empty() {
            return;
        }
        let sets: Vec<&Als<S>> = std::iter::once(a)
            .chain(self.path.iter().map(|&(i, _)| &self.list[i]))
            .collect();
        let digits = self.path.iter().fold(0, |m, &(_, d)| m | d);
        let mut st = als_step(Technique::AlsXyChain, &sets, digits, elims);
        let names = |set: S| {
            board::cells(set)
                .map(|c| format!("r{}c{}", c / b.tables().n + 1, c % b.tables().n + 1))
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut chain = names(a.cells);
        for &(i, d) in &self.path {
            let marks: Vec<String> = board::digits(d).map(crate::symbols::Digits::mark).collect();
            chain.push_str(&format!(
                " -{}- {}",
                marks.join(","),
                names(self.list[i].cells)
            ));
        }
        st.detail = vec![format!(
            "The almost locked sets {chain}, each linked to the next by a digit that cannot \
             be in both: if the first lacks a digit they share with the last, the last has it."
        )];
        self.found.push(st);
    }
}

/// Death Blossom: a stem cell whose every candidate `d` is linked (all `d`s of a petal
/// ALS see the stem) to a petal; a digit `z` in every petal (and not in the stem) leaves
/// the cells that see all petals' `z`s.
pub fn death_blossom<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    let t = b.tables();
    let list = all_als(b, 3);
    for stem in b.cell_range() {
        let sc = b.cand[stem];
        if !(2..=3).contains(&sc.count_ones()) {
            continue;
        }
        // Petals for each stem digit.
        let petals: Vec<Vec<usize>> = board::digits(sc)
            .map(|d| {
                (0..list.len())
                    .filter(|&i| {
                        let a = &list[i];
                        !a.cells.has(stem)
                            && a.digits >> (d - 1) & 1 == 1
                            && a.holders(b, d) & !t.peers[stem] == S::ZERO
                    })
                    .collect()
            })
            .collect();
        if petals.iter().any(|p| p.is_empty()) {
            continue;
        }
        let mut pick: Vec<usize> = Vec::new();
        if !blossom(b, stem, &list, &petals, &mut pick, emit) {
            return false;
        }
    }
    true
}

fn blossom<S: Bits>(
    b: &Board<S>,
    stem: usize,
    list: &[Als<S>],
    petals: &[Vec<usize>],
    pick: &mut Vec<usize>,
    emit: Emit,
) -> bool {
    if pick.len() == petals.len() {
        let sets: Vec<&Als<S>> = pick.iter().map(|&i| &list[i]).collect();
        let mut used: S = S::ZERO;
        for s in &sets {
            if used & s.cells != S::ZERO {
                return true;
            }
            used |= s.cells;
        }
        let common = sets.iter().fold(Digits::MAX, |m, s| m & s.digits) & !b.cand[stem];
        let mut elims = Vec::new();
        for z in board::digits(common) {
            let holders = sets.iter().fold(S::ZERO, |m, s| m | s.holders(b, z));
            for v in board::cells(b.seen_by_all(holders) & b.digit(z) & !S::bit(stem)) {
                elims.push((v, z));
            }
        }
        if elims.is_empty() {
            return true;
        }
        let mut st = als_step(Technique::DeathBlossom, &sets, b.cand[stem], elims);
        st.fins = vec![stem];
        return emit(st);
    }
    for &i in &petals[pick.len()] {
        if !pick.is_empty()
            && pick
                .iter()
                .any(|&p| list[p].cells & list[i].cells != S::ZERO)
        {
            continue;
        }
        pick.push(i);
        let go = blossom(b, stem, list, petals, pick, emit);
        pick.pop();
        if !go {
            return false;
        }
    }
    true
}

/// Sue de Coq (HoDoKu's general form): two or three cells `C` of a box-line
/// intersection holding `|C| + k` digits `V` (k >= 2), a set `L` of other cells of the
/// line and a set `B` of other cells of the box, each with more cells than digits
/// outside `V`, between them taking the `k` extra places: `L`'s cells beyond its own
/// extra digits hold some of `V`, `B`'s the rest (none that `L` has). The digits of
/// `C` and `L` but not `B` then leave the rest of the line, those of `C` and `B` but
/// not `L` the rest of the box (and an extra digit of both, both). The first pattern
/// found, in HoDoKu's order (rows, then columns; each line's boxes; `L` and `B`
/// depth first).
pub fn sue_de_coq<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    let t = b.tables();
    let empty = |m: S| {
        board::cells(m)
            .filter(|&c| b.cand[c] != 0)
            .fold(S::ZERO, |a, c| a | S::bit(c))
    };
    for line in 0..t.lines {
        let line_all = empty(t.house[line]);
        for &bx in &t.boxes {
            let box_all = empty(t.house[bx]);
            let inter: Vec<usize> = board::cells(line_all & box_all).collect();
            let mut sdc = Sdc {
                b,
                line,
                bx,
                line_all,
                box_all,
                core: S::ZERO,
                v: 0,
                n_plus: 0,
                line_src: Vec::new(),
                box_src: Vec::new(),
                max_set: hodoku_als_size(b),
                emit: &mut *emit,
                stopped: false,
            };
            for i1 in 0..inter.len() {
                for i2 in i1 + 1..inter.len() {
                    sdc.core_from(&[inter[i1], inter[i2]]);
                    for &c3 in &inter[i2 + 1..] {
                        sdc.core_from(&[inter[i1], inter[i2], c3]);
                    }
                }
            }
            if sdc.stopped {
                return false;
            }
        }
    }
    true
}

/// One box-line pair's Sue de Coq search (see [`sue_de_coq`]).
struct Sdc<'a, 'e, S: Bits> {
    b: &'a Board<S>,
    line: usize,
    bx: usize,
    /// The empty cells of the line and of the box.
    line_all: S,
    box_all: S,
    /// The intersection cells tried, their digits, and how many digits more than cells.
    core: S,
    v: Digits,
    n_plus: usize,
    /// The line's and the box's cells outside the core, in order.
    line_src: Vec<usize>,
    box_src: Vec<usize>,
    /// The largest line or box set tried (HoDoKu's ALS sizes).
    max_set: usize,
    emit: &'e mut dyn FnMut(Step) -> bool,
    /// Set once `emit` asked to stop.
    stopped: bool,
}

impl<S: Bits> Sdc<'_, '_, S> {
    fn core_from(&mut self, cells: &[usize]) {
        if self.stopped {
            return;
        }
        self.core = cells.iter().fold(S::ZERO, |m, &c| m | S::bit(c));
        self.v = self.b.digits_of(cells);
        let Some(n_plus) = (self.v.count_ones() as usize).checked_sub(cells.len()) else {
            return;
        };
        if n_plus < 2 {
            return;
        }
        self.n_plus = n_plus;
        self.line_src.clear();
        self.line_src
            .extend(board::cells(self.line_all & !self.core));
        self.box_src.clear();
        self.box_src.extend(board::cells(self.box_all & !self.core));
        self.line_sets(0, 0, S::ZERO, 0);
    }

    /// Line sets from `line_src[from..]` added to `cells` (`size` of them, digits
    /// `digits`), each viable one handed to [`Sdc::box_sets`].
    fn line_sets(&mut self, from: usize, size: usize, cells: S, digits: Digits) {
        for i in from..self.line_src.len() {
            if self.stopped {
                return;
            }
            let c = self.line_src[i];
            let (cells, digits, size) = (cells | S::bit(c), digits | self.b.cand[c], size + 1);
            let inside = digits & self.v;
            let extra = (digits & !self.v).count_ones() as usize;
            if inside != 0 && size > extra && size - extra < self.n_plus {
                let remaining = self.n_plus - (size - extra);
                self.box_sets(0, 0, S::ZERO, 0, remaining, cells, digits);
            }
            if size < self.max_set {
                self.line_sets(i + 1, size, cells, digits);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn box_sets(
        &mut self,
        from: usize,
        size: usize,
        cells: S,
        digits: Digits,
        remaining: usize,
        line_cells: S,
        line_digits: Digits,
    ) {
        // The box set may not use the core digits the line set took.
        let taken = line_digits & self.v;
        for i in from..self.box_src.len() {
            if self.stopped {
                return;
            }
            let c = self.box_src[i];
            // A cell of the intersection may be in the line set already.
            if self.b.cand[c] & taken != 0 || line_cells.has(c) {
                continue;
            }
            let (cells, digits, size) = (cells | S::bit(c), digits | self.b.cand[c], size + 1);
            let extra = (digits & !self.v).count_ones() as usize;
            if digits & self.v != 0 && size >= extra && size - extra == remaining {
                self.found(line_cells, line_digits, cells, digits);
            }
            // A cell with digits outside the core may come before the cells that
            // make up for it (HoDoKu goes on while size - extra <= remaining).
            if size <= remaining + extra && size < self.max_set {
                self.box_sets(
                    i + 1,
                    size,
                    cells,
                    digits,
                    remaining,
                    line_cells,
                    line_digits,
                );
            }
        }
    }

    fn found(&mut self, line_cells: S, line_digits: Digits, box_cells: S, box_digits: Digits) {
        let b = self.b;
        let pattern = self.core | line_cells | box_cells;
        let shared = line_digits & box_digits & !self.v;
        let in_line = ((self.v | line_digits) & !box_digits) | shared;
        let in_box = ((self.v | box_digits) & !line_digits) | shared;
        // In HoDoKu's order, which decides its next singles: the box's cells, then the
        // line's (the two regions do not meet outside the pattern).
        let mut elims: Vec<(usize, u8)> = Vec::new();
        for (region, digits) in [(self.box_all, in_box), (self.line_all, in_line)] {
            for c in board::cells(region & !pattern) {
                for d in board::digits(b.cand[c] & digits) {
                    elims.push((c, d));
                }
            }
        }
        if elims.is_empty() {
            return;
        }
        let mut st = Step::new(Technique::SueDeCoq);
        st.digits = board::digits(self.v).collect();
        st.cells = board::cells(self.core).collect();
        st.fins = board::cells(line_cells | box_cells).collect();
        st.houses = vec![self.line, self.bx];
        st.eliminations = elims;
        st.rating = 60;
        if !(self.emit)(st) {
            self.stopped = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{SAMPLES, check_sound, state};

    #[test]
    fn als_techniques_are_sound_on_samples() {
        for p in SAMPLES {
            let b = Board::from_state(&state(p));
            let mut n = 0;
            for f in [
                als_xz as fn(&Board, Emit) -> bool,
                als_xy_wing,
                als_xy_chain,
                death_blossom,
                sue_de_coq,
            ] {
                f(&b, &mut |st| {
                    check_sound(p, &st);
                    n += 1;
                    n < 50
                });
            }
        }
    }
}
