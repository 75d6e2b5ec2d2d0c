//! The fast engine for classic 9x9 sudoku.
//!
//! # Representation
//!
//! For every digit and every band (three rows), a 27-bit mask of the cells of the band
//! where the digit may still go (bit `9 * row + col`): a *subband*, `cand[3 * digit +
//! band]`. A band is three boxes, so a subband splits into nine *triads* (a row's three
//! cells within a box). The digit occupies exactly one triad per row and per box of the
//! band: the set of occupied triads is a 3x3 permutation matrix. Intersecting the triads
//! still possible with the union of the permutation matrices they contain (a 512-entry
//! table) removes, in one step, everything that pointing and claiming (locked
//! candidates) would remove along rows. The same holds across the three bands of a stack
//! for column triads. The state is a few hundred bytes, copied for each alternative of a
//! guess but the last, which reuses it (no undo).
//!
//! # Propagation, by cost
//!
//! Each layer runs only when every cheaper one is stalled, so easy puzzles never pay for
//! rules they do not need:
//! 1. *Subband updates* (the JCZSolve idea): a changed subband gets the row rule above;
//!    a box left with one column pushes that column out of the digit's other bands; a
//!    box left with one cell is a placement (this subsumes hidden singles in boxes and
//!    rows). One table look-up gives all three; the placement is applied without a
//!    branch, because whether there is one is unpredictable.
//! 2. *Naked singles*, counted bit-sliced over the digits, the three bands in the lanes
//!    of one SSE2 vector (SSE2 is part of the x86-64 baseline: no detection needed).
//! 3. *Strong rules*, over all digits at once on packed 3x3 matrices: the permutation
//!    rule for the column triads of each stack, then *triad capacity* (tdoku's negative
//!    triads): a triad holds exactly three digits, in rows and in columns.
//!
//! # Search: light, then strong
//!
//! Most easy puzzles, and all those with many solutions, are solved fastest the
//! JCZSolve way: cheap propagation (layers 1-2) and guesses on a two-candidate cell.
//! Hard puzzles want tdoku's way: full propagation and branching on a band's
//! *configuration* (which of the six permutation matrices a digit's triads take), in
//! the band of rows or columns with the fewest open configurations, on its digit with
//! the fewest; a configuration fixes three triads at once, which roughly halves the
//! guesses. The search starts light unless the first (light) propagation leaves many
//! cells open, and turns strong for good after a few failed light guesses, so a hard
//! puzzle wastes only a handful of cheap nodes. Light updates do not maintain what only
//! the strong rules read (the triad shapes); the first strong pass rebuilds it.
//!
//! # Machine code
//!
//! The propagation loop after a light guess is the JCZSolve sweep: all 27 subbands in a
//! fixed, unrolled order, each with its own branch (which predicts well when, as in
//! batches of similar puzzles, the same subbands keep changing); at the root and in
//! strong mode it visits only the changed subbands found by a vector compare (measured:
//! the sweep at the root costs 5-9 % on the unbiased and 17-clue sets and gains at
//! most 2 % on the serg set of similar puzzles). Where the processor has AVX2 and BMI
//! (checked once per search, at run time), the whole search runs from a copy compiled
//! for them; the portable copy runs anywhere, and the engine builds on any target.

use super::{Budget, Limits, Report, Stop};

/// Failed guesses the light mode may make before the search turns strong.
const LIGHT_FAILURES: u32 = 2;

/// Open cells after the first propagation above which the search starts strong.
const LIGHT_MAX_OPEN: u32 = 48;

/// All 27 cells of a band.
const BAND: u32 = 0x7ff_ffff;

/// The six 3x3 permutation matrices, bit `3 * row + column`.
const PERMS: [u16; 6] = [0x111, 0x0a1, 0x10a, 0x062, 0x08c, 0x054];

/// For a 9-bit row of a band: which of its three box segments are non-empty.
const SEGMENTS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = ((m & 7 != 0) as u8)
            | (((m >> 3 & 7 != 0) as u8) << 1)
            | (((m >> 6 & 7 != 0) as u8) << 2);
        m += 1;
    }
    t
};

/// For 8 bits: 8 bytes, byte `j` holding bit `j` (0 or 1).
const BYTES_OF_BITS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        let mut j = 0;
        while j < 8 {
            t[m] |= ((m >> j & 1) as u64) << (8 * j);
            j += 1;
        }
        m += 1;
    }
    t
};

/// For a 3x3 occupancy matrix: the union of the permutation matrices inside it.
const PERM_UNION: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut u = 0;
        let mut p = 0;
        while p < 6 {
            if m as u16 & PERMS[p] == PERMS[p] {
                u |= PERMS[p];
            }
            p += 1;
        }
        t[m] = u;
        m += 1;
    }
    t
};

/// For a 3x3 occupancy matrix: how many permutation matrices it contains.
const PERM_COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            if m as u16 & PERMS[p] == PERMS[p] {
                t[m] += 1;
            }
            p += 1;
        }
        m += 1;
    }
    t
};

/// For a 3x3 occupancy matrix: which permutation matrices (bit `p` for `PERMS[p]`) lie
/// inside it.
const PERM_SET: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            if m as u16 & PERMS[p] == PERMS[p] {
                t[m] |= 1 << p;
            }
            p += 1;
        }
        m += 1;
    }
    t
};

/// For a 3x3 matrix: the bits that are alone in their column.
const SOLE_IN_COLUMN: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 3 {
            let col = m & (0x49 << k);
            if col != 0 && col & (col - 1) == 0 {
                t[m] |= col as u16;
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// For a row-triad matrix of a band (bit `3 * row + box`): the cells of those triads.
const TRIAD_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut cells = 0;
        let mut b = 0;
        while b < 9 {
            if m >> b & 1 == 1 {
                cells |= 7 << (9 * (b / 3) + 3 * (b % 3));
            }
            b += 1;
        }
        t[m] = cells;
        m += 1;
    }
    t
};

/// For a row-triad matrix: the cells of the triads that lie on a permutation matrix
/// (what survives the row rule; 0 when no permutation fits).
const ROW_KEEP: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = TRIAD_CELLS[PERM_UNION[m] as usize];
        m += 1;
    }
    t
};

/// For a row-triad matrix: the cells of the surviving triads that are alone in their box.
const ROW_SOLE: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = TRIAD_CELLS[SOLE_IN_COLUMN[PERM_UNION[m] as usize] as usize];
        m += 1;
    }
    t
};

/// The row rule in one look-up, for a row-triad matrix: [`ROW_KEEP`] in bits 0-26,
/// [`ROW_SOLE`] in bits 27-53 and [`PERM_UNION`] in bits 54-62.
const ROW_RULE: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = ROW_KEEP[m] as u64 | (ROW_SOLE[m] as u64) << 27 | (PERM_UNION[m] as u64) << 54;
        m += 1;
    }
    t
};

/// For the nine columns a digit may use in a band: the band's cells in the columns that
/// are alone in their box (the digit's column in that box is known).
const COLUMN_SOLE: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut cols = 0;
        let mut k = 0;
        while k < 3 {
            let g = m & (7 << (3 * k));
            if g != 0 && g & (g - 1) == 0 {
                cols |= g as u32;
            }
            k += 1;
        }
        t[m] = cols * 0x40201;
        m += 1;
    }
    t
};

/// For a cell of a band: the band without the cell's row and box, plus the cell itself
/// (what placing a digit there leaves of the digit's subband).
const PLACE_KEEP: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let row = 0x1ff << (9 * (i / 9));
        let bx = 0x1c0e07 << (3 * (i % 9 / 3));
        t[i] = (BAND & !(row | bx)) | 1 << i;
        i += 1;
    }
    t
};

/// For the nine columns a digit may use in a band: bit `3 * stack + k` moved to
/// `9 * stack + 3 * k` (the band's bit column of the transposed stack matrices).
const SPREAD: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut j = 0;
        while j < 9 {
            if m >> j & 1 == 1 {
                t[m] |= 1 << (9 * (j / 3) + 3 * (j % 3));
            }
            j += 1;
        }
        m += 1;
    }
    t
};

/// Every triad of the six packed 3x3 matrices (see [`State::packed`]).
const ALL_TRIADS: u64 = 0x7ff_ffff | 0x7ff_ffff << 32;

/// Packed matrices: rows 0 and 1 of every 3x3 matrix.
const ROWS01: u64 = 0x0fc_7e3f * (1 | 1 << 32);
/// Packed matrices: row 0.
const ROW0: u64 = 0x01c_0e07 * (1 | 1 << 32);
/// Packed matrices: columns 0 and 1 of every 3x3 matrix.
const COLS01: u64 = 0x36d_b6db * (1 | 1 << 32);
/// Packed matrices: column 0.
const COL0: u64 = 0x124_9249 * (1 | 1 << 32);

/// For packed matrices: every position sharing a column (a box) with one of `m`,
/// excluding `m`'s own rows unless another bit puts them there.
#[inline(always)]
fn box_others(m: u64) -> u64 {
    let down1 = (m >> 3 & ROWS01) | (m << 6 & !ROWS01 & ALL_TRIADS);
    let down2 = (m >> 6 & ROW0) | (m << 3 & !ROW0 & ALL_TRIADS);
    down1 | down2
}

/// For packed matrices: every position sharing a row (a line) with one of `m`, by the
/// same rotation within rows.
#[inline(always)]
fn line_others(m: u64) -> u64 {
    let right1 = (m >> 1 & COLS01) | (m << 2 & !COLS01 & ALL_TRIADS);
    let right2 = (m >> 2 & COL0) | (m << 1 & !COL0 & ALL_TRIADS);
    right1 | right2
}

/// For each subband `3 * digit + band`: the digit's two other subbands, and the band.
const SUBBAND_PEERS: [[u8; 3]; 32] = {
    let mut t = [[0u8; 3]; 32];
    let mut i = 0;
    while i < 27 {
        let (d, b) = (i / 3, i % 3);
        t[i] = [
            (3 * d + (b + 1) % 3) as u8,
            (3 * d + (b + 2) % 3) as u8,
            b as u8,
        ];
        i += 1;
    }
    t
};

/// The inverse of [`SPREAD`]: bits `9 * stack + 3 * k` (higher bits ignored) back to
/// `3 * stack + k`.
#[inline(always)]
fn unspread(x: u32) -> u32 {
    let x = x & 0x124_9249;
    // Within a field the three bits move down by 0, 2 and 4; fields are 9 apart, so
    // nothing lands in another field's low three bits.
    let y = x | x >> 2 | x >> 4;
    (y & 7) | (y >> 6 & 0x38) | (y >> 12 & 0x1c0)
}

/// For the triads holding a digit's givens in a band (bit `3 * row + box`): the cells
/// of their rows and boxes, plus bit 31 if two of them share a row or a box.
const GIVEN_LINES: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut cells = 0u32;
        let (mut rows, mut boxes, mut clash) = (0u32, 0u32, false);
        let mut j = 0;
        while j < 9 {
            if m >> j & 1 == 1 {
                let (r, k) = (j / 3, j % 3);
                clash |= rows >> r & 1 == 1 || boxes >> k & 1 == 1;
                rows |= 1 << r;
                boxes |= 1 << k;
                cells |= 0x1ff << (9 * r) | 0x1c0e07 << (3 * k);
            }
            j += 1;
        }
        t[m] = cells | (clash as u32) << 31;
        m += 1;
    }
    t
};

/// The row-triad matrix of one digit in one band (bit `3 * row + box`).
#[inline(always)]
fn row_triads(s: u32) -> usize {
    // The final mask is free and lets the compiler drop bounds checks downstream.
    (SEGMENTS[(s & 0x1ff) as usize] as usize
        | (SEGMENTS[(s >> 9 & 0x1ff) as usize] as usize) << 3
        | (SEGMENTS[(s >> 18 & 0x1ff) as usize] as usize) << 6)
        & 0x1ff
}

/// Which of a band's nine columns hold the digit somewhere.
#[inline(always)]
fn columns(s: u32) -> u32 {
    (s | s >> 9 | s >> 18) & 0x1ff
}

/// The column-triad matrix of a stack (bit `3 * band + column`), from the column sets
/// of one digit's three subbands.
#[inline(always)]
fn stack_matrix(c0: u32, c1: u32, c2: u32, stack: usize) -> usize {
    let sh = 3 * stack;
    ((c0 >> sh & 7) | (c1 >> sh & 7) << 3 | (c2 >> sh & 7) << 6) as usize
}

/// Search state: candidate masks, what has been propagated, and unsolved cells.
#[derive(Clone, Copy)]
struct State {
    /// `cand[3 * digit + band]`, digit from 0.
    /// Padded to 32 so that masked indices need no bounds checks; 27-31 stay 0.
    cand: [u32; 32],
    /// Each subband as last updated; a difference means it needs an update.
    prev: [u32; 32],
    /// For each subband as last updated: its row triads (bits 0-8) and its columns
    /// (bits 9-17). Exact whenever `cand == prev` and not `shape_stale`: only the strong
    /// rules read it, so light updates skip writing it.
    shape: [u32; 32],
    /// Whether light updates have run since `shape` was last exact.
    shape_stale: bool,
    /// Cells not yet fixed, per band.
    /// (The fourth word stays 0: it pads the array for vector loads.)
    unsolved: [u32; 4],
    /// Per digit, the packed triad matrices as of the last strong pass.
    packed: [u64; 9],
    /// Cells with exactly two candidates, per band, as of the last naked-singles scan.
    pairs: [u32; 4],
    /// Whether the last propagation ran the strong rules to a fixed point (then
    /// `packed` is exact).
    strong: bool,
}

impl State {
    /// No givens: every digit possible everywhere.
    #[inline(always)]
    fn new() -> State {
        State {
            cand: {
                let mut c = [BAND; 32];
                c[27] = 0;
                c[28] = 0;
                c[29] = 0;
                c[30] = 0;
                c[31] = 0;
                c
            },
            prev: [0; 32],
            shape: [0; 32],
            shape_stale: true,
            unsolved: [BAND, BAND, BAND, 0],
            packed: [0; 9],
            pairs: [0; 4],
            strong: false,
        }
    }

    /// Updates subband `i` (which changed): shrinks its row triads, pushes columns known
    /// in a box out of the digit's other bands, and places the digit in boxes left with
    /// one cell. False on contradiction.
    #[inline(always)]
    fn update<const SHAPE: bool>(&mut self, i: usize) -> bool {
        let i = i & 31;
        let [n1, n2, b] = SUBBAND_PEERS[i];
        let s = self.cand[i];
        let row = ROW_RULE[row_triads(s)];
        let s = s & row as u32 & BAND;
        if s == 0 {
            return false;
        }
        let c = columns(s);
        let known = COLUMN_SOLE[c as usize];
        self.cand[n1 as usize & 31] &= !known;
        self.cand[n2 as usize & 31] &= !known;
        // A box whose only triad has one column has one cell: the digit goes there.
        let b = b as usize & 3;
        // Unconditional: whether there is a placement is too unpredictable to branch on.
        let placed = s & (row >> 27) as u32 & known & self.unsolved[b];
        self.unsolved[b] &= !placed;
        for e in 0..9 {
            self.cand[(3 * e + b) & 31] &= !placed;
        }
        self.cand[i] = s;
        self.prev[i] = s;
        if SHAPE {
            self.shape[i] = (row >> 54) as u32 | c << 9;
        }
        true
    }

    /// The subbands changed since their last update (bit per subband): seven 4-lane
    /// compares. SSE2 is part of the x86-64 baseline, so this needs no detection.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn pending(&self) -> u32 {
        use std::arch::x86_64::{
            __m128i, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_ps,
        };
        let mut same = 0;
        for k in 0..7 {
            // SAFETY: SSE2 is always enabled on x86_64; both arrays hold 32 words, so
            // the unaligned 4-word loads at `4 * k` (k < 7) stay inside them.
            let lanes = unsafe {
                let a = _mm_loadu_si128(self.cand.as_ptr().add(4 * k) as *const __m128i);
                let b = _mm_loadu_si128(self.prev.as_ptr().add(4 * k) as *const __m128i);
                _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(a, b)))
            };
            same |= (lanes as u32) << (4 * k);
        }
        !same & 0x7ff_ffff
    }

    /// The subbands changed since their last update (bit per subband).
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    fn pending(&self) -> u32 {
        let mut m = 0;
        for i in 0..27 {
            m |= ((self.cand[i] != self.prev[i]) as u32) << i;
        }
        m
    }

    /// Runs subband updates until none is pending. False on contradiction.
    ///
    /// With `SWEEP`, the JCZSolve sweep: all 27 subbands in a fixed, unrolled order, each
    /// compared with its last update by a branch of its own; a change is seen by later
    /// subbands of the same sweep, and where consecutive puzzles keep changing the same
    /// subbands (batches of similar puzzles) those branches predict well. Without, only
    /// the changed subbands are visited, found by one vector compare per round: fewer
    /// instructions and no per-subband branches, which suits unrelated puzzles and the
    /// long strong-mode searches.
    #[inline(always)]
    fn update_all<const SWEEP: bool, const SHAPE: bool>(&mut self) -> bool {
        if SWEEP {
            macro_rules! sweep {
                ($any:ident: $($i:literal)*) => {
                    $(
                        if self.cand[$i] != self.prev[$i] {
                            $any = true;
                            if !self.update::<SHAPE>($i) {
                                return false;
                            }
                        }
                    )*
                };
            }
            loop {
                let mut any = false;
                sweep!(any: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26);
                if !any {
                    return true;
                }
            }
        }
        loop {
            let mut m = self.pending();
            if m == 0 {
                return true;
            }
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                if !self.update::<SHAPE>(i) {
                    return false;
                }
            }
        }
    }

    /// Places every naked single (a cell with one candidate left), and notes the cells
    /// with two. `None` on contradiction (a cell with none), else whether any was placed.
    #[inline(always)]
    fn naked_singles<const PAIRS: bool>(&mut self) -> Option<bool> {
        let (one, two, three) = self.candidate_counts::<PAIRS>();
        let mut found = false;
        for b in 0..3 {
            let u = self.unsolved[b];
            if u & !one[b] != 0 {
                return None;
            }
            if PAIRS {
                self.pairs[b] = two[b] & !three[b] & u;
            }
            let mut singles = u & !two[b];
            found |= singles != 0;
            while singles != 0 {
                let i = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                let bit = 1u32 << i;
                // An earlier single of this pass may have taken the cell's only digit.
                let mut d = 0;
                while self.cand[3 * d + b] & bit == 0 {
                    d += 1;
                    if d == 9 {
                        return None;
                    }
                }
                // Row and box go now; the subband update then sees a one-cell box and
                // finishes the placement (column, other digits).
                self.cand[3 * d + b] &= PLACE_KEEP[i];
            }
        }
        Some(found)
    }

    /// Per band: the cells with at least one, two and (if `THREE`) three candidates,
    /// counted bit-sliced over the digits, the three bands in the lanes of one vector.
    /// SSE2 is part of the x86-64 baseline, so this needs no detection.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn candidate_counts<const THREE: bool>(&self) -> ([u32; 4], [u32; 4], [u32; 4]) {
        use std::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_loadu_si128, _mm_or_si128, _mm_setzero_si128,
            _mm_storeu_si128,
        };
        let (mut one, mut two, mut three) = ([0u32; 4], [0u32; 4], [0u32; 4]);
        // SAFETY: SSE2 is always enabled on x86_64. The 4-word loads at `3 * d`
        // (d < 9) read words 0-27 of the 32-word array; the stores fill 4-word arrays.
        unsafe {
            let (mut o, mut t, mut h) = (
                _mm_setzero_si128(),
                _mm_setzero_si128(),
                _mm_setzero_si128(),
            );
            for d in 0..9 {
                let x = _mm_loadu_si128(self.cand.as_ptr().add(3 * d) as *const __m128i);
                if THREE {
                    h = _mm_or_si128(h, _mm_and_si128(t, x));
                }
                t = _mm_or_si128(t, _mm_and_si128(o, x));
                o = _mm_or_si128(o, x);
            }
            _mm_storeu_si128(one.as_mut_ptr() as *mut __m128i, o);
            _mm_storeu_si128(two.as_mut_ptr() as *mut __m128i, t);
            _mm_storeu_si128(three.as_mut_ptr() as *mut __m128i, h);
        }
        (one, two, three)
    }

    /// Per band: the cells with at least one, two and (if `THREE`) three candidates,
    /// counted bit-sliced over the digits.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    fn candidate_counts<const THREE: bool>(&self) -> ([u32; 4], [u32; 4], [u32; 4]) {
        let (mut one, mut two, mut three) = ([0u32; 4], [0u32; 4], [0u32; 4]);
        for d in 0..9 {
            for b in 0..3 {
                let x = self.cand[3 * d + b];
                if THREE {
                    three[b] |= two[b] & x;
                }
                two[b] |= one[b] & x;
                one[b] |= x;
            }
        }
        (one, two, three)
    }

    /// A digit's triads in all six bands, packed: the row-triad matrix of band `b` in
    /// bits `9 * b..`, and the column-triad matrix of stack `s` in bits `32 + 9 * s..`
    /// transposed (bit `3 * column + band`), so that in both halves a box is a column
    /// of the 3x3 matrix and a line (row or column of the grid) is a row of it.
    #[inline(always)]
    fn packed(&self, d: usize) -> u64 {
        let (s0, s1, s2) = (
            self.shape[3 * d],
            self.shape[3 * d + 1],
            self.shape[3 * d + 2],
        );
        let rows = (s0 & 0x1ff) | (s1 & 0x1ff) << 9 | (s2 & 0x1ff) << 18;
        let stacks = SPREAD[(s0 >> 9 & 0x1ff) as usize]
            | SPREAD[(s1 >> 9 & 0x1ff) as usize] << 1
            | SPREAD[(s2 >> 9 & 0x1ff) as usize] << 2;
        rows as u64 | (stacks as u64) << 32
    }

    /// The rules that need all nine digits, on the packed matrices: the permutation rule
    /// for the column triads of each stack, then triad capacity (tdoku's negative
    /// triads) in all six bands at once: a triad holds exactly three digits. More than
    /// three digits confined to it is a contradiction; three confined to it fill it;
    /// three possible in it are confined to it. Leaves the packed matrices in
    /// `self.packed` (exact if nothing changed). `None` on contradiction, else whether
    /// anything changed.
    #[inline(always)]
    fn strong_rules(&mut self) -> Option<bool> {
        let (mut f1, mut f2, mut f3, mut f4) = (0u64, 0u64, 0u64, 0u64);
        let (mut p1, mut p2, mut p3, mut p4) = (0u64, 0u64, 0u64, 0u64);
        let mut changed = false;
        for d in 0..9 {
            let mut t = self.packed(d);
            let hi = t >> 32;
            let kept = PERM_UNION[(hi & 0x1ff) as usize] as u64
                | (PERM_UNION[(hi >> 9 & 0x1ff) as usize] as u64) << 9
                | (PERM_UNION[(hi >> 18 & 0x1ff) as usize] as u64) << 18;
            if kept != hi {
                // Column triads off every permutation of their stack: drop their columns.
                changed = true;
                for b in 0..3 {
                    self.cand[3 * d + b] &= unspread((kept >> b) as u32) * 0x40201;
                }
                t = (t & 0xffff_ffff) | kept << 32;
            }
            self.packed[d] = t;
            // A triad alone in its box is where the digit must be in that box.
            let f = t & !box_others(t);
            f4 |= f3 & f;
            f3 |= f2 & f;
            f2 |= f1 & f;
            f1 |= f;
            p4 |= p3 & t;
            p3 |= p2 & t;
            p2 |= p1 & t;
            p1 |= t;
        }
        if f4 != 0 || p3 != ALL_TRIADS {
            return None;
        }
        if changed {
            // Let the cheap rules digest the stack rule first.
            return Some(true);
        }
        let full = f3;
        let only = p3 & !p4;
        // A triad both full and only holds its three digits already: nothing to do.
        if full ^ only == 0 {
            return Some(false);
        }
        for d in 0..9 {
            let t = self.packed[d];
            let forced = t & !box_others(t);
            let must = only & t;
            // A triad the digit must take excludes it from the rest of the line and box.
            let drop = ((full & !forced) | ((line_others(must) | box_others(must)) & !must)) & t;
            if drop == 0 {
                continue;
            }
            changed = true;
            let cols_dropped = drop >> 32;
            for b in 0..3 {
                let rows = (drop >> (9 * b) & 0x1ff) as usize;
                let cols = unspread((cols_dropped >> b) as u32);
                self.cand[3 * d + b] &= !(TRIAD_CELLS[rows] | (cols * 0x40201));
            }
        }
        Some(changed)
    }

    /// Propagates to a fixed point, each rule only when the cheaper ones are stalled;
    /// the strong rules only if `STRONG`; two-candidate cells noted if `PAIRS`; subband
    /// updates by the sweep if `SWEEP` (see [`State::update_all`]). False on
    /// contradiction.
    #[inline(always)]
    fn propagate<const STRONG: bool, const PAIRS: bool, const SWEEP: bool>(&mut self) -> bool {
        self.strong = false;
        if !STRONG {
            self.shape_stale = true;
        }
        loop {
            let settled = if !SWEEP {
                self.update_all::<false, STRONG>()
            } else {
                self.update_all::<true, STRONG>()
            };
            if !settled {
                return false;
            }
            match self.naked_singles::<PAIRS>() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            if !STRONG || self.is_solved() {
                return true;
            }
            if self.shape_stale {
                self.refresh_shape();
            }
            match self.strong_rules() {
                None => return false,
                Some(true) => continue,
                Some(false) => {
                    self.strong = true;
                    return true;
                }
            }
        }
    }

    /// Makes `shape` exact again after light updates, on a settled state (`cand ==
    /// prev`): an updated subband's row triads are those of its permutation union.
    #[inline(always)]
    fn refresh_shape(&mut self) {
        for i in 0..27 {
            let s = self.cand[i];
            self.shape[i] = row_triads(s) as u32 | columns(s) << 9;
        }
        self.shape_stale = false;
    }

    /// A cell with two candidates (the first found), as band and bit.
    #[inline(always)]
    fn bivalue_cell(&self) -> Option<(usize, usize)> {
        (0..3)
            .find(|&b| self.pairs[b] != 0)
            .map(|b| (b, self.pairs[b].trailing_zeros() as usize))
    }

    /// Whether every cell is fixed.
    #[inline(always)]
    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// Writes the solution of a solved state as 81 digits 1-9. Bit-sliced: plane `k`
    /// of a band holds its cells whose digit has bit `k` set, so eight cells take four
    /// table loads instead of a loop over set bits (counting to two writes two
    /// solutions per puzzle, a few percent of an easy puzzle's time).
    #[inline(always)]
    fn write_solution(&self, out: &mut [u8; 81]) {
        for b in 0..3 {
            let mut planes = [0u32; 4];
            for d in 0..9 {
                for (k, plane) in planes.iter_mut().enumerate() {
                    if (d + 1) >> k & 1 == 1 {
                        *plane |= self.cand[3 * d + b];
                    }
                }
            }
            for chunk in 0..4 {
                let bytes = planes.iter().enumerate().fold(0u64, |acc, (k, &p)| {
                    acc | BYTES_OF_BITS[(p >> (8 * chunk) & 0xff) as usize] << k
                });
                let at = 27 * b + 8 * chunk;
                let n = (27 - 8 * chunk).min(8);
                out[at..at + n].copy_from_slice(&bytes.to_le_bytes()[..n]);
            }
        }
    }

    /// tdoku's heuristic in triad terms: among the six bands (three of rows, three of
    /// columns) not yet fixed, the one whose digits have the fewest configurations in
    /// total; in it, the digit with the fewest (at least two). `None` if all are fixed.
    /// Needs `self.packed` exact, as `propagate` leaves it on an unsolved state.
    #[inline(always)]
    fn choose_configuration(&self) -> Option<(usize, usize)> {
        // Totals per band in bytes 0-5 (at most 54 each, so no carries).
        let mut totals = 0u64;
        for &t in &self.packed {
            for k in 0..3 {
                totals += (PERM_COUNT[(t >> (9 * k) & 0x1ff) as usize] as u64) << (8 * k);
                totals += (PERM_COUNT[(t >> (32 + 9 * k) & 0x1ff) as usize] as u64) << (8 * k + 24);
            }
        }
        let mut best = (u64::MAX, 0);
        for band in 0..6 {
            let total = totals >> (8 * band) & 0xff;
            if total > 9 && total < best.0 {
                best = (total, band);
            }
        }
        if best.0 == u64::MAX {
            return None;
        }
        let band = best.1;
        let shift = if band < 3 {
            9 * band
        } else {
            32 + 9 * (band - 3)
        };
        let mut digit = (u8::MAX, 0);
        for (d, &t) in self.packed.iter().enumerate() {
            let c = PERM_COUNT[(t >> shift & 0x1ff) as usize];
            if c >= 2 && c < digit.0 {
                digit = (c, d);
            }
        }
        Some((band, digit.1))
    }

    /// The configurations still open to `digit` in `band` (bit `p` for `PERMS[p]`).
    #[inline(always)]
    fn configurations(&self, band: usize, digit: usize) -> u8 {
        let s = &self.shape[3 * digit..3 * digit + 3];
        let t = if band < 3 {
            (s[band] & 0x1ff) as usize
        } else {
            stack_matrix(s[0] >> 9, s[1] >> 9, s[2] >> 9, band - 3)
        };
        PERM_SET[t]
    }

    /// Restricts `digit` to one configuration (a permutation matrix) of a row band
    /// (`band < 3`) or a stack (`band >= 3`).
    #[inline(always)]
    fn restrict_configuration(&mut self, band: usize, digit: usize, perm: u16) {
        let perm = perm as usize;
        if band < 3 {
            self.cand[3 * digit + band] &= TRIAD_CELLS[perm];
        } else {
            let sh = 3 * (band - 3);
            let stack_cols = 0x40201 * (7 << sh);
            for b in 0..3 {
                let allowed = ((perm >> (3 * b) & 7) as u32) << sh;
                self.cand[3 * digit + b] &= !stack_cols | (allowed * 0x40201);
            }
        }
    }
}

/// Depth-first search state shared along one search.
struct Search<'a> {
    /// Stop after this many solutions.
    limit: u64,
    /// Solutions found so far.
    solutions: u64,
    /// Node and time budget.
    budget: Budget,
    /// Why the search stopped early, once it has.
    done: Option<Stop>,
    /// Receives each solution; false stops the search.
    on_solution: &'a mut dyn FnMut(&[u8]) -> bool,
    /// Where solutions are written out.
    buffer: [u8; 81],
    /// Whether the search has switched to the strong mode (strong rules at every node,
    /// configuration branching) from the light one (cheap rules, two-candidate cells).
    strong: bool,
    /// Guesses that failed in the light mode so far.
    failures: u32,
    /// Whether to run the AVX2 build of the search (detected at run time).
    #[cfg(target_arch = "x86_64")]
    avx2: bool,
}

impl Search<'_> {
    /// Counts one node; false (with the reason noted) when the budget is spent.
    #[inline(always)]
    fn node(&mut self) -> bool {
        if self.budget.node() {
            return true;
        }
        self.done = Some(self.budget.stopped().unwrap_or(Stop::NodeLimit));
        false
    }

    /// Propagates a state just restricted by a guess, in the current mode; counts
    /// failures in the light mode and switches to the strong one after too many.
    #[inline(always)]
    fn settle(&mut self, state: &mut State) -> bool {
        let ok = if self.strong {
            state.propagate::<true, false, false>()
        } else {
            state.propagate::<false, true, true>()
        };
        if ok {
            return true;
        }
        if !self.strong {
            self.failures += 1;
            // Solutions found in the light mode show it working: when enumerating many,
            // a few failures per solution are no reason to change.
            self.strong = u64::from(self.failures) > u64::from(LIGHT_FAILURES) + self.solutions;
        }
        false
    }

    /// Explores a propagated, consistent state, which it may consume, in the
    /// instruction set chosen for this search. Every level fixes a cell (at most 81)
    /// or a digit's configuration in a band (at most 54), so the depth stays small.
    fn explore(&mut self, state: &mut State) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only after `is_x86_feature_detected!` confirmed
            // every feature `explore_avx2` enables.
            return unsafe { self.explore_avx2(state) };
        }
        self.explore_plain(state)
    }

    /// [`Search::explore_body`] for any x86-64 (or other) processor.
    #[inline(never)]
    fn explore_plain(&mut self, state: &mut State) {
        self.explore_body(state)
    }

    /// [`Search::explore_body`] compiled for processors with AVX2 and BMI: the same
    /// source, with shorter encodings, three-operand forms and `popcnt`/`tzcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn explore_avx2(&mut self, state: &mut State) {
        self.explore_body(state)
    }

    /// Explores a propagated, consistent state, which it may consume.
    #[inline(always)]
    fn explore_body(&mut self, state: &mut State) {
        if state.is_solved() {
            self.solutions += 1;
            state.write_solution(&mut self.buffer);
            if !(self.on_solution)(&self.buffer) || self.solutions >= self.limit {
                self.done = Some(Stop::SolutionLimit);
            }
            return;
        }
        if !self.strong {
            if let Some((b, i)) = state.bivalue_cell() {
                return self.branch_on_cell(state, b, i);
            }
        }
        // Configuration branching needs the strong rules' fixed point.
        if !state.strong && !state.propagate::<true, false, false>() {
            return;
        }
        if state.is_solved() {
            return self.explore(state);
        }
        let Some((band, digit)) = state.choose_configuration() else {
            // At the strong fixed point every digit has one configuration per band only
            // once every box has placed it, so an unsolved state always has a choice.
            if cfg!(debug_assertions) {
                unreachable!("an unsolved state at the strong fixed point has a band to fix");
            }
            return;
        };
        let mut open = state.configurations(band, digit);
        while open != 0 {
            let perm = PERMS[open.trailing_zeros() as usize];
            open &= open - 1;
            if !self.node() {
                return;
            }
            if open == 0 {
                state.restrict_configuration(band, digit, perm);
                if self.settle(state) {
                    self.explore(state);
                }
                return;
            }
            let mut next = *state;
            next.restrict_configuration(band, digit, perm);
            if self.settle(&mut next) {
                self.explore(&mut next);
                if self.done.is_some() {
                    return;
                }
            }
        }
    }

    /// Tries both digits of the two-candidate cell at bit `i` of band `b`.
    #[inline(always)]
    fn branch_on_cell(&mut self, state: &mut State, b: usize, i: usize) {
        let bit = 1u32 << i;
        // Branch-free: where a search loop would stop is unpredictable.
        let digits = (0..9).fold(0u32, |m, d| m | (state.cand[3 * d + b] >> i & 1) << d);
        let first = digits.trailing_zeros() as usize % 9;
        if !self.node() {
            return;
        }
        let mut next = *state;
        next.cand[3 * first + b] &= PLACE_KEEP[i];
        if self.settle(&mut next) {
            self.explore(&mut next);
            if self.done.is_some() {
                return;
            }
        }
        if !self.node() {
            return;
        }
        // The other digit: taking the first one out of the cell leaves it alone there.
        state.cand[3 * first + b] &= !bit;
        if self.settle(state) {
            self.explore(state);
        }
    }
}

/// Per value 0-9 (0 = empty), the cells holding it as an 81-bit board (cells 0-63 in
/// the first word, 64-80 in the second); `None` if a cell holds a value above 9. SSE2
/// compares 16 cells per value at once; it is part of the x86-64 baseline.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn value_boards(cells: &[u8; 81]) -> Option<[[u64; 2]; 10]> {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        _mm_setzero_si128, _mm_subs_epu8,
    };
    let mut boards = [[0u64; 2]; 10];
    // SAFETY: SSE2 is always enabled on x86_64; the 16-byte loads at 0, 16, 32, 48
    // and 64 read bytes 0-79 of the 81-byte array.
    unsafe {
        let mut over = _mm_setzero_si128();
        for k in 0..5 {
            let x = _mm_loadu_si128(cells.as_ptr().add(16 * k) as *const __m128i);
            over = _mm_or_si128(over, _mm_subs_epu8(x, _mm_set1_epi8(9)));
            for (v, board) in boards.iter_mut().enumerate() {
                let m = _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(v as i8))) as u16 as u64;
                board[k / 4] |= m << (16 * (k % 4));
            }
        }
        if _mm_movemask_epi8(_mm_cmpeq_epi8(over, _mm_setzero_si128())) != 0xffff {
            return None;
        }
    }
    boards.get_mut(cells[80] as usize)?[1] |= 1 << 16;
    Some(boards)
}

/// Per value 0-9 (0 = empty), the cells holding it as an 81-bit board (cells 0-63 in
/// the first word, 64-80 in the second); `None` if a cell holds a value above 9.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn value_boards(cells: &[u8; 81]) -> Option<[[u64; 2]; 10]> {
    let mut boards = [[0u64; 2]; 10];
    for (cell, &v) in cells.iter().enumerate() {
        boards.get_mut(v as usize)?[cell / 64] |= 1 << (cell % 64);
    }
    Some(boards)
}

/// The three bands of an 81-bit board.
#[inline(always)]
fn board_bands(board: [u64; 2]) -> [u32; 3] {
    [
        (board[0] & BAND as u64) as u32,
        (board[0] >> 27 & BAND as u64) as u32,
        ((board[0] >> 54 | board[1] << 10) & BAND as u64) as u32,
    ]
}

/// The initial state of a puzzle (81 digits, 0 = empty), or `None` when givens conflict
/// or a cell holds a value above 9. Built digit by digit from bitboards: no branch
/// depends on which cells are given.
#[inline(always)]
fn initial_state(cells: &[u8; 81]) -> Option<State> {
    let boards = value_boards(cells)?;
    let mut state = State::new();
    let open = board_bands(boards[0]);
    state.unsolved = [open[0], open[1], open[2], 0];
    let mut clash = 0;
    for d in 0..9 {
        let given = board_bands(boards[d + 1]);
        let c = [columns(given[0]), columns(given[1]), columns(given[2])];
        // Two givens of the digit in one column, or in one triad, or their triads
        // sharing a row or a box (flagged by the table).
        clash |= (c[0] & c[1]) | (c[0] & c[2]) | (c[1] & c[2]);
        let cols = (c[0] | c[1] | c[2]) * 0x40201;
        for b in 0..3 {
            let g = given[b];
            clash |= (g & g >> 1 & 0x36d_b6db) | (g & g >> 2 & 0x124_9249);
            let lines = GIVEN_LINES[row_triads(g)];
            clash |= lines >> 31;
            state.cand[3 * d + b] = (open[b] & !(lines | cols)) | g;
        }
    }
    if clash != 0 {
        return None;
    }
    Some(state)
}

/// Searches a classic puzzle given as 81 digits (0 = empty); see [`super::search`].
pub fn search(cells: &[u8], limits: &Limits, on_solution: &mut dyn FnMut(&[u8]) -> bool) -> Report {
    search_with(cells, &[], limits, on_solution, false, true)
}

/// [`search`] with some candidates of empty cells ruled out first: `(cell, digit)`.
pub fn search_excluding(
    cells: &[u8],
    excluded: &[(usize, u8)],
    limits: &Limits,
    on_solution: &mut dyn FnMut(&[u8]) -> bool,
) -> Report {
    search_with(cells, excluded, limits, on_solution, false, true)
}

/// [`search`], optionally strong from the start, optionally never in the AVX2 build
/// (for tests of each path).
fn search_with(
    cells: &[u8],
    excluded: &[(usize, u8)],
    limits: &Limits,
    on_solution: &mut dyn FnMut(&[u8]) -> bool,
    strong: bool,
    allow_avx2: bool,
) -> Report {
    let cells: &[u8; 81] = cells.try_into().expect("classic engine needs 81 cells");
    let mut search = Search {
        limit: limits.solutions,
        solutions: 0,
        budget: Budget::new(limits),
        done: None,
        on_solution,
        buffer: [0; 81],
        strong,
        failures: 0,
        #[cfg(target_arch = "x86_64")]
        avx2: false,
    };
    if limits.solutions == 0 {
        return search.report_stopped(Stop::SolutionLimit);
    }
    #[cfg(target_arch = "x86_64")]
    if allow_avx2 && has_avx2() {
        search.avx2 = true;
        // SAFETY: `has_avx2` confirmed every feature `run_avx2` enables.
        unsafe { search.run_avx2(cells, excluded) };
        return search.report();
    }
    let _ = allow_avx2;
    search.run(cells, excluded);
    search.report()
}

/// Whether the processor has what the AVX2 build of the search uses (the answer is
/// cached by the standard library).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
}

impl Search<'_> {
    /// Sets up and propagates the puzzle, then explores it (strong from the start if
    /// `self.strong` already is).
    #[inline(always)]
    fn run(&mut self, cells: &[u8; 81], excluded: &[(usize, u8)]) {
        if let Some(mut state) = initial_state(cells) {
            for &(cell, digit) in excluded {
                if cells[cell] == 0 && (1..=9).contains(&digit) {
                    state.cand[3 * (digit as usize - 1) + cell / 27] &= !(1 << (cell % 27));
                }
            }
            // The root visits changed subbands only: unlike a guess's, its updates are
            // different for every puzzle, so the sweep's branches would not predict.
            if state.propagate::<false, true, false>() {
                let open: u32 = state.unsolved.iter().map(|u| u.count_ones()).sum();
                // A search for one or two solutions is a check of a puzzle: many open
                // cells mean a hard one. Larger limits enumerate, where light wins.
                self.strong |= open > LIGHT_MAX_OPEN && self.limit <= 2;
                self.explore(&mut state);
            }
        }
    }

    /// [`Search::run`] compiled for processors with AVX2 and BMI.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn run_avx2(&mut self, cells: &[u8; 81], excluded: &[(usize, u8)]) {
        self.run(cells, excluded)
    }

    /// The outcome of the search.
    fn report(&self) -> Report {
        self.report_stopped(self.done.unwrap_or(Stop::Exhausted))
    }

    /// The outcome of the search, ended for `stop`.
    fn report_stopped(&self, stop: Stop) -> Report {
        Report {
            solutions: self.solutions,
            guesses: self.budget.nodes(),
            stop,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator for test inputs (xorshift).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// A solved grid: the classic pattern, rows permuted within bands.
    const GRID: &str =
        "123456789456789123789123456214365897365897214897214365531642978642978531978531642";

    fn digits(text: &str) -> Vec<u8> {
        text.bytes()
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
            .collect()
    }

    /// `GRID` with random cells cleared (about `keep` of 81 kept).
    fn puzzle(rng: &mut Rng, keep: u64) -> Vec<u8> {
        digits(GRID)
            .into_iter()
            .map(|v| if rng.next() % 81 < keep { v } else { 0 })
            .collect()
    }

    fn count(cells: &[u8], limit: u64, strong: bool, avx2: bool) -> (u64, Vec<Vec<u8>>) {
        let mut found = Vec::new();
        let r = search_with(
            cells,
            &[],
            &Limits::solutions(limit),
            &mut |s| {
                found.push(s.to_vec());
                true
            },
            strong,
            avx2,
        );
        (r.solutions, found)
    }

    #[test]
    fn tables_are_consistent() {
        // Every permutation matrix is its own union; the full matrix holds all six.
        for p in PERMS {
            assert_eq!(PERM_UNION[p as usize], p);
            assert_eq!(p.count_ones(), 3);
        }
        assert_eq!(PERM_UNION[0x1ff], 0x1ff);
        // A matrix holding one permutation and a stray bit keeps only the permutation.
        assert_eq!(PERM_UNION[0x111 | 0x002], 0x111);
        assert_eq!(PERM_UNION[0x0ff], 0x0ff); // every permutation avoiding (2,2)
        assert_eq!(TRIAD_CELLS[0x1ff], BAND);
        assert_eq!(ROW_KEEP[0x1ff], BAND);
        assert_eq!(ROW_KEEP[0x0f0], 0); // row 0 empty: no permutation
        for m in 0..512 {
            assert_eq!(PERM_SET[m].count_ones(), PERM_COUNT[m] as u32);
            let union = (0..6)
                .filter(|p| PERM_SET[m] >> p & 1 == 1)
                .fold(0, |u, p| u | PERMS[p]);
            assert_eq!(union, PERM_UNION[m]);
            let rule = ROW_RULE[m];
            assert_eq!(rule as u32 & BAND, ROW_KEEP[m]);
            assert_eq!((rule >> 27) as u32 & BAND, ROW_SOLE[m]);
            assert_eq!((rule >> 54) as u16, PERM_UNION[m]);
        }
    }

    #[test]
    fn permutation_matrices_are_distinct_permutations() {
        for (i, &p) in PERMS.iter().enumerate() {
            for r in 0..3 {
                assert_eq!(((p >> (3 * r)) & 7).count_ones(), 1);
            }
            for c in 0..3 {
                assert_eq!((0..3).filter(|r| p >> (3 * r + c) & 1 == 1).count(), 1);
            }
            assert!(!PERMS[..i].contains(&p));
        }
    }

    #[test]
    fn sole_tables_find_fixed_boxes() {
        // Triads (0,0), (1,1), (2,2): each alone in its box.
        assert_eq!(ROW_SOLE[0x111], TRIAD_CELLS[0x111]);
        // A stray triad off every permutation is dropped before looking.
        assert_eq!(ROW_SOLE[0x111 | 0x008], TRIAD_CELLS[0x111]);
        // Two permutations sharing triad (0,0): only box 0 is fixed.
        assert_eq!(ROW_SOLE[0x111 | 0x0a1], TRIAD_CELLS[0x001]);
        // Columns 0 (alone in box 0), 3 and 4 (box 1), 8 (alone in box 2).
        assert_eq!(COLUMN_SOLE[0b100_011_001], (0b100_000_001) * 0x40201);
        // Placing at cell 10 (row 1, column 1) keeps rows 0 and 2 outside box 0.
        assert_eq!(PLACE_KEEP[10], (BAND & !0x1c0e07 & !(0x1ff << 9)) | 1 << 10);
        assert_eq!(PLACE_KEEP[10] & 0x1ff, 0x1f8);
    }

    #[test]
    fn subband_peers_are_the_digits_other_bands() {
        for (i, &[n1, n2, b]) in SUBBAND_PEERS.iter().enumerate().take(27) {
            assert_eq!(b as usize, i % 3);
            let mut all = [i, n1 as usize, n2 as usize];
            all.sort();
            assert_eq!(all, [3 * (i / 3), 3 * (i / 3) + 1, 3 * (i / 3) + 2]);
        }
    }

    #[test]
    fn spread_and_unspread_are_inverse() {
        for m in 0..512u32 {
            assert_eq!(unspread(SPREAD[m as usize]), m);
            // Other bands' bits (shifted by 1 or 2) are ignored.
            assert_eq!(
                unspread(SPREAD[m as usize] | SPREAD[511] << 1 | SPREAD[511] << 2),
                m
            );
            assert_eq!(SPREAD[m as usize].count_ones(), m.count_ones());
        }
        // Column 4 (stack 1, k = 1) lands in field 1, row 1.
        assert_eq!(SPREAD[1 << 4], 1 << (9 + 3));
    }

    #[test]
    fn packed_rotations_find_lines_and_boxes() {
        // For each single position of each of the six packed matrices, the positions
        // sharing its column (box) and row (line), by brute force.
        for field in 0..6 {
            let base = if field < 3 {
                9 * field
            } else {
                32 + 9 * (field - 3)
            };
            for j in 0..9 {
                let (r, c) = (j / 3, j % 3);
                let m = 1u64 << (base + j);
                let same_col = (0..3)
                    .filter(|&r2| r2 != r)
                    .fold(0, |a, r2| a | 1u64 << (base + 3 * r2 + c));
                let same_row = (0..3)
                    .filter(|&c2| c2 != c)
                    .fold(0, |a, c2| a | 1u64 << (base + 3 * r + c2));
                assert_eq!(box_others(m), same_col, "field {field} position {j}");
                assert_eq!(line_others(m), same_row, "field {field} position {j}");
            }
        }
        assert_eq!(box_others(ALL_TRIADS), ALL_TRIADS);
        assert_eq!(line_others(ALL_TRIADS), ALL_TRIADS);
    }

    #[test]
    fn given_lines_flag_clashes() {
        // Triads (0,0) and (1,1): no clash; rows 0-1 and boxes 0-1 covered.
        let lines = GIVEN_LINES[0b000_010_001];
        assert_eq!(lines >> 31, 0);
        assert_eq!(lines, 0x3ffff | 0x1c0e07 | (0x1c0e07 << 3));
        // Same row (0,0) and (0,2); same box (0,1) and (2,1).
        assert_eq!(GIVEN_LINES[0b000_000_101] >> 31, 1);
        assert_eq!(GIVEN_LINES[0b010_000_010] >> 31, 1);
        assert_eq!(GIVEN_LINES[0], 0);
    }

    #[test]
    fn conflicting_givens_have_no_solution() {
        let clashes: [&[(usize, u8)]; 6] = [
            &[(0, 5), (8, 5)],   // one row, two boxes
            &[(0, 5), (20, 5)],  // one box, two rows
            &[(0, 5), (1, 5)],   // one triad
            &[(4, 5), (76, 5)],  // one column, two bands
            &[(4, 5), (22, 5)],  // one column, one band (one box)
            &[(40, 7), (44, 7)], // middle band
        ];
        for clash in clashes {
            let mut cells = [0u8; 81];
            for &(c, v) in clash {
                cells[c] = v;
            }
            for (strong, avx2) in [(false, false), (true, true)] {
                assert_eq!(count(&cells, 2, strong, avx2).0, 0, "{clash:?}");
            }
        }
        // The same digits where they do not clash: many solutions.
        let mut cells = [0u8; 81];
        cells[0] = 5;
        cells[40] = 5;
        assert_eq!(count(&cells, 2, false, true).0, 2);
    }

    #[test]
    fn values_above_nine_have_no_solution() {
        for cell in [0, 5, 63, 79, 80] {
            let mut cells = [0u8; 81];
            cells[cell] = 10;
            let r = search(&cells, &Limits::solutions(2), &mut |_| true);
            assert_eq!(r.solutions, 0);
            cells[cell] = 255;
            assert_eq!(
                search(&cells, &Limits::solutions(2), &mut |_| true).solutions,
                0
            );
        }
    }

    #[test]
    fn value_boards_match_the_cells() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..200 {
            let cells: [u8; 81] = std::array::from_fn(|_| (rng.next() % 10) as u8);
            let boards = value_boards(&cells).expect("values up to 9");
            for (cell, &v) in cells.iter().enumerate() {
                for (u, board) in boards.iter().enumerate() {
                    assert_eq!(board[cell / 64] >> (cell % 64) & 1 == 1, v as usize == u);
                }
            }
            let bands = board_bands(boards[cells[40] as usize]);
            assert_eq!(bands[1] >> 13 & 1, 1);
        }
    }

    /// A propagated state of a random puzzle, with some candidates knocked out too.
    fn random_state(rng: &mut Rng) -> State {
        let cells: [u8; 81] = puzzle(rng, 20).try_into().unwrap();
        let mut state = initial_state(&cells).unwrap();
        for i in 0..27 {
            state.cand[i] &= !(1 << (rng.next() % 27));
        }
        state
    }

    #[test]
    fn vector_scans_match_scalar_ones() {
        let mut rng = Rng(12345);
        for _ in 0..200 {
            let mut state = random_state(&mut rng);
            for i in 0..27 {
                if rng.next() % 2 == 0 {
                    state.prev[i] = state.cand[i];
                }
            }
            let pending =
                (0..27).fold(0, |m, i| m | ((state.cand[i] != state.prev[i]) as u32) << i);
            assert_eq!(state.pending(), pending);
            let (one, two, three) = state.candidate_counts::<true>();
            for b in 0..3 {
                for i in 0..27 {
                    let n = (0..9)
                        .filter(|d| state.cand[3 * d + b] >> i & 1 == 1)
                        .count();
                    assert_eq!(one[b] >> i & 1 == 1, n >= 1);
                    assert_eq!(two[b] >> i & 1 == 1, n >= 2);
                    assert_eq!(three[b] >> i & 1 == 1, n >= 3);
                }
            }
        }
    }

    #[test]
    fn packed_triads_describe_the_candidates() {
        let mut rng = Rng(777);
        for _ in 0..100 {
            let mut state = random_state(&mut rng);
            if !state.propagate::<false, false, true>() {
                continue;
            }
            // Light updates leave the shapes stale; the strong rules refresh them first.
            assert!(state.shape_stale);
            state.refresh_shape();
            for d in 0..9 {
                let t = state.packed(d);
                for b in 0..3 {
                    let s = state.cand[3 * d + b];
                    for r in 0..3 {
                        for k in 0..3 {
                            // Row triad (r, k) of band b.
                            let row = s >> (9 * r + 3 * k) & 7 != 0;
                            assert_eq!(t >> (9 * b + 3 * r + k) & 1 == 1, row);
                            // Column triad: column 3k + r... of stack k, band b, at
                            // bit 3 * column + band of field k.
                            let col = (s >> (3 * k + r)) & 0x40201 != 0;
                            assert_eq!(t >> (32 + 9 * k + 3 * r + b) & 1 == 1, col);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn strong_rules_keep_the_solution() {
        // On puzzles cut from a known grid, every rule must keep the grid's digits.
        let grid = digits(GRID);
        let mut rng = Rng(4242);
        for _ in 0..300 {
            let keep = 15 + rng.next() % 15;
            let cells: [u8; 81] = puzzle(&mut rng, keep).try_into().unwrap();
            let mut state = initial_state(&cells).unwrap();
            assert!(state.propagate::<true, true, true>());
            for (cell, &v) in grid.iter().enumerate() {
                let d = v as usize - 1;
                assert_eq!(state.cand[3 * d + cell / 27] >> (cell % 27) & 1, 1);
            }
        }
    }

    #[test]
    fn light_strong_and_vector_paths_agree() {
        let mut rng = Rng(99);
        for _ in 0..150 {
            let keep = 18 + rng.next() % 12;
            let cells = puzzle(&mut rng, keep);
            let mut reference = count(&cells, 200, true, false);
            reference.1.sort();
            for (strong, avx2) in [(false, false), (false, true), (true, true)] {
                let (n, mut found) = count(&cells, 200, strong, avx2);
                assert_eq!(n, reference.0);
                // Below the limit every path must find the very same solutions.
                if n < 200 {
                    found.sort();
                    assert_eq!(found, reference.1);
                }
            }
        }
    }

    #[test]
    fn solutions_are_valid_grids() {
        let mut rng = Rng(5);
        for _ in 0..50 {
            let cells = puzzle(&mut rng, 25);
            let (_, found) = count(&cells, 5, false, true);
            for s in found {
                for (c, &v) in cells.iter().enumerate() {
                    assert!(v == 0 || s[c] == v);
                }
                for u in 0..9 {
                    let row: u32 = (0..9).fold(0, |m, k| m | 1 << s[9 * u + k]);
                    let col: u32 = (0..9).fold(0, |m, k| m | 1 << s[9 * k + u]);
                    let bx: u32 = (0..9).fold(0, |m, k| {
                        m | 1 << s[27 * (u / 3) + 3 * (u % 3) + 9 * (k / 3) + k % 3]
                    });
                    assert_eq!((row, col, bx), (0x3fe, 0x3fe, 0x3fe));
                }
            }
        }
    }

    #[test]
    fn empty_grid_is_quick() {
        // Without triad capacity, configuration branching thrashed here (52 million
        // nodes); in either mode a first solution takes a few dozen.
        for strong in [false, true] {
            let cells = [0u8; 81];
            let r = search_with(
                &cells,
                &[],
                &Limits::solutions(1),
                &mut |_| true,
                strong,
                true,
            );
            assert_eq!(r.solutions, 1);
            assert!(r.guesses < 200, "{} nodes", r.guesses);
        }
    }
}
