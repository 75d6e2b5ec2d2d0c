//! Uniqueness techniques, on grids up to 32x32 (they assume the puzzle has one solution): unique
//! rectangles types 1-6 and hidden rectangles (HoDoKu's definitions), and Sudoku
//! Explainer's unique loops (rectangles and longer loops, types 1-4, with its ratings:
//! 4.5, +0.1/+0.2/+0.5 for loops of 6/8/10+ cells, +0.1 for types 2 and 4, +0.1 per
//! extra digit of a type 3 subset).
//!
//! A deadly pattern is a set of cells holding only two digits `a`, `b` where each house
//! met has exactly two of them: its digits could be swapped, so a unique puzzle must
//! break it somewhere; each type says where. The rectangles work on every geometry up to 32x32:
//! a rectangle is deadly when every house meets it in nothing or in one cell of each
//! diagonal pair (for sudoku: exactly two boxes). On an X-sudoku a diagonal through one
//! corner makes it harmless, since swapping would put a second `a` or `b` on the
//! diagonal; a Latin square's rectangles are all deadly. SE's unique loops stay classic.

use super::board::{self, Bits, Board, CellSet, Digits};
use super::{Emit, State, Step, Technique, combinations};

fn ur_step(technique: Technique, digits: Digits, cells: &[usize], extra: &[usize]) -> Step {
    let mut step = Step::new(technique);
    step.digits = board::digits(digits).collect();
    step.cells = cells.to_vec();
    step.fins = extra.to_vec();
    step.rating = match technique {
        Technique::UniqueRectangle1
        | Technique::HiddenRectangle
        | Technique::AvoidableRectangle1 => 45,
        _ => 46,
    };
    step
}

/// Whether swapping the two digits of a rectangle (`cells` row by row: the pairs 0, 3
/// and 1, 2 hold the same digit) keeps every house of the geometry valid: each house
/// meets it in nothing or in one cell of each pair. Rows and columns always do.
fn deadly<S: Bits>(t: &board::Tables<S>, cells: &[usize; 4]) -> bool {
    let bit = |c: usize| S::bit(c);
    let (first, second) = (bit(cells[0]) | bit(cells[3]), bit(cells[1]) | bit(cells[2]));
    t.house_sets()[t.lines..].iter().all(|&h| {
        let (x, y) = (board::count(h & first), board::count(h & second));
        x == y && x <= 1
    })
}

/// Unique rectangles (types 1-6) and hidden rectangles, HoDoKu style.
pub fn rectangles<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    let t = b.tables();
    let n = t.n;
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    let cells = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                    if cells.iter().any(|&c| b.cand[c] == 0) || !deadly(t, &cells) {
                        continue;
                    }
                    let common = cells.iter().fold(Digits::MAX, |m, &c| m & b.cand[c]);
                    for pair in pairs(common) {
                        if !rectangle(b, t, &cells, pair, emit) {
                            return false;
                        }
                    }
                }
            }
        }
    }
    true
}

/// [`rectangles`] as HoDoKu's path meets them on classic sudoku: from each bivalue cell
/// in order, a second cell of its box in its row or column, then the two cells across
/// in another box, each set of four cells once (with the first cell's two digits). A
/// cell belongs to a rectangle while both digits are allowed there (no placed peer
/// holds them), candidates eliminated or not: HoDoKu's default, and sound, since the
/// swap that a deadly pattern allows keeps every given.
pub fn rectangles_hodoku(b: &Board, emit: Emit) -> bool {
    let t = b.tables();
    let mut blocked = [CellSet::ZERO; 10];
    for c in 0..81 {
        if b.value[c] != 0 {
            blocked[b.value[c] as usize] |= t.peers[c];
        }
    }
    let allows = |c: usize, ab: Digits| {
        b.value[c] == 0 && board::digits(ab).all(|d| !blocked[d as usize].has(c))
    };
    let mut seen: Vec<[usize; 4]> = Vec::new();
    for i11 in 0..81 {
        let ab = b.cand[i11];
        if b.value[i11] != 0 || ab.count_ones() != 2 {
            continue;
        }
        let go = rectangles_from(
            t,
            i11,
            |i12| allows(i12, ab),
            |i12, i21, i22| {
                if !allows(i21, ab)
                    || !allows(i22, ab)
                    || !first_time(&mut seen, [i11, i12, i21, i22])
                {
                    return true;
                }
                let mut cells = [i11, i12, i21, i22];
                cells.sort_unstable();
                rectangle(b, t, &cells, ab, emit)
            },
        );
        if !go {
            return false;
        }
    }
    true
}

/// HoDoKu's walk over the rectangles of a first cell `i11` (classic grid): a second
/// cell of its box in its row or column that `second` accepts, then the two cells
/// across from them in another box, line by line; `found(i12, i21, i22)` for each,
/// false to stop (then false).
fn rectangles_from(
    t: &board::Tables,
    i11: usize,
    second: impl Fn(usize) -> bool,
    mut found: impl FnMut(usize, usize, usize) -> bool,
) -> bool {
    let (r11, c11, b11) = (t.row(i11), t.col(i11), t.box_of[i11]);
    for i12 in board::cells(t.house[b11 as usize]) {
        let (r12, c12) = (t.row(i12), t.col(i12));
        if i12 == i11 || (r12 != r11 && c12 != c11) || !second(i12) {
            continue;
        }
        for idx in 0..9 {
            let at = |r: usize, c: usize| board::first(t.house[r] & t.house[9 + c]);
            let (i21, i22) = if r12 == r11 {
                (at(idx, c11), at(idx, c12))
            } else {
                (at(r11, idx), at(r12, idx))
            };
            if t.box_of[i21] != b11 && !found(i12, i21, i22) {
                return false;
            }
        }
    }
    true
}

/// Whether the rectangle of `cells` is met for the first time (HoDoKu takes each set
/// of four cells once, as first met).
fn first_time(seen: &mut Vec<[usize; 4]>, mut cells: [usize; 4]) -> bool {
    cells.sort_unstable();
    let new = !seen.contains(&cells);
    if new {
        seen.push(cells);
    }
    new
}

/// HoDoKu's avoidable rectangles of type 1 (`type2` false) or 2, in its order, on the
/// classic grid: a rectangle in two boxes whose cells hold, or may hold, two digits
/// crosswise, where at least two cells were solved (not given). Were the other two to
/// complete the pattern, the four solved cells could swap their digits and the puzzle
/// would have two solutions. Type 1: three cells solved, the fourth loses the digit
/// that would complete it. Type 2: the two open cells each hold the missing digit and
/// one more, the same: one of them holds it, so the cells seeing both lose it.
///
/// The search is HoDoKu's: from each solved cell in order, a second solved cell of its
/// box in its row or column, then the two cells across in another box, each set of
/// four cells once.
pub fn avoidable_rectangles(s: &State, b: &Board, type2: bool, emit: Emit) -> bool {
    let t = b.tables();
    let solved = |c: usize| b.value[c] != 0 && !s.is_given(c);
    let open_with = |c: usize, d: u8| b.value[c] == 0 && b.cand[c].count_ones() == 2 && b.has(c, d);
    let mut seen: Vec<[usize; 4]> = Vec::new();
    for i11 in (0..81).filter(|&c| solved(c)) {
        let a = b.value[i11];
        let go = rectangles_from(t, i11, solved, |i12, i21, i22| {
            let z = b.value[i12];
            // The cell across from the first must end as the second's digit, and
            // the other as the first's: solved so, or open with it.
            let (v21, v22) = (b.value[i21], b.value[i22]);
            let valid = (v21 == z && solved(i21) && open_with(i22, a))
                || (v22 == a && solved(i22) && open_with(i21, z))
                || (open_with(i21, z) && open_with(i22, a));
            if !valid || !first_time(&mut seen, [i11, i12, i21, i22]) {
                return true;
            }
            let ab = (1 << (a - 1)) | (1 << (z - 1));
            let order = [i11, i12, i21, i22];
            let step = if v21 != 0 || v22 != 0 {
                let (c, d) = if v21 != 0 { (i22, a) } else { (i21, z) };
                let mut st = ur_step(Technique::AvoidableRectangle1, ab, &order, &[]);
                st.eliminations = vec![(c, d)];
                st
            } else {
                let extra = b.cand[i21] & !(1 << (z - 1));
                let x = extra.trailing_zeros() as u8 + 1;
                if !b.has(i22, x) {
                    return true;
                }
                let victims = t.peers[i21] & t.peers[i22] & b.digit(x);
                let mut st = ur_step(Technique::AvoidableRectangle2, ab, &order, &[]);
                st.eliminations = board::cells(victims).map(|v| (v, x)).collect();
                st
            };
            (step.technique == Technique::AvoidableRectangle2) != type2
                || step.eliminations.is_empty()
                || emit(step)
        });
        if !go {
            return false;
        }
    }
    true
}

/// The most cells a unique rectangle of type 3 adds to its roof: all of a 9x9 house's
/// but the roof, as HoDoKu allows; on larger grids a bound on the search.
const TYPE3_MOST: usize = 7;

/// Unique rectangles of type 3 in house `h`, as HoDoKu finds them: the roof counts as
/// one cell holding its extra digits (`cells` and `digits`: the roof and the `size`
/// cells added so far, their digits but the rectangle's); cells of the house holding
/// neither rectangle digit (`pool`, from `from` on) join it depth first,
/// any number of them, and a set of `k` cells with `k - 1` digits between them clears
/// those digits from the rest of the house (and from their box too when a line's set
/// lies in one box; a box's set that lies in one line was the line's). Each set
/// clearing something goes to `found`.
#[allow(clippy::too_many_arguments)]
fn type3<S: Bits>(
    b: &Board<S>,
    h: usize,
    pool: &[usize],
    from: usize,
    cells: S,
    digits: Digits,
    size: usize,
    found: &mut dyn FnMut(Vec<(usize, u8)>),
) {
    let t = b.tables();
    if size == TYPE3_MOST {
        return;
    }
    for i in from..pool.len() {
        let (cells, digits) = (cells | S::bit(pool[i]), digits | b.cand[pool[i]]);
        // A set's digits never shrink: past one more than the most cells, no subset.
        if digits.count_ones() as usize > TYPE3_MOST + 1 {
            continue;
        }
        let size = size + 1;
        let in_one = |houses: &[S]| houses.iter().any(|&m| cells & m == cells);
        let line_of = |c: usize| [t.house[t.row(c)], t.house[t.n + t.col(c)]];
        let skip = h >= t.lines && in_one(&line_of(pool[i]));
        if !skip && digits.count_ones() as usize == size + 1 {
            let mut clear = vec![h];
            let bx = t.box_of[pool[i]];
            if h < t.lines && bx != board::NO_HOUSE && in_one(&[t.house[bx as usize]]) {
                clear.push(bx as usize);
            }
            let mut elims: Vec<(usize, u8)> = Vec::new();
            for &house in &clear {
                for v in board::cells(t.house[house] & !cells) {
                    for d in board::digits(b.cand[v] & digits) {
                        if !elims.contains(&(v, d)) {
                            elims.push((v, d));
                        }
                    }
                }
            }
            if !elims.is_empty() {
                found(elims);
            }
        }
        type3(b, h, pool, i + 1, cells, digits, size, found);
    }
}

fn pairs(m: Digits) -> Vec<Digits> {
    let ds: Vec<u8> = board::digits(m).collect();
    let mut out = Vec::new();
    for i in 0..ds.len() {
        for j in i + 1..ds.len() {
            out.push((1 << (ds[i] - 1)) | (1 << (ds[j] - 1)));
        }
    }
    out
}

fn rectangle<S: Bits>(
    b: &Board<S>,
    t: &board::Tables<S>,
    cells: &[usize; 4],
    ab: Digits,
    emit: Emit,
) -> bool {
    let digits: Vec<u8> = board::digits(ab).collect();
    let (a, bb) = (digits[0], digits[1]);
    let floor: Vec<usize> = cells.iter().copied().filter(|&c| b.cand[c] == ab).collect();
    let roof: Vec<usize> = cells.iter().copied().filter(|&c| b.cand[c] != ab).collect();
    let set: S = cells.iter().fold(S::ZERO, |m, &c| m | S::bit(c));
    let same_house = |x: usize, y: usize| t.peers[x].has(y);
    let mut out: Vec<Step> = Vec::new();
    match floor.len() {
        3 => {
            // Type 1.
            let r = roof[0];
            let mut st = ur_step(Technique::UniqueRectangle1, ab, cells, &roof);
            st.eliminations = board::digits(b.cand[r] & ab).map(|d| (r, d)).collect();
            out.push(st);
        }
        2 => {
            let (x, y) = (roof[0], roof[1]);
            let ex = (b.cand[x] | b.cand[y]) & !ab;
            // Type 2 / 5: both roof cells have the same single extra digit.
            if b.cand[x] & !ab == b.cand[y] & !ab && ex.count_ones() == 1 {
                let d = ex.trailing_zeros() as u8 + 1;
                let victims = t.peers[x] & t.peers[y] & b.digit(d) & !set;
                let tech = if same_house(x, y) {
                    Technique::UniqueRectangle2
                } else {
                    Technique::UniqueRectangle5
                };
                let mut st = ur_step(tech, ab, cells, &roof);
                st.eliminations = board::cells(victims).map(|v| (v, d)).collect();
                out.push(st);
            }
            if same_house(x, y) {
                // Type 4: a or b confined to the roof in a shared house (a Latin
                // square's cells have a row and a column only).
                let houses = if t.box_of[x] == board::NO_HOUSE { 2 } else { 3 };
                for &h in &t.houses_of[x][..houses] {
                    let hm = t.house[h as usize];
                    if !hm.has(y) {
                        continue;
                    }
                    for (keep, drop) in [(a, bb), (bb, a)] {
                        if b.digit(keep) & hm & !(S::bit(x) | S::bit(y)) == S::ZERO {
                            let mut st = ur_step(Technique::UniqueRectangle4, ab, cells, &roof);
                            st.houses = vec![h as usize];
                            st.eliminations = vec![(x, drop), (y, drop)]
                                .into_iter()
                                .filter(|&(c, d)| b.has(c, d))
                                .collect();
                            out.push(st);
                        }
                    }
                    // Type 3: the roof's extras form a naked subset with other cells.
                    let pool: Vec<usize> = board::cells(hm & !set)
                        .filter(|&c| b.cand[c] != 0 && b.cand[c] & ab == 0)
                        .collect();
                    let roof_set = S::bit(x) | S::bit(y);
                    type3(b, h as usize, &pool, 0, roof_set, ex, 0, &mut |elims| {
                        let mut st = ur_step(Technique::UniqueRectangle3, ab, cells, &roof);
                        st.houses = vec![h as usize];
                        st.eliminations = elims;
                        out.push(st);
                    });
                }
            } else {
                // Diagonal roof. Type 6: a (or b) confined to the rectangle in both rows
                // and both columns: it sits on the floor diagonal, so it leaves the roof.
                let lines: S = cells.iter().fold(S::ZERO, |m, &c| {
                    m | t.house[t.row(c)] | t.house[t.n + t.col(c)]
                });
                for d in [a, bb] {
                    if b.digit(d) & lines & !set == S::ZERO {
                        let mut st = ur_step(Technique::UniqueRectangle6, ab, cells, &roof);
                        st.eliminations = vec![(x, d), (y, d)];
                        out.push(st);
                    }
                }
            }
        }
        _ => {}
    }
    // Type 5 with three roof cells sharing one extra digit.
    if floor.len() == 1 {
        let ex = roof.iter().fold(0, |m, &c| m | b.cand[c]) & !ab;
        if ex.count_ones() == 1 && roof.iter().all(|&c| b.cand[c] & ex != 0) {
            let d = ex.trailing_zeros() as u8 + 1;
            let victims = roof.iter().fold(t.cells, |m, &c| m & t.peers[c]) & b.digit(d) & !set;
            let mut st = ur_step(Technique::UniqueRectangle5, ab, cells, &roof);
            st.eliminations = board::cells(victims).map(|v| (v, d)).collect();
            out.push(st);
        }
    }
    // Hidden rectangle: a bivalue corner; at the opposite corner, b only in the
    // rectangle along both its row and column: a leaves the opposite corner. As in
    // HoDoKu, with one bivalue corner or two on a diagonal (then the opposite corner
    // is bivalue itself, and loses a digit all the same).
    let diagonal = floor.len() == 2 && !same_house(floor[0], floor[1]);
    let hidden_floors: &[usize] = if floor.len() == 1 || diagonal {
        &floor
    } else {
        &[]
    };
    for &corner in hidden_floors {
        let opp = *cells
            .iter()
            .find(|&&c| t.row(c) != t.row(corner) && t.col(c) != t.col(corner))
            .expect("opposite");
        let lines = t.house[t.row(opp)] | t.house[t.n + t.col(opp)];
        for (keep, drop) in [(a, bb), (bb, a)] {
            if b.digit(keep) & lines & !set == S::ZERO && b.has(opp, drop) {
                let mut st = ur_step(Technique::HiddenRectangle, ab, cells, &[opp]);
                st.eliminations = vec![(opp, drop)];
                out.push(st);
            }
        }
    }
    for st in out {
        if st.eliminations.is_empty() {
            continue;
        }
        if !emit(st) {
            return false;
        }
    }
    true
}

// ------------------------------------------------------------------ SE unique loops

const REGION_TYPES: [usize; 3] = [2, 0, 1]; // box, row, column (index into houses_of)

fn region(c: usize, rt: usize) -> usize {
    board::tables().houses_of[c][rt] as usize
}

/// SE's loop search (`checkForLoops`), including its quirk of accumulating the extra
/// digits of sibling branches.
#[allow(clippy::too_many_arguments)]
fn check_for_loops(
    b: &Board,
    cell: usize,
    v: Digits,
    path: &mut Vec<usize>,
    allowed_ex: i32,
    ex_values: Digits,
    last: Option<usize>,
    results: &mut Vec<Vec<usize>>,
) {
    // Only cells holding both digits can continue the loop; house cells are in
    // increasing order, as the cell sets iterate.
    let mut both = board::ALL_CELLS;
    for d in board::digits(v) {
        both &= b.digit(d);
    }
    let on_path = path.iter().fold(0u128, |m, &c| m | CellSet::bit(c));
    let mut parity = [0u32; 2];
    for (i, &c) in path.iter().enumerate() {
        parity[i % 2] |= house_mask(c);
    }
    let mut walk = Walk {
        b,
        v,
        both,
        results,
    };
    walk_loops(
        &mut walk, cell, on_path, parity, path, allowed_ex, ex_values, last,
    );
}

/// The three houses of a cell as a 27-bit mask.
fn house_mask(c: usize) -> u32 {
    let [r, col, bx] = board::tables().houses_of[c];
    1 << r | 1 << col | 1 << bx
}

/// What stays fixed along one loop search.
struct Walk<'a> {
    b: &'a Board,
    v: Digits,
    both: CellSet,
    results: &'a mut Vec<Vec<usize>>,
}

/// [`check_for_loops`] on cell sets. A loop is only valid when no house holds two
/// of its cells at positions of the same parity ([`is_valid_loop`]): a path already
/// breaking that is not extended (it could only close invalid loops), which changes
/// nothing else (the extra digits are still accumulated as SE does).
#[allow(clippy::too_many_arguments)]
fn walk_loops(
    w: &mut Walk<'_>,
    cell: usize,
    on_path: CellSet,
    parity: [u32; 2],
    path: &mut Vec<usize>,
    allowed_ex: i32,
    ex_values: Digits,
    last: Option<usize>,
) {
    let t = board::tables();
    let parity = {
        let mut p = parity;
        p[path.len() % 2] |= house_mask(cell);
        p
    };
    path.push(cell);
    let on_path = on_path | CellSet::bit(cell);
    let mut ex = ex_values;
    for &rt in &REGION_TYPES {
        if Some(rt) == last {
            continue;
        }
        let h = region(cell, rt);
        for next in board::cells(t.house[h] & (w.both | CellSet::bit(path[0]))) {
            if next == path[0] && path.len() >= 4 {
                w.results.push(path.clone());
            } else if on_path >> next & 1 == 0 {
                let p = w.b.cand[next];
                ex |= p;
                ex &= !w.v;
                let card = p.count_ones();
                if (card == 2 || ex.count_ones() == 1 || allowed_ex > 0)
                    && parity[path.len() % 2] & house_mask(next) == 0
                {
                    let new_allowed = if card > 2 { allowed_ex - 1 } else { allowed_ex };
                    walk_loops(w, next, on_path, parity, path, new_allowed, ex, Some(rt));
                }
            }
        }
    }
    path.pop();
}

fn is_valid_loop(path: &[usize]) -> bool {
    let mut odd: Vec<usize> = Vec::new();
    let mut even: Vec<usize> = Vec::new();
    for (i, &c) in path.iter().enumerate() {
        for &rt in &REGION_TYPES {
            let h = region(c, rt);
            let set = if i % 2 == 1 { &mut odd } else { &mut even };
            if set.contains(&h) {
                return false;
            }
            set.push(h);
        }
    }
    odd.sort_unstable();
    even.sort_unstable();
    odd == even
}

/// SE's unique loops: the best hint (lowest rating, then lowest type).
pub fn se_loops(b: &Board) -> Option<Step> {
    let t = board::tables();
    let mut hints: Vec<(u16, u8, Vec<usize>, Step)> = Vec::new();
    let push = |hints: &mut Vec<(u16, u8, Vec<usize>, Step)>, ty: u8, path: &[usize], st: Step| {
        if st.eliminations.is_empty() {
            return;
        }
        let mut key: Vec<usize> = path.to_vec();
        key.sort_unstable();
        // SE's equality: same type (class) and same loop cells.
        if hints.iter().any(|h| h.1 == ty && h.2 == key && (ty != 3)) {
            return;
        }
        hints.push((st.rating, ty, key, st));
    };
    let mut results = Vec::new();
    let mut path = Vec::new();
    for cell in b.cell_range() {
        let p = b.cand[cell];
        if p.count_ones() != 2 {
            continue;
        }
        results.clear();
        check_for_loops(b, cell, p, &mut path, 2, 0, None, &mut results);
        for lp in results.drain(..) {
            if !is_valid_loop(&lp) {
                continue;
            }
            let base: u16 = 45
                + if lp.len() >= 10 { 3 } else { 0 }
                + if lp.len() >= 8 {
                    2
                } else if lp.len() >= 6 {
                    1
                } else {
                    0
                };
            let tech = if lp.len() == 4 {
                |ty: u8| match ty {
                    1 => Technique::UniqueRectangle1,
                    2 => Technique::UniqueRectangle2,
                    3 => Technique::UniqueRectangle3,
                    _ => Technique::UniqueRectangle4,
                }
            } else {
                |_: u8| Technique::UniqueLoop
            };
            let extra: Vec<usize> = lp
                .iter()
                .copied()
                .filter(|&c| b.cand[c].count_ones() > 2)
                .collect();
            let mk = |ty: u8, rating: u16, extra: &[usize]| {
                let mut st = ur_step(tech(ty), p, &lp, extra);
                st.rating = rating;
                st.name = Some(format!(
                    "Unique {}{} type {}",
                    if lp.len() == 4 { "Rectangle" } else { "Loop" },
                    if lp.len() > 6 {
                        format!(" {}", lp.len())
                    } else {
                        String::new()
                    },
                    ty
                ));
                st
            };
            let set: CellSet = lp.iter().fold(0, |m, &c| m | CellSet::bit(c));
            match extra.len() {
                1 => {
                    let mut st = mk(1, base, &extra);
                    st.eliminations = board::digits(b.cand[extra[0]] & p)
                        .map(|d| (extra[0], d))
                        .collect();
                    push(&mut hints, 1, &lp, st);
                }
                0 => {}
                n => {
                    let ex = extra.iter().fold(0, |m, &c| m | b.cand[c]) & !p;
                    let type2 = |hints: &mut Vec<_>| {
                        let d = board::digits(b.cand[extra[0]] & !p).next().expect("extra");
                        let common = extra.iter().fold(board::ALL_CELLS, |m, &c| m & t.peers[c]);
                        let victims = common & b.digit(d) & !set;
                        if victims == 0 {
                            return;
                        }
                        let mut st = mk(2, base + 1, &extra);
                        st.eliminations = board::cells(victims).map(|v| (v, d)).collect();
                        push(hints, 2, &lp, st);
                    };
                    if n > 2 {
                        type2(&mut hints);
                    } else if ex.count_ones() == 1 {
                        type2(&mut hints);
                        if let Some(st) =
                            se_type4(b, extra[0], extra[1], p, &|| mk(4, base + 1, &extra))
                        {
                            push(&mut hints, 4, &lp, st);
                        }
                    } else {
                        for st in se_type3(b, extra[0], extra[1], p, ex, &|add: u16| {
                            mk(3, base + add, &extra)
                        }) {
                            push(&mut hints, 3, &lp, st);
                        }
                        if let Some(st) =
                            se_type4(b, extra[0], extra[1], p, &|| mk(4, base + 1, &extra))
                        {
                            push(&mut hints, 4, &lp, st);
                        }
                    }
                }
            }
        }
    }
    // Stable sort by rating then type; the first wins.
    hints.sort_by_key(|h| (h.0, h.1));
    hints.into_iter().next().map(|h| h.3)
}

fn se_type4(b: &Board, c1: usize, c2: usize, v: Digits, mk: &dyn Fn() -> Step) -> Option<Step> {
    let t = board::tables();
    let ds: Vec<u8> = board::digits(v).collect();
    let (v1, v2) = (ds[0], ds[1]);
    let (mut r1, mut r2) = (None, None);
    for &rt in &REGION_TYPES {
        let h = region(c1, rt);
        if h != region(c2, rt) {
            continue;
        }
        let rest = t.house[h] & !(CellSet::bit(c1) | CellSet::bit(c2));
        if b.digit(v1) & rest == 0 {
            r1 = Some(h);
        }
        if b.digit(v2) & rest == 0 {
            r2 = Some(h);
        }
    }
    let (h, rem) = match (r1, r2) {
        (Some(h), _) => (h, v2),
        (None, Some(h)) => (h, v1),
        _ => return None,
    };
    let eliminations: Vec<(usize, u8)> = [c1, c2]
        .iter()
        .filter(|&&c| b.has(c, rem))
        .map(|&c| (c, rem))
        .collect();
    // A hint without eliminations is not kept: build the step only for one that is.
    if eliminations.is_empty() {
        return None;
    }
    let mut st = mk();
    st.houses = vec![h];
    st.eliminations = eliminations;
    Some(st)
}

fn se_type3(
    b: &Board,
    c1: usize,
    c2: usize,
    v: Digits,
    extra: Digits,
    mk: &dyn Fn(u16) -> Step,
) -> Vec<Step> {
    let t = board::tables();
    let mut out = Vec::new();
    for degree in extra.count_ones() as usize..=7 {
        for &rt in &REGION_TYPES {
            let h = region(c1, rt);
            if h != region(c2, rt) {
                continue;
            }
            let cells = &t.house_cells[h];
            let empty = cells.iter().filter(|&&c| b.value[c as usize] == 0).count();
            let i1 = cells
                .iter()
                .position(|&c| c as usize == c1)
                .expect("in house");
            let i2 = cells
                .iter()
                .position(|&c| c as usize == c2)
                .expect("in house");
            if degree * 2 <= empty {
                let idx: Vec<usize> = (0..9).collect();
                combinations(&idx, degree, &mut |ix| {
                    if !ix.contains(&i1) || ix.contains(&i2) {
                        return true;
                    }
                    let mut naked = extra & b.cand[c1] & b.cand[c2];
                    let mut union = 0 as Digits;
                    let mut others: CellSet = 0;
                    let mut nonempty = true;
                    for &i in ix {
                        let pv = if i == i1 {
                            extra
                        } else {
                            b.cand[cells[i] as usize]
                        };
                        if i != i1 {
                            naked |= pv;
                            others |= CellSet::bit(cells[i] as usize);
                        }
                        nonempty &= pv != 0;
                        union |= pv;
                    }
                    if naked.count_ones() as usize != degree
                        || !nonempty
                        || union.count_ones() as usize != degree
                    {
                        return true;
                    }
                    let mut elims = Vec::new();
                    for &c in cells {
                        let c = c as usize;
                        if c == c1 || c == c2 || others.has(c) {
                            continue;
                        }
                        for d in board::digits(b.cand[c] & union) {
                            elims.push((c, d));
                        }
                    }
                    if !elims.is_empty() {
                        let mut st = mk(degree as u16 - 1);
                        st.houses = vec![h];
                        st.eliminations = elims;
                        out.push(st);
                    }
                    true
                });
            }
            if degree * 2 < empty && degree >= 2 {
                let rem: Vec<u8> = (1..=9u8)
                    .filter(|&d| v >> (d - 1) & 1 == 0 && extra >> (d - 1) & 1 == 0)
                    .collect();
                if degree - 2 <= rem.len() {
                    let hm = t.house[h] & !CellSet::bit(c2);
                    combinations(
                        &(0..rem.len()).collect::<Vec<_>>(),
                        degree - 2,
                        &mut |pick| {
                            let mut values: Digits = v;
                            for &i in pick {
                                values |= 1 << (rem[i] - 1);
                            }
                            // Every digit of a hidden set must have a place (SE's
                            // "light" tuple search).
                            if board::digits(values).any(|d| b.digit(d) & hm == 0) {
                                return true;
                            }
                            let pos =
                                board::digits(values).fold(0u128, |m, d| m | (b.digit(d) & hm));
                            if board::count(pos) as usize != degree {
                                return true;
                            }
                            let hidden = pos & !CellSet::bit(c1);
                            let mut elims = Vec::new();
                            for c in board::cells(hidden) {
                                for d in board::digits(b.cand[c] & !values) {
                                    elims.push((c, d));
                                }
                            }
                            if !elims.is_empty() {
                                let mut st = mk(board::count(hidden) as u16 - 1);
                                st.houses = vec![h];
                                st.eliminations = elims;
                                out.push(st);
                            }
                            true
                        },
                    );
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{SAMPLES, check_sound, state};

    fn tables(name: &str) -> board::Tables {
        let v: crate::Variant = name.parse().unwrap();
        board::Tables::new(&crate::Geometry::for_variant(9, None, &v).unwrap()).unwrap()
    }

    #[test]
    fn avoidable_rectangles_need_solved_cells_not_givens() {
        // The path of this puzzle (puzzles1_unbiased) takes an avoidable rectangle on 1
        // and 3 with r5c5, r5c6 and r8c5 solved; from the same position read as a
        // grid, those cells are givens and there is none.
        let p = ".....4......7...1...9.6..42...87..3.6.52..97.8..9....53.2..97...746.....9..42..5.";
        let path = crate::logic::explain(&state(p));
        let k = path
            .steps
            .iter()
            .position(|st| st.technique == Technique::AvoidableRectangle1)
            .expect("an avoidable rectangle");
        let mut s = state(p);
        for st in &path.steps[..k] {
            s.apply(st);
        }
        let found = |s: &State| {
            let mut all = Vec::new();
            avoidable_rectangles(s, &Board::from_state(s), false, &mut |st| {
                check_sound(p, &st);
                all.push(st);
                true
            });
            all
        };
        assert_eq!(found(&s)[0].eliminations, path.steps[k].eliminations);
        let as_given = State::from_candidates(s.candidates().clone());
        assert!(found(&as_given).is_empty());
    }

    #[test]
    fn which_rectangles_are_deadly() {
        let at = |r: usize, c: usize| (r - 1) * 9 + c - 1;
        let rect = |r1, r2, c1, c2| [at(r1, c1), at(r1, c2), at(r2, c1), at(r2, c2)];
        // Two boxes: deadly in sudoku; on X-sudoku the anti-diagonal meets r2c8 alone.
        let two_boxes = rect(1, 2, 4, 8);
        assert!(deadly(&tables("standard"), &two_boxes));
        assert!(!deadly(&tables("x"), &two_boxes));
        // Four boxes: not deadly in sudoku, deadly in a Latin square (rows and columns
        // only). On X-sudoku the main diagonal holds r1c1 and r5c5, which would hold
        // the same digit: an impossible pattern, left alone.
        let four_boxes = rect(1, 5, 1, 5);
        assert!(!deadly(&tables("standard"), &four_boxes));
        assert!(deadly(&tables("latin"), &four_boxes));
        assert!(!deadly(&tables("x"), &four_boxes));
        // One box holding all four corners.
        assert!(!deadly(&tables("standard"), &rect(1, 2, 1, 2)));
    }

    #[test]
    fn uniqueness_is_sound_on_samples() {
        for p in SAMPLES {
            let b = Board::from_state(&state(p));
            rectangles(&b, &mut |st| {
                check_sound(p, &st);
                true
            });
            if let Some(st) = se_loops(&b) {
                check_sound(p, &st);
            }
        }
    }
}
