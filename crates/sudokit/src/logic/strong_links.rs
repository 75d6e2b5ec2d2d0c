//! Chains of strong links on one digit (Sukaku Explainer's "strong-linked fishes"), on
//! every grid up to 32x32 with boxes or regions (links run along rows, columns, boxes
//! or regions, and a variant's diagonals and windows, counted as boxes): two links give
//! the skyscraper, the 2-string kite, the turbot fish and, with a grouped box link, the
//! empty rectangle; three or more links their longer cousins.
//!
//! A strong link is a house where the digit has two places (a box whose two places are
//! in one line is left out: that is a line link), or a grouped one: a box whose places
//! lie on the cross of one row and one column (the two arms are the ends), or a line
//! whose places lie in two of its three boxes. Consecutive links are joined by a weak
//! link: the end of one and the start of the next lie in one house. Then one of the two
//! outer ends holds the digit, so the digit leaves every cell that sees both ends and
//! lies in none of the pattern's houses. When the outer ends also share a house, the
//! chain is a loop and every weak link eliminates too (its text closes on its first node).
//!
//! Ratings follow Sukaku Explainer: 4.0 / 5.4 / 5.8 for 2 / 3 / 4 links, +0.1 when a box
//! or both line directions take part, +0.2 for both, +0.3 for a grouped link (instead).

use super::board::{self, Bits, Board, Tables};
use super::{Node, Step, Technique};

/// One strong link: the house, its kind (0 box, 1 row, 2 column) and its two ends
/// (with the row, column and box containing each end, as house masks).
#[derive(Clone, Copy, Debug)]
struct Link<S: Bits> {
    house: usize,
    kind: u8,
    a: S,
    b: S,
    ha: u64,
    hb: u64,
    /// All places of the digit in the house.
    cells: S,
    grouped: bool,
}

fn kind_of<S: Bits>(t: &Tables<S>, h: usize) -> u8 {
    if h < t.n {
        1
    } else if h < 2 * t.n {
        2
    } else {
        0
    }
}

/// The houses containing every cell of `set`, as a mask (bit `h` for house `h`): its
/// first cell's row, column and box, and of `extras` (a variant's other houses).
fn houses_of_set<S: Bits>(t: &Tables<S>, extras: &[usize], set: S) -> u64 {
    let first = &t.houses_of[board::first(set)];
    first
        .iter()
        .map(|&h| h as usize)
        .chain(extras.iter().copied())
        .filter(|&h| (set & !t.house[h]).is_empty())
        .fold(0, |m, h| m | 1 << h)
}

/// The strong links of digit `d`.
fn links<S: Bits>(b: &Board<S>, d: u8) -> Vec<Link<S>> {
    let t = b.tables();
    let mut out = Vec::new();
    // Boxes first, then rows, then columns (SE's region types 0, 1, 2), then a
    // variant's other houses (diagonals, windows), counted as boxes.
    let extras: Vec<usize> = (2 * t.n..t.houses)
        .filter(|h| !t.boxes.contains(h))
        .collect();
    for h in t
        .boxes
        .iter()
        .copied()
        .chain(0..2 * t.n)
        .chain(extras.iter().copied())
    {
        let pos = b.digit(d) & t.house[h];
        let n = board::count(pos);
        let kind = kind_of(t, h);
        if n == 2 {
            let (x, y) = (board::first(pos), board::first(pos.drop_first()));
            if kind == 0 && (t.row(x) == t.row(y) || t.col(x) == t.col(y)) {
                continue;
            }
            out.push(Link {
                house: h,
                kind,
                a: S::bit(x),
                b: S::bit(y),
                ha: 0,
                hb: 0,
                cells: pos,
                grouped: false,
            });
        } else if (3..=6).contains(&n) {
            if kind == 0 {
                // First heart whose rectangle (cells off its row and column) is empty.
                for &heart in t.cells_of(h) {
                    let heart = heart as usize;
                    let row = t.house[t.row(heart)] & t.house[h];
                    let col = t.house[t.n + t.col(heart)] & t.house[h];
                    if !(pos & !(row | col)).is_empty() {
                        continue;
                    }
                    let hbit = S::bit(heart);
                    let (arm1, arm2) = (pos & row & !hbit, pos & col & !hbit);
                    if !arm1.is_empty() && !arm2.is_empty() {
                        let variants: &[(S, S)] = if !(pos & hbit).is_empty() {
                            &[(arm1, arm2 | hbit), (arm1 | hbit, arm2)]
                        } else {
                            &[(arm1, arm2)]
                        };
                        for &(a, bb) in variants {
                            out.push(Link {
                                house: h,
                                kind,
                                a,
                                b: bb,
                                ha: 0,
                                hb: 0,
                                cells: pos,
                                grouped: true,
                            });
                        }
                    }
                    break;
                }
            } else {
                // A line whose places lie in exactly two of its box segments (in line
                // order: the line's cells are numbered in increasing order).
                let mut segs: Vec<S> = Vec::new();
                let mut rest = pos;
                while !rest.is_empty() {
                    let bx = t.box_of[rest.first()];
                    if bx == board::NO_HOUSE {
                        break;
                    }
                    segs.push(rest & t.house[bx as usize]);
                    rest &= !t.house[bx as usize];
                }
                if rest.is_empty() && segs.len() == 2 {
                    out.push(Link {
                        house: h,
                        kind,
                        a: segs[0],
                        b: segs[1],
                        ha: 0,
                        hb: 0,
                        cells: pos,
                        grouped: true,
                    });
                }
            }
        }
    }
    for l in &mut out {
        l.ha = houses_of_set(t, &extras, l.a);
        l.hb = houses_of_set(t, &extras, l.b);
    }
    out
}

/// The first house holding every cell of `x` and `y` (rows, then columns, then boxes,
/// then other houses), given the houses of each as masks, when they are disjoint.
fn weakly_linked<S: Bits>(x: S, hx: u64, y: S, hy: u64) -> Option<usize> {
    let common = hx & hy;
    ((x & y).is_empty() && common != 0).then(|| common.trailing_zeros() as usize)
}

struct Found {
    rating: u16,
    elims: Vec<(usize, u8)>,
    suffix: String,
    step: Step,
}

/// The best chain of exactly `n` strong links (lowest rating, then most eliminations),
/// or None.
pub fn best<S: Bits>(b: &Board<S>, n: usize) -> Option<Step> {
    best_where(b, n, None)
}

/// The best chain of `n` links whose technique is `which` (skyscraper, kite, ...).
pub fn best_of<S: Bits>(b: &Board<S>, n: usize, which: Technique) -> Option<Step> {
    best_where(b, n, Some(which))
}

fn best_where<S: Bits>(b: &Board<S>, n: usize, which: Option<Technique>) -> Option<Step> {
    let mut keep = Keep::default();
    search(b, n, which, &mut keep);
    keep.best.map(|f| f.step)
}

/// Every chain of `n` links whose technique is `which`, each once.
pub fn every_of<S: Bits>(b: &Board<S>, n: usize, which: Technique) -> Vec<Step> {
    let mut keep = Keep {
        best: None,
        every: Some(Vec::new()),
    };
    search(b, n, Some(which), &mut keep);
    keep.every.unwrap_or_default()
}

/// What a search keeps: the best chain, or (when `every` is there) every chain.
#[derive(Default)]
struct Keep {
    best: Option<Found>,
    every: Option<Vec<Step>>,
}

fn search<S: Bits>(b: &Board<S>, n: usize, which: Option<Technique>, keep: &mut Keep) {
    // House masks are 64 bits wide.
    if b.tables().houses > 64 {
        return;
    }
    let mut next = Successors::default();
    for d in b.digit_range() {
        let ls = links(b, d);
        if ls.len() < n {
            continue;
        }
        // The links that can follow each (link, direction): one house holds the end
        // of the first and the start of the second (links are disjoint), in the
        // order the search tries them.
        next.start.clear();
        next.list.clear();
        for l in &ls {
            for flip in [false, true] {
                let (_, end) = ends(l, flip);
                let (_, end_h) = end_houses(l, flip);
                next.start.push(next.list.len() as u32);
                for (j, m) in ls.iter().enumerate() {
                    for flip2 in [false, true] {
                        let (start, _) = ends(m, flip2);
                        let (start_h, _) = end_houses(m, flip2);
                        if end_h & start_h != 0 && (end & start).is_empty() {
                            next.list.push((j as u32, flip2));
                        }
                    }
                }
            }
        }
        next.start.push(next.list.len() as u32);
        let mut path: Vec<(usize, bool)> = Vec::with_capacity(n);
        for i in 0..ls.len() {
            for flip in [false, true] {
                path.push((i, flip));
                extend(b, d, &ls, &next, n, &mut path, ls[i].cells, which, keep);
                path.pop();
            }
        }
    }
}

/// Successor lists of every (link, direction), flattened: `list[start[k]..start[k + 1]]`
/// for `k = 2 * link + flip`.
#[derive(Default)]
struct Successors {
    start: Vec<u32>,
    list: Vec<(u32, bool)>,
}

impl Successors {
    fn of(&self, link: usize, flip: bool) -> &[(u32, bool)] {
        let k = 2 * link + flip as usize;
        &self.list[self.start[k] as usize..self.start[k + 1] as usize]
    }
}

fn ends<S: Bits>(l: &Link<S>, flip: bool) -> (S, S) {
    if flip { (l.b, l.a) } else { (l.a, l.b) }
}

/// House masks of the ends, in the same order as [`ends`].
fn end_houses<S: Bits>(l: &Link<S>, flip: bool) -> (u64, u64) {
    if flip { (l.hb, l.ha) } else { (l.ha, l.hb) }
}

#[allow(clippy::too_many_arguments)]
fn extend<S: Bits>(
    b: &Board<S>,
    d: u8,
    ls: &[Link<S>],
    next: &Successors,
    n: usize,
    path: &mut Vec<(usize, bool)>,
    used: S,
    which: Option<Technique>,
    keep: &mut Keep,
) {
    if path.len() == n {
        // Each chain is found in both directions: keep one.
        let (first, last) = (path[0].0, path[n - 1].0);
        if first > last {
            return;
        }
        evaluate(b, d, ls, path, which, keep);
        return;
    }
    let (li, lf) = *path.last().expect("non-empty");
    // The last link of a kept direction is not before the first (see above).
    let min_last = if path.len() + 1 == n { path[0].0 } else { 0 };
    for &(j, flip) in next.of(li, lf) {
        let j = j as usize;
        if j < min_last || !(ls[j].cells & used).is_empty() {
            continue;
        }
        if path
            .iter()
            .any(|&(k, _)| k == j || ls[k].house == ls[j].house)
        {
            continue;
        }
        path.push((j, flip));
        extend(b, d, ls, next, n, path, used | ls[j].cells, which, keep);
        path.pop();
    }
}

fn evaluate<S: Bits>(
    b: &Board<S>,
    d: u8,
    ls: &[Link<S>],
    path: &[(usize, bool)],
    which: Option<Technique>,
    keep: &mut Keep,
) {
    let t = b.tables();
    let n = path.len();
    let (start, _) = ends(&ls[path[0].0], path[0].1);
    let (_, end) = ends(&ls[path[n - 1].0], path[n - 1].1);
    let (start_h, _) = end_houses(&ls[path[0].0], path[0].1);
    let (_, end_h) = end_houses(&ls[path[n - 1].0], path[n - 1].1);
    // Most chains are not loops and nothing sees both ends: settle those first.
    if weakly_linked(start, start_h, end, end_h).is_none() {
        let base_houses: S = path
            .iter()
            .fold(S::ZERO, |m, &(i, _)| m | t.house[ls[i].house]);
        if (b.seen_by_all(start | end) & b.digit(d) & !base_houses).is_empty() {
            return;
        }
    }
    // The weak links between consecutive strong links (chains are short: no
    // allocation for the many that eliminate nothing).
    let mut bridge_buf = [(S::ZERO, S::ZERO, 0usize); 8];
    for w in 0..n - 1 {
        let (_, e) = ends(&ls[path[w].0], path[w].1);
        let (s, _) = ends(&ls[path[w + 1].0], path[w + 1].1);
        let (_, eh) = end_houses(&ls[path[w].0], path[w].1);
        let (sh, _) = end_houses(&ls[path[w + 1].0], path[w + 1].1);
        let h = weakly_linked(e, eh, s, sh).expect("linked");
        bridge_buf[w] = (e, s, h);
    }
    let bridges = &bridge_buf[..n - 1];
    // Rating: link kinds along the chain.
    let grouped = path.iter().any(|&(i, _)| ls[i].grouped);
    let has_box = path.iter().any(|&(i, _)| ls[i].kind == 0);
    let has_row = path.iter().any(|&(i, _)| ls[i].kind == 1);
    let has_col = path.iter().any(|&(i, _)| ls[i].kind == 2);
    let both_lines = has_row && has_col;
    let base = match n {
        2 => 40,
        3 => 54,
        4 => 58,
        5 => 62,
        _ => 66,
    };
    let rating = if grouped {
        base + 3
    } else if has_box && both_lines {
        base + 2
    } else if has_box || both_lines {
        base + 1
    } else {
        base
    };
    let collecting = keep.every.is_some();
    if !collecting && keep.best.as_ref().is_some_and(|f| rating > f.rating) {
        return;
    }
    let base_houses: S = path
        .iter()
        .fold(S::ZERO, |m, &(i, _)| m | t.house[ls[i].house]);
    let ring = weakly_linked(start, start_h, end, end_h);
    let mut victims = b.seen_by_all(start | end) & b.digit(d) & !base_houses;
    if let Some(_h) = ring {
        for &(e, s, _) in bridges {
            victims |= b.seen_by_all(e | s) & b.digit(d) & !base_houses;
        }
    } else {
        for &(_, _, h) in bridges {
            victims &= !t.house[h];
        }
    }
    if victims.is_empty() {
        return;
    }
    let elims: Vec<(usize, u8)> = board::cells(victims).map(|c| (c, d)).collect();
    let kinds: Vec<u8> = path.iter().map(|&(i, _)| ls[i].kind).collect();
    let grouped_count = path.iter().filter(|&&(i, _)| ls[i].grouped).count();
    let suffix = se_suffix(grouped_count, &kinds);
    if let Some(f) = keep.best.as_ref().filter(|_| !collecting) {
        let better = (rating, std::cmp::Reverse(elims.len()), &suffix)
            < (f.rating, std::cmp::Reverse(f.elims.len()), &f.suffix);
        if !better {
            return;
        }
    }
    let (technique, name) = if n == 2 {
        if grouped {
            (Technique::EmptyRectangle, "Empty Rectangle".to_string())
        } else if has_box {
            (Technique::TurbotFish, "Turbot Fish".to_string())
        } else if both_lines {
            (Technique::TwoStringKite, "2-String Kite".to_string())
        } else {
            (Technique::Skyscraper, "Skyscraper".to_string())
        }
    } else {
        let what = if ring.is_some() {
            "Strong Links X-Loop".to_string()
        } else if !has_box && !both_lines {
            format!("{n} Skyscrapers")
        } else if !has_box {
            format!("{n}-String Kite")
        } else {
            format!("{n} Strong Links")
        };
        let what = if grouped {
            format!("Grouped {what}")
        } else {
            what
        };
        (Technique::StrongLinks, what)
    };
    if which.is_some_and(|w| w != technique) {
        return;
    }
    // Asked for by name (the human path, in HoDoKu's order), an empty rectangle is
    // HoDoKu's: a box's cross and a plain row or column link. A grouped line link
    // (places in two boxes of a line) makes a finned X-wing there, found later.
    if which == Some(Technique::EmptyRectangle)
        && !path
            .iter()
            .all(|&(i, _)| (ls[i].kind == 0) == ls[i].grouped)
    {
        return;
    }
    let mut step = Step::new(technique);
    step.digits = vec![d];
    step.houses = path.iter().map(|&(i, _)| ls[i].house).collect();
    step.cover = bridges.iter().map(|&(_, _, h)| h).collect();
    let mut cells: Vec<usize> = Vec::new();
    for &(i, f) in path {
        let (a, z) = ends(&ls[i], f);
        let node = |s: S| Node {
            digit: d,
            cells: board::cells(s).collect(),
        };
        step.chain.push(node(a));
        step.chain.push(node(z));
        step.strong.push(true);
        step.strong.push(false);
        cells.extend(board::cells(a | z));
    }
    step.strong.pop();
    if ring.is_some() {
        // A loop: its outer ends are weakly linked too, and the text says so by
        // closing on the first node (the eliminations along every weak link rest on it).
        let first = step.chain[0].clone();
        step.chain.push(first);
        step.strong.push(false);
    }
    step.cells = cells;
    step.eliminations = elims.clone();
    step.rating = rating;
    step.name = Some(name);
    match &mut keep.every {
        Some(every) => every.push(step),
        None => {
            keep.best = Some(Found {
                rating,
                elims,
                suffix,
                step,
            })
        }
    }
}

/// Empty rectangles as HoDoKu's path meets them on classic sudoku (the first is the one
/// it takes): by digit, box, then heart (the cell whose row and column hold the box's
/// places, its 2x2 rectangle off them empty) from the box's last cell back, the heart's
/// row then its column: a place of the digit along it outside the box, a conjugate
/// pair in that place's column (row), and the cell where the pair's other end and
/// the heart's column (row) cross loses the digit. One elimination a step, as HoDoKu's.
pub fn empty_rectangles_hodoku(b: &Board, emit: super::Emit) -> bool {
    let t = b.tables();
    let bit = <board::CellSet as Bits>::bit;
    let row_of = |r: usize| t.house[r];
    let col_of = |c: usize| t.house[9 + c];
    for d in 1..=9u8 {
        for bx in 0..9 {
            let bh = t.boxes[bx];
            let places = b.digit(d) & t.house[bh];
            if !(2..=5).contains(&board::count(places)) {
                continue;
            }
            let (r0, c0) = (bx / 3 * 3, bx % 3 * 3);
            for p in 0..9 {
                let (er_row, er_col) = (r0 + 2 - p / 3, c0 + 2 - p % 3);
                let cross = row_of(er_row) | col_of(er_col);
                if !(places & !cross).is_empty() {
                    continue;
                }
                let (in_row, in_col) = (places & row_of(er_row), places & col_of(er_col));
                if (in_row & !col_of(er_col)).is_empty() || (in_col & !row_of(er_row)).is_empty() {
                    continue;
                }
                // Along the heart's row, pairs in columns; then along its column, pairs
                // in rows.
                for along_row in [true, false] {
                    let line = if along_row {
                        row_of(er_row)
                    } else {
                        col_of(er_col)
                    };
                    for index in board::cells(line & b.digit(d) & !t.house[bh]) {
                        let pair_house = if along_row {
                            9 + t.col(index)
                        } else {
                            t.row(index)
                        };
                        let pair = b.digit(d) & t.house[pair_house];
                        if board::count(pair) != 2 {
                            continue;
                        }
                        let other = board::first(pair & !bit(index));
                        let victim = board::first(if along_row {
                            row_of(t.row(other)) & col_of(er_col)
                        } else {
                            row_of(er_row) & col_of(t.col(other))
                        });
                        if !b.has(victim, d) || t.house[bh].has(victim) {
                            continue;
                        }
                        // The box's places off the line the step leaves from are true when
                        // those on it are false.
                        let (far, near) = if along_row {
                            (in_col, places & !col_of(er_col))
                        } else {
                            (in_row, places & !row_of(er_row))
                        };
                        let node = |cells: board::CellSet| Node {
                            digit: d,
                            cells: board::cells(cells).collect(),
                        };
                        let mut step = Step::new(Technique::EmptyRectangle);
                        step.digits = vec![d];
                        step.houses = vec![bh, pair_house];
                        step.cover = vec![if along_row { er_row } else { 9 + er_col }];
                        step.chain =
                            vec![node(far), node(near), node(bit(index)), node(bit(other))];
                        step.strong = vec![true, false, true];
                        step.cells = board::cells(places).chain([index, other]).collect();
                        step.eliminations = vec![(victim, d)];
                        step.rating = 43;
                        step.name = Some("Empty Rectangle".to_string());
                        if !emit(step) {
                            return false;
                        }
                    }
                }
            }
        }
    }
    true
}

/// Sukaku Explainer's name suffix of a chain (its tie-breaker after rating and
/// eliminations): the number of grouped links, then the link kinds (0 box, 1 row, 2
/// column) in chain order, read from the end that sorts first, with rows and columns
/// renamed so the result is the smallest string (so "1" means "one line direction").
fn se_suffix(grouped: usize, kinds: &[u8]) -> String {
    let s = |v: &[u8]| v.iter().map(|&k| char::from(b'0' + k)).collect::<String>();
    let rev: Vec<u8> = kinds.iter().rev().copied().collect();
    let set = if s(kinds) <= s(&rev) {
        kinds.to_vec()
    } else {
        rev
    };
    let original = s(&set);
    let has_row = set.contains(&1);
    let lines: String = set
        .iter()
        .map(|&k| if k == 2 { '1' } else { char::from(b'0' + k) })
        .collect();
    let swap = |k: u8| match k {
        1 => '2',
        2 => '1',
        k => char::from(b'0' + k),
    };
    let current: String = set.iter().map(|&k| swap(k)).collect();
    let reverse_swap: String = set.iter().rev().map(|&k| swap(k)).collect();
    let reverse_swap = if reverse_swap > current {
        current
    } else {
        reverse_swap
    };
    let name = if has_row {
        if original > reverse_swap {
            reverse_swap
        } else {
            original
        }
    } else {
        lines
    };
    format!("{grouped}{name}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{SAMPLES, check_sound, state};

    #[test]
    fn skyscraper_example() {
        // HoDoKu's skyscraper example puzzle.
        let p = "697.....2..1972.63..3..679.912...6.737426.95.8657.9.241486932757.9.24..6..68.7..9";
        let s = state(p);
        let b = Board::from_state(&s);
        let step = best(&b, 2).expect("a 2-link pattern");
        check_sound(p, &step);
        assert!(step.rating >= 40 && step.rating <= 43);
    }

    #[test]
    fn a_loop_closed_by_a_diagonal_is_written_closed_and_eliminates_along_its_links() {
        // The README's X-sudoku: its 2 skyscraper r2c5=r2c8-r6c4=r6c5 is linked weakly
        // along the anti-diagonal (r2c8-r6c4), and its ends share column 5: a loop, so
        // r3c5 (column 5, between the ends) loses 2 as well as r7c3 (anti-diagonal).
        let p = ".2..........4....143....7.9....5.2..........38................6.8...2.5...6.18...";
        let cells = crate::format::parse_grid(p).unwrap().cells().to_vec();
        let g = crate::Geometry::for_variant(9, None, &"x".parse().unwrap()).unwrap();
        let grid = crate::Grid::from_cells(std::sync::Arc::new(g), cells).unwrap();
        let start = crate::logic::State::from_grid(&grid);
        let path = crate::logic::explain(&start);
        let step = path
            .steps
            .iter()
            .find(|st| st.technique == Technique::Skyscraper && st.digits == [2])
            .expect("the 2 skyscraper");
        let cell = |r: usize, c: usize| (r - 1) * 9 + c - 1;
        assert_eq!(step.chain.first(), step.chain.last());
        assert_eq!(step.strong, [true, false, true, false]);
        assert_eq!(step.eliminations, [(cell(3, 5), 2), (cell(7, 3), 2)]);
        assert!(
            step.sentence(grid.geometry())
                .contains("closes into a loop")
        );
        let solution = crate::solve::solve(&grid).unwrap();
        crate::logic::check_step(step, solution.cells(), grid.geometry()).unwrap();
    }

    #[test]
    fn chains_are_sound_on_samples() {
        for p in SAMPLES {
            let b = Board::from_state(&state(p));
            for n in 2..=4 {
                if let Some(step) = best(&b, n) {
                    check_sound(p, &step);
                }
            }
        }
    }
}
