//! Counting every grid of a shape: 9x9, 6,670,903,752,021,072,936,960 (Felgenhauer and
//! Jarvis, 2005), computed here in about a second on two cores by their band method
//! with the "gangster" reduction; and shapes of two bands (boxes two cells wide or
//! high: 4x4, 6x6, 8x8) by the same idea, [`count_two_band_grids`].
//!
//! No search could visit that many grids, and the row engine ([`super::rows`]) is lost
//! on the empty grid too: after the first band its memo states run into the billions.
//! What makes the count easy is that bands meet only through columns:
//!
//! * A band (three rows) touches the rest of the grid only through the three digits each
//!   of its columns holds: its *signature*. The number of bands with a given signature,
//!   `g`, is counted stack by stack (below), and the number of ways to fill the two
//!   lower bands under a first band depends only on that band's signature. So the grid count is a sum over signatures of `g` times completions.
//! * Relabelling digits, reordering columns within a stack and reordering stacks map
//!   grids to grids, so signatures fall into orbits ("gangsters"): 44 of them. The
//!   completions are computed once per orbit.
//! * Completions of a first band: each column has six digits left and the second band
//!   takes three of them, the third band the other three. In each stack that choice is
//!   one of 56, so a completion count is a sum over `56^3` pairs of second and third
//!   band signatures of `g(second) * g(third)`.
//!
//! `g` itself: in one stack, a box whose columns hold given triples is filled by putting
//! each column's three digits on the three rows in some order (`6^3 = 216` ways), which
//! is a map from digits to rows, encoded two bits per digit. Three boxes make a band
//! when every digit gets a different row in each stack: two boxes' maps fix the third's
//! (the row left for each digit), so `g` counts pairs of maps from the first two stacks
//! whose leftover map is a filling of the third.

use std::collections::HashMap;
use std::time::Instant;

use crate::perm::{join, next_permutation, root};

/// Low bit of each digit's two-bit row field (digits 0..9 at bits `2d`).
const FIELD_LOW: u32 = 0x15555;
/// Every row field at 3: `a ^ b ^ ALL_FIELDS` is the third row of rows `a != b`.
const ALL_FIELDS: u32 = 0x3FFFF;
/// Row maps are 18-bit codes.
const CODES: usize = 1 << 18;

/// The six orders of a column's three digits: the row of each.
const ROW_ORDERS: [[u8; 3]; 6] = crate::perm::THREE;

/// Three disjoint digit triples (bit `d` for digit `d`, 0..9): the columns of one stack
/// within one band.
type Part = [u16; 3];

/// The three digits of a triple, in increasing order.
fn triple_digits(mask: u16) -> [u32; 3] {
    let mut out = [0; 3];
    let mut m = mask;
    for slot in &mut out {
        *slot = m.trailing_zeros();
        m &= m - 1;
    }
    out
}

/// Every way to fill a box whose columns hold the triples of `part`: maps from digits to
/// rows, two bits per digit.
fn fillings(part: &Part) -> Vec<u32> {
    let columns = part.map(triple_digits);
    let place = |column: &[u32; 3], order: &[u8; 3]| -> u32 {
        (0..3).map(|i| u32::from(order[i]) << (2 * column[i])).sum()
    };
    let mut out = Vec::with_capacity(216);
    for a in &ROW_ORDERS {
        for b in &ROW_ORDERS {
            for c in &ROW_ORDERS {
                out.push(place(&columns[0], a) + place(&columns[1], b) + place(&columns[2], c));
            }
        }
    }
    out
}

/// Whether two row maps give every digit different rows.
fn apart(a: u32, b: u32) -> bool {
    let d = a ^ b;
    (d | d >> 1) & FIELD_LOW == FIELD_LOW
}

/// Counts of leftover row maps over pairs of fillings of two stacks, reused between
/// pairs: only touched entries are cleared.
struct Leftovers {
    counts: Vec<u32>,
    touched: Vec<u32>,
}

impl Leftovers {
    fn new() -> Leftovers {
        Leftovers {
            counts: vec![0; CODES],
            touched: Vec::new(),
        }
    }

    /// Fills the table from the fillings of the first two stacks.
    fn fill(&mut self, first: &[u32], second: &[u32]) {
        for &t in &self.touched {
            self.counts[t as usize] = 0;
        }
        self.touched.clear();
        for &a in first {
            for &b in second {
                if apart(a, b) {
                    let left = a ^ b ^ ALL_FIELDS;
                    let slot = &mut self.counts[left as usize];
                    if *slot == 0 {
                        self.touched.push(left);
                    }
                    *slot += 1;
                }
            }
        }
    }

    /// Bands whose third stack is filled by one of `third`.
    fn bands(&self, third: &[u32]) -> u64 {
        third.iter().map(|&f| self.counts[f as usize] as u64).sum()
    }
}

/// The 280 ways to split the digits into three triples, each sorted (by lowest digit).
fn partitions() -> Vec<Part> {
    let triples: Vec<u16> = (0u16..512).filter(|m| m.count_ones() == 3).collect();
    let mut out = Vec::new();
    for &a in triples.iter().filter(|&&a| a & 1 != 0) {
        for &b in &triples {
            let c = 511 & !a & !b;
            if a & b == 0 && (b & b.wrapping_neg()) < (c & c.wrapping_neg()) {
                out.push([a, b, c]);
            }
        }
    }
    out
}

/// Relabels the digits of a mask: digit `d` becomes `map[d]`.
fn relabel(mask: u16, map: &[u8]) -> u16 {
    (0..map.len())
        .filter(|&d| mask & 1 << d != 0)
        .map(|d| 1u16 << map[d])
        .sum()
}

/// A partition relabelled and sorted again.
fn relabel_part(part: &Part, map: &[u8; 9]) -> Part {
    let mut out = part.map(|m| relabel(m, map));
    out.sort_by_key(|m| m.trailing_zeros());
    out
}

/// A union-find over signature indices.
/// One orbit of first-band signatures: a representative (its three stacks' column
/// triples) and how many first bands (with the first stack's columns fixed) it stands for.
#[derive(Clone, Debug)]
pub struct Gangster {
    /// The representative's stacks.
    pub stacks: [Part; 3],
    /// First bands in the orbit, their first stack's columns being `{1,2,3}`, `{4,5,6}`,
    /// `{7,8,9}` in that order.
    pub bands: u64,
}

/// The orbits of first-band signatures under relabelling, column and stack reordering,
/// each with the number of first bands it stands for.
pub fn gangsters() -> Vec<Gangster> {
    let parts = partitions();
    let index: HashMap<Part, usize> = parts.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    let first = parts[0];
    debug_assert_eq!(first, [0o7, 0o70, 0o700]);
    let n = parts.len();
    let fills: Vec<Vec<u32>> = parts.iter().map(fillings).collect();
    // Bands with the first stack fixed, per (second, third) stack partition; each
    // unordered partition stands for 6 column orders, so 36 ordered signatures.
    let mut g = vec![0u64; n * n];
    let mut table = Leftovers::new();
    for b in 0..n {
        table.fill(&fills[0], &fills[b]);
        for c in 0..n {
            g[b * n + c] = table.bands(&fills[c]);
        }
    }
    // Orbits: generators of the relabellings that keep the first stack's partition
    // (swaps and cycles within a triple and of the triples), the swap of the other two
    // stacks, and bringing the second stack to the front.
    let generators: [[u8; 9]; 4] = [
        [1, 0, 2, 3, 4, 5, 6, 7, 8],
        [1, 2, 0, 3, 4, 5, 6, 7, 8],
        [3, 4, 5, 0, 1, 2, 6, 7, 8],
        [3, 4, 5, 6, 7, 8, 0, 1, 2],
    ];
    let mut parent: Vec<usize> = (0..n * n).collect();
    for b in 0..n {
        for c in 0..n {
            let node = b * n + c;
            join(&mut parent, node, c * n + b);
            for map in &generators {
                let (nb, nc) = (
                    index[&relabel_part(&parts[b], map)],
                    index[&relabel_part(&parts[c], map)],
                );
                join(&mut parent, node, nb * n + nc);
            }
            // The second stack to the front: relabel its triples to {0,1,2}, {3,4,5},
            // {6,7,8}; the old first stack takes its place.
            let mut map = [0u8; 9];
            let mut next = 0u8;
            for t in parts[b] {
                for (d, label) in map.iter_mut().enumerate() {
                    if t & 1 << d != 0 {
                        *label = next;
                        next += 1;
                    }
                }
            }
            let (nb, nc) = (
                index[&relabel_part(&first, &map)],
                index[&relabel_part(&parts[c], &map)],
            );
            join(&mut parent, node, nb * n + nc);
        }
    }
    let mut orbits: HashMap<usize, Gangster> = HashMap::new();
    for node in 0..n * n {
        if g[node] == 0 {
            continue;
        }
        let r = root(&mut parent, node);
        let entry = orbits.entry(r).or_insert_with(|| Gangster {
            stacks: [first, parts[r / n], parts[r % n]],
            bands: 0,
        });
        debug_assert_eq!(
            g[node], g[r],
            "bands per signature are constant on an orbit"
        );
        entry.bands += 36 * g[node];
    }
    let mut out: Vec<Gangster> = orbits.into_values().collect();
    out.sort_by_key(|o| o.stacks);
    out
}

/// The ways to fill the second and third bands under a first band whose stacks'
/// columns hold the triples of `stacks`.
pub fn completions(stacks: &[Part; 3]) -> u128 {
    // Per stack, the 56 ways to share each column's six remaining digits between the
    // second and third bands, as the second band's part; the third band's part is the
    // second band's part of another split (`swapped`).
    let splits: Vec<Vec<Part>> = stacks.iter().map(splits).collect();
    let swapped: Vec<Vec<usize>> = stacks
        .iter()
        .zip(&splits)
        .map(|(first, parts)| {
            parts
                .iter()
                .map(|p| {
                    let third = [0, 1, 2].map(|i| 511 & !first[i] & !p[i]);
                    parts
                        .iter()
                        .position(|q| *q == third)
                        .expect("splits are closed under swap")
                })
                .collect()
        })
        .collect();
    let first: Vec<Vec<u32>> = splits[0].iter().map(fillings).collect();
    let second: Vec<Partners> = splits[1].iter().map(Partners::new).collect();
    let third = Acceptors::new(&splits[2]);
    // Bands per choice of the three stacks' parts.
    let k = splits[0].len();
    let (k2, k3) = (splits[1].len(), splits[2].len());
    let mut bands = vec![0u32; k * k2 * k3];
    for (p1, fills) in first.iter().enumerate() {
        for (p2, partners) in second.iter().enumerate() {
            let out = &mut bands[(p1 * k2 + p2) * k3..][..k3];
            for &a in fills {
                partners.each(a, |b| third.add(a ^ b ^ ALL_FIELDS, out));
            }
        }
    }
    let mut total = 0u128;
    for p1 in 0..k {
        for p2 in 0..k2 {
            for p3 in 0..k3 {
                let (q1, q2, q3) = (swapped[0][p1], swapped[1][p2], swapped[2][p3]);
                let here = bands[(p1 * k2 + p2) * k3 + p3] as u128;
                total += here * bands[(q1 * k2 + q2) * k3 + q3] as u128;
            }
        }
    }
    total
}

/// A second stack's fillings listed by what they must avoid: for each column and each
/// assignment of rows to its three digits by the first stack (27), the orders of the
/// column that give each digit another row, as partial row maps.
struct Partners {
    columns: [[u32; 3]; 3],
    orders: Vec<Vec<u32>>,
}

impl Partners {
    fn new(part: &Part) -> Partners {
        let columns = part.map(triple_digits);
        let mut orders = Vec::with_capacity(81);
        for column in &columns {
            for pattern in 0..27u32 {
                let taken = [pattern / 9, pattern / 3 % 3, pattern % 3];
                let mut list = Vec::new();
                for order in ROW_ORDERS {
                    if (0..3).all(|i| u32::from(order[i]) != taken[i]) {
                        list.push((0..3).map(|i| u32::from(order[i]) << (2 * column[i])).sum());
                    }
                }
                orders.push(list);
            }
        }
        Partners { columns, orders }
    }

    /// Calls `f` with every filling of this stack that gives each digit another row than
    /// the row map `a`.
    fn each(&self, a: u32, mut f: impl FnMut(u32)) {
        let row = |d: u32| (a >> (2 * d)) & 3;
        let list = |i: usize| {
            let c = &self.columns[i];
            &self.orders[i * 27 + (row(c[0]) * 9 + row(c[1]) * 3 + row(c[2])) as usize]
        };
        let (l0, l1, l2) = (list(0), list(1), list(2));
        for &x in l0 {
            for &y in l1 {
                for &z in l2 {
                    f(x + y + z);
                }
            }
        }
    }
}

/// Which of a third stack's parts each row map fills. Maps that put three digits on
/// each row (1,680 of them) are numbered through a table, and each number keeps a mask of
/// part indices.
struct Acceptors {
    number: Vec<u16>,
    parts: Vec<u64>,
}

impl Acceptors {
    fn new(parts: &[Part]) -> Acceptors {
        let mut number = vec![u16::MAX; CODES];
        let mut masks: Vec<u64> = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            for f in fillings(part) {
                let slot = &mut number[f as usize];
                if *slot == u16::MAX {
                    *slot = masks.len() as u16;
                    masks.push(0);
                }
                masks[*slot as usize] |= 1 << i;
            }
        }
        Acceptors {
            number,
            parts: masks,
        }
    }

    /// Counts one band for every part the row map `left` fills.
    fn add(&self, left: u32, out: &mut [u32]) {
        let n = self.number[left as usize];
        if n == u16::MAX {
            return;
        }
        let mut m = self.parts[n as usize];
        while m != 0 {
            out[m.trailing_zeros() as usize] += 1;
            m &= m - 1;
        }
    }
}

/// The second band's part of every split of one stack's remaining digits.
fn splits(first: &Part) -> Vec<Part> {
    let left = first.map(|m| 511 & !m);
    let triples: Vec<u16> = (0u16..512).filter(|m| m.count_ones() == 3).collect();
    let mut out = Vec::new();
    for &a in triples.iter().filter(|&&a| a & !left[0] == 0) {
        for &b in triples.iter().filter(|&&b| b & !left[1] == 0 && b & a == 0) {
            let c = 511 & !a & !b;
            if c & !left[2] == 0 {
                out.push([a, b, c]);
            }
        }
    }
    debug_assert_eq!(out.len(), 56);
    out
}

/// Counts every 9x9 grid by the band method (about two seconds); `None` when `deadline`
/// passes first.
pub fn count_classic_grids(deadline: Option<Instant>) -> Option<u128> {
    // Relabelling maps the first stack's ordered columns onto {1,2,3}, {4,5,6},
    // {7,8,9}: 9!/(3!^3) = 1,680 ordered partitions share every other count.
    let classes = gangsters();
    // The classes are independent: the cores share them out (a second core halves the
    // two seconds).
    super::sum_on_cores(&classes, |class| {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        Some(class.bands as u128 * completions(&class.stacks))
    })
    .map(|total| 1680 * total)
}

/// Counts every grid of a shape whose boxes are two cells wide or two cells high, of
/// side at most 8 (4x4, 6x6, 8x8), by the band method for two bands.
///
/// Transposing if need be, the boxes are `r` rows by 2 columns: two bands of `r` rows,
/// `r` stacks of two columns. The second band's columns hold what the first band's do
/// not, which in each stack is the first band's two column sets swapped; a band's count
/// does not depend on the order of a stack's columns, so the grid count is the sum over
/// first-band signatures of the square of their band count. Signatures (each stack's
/// split of the digits into its two columns) fall into orbits under relabelling and
/// stack reordering; each orbit's band count is found once, by meeting in the middle:
/// every digit takes a different row in each stack, so the fillings of the first half
/// of the stacks are tallied by the rows each digit has used, and each filling of the
/// other half looks up the tally of the rows its digits still need.
pub fn count_two_band_grids(box_rows: usize, box_cols: usize) -> Option<u128> {
    let r = match (box_rows, box_cols) {
        (r, 2) | (2, r) if (2..=4).contains(&r) => r,
        _ => return None,
    };
    let n = 2 * r;
    let all: u16 = (1 << n) - 1;
    // One column set per stack, the one holding digit 0 (the other is its complement).
    let halves: Vec<u16> = (0..=all)
        .filter(|&m| m.count_ones() as usize == r && m & 1 != 0)
        .collect();
    let m = halves.len();
    let mut index = vec![usize::MAX; 1 << n];
    for (i, &h) in halves.iter().enumerate() {
        index[h as usize] = i;
        index[(all & !h) as usize] = i;
    }
    let nodes = m.pow(r as u32);
    let decode =
        |node: usize| -> Vec<usize> { (0..r).map(|s| node / m.pow(s as u32) % m).collect() };
    let encode = |stacks: &[usize]| -> usize {
        stacks
            .iter()
            .enumerate()
            .map(|(s, &i)| i * m.pow(s as u32))
            .sum()
    };
    // Generators: a swap and a cycle of digits, a swap and a cycle of stacks.
    let swap: Vec<u8> = (0..n as u8)
        .map(|d| [1, 0].get(d as usize).copied().unwrap_or(d))
        .collect();
    let cycle: Vec<u8> = (0..n as u8).map(|d| (d + 1) % n as u8).collect();
    let mut parent: Vec<usize> = (0..nodes).collect();
    for node in 0..nodes {
        let stacks = decode(node);
        let relabelled = |map: &[u8]| -> Vec<usize> {
            stacks
                .iter()
                .map(|&i| index[relabel(halves[i], map) as usize])
                .collect()
        };
        let mut swapped = stacks.clone();
        swapped.swap(0, 1);
        let mut turned = stacks.clone();
        turned.rotate_left(1);
        for other in [relabelled(&swap), relabelled(&cycle), swapped, turned] {
            join(&mut parent, node, encode(&other));
        }
    }
    let mut sizes: HashMap<usize, u128> = HashMap::new();
    for node in 0..nodes {
        *sizes.entry(root(&mut parent, node)).or_default() += 1;
    }
    let mut total = 0u128;
    for (rep, size) in sizes {
        let columns: Vec<u16> = decode(rep).iter().map(|&i| halves[i]).collect();
        let g = two_band_count(r, &columns) as u128;
        total += size * g * g;
    }
    // Each stack's two column sets in either order.
    Some(total << r)
}

/// Bands of `r` rows whose stacks' first columns hold the digit sets `columns` (the
/// second columns the rest of the `2r` digits).
fn two_band_count(r: usize, columns: &[u16]) -> u64 {
    let n = 2 * r;
    let all = (1u16 << n) - 1;
    // A stack's fillings as one row bit per digit, `r` bits per digit.
    let fillings = |first: u16| -> Vec<u64> {
        let mut out = vec![0u64];
        for column in [first, all & !first] {
            let digits: Vec<usize> = (0..n).filter(|&d| column & 1 << d != 0).collect();
            let mut next = Vec::new();
            let mut rows: Vec<usize> = (0..r).collect();
            loop {
                let code: u64 = digits
                    .iter()
                    .zip(&rows)
                    .map(|(&d, &row)| 1u64 << (d * r + row))
                    .sum();
                next.extend(out.iter().map(|&c| c | code));
                if !next_permutation(&mut rows) {
                    break;
                }
            }
            out = next;
        }
        out
    };
    let stacks: Vec<Vec<u64>> = columns.iter().map(|&c| fillings(c)).collect();
    // Every combination of fillings of some stacks that gives each digit distinct rows.
    let combine = |part: &[Vec<u64>]| -> Vec<u64> {
        let mut out = vec![0u64];
        for fills in part {
            out = out
                .iter()
                .flat_map(|&acc| {
                    fills
                        .iter()
                        .filter(move |&&f| acc & f == 0)
                        .map(move |&f| acc | f)
                })
                .collect();
        }
        out
    };
    let half = r / 2;
    let mut tally: HashMap<u64, u64> = HashMap::new();
    for code in combine(&stacks[..half]) {
        *tally.entry(code).or_default() += 1;
    }
    let full = (1u64 << (n * r)) - 1;
    combine(&stacks[half..])
        .iter()
        .map(|&code| tally.get(&(full ^ code)).copied().unwrap_or(0))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_280_partitions_and_216_box_fillings() {
        let parts = partitions();
        assert_eq!(parts.len(), 280);
        let f = fillings(&parts[17]);
        let mut sorted = f.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 216);
    }

    #[test]
    fn gangsters_cover_every_first_band() {
        // 9! * 56 * 6^6 first bands (Felgenhauer and Jarvis), 1,680 first-stack
        // orderings; 44 orbits of signatures ("gangsters").
        let g = gangsters();
        let bands: u64 = g.iter().map(|o| o.bands).sum();
        assert_eq!(1680 * bands as u128, 362_880 * 56 * 6u128.pow(6));
        assert_eq!(g.len(), 44);
    }

    #[test]
    fn completions_match_ed_russells_table() {
        // Ed Russell's counter lists, per class of first bands (box 1 = 123/456/789,
        // the other stacks' column triples given), the completions with the lower
        // bands' first column in order: 72 times fewer than all completions.
        let triple = |t: &str| t.bytes().map(|b| 1u16 << (b - b'1')).sum::<u16>();
        let stacks = |s: &str| -> [Part; 3] {
            let t: Vec<u16> = s.split(' ').map(triple).collect();
            [[t[0], t[1], t[2]], [t[3], t[4], t[5]], [t[6], t[7], t[8]]]
        };
        for (signature, normalised) in [
            ("147 258 369 124 357 689 125 367 489", 97_961_464u128),
            ("147 258 369 126 348 579 135 249 678", 94_888_576),
            ("147 258 369 147 258 369 147 258 369", 108_374_976),
        ] {
            assert_eq!(
                completions(&stacks(signature)),
                72 * normalised,
                "{signature}"
            );
        }
    }

    #[test]
    fn two_band_shapes_have_their_published_counts() {
        // The 288 and 28,200,960; 2x4 boxes: 29,136,487,207,403,520 (Pettersen
        // and Russell's table of rectangular-box counts).
        assert_eq!(count_two_band_grids(2, 2), Some(288));
        assert_eq!(count_two_band_grids(2, 3), Some(28_200_960));
        assert_eq!(count_two_band_grids(3, 2), Some(28_200_960));
        assert_eq!(count_two_band_grids(4, 2), Some(29_136_487_207_403_520));
        assert_eq!(count_two_band_grids(2, 4), Some(29_136_487_207_403_520));
        assert_eq!(count_two_band_grids(3, 3), None);
    }

    #[test]
    fn there_are_6_670_903_752_021_072_936_960_grids() {
        // Felgenhauer and Jarvis (2005), as the Octave article quotes them.
        assert_eq!(
            count_classic_grids(None),
            Some(6_670_903_752_021_072_936_960)
        );
    }
}
