//! Every Latin square of order up to 8, counted by meeting in the middle over the
//! columns' contents: order 8's 108,776,032,459,082,956,800 in seconds, where filling
//! reduced squares row by row ([`super::rows`]) would take hours.
//!
//! After the first `k` rows of a square, what the other rows may hold depends only on
//! the symbols each column has used, and not on the columns' order: permuting columns
//! maps completions to completions. So the state after `k` rows is the *multiset* of
//! the columns' symbol masks (sorted, eight bytes), and a layer maps each state to the
//! number of `k`-row Latin rectangles that reach it (with the first row `1..n`: any
//! other first row is a column permutation of it, which leaves the state alone, so every
//! count is `n!` times that). A square is a top half and a bottom half whose columns
//! hold the complements of the top's; counting the labelled ways to pair a top state
//! `s` with its complement gives
//!
//! `L(n) = n! * sum over s of T_h(s) T_(n-h)(complement of s) prod(m!)`
//!
//! where `T_k` is layer `k` (first row fixed), `h = n / 2` and the `m` are the
//! multiplicities of equal masks in `s` (a labelled top with state `s` stands for
//! `n! / prod(m!)` arrangements of its columns, each reached by `T_h(s) prod(m!)`
//! rectangles). Order 8 has 6,202 states at layer 2, 703,297 at layer 3 and 3,330,915
//! at layer 4, reached by about 10^9 rows: 25 s on two cores, 240 MB.

use rustc_hash::FxHashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// The largest order counted here: a column's mask is a byte, a state a `u64`.
pub const MAX_ORDER: usize = 8;

/// Latin rectangles per state of the columns (the layers': first row `1..n`; the rows
/// of givens in [`count_partial`]: all of them).
// FxHash: SipHash would cost more than the lookups of dense masks save.
type Map = FxHashMap<u64, u64>;

/// A layer: its states' maps, one per partition ([`part`]).
struct Layer {
    parts: Vec<Map>,
}

impl Layer {
    fn new() -> Layer {
        Layer {
            parts: (0..PARTS).map(|_| Map::default()).collect(),
        }
    }

    fn add(&mut self, state: u64, count: u64) {
        *self.parts[part(state)].entry(state).or_insert(0) += count;
    }

    fn get(&self, state: u64) -> Option<u64> {
        self.parts[part(state)].get(&state).copied()
    }

    fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.parts.iter().flatten().map(|(&s, &c)| (s, c))
    }
}

/// The state of `masks` (one byte per column, unused columns 0): sorted, packed.
#[inline]
fn state(mut m: [u8; MAX_ORDER]) -> u64 {
    m.sort_unstable();
    u64::from_le_bytes(m)
}

/// The masks of a state, in order; columns past `n` are 0 and sort first.
fn masks(state: u64) -> [u8; MAX_ORDER] {
    state.to_le_bytes()
}

/// Counts the Latin squares of order `n` (1..=8); `None` when the deadline passed
/// first.
pub fn count(n: usize, deadline: Option<Instant>) -> Option<u128> {
    assert!((1..=MAX_ORDER).contains(&n), "orders 1 to 8");
    // The first row 1..n: column c holds symbol c.
    let first: Vec<u8> = (0..n).map(|c| 1 << c).collect();
    let completions = count_completions(n, &first, 1, deadline)?;
    Some(completions * (1..=n as u128).product::<u128>())
}

/// Counts the ways to fill the `n - given` empty rows of a Latin square of order `n`
/// (1..=8) whose other rows are given whole, their symbols in column `c` being the
/// bits of `columns[c]` (distinct in each column: the caller checks); `None` when
/// the deadline passed first.
///
/// The empty rows are a forward part of `a` rows from the given columns and a
/// backward part of `b` rows (`n / 2` with one row given, else at most 2), a rectangle
/// filling the complements of the columns the forward part reaches: with `F_a` the
/// forward layer and `T_b` the layer of rectangles with their first row fixed,
///
/// `sum over s of F_a(s) T_b(complement of s) prod(m!)`
///
/// (a labelled column state `w` is reached by `T_b(state of w) prod(m!)` rectangles;
/// see the module's notes). With one row given, the forward layers are the `T`
/// layers themselves, so the work is that of the empty square.
pub fn count_completions(
    n: usize,
    columns: &[u8],
    given: usize,
    deadline: Option<Instant>,
) -> Option<u128> {
    assert!((1..=MAX_ORDER).contains(&n), "orders 1 to 8");
    assert!((1..=n).contains(&given), "at least one row given");
    assert_eq!(columns.len(), n, "a mask per column");
    let empty = n - given;
    if empty == 0 {
        return Some(1);
    }
    let mut start = [0u8; MAX_ORDER];
    start[..n].copy_from_slice(columns);
    let start = state(start);
    let mut first = [0u8; MAX_ORDER];
    for (c, mask) in first.iter_mut().enumerate().take(n) {
        *mask = 1 << c;
    }
    let first = state(first);
    // With one row given the forward layers are the `T` layers, balanced at half
    // the square; from any other start the forward layers grow from one state and
    // stay narrow where the `T` layers, from 6,202 states at depth 2 on, do not
    // (order 8 with three rows given: 0.15 s backward 2 rows, 0.95 s backward 3).
    let backward = empty.min(if start == first { n / 2 } else { 2 });
    let forward = empty - backward;
    let depth = if start == first {
        backward.max(1 + forward)
    } else {
        backward
    };
    let layers = first_row_layers(n, depth, deadline)?;
    let mut own = Layer::new();
    let reached = if start == first {
        &layers[1 + forward]
    } else {
        own.add(start, 1);
        for _ in 0..forward {
            own = next_layer(n, &own, deadline)?;
        }
        &own
    };
    Some(meet(n, reached.iter(), &layers[backward]))
}

/// The layers of rectangles with the first row `1..n`, `layers[k]` for `k` rows up to
/// `depth` (`layers[0]` unused); `None` when the deadline passed first.
fn first_row_layers(n: usize, depth: usize, deadline: Option<Instant>) -> Option<Vec<Layer>> {
    let mut first = [0u8; MAX_ORDER];
    for (c, mask) in first.iter_mut().enumerate().take(n) {
        *mask = 1 << c;
    }
    let mut layers = vec![Layer::new(), Layer::new()];
    layers[1].add(state(first), 1);
    while layers.len() <= depth {
        let next = next_layer(n, layers.last().expect("a layer"), deadline)?;
        layers.push(next);
    }
    Some(layers)
}

/// The squares that tops reaching the states of `reached` (with their counts of
/// labelled rectangles) and bottoms of `bottom` (a layer of [`first_row_layers`])
/// make: `sum over s of F(s) T(complement of s) prod(m!)`.
fn meet(n: usize, reached: impl Iterator<Item = (u64, u64)>, bottom: &Layer) -> u128 {
    let full = ((1u32 << n) - 1) as u8;
    let mut total = 0u128;
    for (s, count) in reached {
        let m = masks(s);
        let mut complement = [0u8; MAX_ORDER];
        for c in 0..n {
            complement[c] = full & !m[MAX_ORDER - n + c];
        }
        let Some(other) = bottom.get(state(complement)) else {
            continue;
        };
        total += count as u128 * other as u128 * multiplicities(&m[MAX_ORDER - n..]);
    }
    total
}

/// Counts the completions of a partial Latin square of order `n` (1..=8) given row by
/// row in `cells` (0 for an empty cell, else the symbol `1..=n`), with at least one
/// given and no two equal givens in a line (the caller checks); `None` when the
/// deadline passed first.
///
/// Reordering rows keeps the count, so the rows holding givens come first. They are
/// filled one at a time keeping a map from states to counts of labelled rectangles,
/// where a state keeps in place the columns with givens further down (*pinned*) and
/// sorts the others, which later rows cannot tell apart. After the last of those
/// rows every column is free: the states are those of the layers, and the rest is
/// [`count_completions`]' meeting of a top and a bottom. The counts fit: a rectangle
/// with a given cell of order 8 is among at most `L(8) / 8 < 2^64` of them.
pub fn count_partial(n: usize, cells: &[u8], deadline: Option<Instant>) -> Option<u128> {
    assert!((1..=MAX_ORDER).contains(&n), "orders 1 to 8");
    assert_eq!(cells.len(), n * n, "a square's cells");
    let rows: Vec<usize> = (0..n)
        .filter(|&r| cells[r * n..(r + 1) * n].iter().any(|&v| v != 0))
        .collect();
    assert!(!rows.is_empty(), "a given at least");
    let k = rows.len();
    let pinned: Vec<Vec<usize>> = (0..=k)
        .map(|i| {
            (0..n)
                .filter(|&c| rows[i..].iter().any(|&r| cells[r * n + c] != 0))
                .collect()
        })
        .collect();
    let mut top: Map = Map::default();
    top.insert(0, 1);
    for (i, &r) in rows.iter().enumerate() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        // Positions 0..pinned[i].len() are the pinned columns, in order; then the free.
        let mut givens = [0u8; MAX_ORDER];
        for (j, &c) in pinned[i].iter().enumerate() {
            if cells[r * n + c] != 0 {
                givens[j] = 1 << (cells[r * n + c] - 1);
            }
        }
        let kept: Vec<usize> = pinned[i + 1]
            .iter()
            .map(|c| {
                pinned[i]
                    .iter()
                    .position(|x| x == c)
                    .expect("pinned further down")
            })
            .collect();
        let loose: Vec<usize> = (0..n).filter(|j| !kept.contains(j)).collect();
        let rekey = |new: &[u8; MAX_ORDER]| -> u64 {
            if kept.is_empty() {
                return state(*new);
            }
            let mut key = [0u8; MAX_ORDER];
            for (to, &j) in kept.iter().chain(&loose).enumerate() {
                key[to] = new[j];
            }
            key[kept.len()..n].sort_unstable();
            u64::from_le_bytes(key)
        };
        let mut next = Map::default();
        for (done, (&key, &count)) in top.iter().enumerate() {
            if done % 4096 == 4095 && deadline.is_some_and(|d| Instant::now() >= d) {
                return None;
            }
            let old = key.to_le_bytes();
            let mut new = old;
            fill_row(n, 0, 0, &old, &givens, &mut new, &mut |new| {
                *next.entry(rekey(new)).or_insert(0) += count;
            });
        }
        top = next;
    }
    let empty = n - k;
    if empty == 0 {
        return Some(top.values().map(|&c| c as u128).sum());
    }
    // Order 8 with one to three rows of givens took 40-65 s whether the bottom had 2, 3
    // or 4 rows: both halves cross the widest layers either way.
    let backward = empty.min(2);
    let mut reached = Layer::new();
    for (s, count) in top {
        reached.add(s, count);
    }
    for _ in 0..empty - backward {
        reached = next_layer(n, &reached, deadline)?;
    }
    let layers = first_row_layers(n, backward, deadline)?;
    Some(meet(n, reached.iter(), &layers[backward]))
}

/// Every row that extends the masks `old[j..]` (in the first `n` bytes; symbols `used`
/// already in the row), holding the symbol `givens[j]` where that is not 0, written
/// into `new`; `emit` gets each. The layers' own [`extend`] is kept apart: one filler
/// for both, with the givens' test skipped at compile time, made order 8's count 10-20%
/// slower.
fn fill_row(
    n: usize,
    j: usize,
    used: u8,
    old: &[u8; MAX_ORDER],
    givens: &[u8; MAX_ORDER],
    new: &mut [u8; MAX_ORDER],
    emit: &mut impl FnMut(&[u8; MAX_ORDER]),
) {
    if j == n {
        emit(new);
        return;
    }
    let full = ((1u32 << n) - 1) as u8;
    let mut options = full & !(old[j] | used);
    if givens[j] != 0 {
        options &= givens[j];
    }
    while options != 0 {
        let bit = options & options.wrapping_neg();
        options &= !bit;
        new[j] = old[j] | bit;
        fill_row(n, j + 1, used | bit, old, givens, new, emit);
    }
}

/// `prod(m!)` over the runs of equal masks of a sorted state.
fn multiplicities(sorted: &[u8]) -> u128 {
    let mut product = 1u128;
    let mut run = 1u128;
    for pair in sorted.windows(2) {
        if pair[0] == pair[1] {
            run += 1;
            product *= run;
        } else {
            run = 1;
        }
    }
    product
}

/// Partitions of the states while a layer is built, so that each partition's map
/// stays in cache while buffered additions are folded into it (one map for three
/// million states would miss the cache on nearly every addition: order 8 took 124 s
/// so, 32 s with 64 partitions, 26 s with 256 and the last column filled directly).
const PARTS: usize = 256;

/// Additions buffered before they are folded into the partitions' maps.
const FLUSH: usize = 1 << 20;

/// Which partition a state belongs to (a hash other than the maps' own).
#[inline]
fn part(state: u64) -> usize {
    (state.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> (64 - PARTS.trailing_zeros())) as usize
}

/// One core's share of the next layer: additions buffered per partition, then folded.
struct Sink {
    buffers: Vec<Vec<(u64, u64)>>,
    layer: Layer,
    buffered: usize,
}

impl Sink {
    fn new() -> Sink {
        Sink {
            buffers: (0..PARTS).map(|_| Vec::new()).collect(),
            layer: Layer::new(),
            buffered: 0,
        }
    }

    #[inline]
    fn add(&mut self, state: u64, count: u64) {
        self.buffers[part(state)].push((state, count));
        self.buffered += 1;
        if self.buffered >= FLUSH {
            self.flush();
        }
    }

    fn flush(&mut self) {
        for (buffer, map) in self.buffers.iter_mut().zip(&mut self.layer.parts) {
            for (state, count) in buffer.drain(..) {
                *map.entry(state).or_insert(0) += count;
            }
        }
        self.buffered = 0;
    }
}

/// The layer after `layer`: each state extended by every row its columns allow, the
/// states shared out among the cores in blocks.
fn next_layer(n: usize, layer: &Layer, deadline: Option<Instant>) -> Option<Layer> {
    let states: Vec<(u64, u64)> = layer.iter().collect();
    let next = AtomicUsize::new(0);
    let late = AtomicBool::new(false);
    let sinks = Mutex::new(Vec::new());
    const BLOCK: usize = 256;
    let worker = || {
        let mut sink = Sink::new();
        loop {
            let start = next.fetch_add(BLOCK, Ordering::Relaxed);
            if start >= states.len() || late.load(Ordering::Relaxed) {
                break;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                late.store(true, Ordering::Relaxed);
                break;
            }
            for &(s, count) in &states[start..(start + BLOCK).min(states.len())] {
                let old = masks(s);
                let mut new = old;
                extend(n, MAX_ORDER - n, 0, &old, &mut new, &mut |key| {
                    sink.add(key, count)
                });
            }
        }
        sink.flush();
        sinks
            .lock()
            .expect("no panic while building")
            .push(sink.layer);
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |t| t.get())
        .min(8);
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(worker);
        }
        worker();
    });
    if late.into_inner() {
        return None;
    }
    // Partition by partition, the other cores' maps go into the first's.
    let mut layers = sinks.into_inner().expect("no panic while building");
    let mut merged = layers.pop().expect("one core at least");
    for layer in layers {
        for (into, from) in merged.parts.iter_mut().zip(layer.parts) {
            let (mut into_big, from_small) = if into.len() >= from.len() {
                (std::mem::take(into), from)
            } else {
                (from, std::mem::take(into))
            };
            for (s, c) in from_small {
                *into_big.entry(s).or_insert(0) += c;
            }
            *into = into_big;
        }
    }
    Some(merged)
}

/// Every row that extends the columns `old[c..]` (symbols `used` already in the row),
/// written into `new`; `emit` gets each resulting state.
#[inline]
fn extend(
    n: usize,
    c: usize,
    used: u8,
    old: &[u8; MAX_ORDER],
    new: &mut [u8; MAX_ORDER],
    emit: &mut impl FnMut(u64),
) {
    let full = ((1u32 << n) - 1) as u8;
    let mut options = full & !(old[c] | used);
    if c + 1 == MAX_ORDER {
        // The last column takes the one symbol left, if it may.
        if options != 0 {
            new[c] = old[c] | options;
            emit(state(*new));
        }
        return;
    }
    while options != 0 {
        let bit = options & options.wrapping_neg();
        options &= !bit;
        new[c] = old[c] | bit;
        extend(n, c + 1, used | bit, old, new, emit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_latin_square_counts() {
        // OEIS A002860.
        for (n, squares) in [
            (1, 1u128),
            (2, 2),
            (3, 12),
            (4, 576),
            (5, 161_280),
            (6, 812_851_200),
            (7, 61_479_419_904_000),
        ] {
            assert_eq!(count(n, None), Some(squares), "order {n}");
        }
    }

    /// A few seconds in release mode (`.ci/run` runs it so).
    #[test]
    #[ignore = "slow: run in release mode with --ignored"]
    fn order_8_has_108_776_032_459_082_956_800_latin_squares() {
        // OEIS A002860 (Wells, 1967).
        assert_eq!(count(8, None), Some(108_776_032_459_082_956_800));
    }

    #[test]
    fn completions_of_every_second_row_sum_to_the_squares_with_a_first_row() {
        // Every square with first row 1..n has a derangement of it second: summed over
        // them, the completions of two given rows are A002860(n) / n!.
        for (n, squares) in [(4, 576u128), (5, 161_280), (6, 812_851_200)] {
            let mut total = 0;
            let mut second: Vec<usize> = (0..n).collect();
            permutations(&mut second, 0, &mut |p| {
                if p.iter().enumerate().all(|(c, &s)| s != c) {
                    let columns: Vec<u8> = p
                        .iter()
                        .enumerate()
                        .map(|(c, &s)| 1 << c | 1 << s)
                        .collect();
                    total += count_completions(n, &columns, 2, None).unwrap();
                }
            });
            assert_eq!(
                total * (1..=n as u128).product::<u128>(),
                squares,
                "order {n}"
            );
        }
    }

    #[test]
    fn whole_squares_complete_once() {
        let columns = [0b111u8; 3];
        assert_eq!(count_completions(3, &columns, 3, None), Some(1));
        // n - 1 rows given: the last row is forced.
        assert_eq!(
            count_completions(3, &[0b011, 0b110, 0b101], 2, None),
            Some(1)
        );
    }

    /// Calls `visit` with every ordering of `items[k..]` after `items[..k]`.
    fn permutations(items: &mut Vec<usize>, k: usize, visit: &mut impl FnMut(&[usize])) {
        if k == items.len() {
            visit(items);
            return;
        }
        for i in k..items.len() {
            items.swap(k, i);
            permutations(items, k + 1, visit);
            items.swap(k, i);
        }
    }

    #[test]
    fn states_are_sorted_masks() {
        let masks = [9, 3, 200, 0, 7, 3, 1, 64];
        let mut sorted = masks;
        sorted.sort_unstable();
        assert_eq!(state(masks), u64::from_le_bytes(sorted));
        for shift in 0..8 {
            let mut rotated = masks;
            rotated.rotate_left(shift);
            assert_eq!(state(rotated), state(masks));
        }
    }

    #[test]
    fn multiplicities_are_factorials_of_runs() {
        assert_eq!(multiplicities(&[1, 2, 4]), 1);
        assert_eq!(multiplicities(&[3, 3, 5, 5, 5, 6]), 2 * 6);
    }

    #[test]
    fn a_passed_deadline_gives_up() {
        assert_eq!(count(7, Some(Instant::now())), None);
    }
}
