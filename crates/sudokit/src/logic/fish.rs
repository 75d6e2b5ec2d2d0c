//! Fish: X-Wing, Swordfish, Jellyfish (basic fish on rows and columns, any geometry),
//! and their finned and sashimi forms (9x9, fins in one box).
//!
//! A basic fish of size `k` on digit `d`: `k` base lines in which `d` can only go in
//! `k` cover lines of the other direction; `d` then fills the intersections, so it
//! leaves the rest of the cover lines. A finned fish has extra candidates (fins) in the
//! base lines, all in one box: either the fish holds or a fin is true, and both remove
//! `d` from the cover cells of the fin's box.

use crate::geometry::Cell;

use super::board::{self, Bits, Board};
use super::{Emit, State, Step, Technique, combinations, combinations_pruned};

fn basic_technique(k: usize) -> (Technique, u16) {
    match k {
        2 => (Technique::XWing, 32),
        3 => (Technique::Swordfish, 38),
        _ => (Technique::Jellyfish, 52),
    }
}

/// Basic fish of size `k`, for every digit, base columns first then base rows (Sudoku
/// Explainer's order). With `se`, Sudoku Explainer's precondition: at least `2k`
/// unplaced occurrences of the digit.
pub fn basic(s: &State, k: usize, se: bool, emit: Emit) -> bool {
    let g = s.geometry().clone();
    let n = g.size();
    // Orientation 0: base columns (cover rows); 1: base rows (cover columns).
    for orientation in 0..2 {
        for d in 1..=n as u8 {
            if se {
                let placed = s.values().iter().filter(|&&v| v == d).count();
                if placed + 2 * k > n {
                    continue;
                }
            }
            // For each base line, the set of cross indices where d is possible.
            // Lines have at most 64 cells (places are u64 masks): no allocation.
            let mut buf = [(0usize, 0u64); 64];
            let mut len = 0;
            for i in 0..n {
                let h = if orientation == 0 { n + i } else { i };
                let mask = s.pos(h, d);
                let m = mask.count_ones() as usize;
                if m >= 1 && m <= k {
                    buf[len] = (i, mask);
                    len += 1;
                }
            }
            let lines = &buf[..len];
            if lines.len() < k {
                continue;
            }
            let keep_going = combinations(lines, k, &mut |set| {
                let union = set.iter().fold(0u64, |u, l| u | l.1);
                if union.count_ones() as usize != k {
                    return true;
                }
                // The cover lines' other places of the digit are the eliminations.
                let base_mask = set.iter().fold(0u64, |m, l| m | 1 << l.0);
                let cover = if orientation == 0 { 0 } else { n };
                let any = (0..n)
                    .filter(|j| union >> j & 1 == 1)
                    .any(|j| s.pos(cover + j, d) & !base_mask != 0);
                if !any {
                    return true;
                }
                let base: Vec<usize> = set.iter().map(|l| l.0).collect();
                let mut eliminations = Vec::new();
                let mut cells = Vec::new();
                for j in (0..n).filter(|j| union >> j & 1 == 1) {
                    for i in 0..n {
                        let cell = if orientation == 0 {
                            g.cell(j, i)
                        } else {
                            g.cell(i, j)
                        };
                        if s.value(cell) != 0 || !s.cands(cell).contains(d) {
                            continue;
                        }
                        if base.contains(&i) {
                            cells.push(cell);
                        } else {
                            eliminations.push((cell, d));
                        }
                    }
                }
                if eliminations.is_empty() {
                    return true;
                }
                let house = |line: usize, column: bool| if column { n + line } else { line };
                let (technique, rating) = basic_technique(k);
                let mut step = Step::new(technique);
                step.digits = vec![d];
                cells.sort_unstable();
                step.cells = cells;
                step.houses = base.iter().map(|&i| house(i, orientation == 0)).collect();
                step.cover = (0..n)
                    .filter(|j| union >> j & 1 == 1)
                    .map(|j| house(j, orientation != 0))
                    .collect();
                eliminations.sort_unstable();
                step.eliminations = eliminations;
                step.rating = rating;
                emit(step)
            });
            if !keep_going {
                return false;
            }
        }
    }
    true
}

fn finned_technique(k: usize, sashimi: bool) -> Technique {
    match (k, sashimi) {
        (2, false) => Technique::FinnedXWing,
        (2, true) => Technique::SashimiXWing,
        (3, false) => Technique::FinnedSwordfish,
        (3, true) => Technique::SashimiSwordfish,
        (_, false) => Technique::FinnedJellyfish,
        (_, true) => Technique::SashimiJellyfish,
    }
}

/// Finned and sashimi fish of size `k` on a board up to 32x32 (base rows first, then
/// columns).
pub fn finned<S: Bits>(b: &Board<S>, k: usize, emit: Emit) -> bool {
    let t = b.tables();
    for rows_base in [true, false] {
        // Lines are numbered 0..n within their kind; a set of them is a bit mask.
        let kind = if rows_base { 1 } else { 0 };
        let offset = if rows_base { t.n } else { 0 };
        let lines_of = |cells: S| {
            board::cells(cells).fold(0u32, |m, c| {
                m | 1 << (t.houses_of[c][kind] as usize - offset)
            })
        };
        // A fin box meets this many cross lines at most: a base whose cross lines
        // exceed the fish size by more cannot be finned.
        let span = t
            .boxes
            .iter()
            .map(|&bx| lines_of(t.house[bx]).count_ones() as usize)
            .max()
            .unwrap_or(0);
        for d in b.digit_range() {
            let dc = b.digit(d);
            // Base lines with candidates, as (house, cells).
            let lines: Vec<(usize, S)> = (0..t.n)
                .map(|i| if rows_base { i } else { t.n + i })
                .map(|h| (h, dc & t.house[h]))
                .filter(|&(_, m)| m != S::ZERO && board::count(m) <= 5)
                .collect();
            // Subsets are drawn as (cross lines met, index into `lines`): small to copy.
            let items: Vec<(u32, usize)> = lines
                .iter()
                .enumerate()
                .map(|(i, l)| (lines_of(l.1), i))
                .collect();
            // Cross lines only add up as base lines join: a partial base already
            // meeting too many of them cannot be finned.
            let mut narrow = |part: &[(u32, usize)]| {
                part.iter().fold(0, |m, l| m | l.0).count_ones() as usize <= k + span
            };
            let keep = combinations_pruned(&items, k, Some(&mut narrow), &mut |picked| {
                let cross = picked.iter().fold(0u32, |m, l| m | l.0);
                let width = cross.count_ones() as usize;
                if width <= k || width > k + span {
                    return true; // a basic fish (or less), or fins in more than one box
                }
                let set = || picked.iter().map(|&(_, i)| &lines[i]);
                let base: S = set().fold(S::ZERO, |u, l| u | l.1);
                // The fins lie in one box, so the cover holds every cross line of the
                // base outside that box: build those covers box by box instead of
                // trying every k of the cross lines (16x16 has up to C(16, 4) of them),
                // and try them in the order of that full enumeration (lexicographic:
                // the set holding the smallest line where two differ comes first).
                let mut covers: Vec<u32> = Vec::new();
                let mut boxes: S = base;
                while !boxes.is_empty() {
                    let bx = t.box_of[boxes.first()];
                    if bx == board::NO_HOUSE {
                        break;
                    }
                    let in_box = t.house[bx as usize];
                    boxes &= !in_box;
                    let need = lines_of(base & !in_box);
                    let Some(missing) = k.checked_sub(need.count_ones() as usize) else {
                        continue;
                    };
                    if missing == 0 {
                        covers.push(need);
                        continue;
                    }
                    // Every way to add `missing` of the other cross lines.
                    let rest: Vec<u32> = (0..t.n)
                        .map(|i| 1u32 << i)
                        .filter(|&bit| cross & !need & bit != 0)
                        .collect();
                    combinations(&rest, missing, &mut |extra| {
                        covers.push(extra.iter().fold(need, |m, &bit| m | bit));
                        true
                    });
                }
                covers.sort_unstable_by_key(|m| std::cmp::Reverse(m.reverse_bits()));
                covers.dedup();
                covers.iter().all(|&cover_lines| {
                    let cover = || {
                        (0..t.n)
                            .filter(move |i| cover_lines >> i & 1 == 1)
                            .map(move |i| i + offset)
                    };
                    let cover_cells: S = cover().fold(S::ZERO, |u, h| u | t.house[h]);
                    let fins = base & !cover_cells;
                    if fins == S::ZERO {
                        return true;
                    }
                    let fin_box = t.box_of[board::first(fins)];
                    if fin_box == board::NO_HOUSE {
                        return true;
                    }
                    let box_cells = t.house[fin_box as usize];
                    if fins & !box_cells != S::ZERO {
                        return true;
                    }
                    // Every base line must keep a candidate in the cover (else it is a
                    // different, degenerate pattern).
                    if set().any(|l| l.1 & cover_cells == S::ZERO) {
                        return true;
                    }
                    let victims = dc & cover_cells & box_cells & !base;
                    if victims == S::ZERO {
                        return true;
                    }
                    let sashimi = set().any(|l| board::count(l.1 & cover_cells) < 2);
                    let mut step = Step::new(finned_technique(k, sashimi));
                    step.digits = vec![d];
                    step.cells = board::cells(base & cover_cells).collect();
                    step.houses = set().map(|l| l.0).collect();
                    step.cover = cover().collect();
                    step.fins = board::cells(fins).collect();
                    step.eliminations = board::cells(victims).map(|c: Cell| (c, d)).collect();
                    step.rating = match k {
                        2 => 34,
                        3 => 40,
                        _ => 54,
                    };
                    emit(step)
                })
            });
            if !keep {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{check_sound, collect, state};

    // HoDoKu's X-Wing example puzzle (an SE 3.2 puzzle).
    const XWING: &str =
        "1.....569492.561.8.561.924...964.8.1.64.1....218.356.4.4.5...169.5.614.2621.....5";

    #[test]
    fn x_wing_found_and_sound() {
        let s = state(XWING);
        let steps = collect(&s, |s, e| basic(s, 2, false, e));
        assert!(!steps.is_empty());
        for step in &steps {
            check_sound(XWING, step);
            assert_eq!(step.technique, Technique::XWing);
        }
    }

    #[test]
    fn finned_fish_are_sound() {
        for p in crate::logic::testing::SAMPLES {
            let s = state(p);
            let b = Board::from_state(&s);
            for k in 2..=4 {
                let mut steps = Vec::new();
                finned(&b, k, &mut |st| {
                    steps.push(st);
                    true
                });
                for step in &steps {
                    check_sound(p, step);
                }
            }
        }
    }
}
