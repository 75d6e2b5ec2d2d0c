//! Fish: X-Wing, Swordfish, Jellyfish (basic fish on rows and columns, any geometry),
//! their finned and sashimi forms (9x9, fins in one box), and HoDoKu's Franken fish
//! (boxes among the base or cover houses; grids up to 9x9).
//!
//! A basic fish of size `k` on digit `d`: `k` base lines in which `d` can only go in
//! `k` cover lines of the other direction; `d` then fills the intersections, so it
//! leaves the rest of the cover lines. A finned fish has extra candidates (fins) in the
//! base lines, all in one box: either the fish holds or a fin is true, and both remove
//! `d` from the cover cells of the fin's box.

use std::cell::RefCell;
use std::collections::HashSet;

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

    // Positions on hodoku-py 0.2.1's path (FishSolver.get_step; candidates in Sudoku
    // Explainer's 729-character form, one row a line): for the puzzle
    // 700000810040008200000206003000320900200804007003067000800602000009500080051000002
    // before its first and eleventh steps after the singles, and for
    // 002010700000092400940700006010000300280060074007000090700009062006120000004070900
    // (sudoku-exchange, SE 8+) before the step it takes with a finned Franken swordfish.
    const FRANKEN_X_WING_STATE: &str = concat!(
        "......7....3..6..9.2..........4....9..345...9..3.5...9.......8.1...........456..9",
        "1.3.56..9...4.........56...1.....7.91.3.5.7.9.......8..2...........567.9....56..9",
        "1...5...91......89....5..8..2.......1..45.7.9.....6......45.7.....45.7.9..3......",
        "1..456...1....678....45678...3.......2.......1...5............9...456...1..456.8.",
        ".2.......1....6..9....56..........8.1...5...9...4.....1.3.56.....3.56.........7..",
        "1..45...91......89..3......1.......9.....6.........7..1..45.....2.......1..45..8.",
        ".......8...3...7.....4..7.......6...1.34..7.9.2.......1.345.7....345.7.91..45...9",
        "..34.6....2...............9....5....1.34..7..1.3......1.34.67.........8.1..4.6...",
        "..34.6.......5....1...........4..7.9.......8...3.....9..34.67....34.67.9.2.......",
    );

    const FRANKEN_SWORDFISH_STATE: &str = concat!(
        "......7....3..6..9.2..........4....9..345...9..3.5...9.......8.1............56..9",
        "1.3.5...9...4.........56...1.....7.91.3.5.7.9.......8..2...........5.7.9....56..9",
        "1...5...91.......9.......8..2.......1..45.7.9.....6......45.7.....45.7.9..3......",
        "1..45....1....678....4..7....3.......2.......1...5............9...456...1..4...8.",
        ".2.......1....6..9....56..........8.1...5...9...4.....1.3.56.....3.56.........7..",
        "1..45...9.......89..3......1.......9.....6.........7..1..45.....2.......1..45..8.",
        ".......8...3...7.....4..7.......6...1..4....9.2.......1.345......345...91..45...9",
        "..34.6....2...............9....5....1.34..7..1.3......1.34.67.........8.1..4.....",
        "..34.6.......5....1...........4..7.9.......8...3.....9..34.67....34.67.9.2.......",
    );

    const FINNED_FRANKEN_STATE: &str = concat!(
        "..3.5..8......6....2.........3.5..8.1...........4...........7....3.5..8.........9",
        "1.3.5..8.......7..1.3.5..8......6...........9.2..........4.....1.3.5..8...3.5....",
        "........9...4.....1.3.5..8.......7....3.5..8...3.5..8..2.......1.3.5.........6...",
        ".....6...1............5...9...45..89...45..8.......7....3.......2...........5..8.",
        ".2..............8...3.5...9..3.....9.....6...1.3.5....1...5..........7.....4.....",
        "...4.......3.5..........7...2.........3.5..8.1...5..8......6...........91...5..8.",
        "......7....3.5....1......8...345..8...345..8.........91...5..8......6....2.......",
        "..3.5..8.........9.....6...1.........2.........3.5..8.....5..8....4...........7..",
        "1...5..8..2..........4.........5..8.......7.......6...........9..3.5....1.3.5....",
    );

    /// The first Franken fish of a size and kind on a position given as candidates.
    fn first_franken(marks: &str, k: usize, finned: bool) -> Step {
        let cands = crate::format::parse_candidates(marks, &Default::default()).unwrap();
        let b = Board::from_state(&State::from_candidates(cands));
        let mut found = None;
        franken(&b, k, finned, &mut |st| {
            found = Some(st);
            false
        });
        found.expect("a Franken fish")
    }

    #[test]
    fn franken_fish_are_hodokus() {
        // HoDoKu's Franken X-Wing on 7 (base c2, c3; cover r7, b4) clearing r7c5, r7c7,
        // r7c8; its Franken Swordfish on 4 (base r1, b4, b7; cover c1, c3, b2) clearing
        // r3c5; its finned Franken Swordfish on 3 (base c3, c4, b7; cover r1, r5, r7;
        // fins r2c3, r3c3, r8c1) clearing r1c1. Houses are ours: rows 0-8, columns
        // 9-17, boxes 18-26.
        struct Case {
            marks: &'static str,
            k: usize,
            finned: bool,
            technique: Technique,
            digit: u8,
            base: &'static [usize],
            cover: &'static [usize],
            fins: &'static [usize],
            cleared: &'static [usize],
        }
        let cases = [
            Case {
                marks: FRANKEN_X_WING_STATE,
                k: 2,
                finned: false,
                technique: Technique::FrankenXWing,
                digit: 7,
                base: &[10, 11],
                cover: &[6, 21],
                fins: &[],
                cleared: &[58, 60, 61],
            },
            Case {
                marks: FRANKEN_SWORDFISH_STATE,
                k: 3,
                finned: false,
                technique: Technique::FrankenSwordfish,
                digit: 4,
                base: &[0, 21, 24],
                cover: &[9, 11, 19],
                fins: &[],
                cleared: &[22],
            },
            Case {
                marks: FINNED_FRANKEN_STATE,
                k: 3,
                finned: true,
                technique: Technique::FinnedFrankenSwordfish,
                digit: 3,
                base: &[11, 12, 24],
                cover: &[0, 4, 6],
                fins: &[11, 20, 63],
                cleared: &[0],
            },
        ];
        for c in cases {
            let st = first_franken(c.marks, c.k, c.finned);
            assert_eq!(st.technique, c.technique);
            assert_eq!(st.digits, [c.digit]);
            assert_eq!(
                (st.houses.as_slice(), st.cover.as_slice()),
                (c.base, c.cover)
            );
            assert_eq!(st.fins, c.fins);
            let expected: Vec<(usize, u8)> = c.cleared.iter().map(|&x| (x, c.digit)).collect();
            assert_eq!(st.eliminations, expected);
        }
    }

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

/// Franken fish of size `k` (2 or 3), as HoDoKu finds them on grids up to 9x9: base
/// houses are lines of one direction and boxes, cover houses lines of the other
/// direction and boxes, at least one box among them, the base houses disjoint (except,
/// when `finned`, in up to two cells: endo fins). The digit's places in the base lie in
/// the cover, so each cover house holds it once: it leaves the rest of the cover, and
/// a cell two cover houses share. When `finned`, base places outside the cover (and the
/// endo fins) are fins, one to five: only the cells that see every fin lose the digit.
/// Found in HoDoKu's order: digit, base rows then base columns, the base houses (lines
/// before boxes) and then the cover houses in lexicographic order.
pub fn franken<S: Bits>(b: &Board<S>, k: usize, finned: bool, emit: Emit) -> bool {
    let t = b.tables();
    let n = t.n;
    if n > 9 {
        return true;
    }
    let layout: Vec<u128> = t.boxes.iter().map(|&h| narrow(t.house[h])).collect();
    FRANKEN_NONE.with_borrow_mut(|memo| {
        if memo.n != n || memo.boxes != layout || memo.none.len() >= MEMO_LIMIT {
            *memo = NoFish {
                n,
                boxes: layout,
                none: HashSet::new(),
            };
        }
    });
    for d in b.digit_range() {
        let dc = b.digit(d);
        if dc == S::ZERO {
            continue;
        }
        let key = (k, finned, narrow(dc));
        if FRANKEN_NONE.with_borrow(|memo| memo.none.contains(&key)) {
            continue;
        }
        let mut found = false;
        let mut emit = |step: Step| {
            found = true;
            emit(step)
        };
        for rows_base in [true, false] {
            let (base_lines, cover_lines) = if rows_base {
                (0..n, n..2 * n)
            } else {
                (n..2 * n, 0..n)
            };
            let pool = |lines: std::ops::Range<usize>| -> Vec<(usize, S)> {
                lines
                    .chain(t.boxes.iter().copied())
                    .map(|h| (h, dc & t.house[h]))
                    .filter(|&(_, m)| m != S::ZERO)
                    .collect()
            };
            let base_pool: Vec<(usize, S)> = pool(base_lines)
                .into_iter()
                .filter(|&(_, m)| finned || board::count(m) as usize <= k)
                .collect();
            let cover_pool = pool(cover_lines);
            // Base houses may share cells only as (at most two) endo fins.
            let disjoint = |part: &[(usize, S)]| {
                let (mut union, mut endo) = (S::ZERO, S::ZERO);
                for &(_, m) in part {
                    endo |= union & m;
                    union |= m;
                }
                endo == S::ZERO || (finned && board::count(endo) <= MAX_ENDO_FINS)
            };
            let mut search = Franken {
                b,
                d,
                k,
                finned,
                base: S::ZERO,
                endo: S::ZERO,
                base_houses: [0; 4],
                eligible: Vec::new(),
                beyond: Vec::new(),
                twice: Vec::new(),
                widest: 0,
                picked: [0; 4],
            };
            let keep = combinations_pruned(&base_pool, k, Some(&mut { disjoint }), &mut |set| {
                if !disjoint(set) || !search.with_base(set, &cover_pool) {
                    return true;
                }
                search.covers(0, 0, S::ZERO, S::ZERO, &mut emit)
            });
            if !keep {
                return false;
            }
        }
        if !found {
            FRANKEN_NONE.with_borrow_mut(|memo| memo.none.insert(key));
        }
    }
    true
}

/// A set of cells of a grid up to 9x9 as one `u128`.
fn narrow<S: Bits>(set: S) -> u128 {
    board::cells(set).fold(0, |m, c| m | 1 << c)
}

/// The digits' places (of one box layout) known to hold no Franken fish of a size and
/// kind: the human path looks again after every step, and a step changes the places
/// of a digit or two; a fish depends on its digit's places alone.
struct NoFish {
    n: usize,
    boxes: Vec<u128>,
    none: HashSet<(usize, bool, u128)>,
}

/// Places kept in [`NoFish`] before it starts again.
const MEMO_LIMIT: usize = 1 << 16;

thread_local! {
    static FRANKEN_NONE: RefCell<NoFish> = RefCell::new(NoFish {
        n: 0,
        boxes: Vec::new(),
        none: HashSet::new(),
    });
}

/// Most fins (endo fins included) of a finned Franken fish, and most endo fins (HoDoKu's
/// defaults).
const MAX_FINS: u32 = 5;
const MAX_ENDO_FINS: u32 = 2;

/// One Franken fish search: a digit, a size, and the base houses being tried.
struct Franken<'a, S: Bits> {
    b: &'a Board<S>,
    d: u8,
    k: usize,
    finned: bool,
    /// The digit's places in the base houses, and those in two of them (endo fins).
    base: S,
    endo: S,
    base_houses: [usize; 4],
    /// The cover houses that may join (not in the base, meeting it); the digit's
    /// places in those from each index on, and those in two of them; the most of the
    /// base one holds.
    eligible: Vec<(usize, S)>,
    beyond: Vec<S>,
    twice: Vec<S>,
    widest: u32,
    /// Indices into `eligible` of the cover houses picked so far.
    picked: [usize; 4],
}

impl<S: Bits> Franken<'_, S> {
    /// Takes a set of base houses; false when no cover can complete it.
    fn with_base(&mut self, set: &[(usize, S)], cover_pool: &[(usize, S)]) -> bool {
        let (mut base, mut endo) = (S::ZERO, S::ZERO);
        for (i, &(h, m)) in set.iter().enumerate() {
            endo |= base & m;
            base |= m;
            self.base_houses[i] = h;
        }
        self.base = base;
        self.endo = endo;
        let houses = &self.base_houses[..self.k];
        self.eligible.clear();
        self.eligible.extend(
            cover_pool
                .iter()
                .filter(|&&(h, m)| m & base != S::ZERO && !houses.contains(&h)),
        );
        if self.eligible.len() < self.k {
            return false;
        }
        self.beyond.clear();
        self.beyond.resize(self.eligible.len() + 1, S::ZERO);
        self.twice.clear();
        self.twice.resize(self.eligible.len() + 1, S::ZERO);
        for i in (0..self.eligible.len()).rev() {
            self.beyond[i] = self.beyond[i + 1] | self.eligible[i].1;
            self.twice[i] = self.twice[i + 1] | (self.beyond[i + 1] & self.eligible[i].1);
        }
        // The k cover houses holding the most of the base leave too much of it out: no
        // fish (the fins are at least what they leave).
        let mut held = [0u32; 4];
        for &(_, m) in &self.eligible {
            let c = board::count(m & base);
            if c > held[3] {
                held[3] = c;
                held.sort_unstable_by(|a, b| b.cmp(a));
            }
        }
        self.widest = held[0];
        let most_fins = if self.finned { MAX_FINS } else { 0 };
        board::count(base) <= most_fins + held[..self.k].iter().sum::<u32>()
    }

    /// Every way to pick the cover houses from `start` on, `depth` picked already,
    /// `cover` the digit's places in those and `shared` those in two of them, in
    /// lexicographic order; false when `emit` says stop. Only picks that can still make
    /// a fish are followed (HoDoKu tries them all; its first fish is the same).
    fn covers(&mut self, start: usize, depth: usize, cover: S, shared: S, emit: Emit) -> bool {
        let left = (self.k - depth - 1) as u32;
        let most_fins = if self.finned { MAX_FINS } else { 0 };
        for i in start..self.eligible.len() - left as usize {
            let m = self.eligible[i].1;
            let (cover, shared) = (cover | m, shared | (cover & m));
            if left == 0 {
                // The last house: a fish if the fins are right and something is cleared.
                let fins = (self.base & !cover) | self.endo;
                let mut victims = (cover & !self.base) | shared;
                if victims == S::ZERO {
                    continue;
                }
                if self.finned {
                    let count = board::count(fins);
                    if count == 0 || count > MAX_FINS {
                        continue;
                    }
                    victims &= self.b.seen_by_all(fins);
                } else if fins != S::ZERO {
                    continue;
                }
                if victims == S::ZERO {
                    continue;
                }
                self.picked[depth] = i;
                if !self.fish(fins, victims, emit) {
                    return false;
                }
                continue;
            }
            // What the houses still to pick can hold: the base places beyond it are fins
            // whatever they are, too many, or (finned) seen by no cell left to clear.
            if board::count((self.base & !cover) | self.endo) > most_fins + left * self.widest {
                continue;
            }
            let reach = cover | self.beyond[i + 1];
            let fins = (self.base & !reach) | self.endo;
            // Base cells are cleared only when two cover houses share them.
            let twice = shared | (cover & self.beyond[i + 1]) | self.twice[i + 1];
            let clearable = (reach & !self.base) | (self.base & twice);
            if fins != S::ZERO
                && (!self.finned
                    || board::count(fins) > MAX_FINS
                    || clearable & self.b.seen_by_all(fins) == S::ZERO)
            {
                continue;
            }
            // A finned fish needs fins: HoDoKu does not extend a partial cover already
            // holding the whole base.
            if self.finned && self.base & !cover == S::ZERO {
                continue;
            }
            self.picked[depth] = i;
            if !self.covers(i + 1, depth + 1, cover, shared, emit) {
                return false;
            }
        }
        true
    }

    /// The fish with the picked cover houses, its fins and the cells it clears, emitted
    /// unless it is a basic fish (rows and columns only).
    fn fish(&self, fins: S, victims: S, emit: Emit) -> bool {
        let t = self.b.tables();
        let base_houses = &self.base_houses[..self.k];
        let cover_houses = self.picked[..self.k].iter().map(|&i| self.eligible[i].0);
        let lines_only = |h: usize| h < t.lines;
        if base_houses.iter().all(|&h| lines_only(h)) && cover_houses.clone().all(lines_only) {
            return true;
        }
        let technique = match (self.k, self.finned) {
            (2, false) => Technique::FrankenXWing,
            (2, true) => Technique::FinnedFrankenXWing,
            (_, false) => Technique::FrankenSwordfish,
            (_, true) => Technique::FinnedFrankenSwordfish,
        };
        let mut step = Step::new(technique);
        step.digits = vec![self.d];
        step.cells = board::cells(self.base & !fins).collect();
        step.houses = base_houses.to_vec();
        step.cover = cover_houses.collect();
        step.fins = board::cells(fins).collect();
        step.eliminations = board::cells(victims).map(|c: Cell| (c, self.d)).collect();
        // Sudoku Explainer has no Franken fish: a basic or finned fish's rating of the
        // same size, and 0.2 more for the boxes.
        step.rating = match (self.k, self.finned) {
            (2, false) => 34,
            (2, true) => 36,
            (_, false) => 40,
            (_, true) => 42,
        };
        emit(step)
    }
}
