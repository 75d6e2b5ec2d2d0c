//! The random numbers of every randomised feature (shuffles, grid sampling, digging).
//!
//! SplitMix64 (Steele, Lea and Flood, 2014): tiny, fast and fixed by its definition, so
//! a seed means the same puzzles in every version of sudokit and on every machine.
//! Results that must not depend on the thread count derive one stream per item from a
//! master seed and the item's number ([`Rng::stream`]).

/// A SplitMix64 generator.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The stream of item `index` under a master `seed` (the same whatever order or
    /// thread items are made in).
    pub fn stream(seed: u64, index: u64) -> Rng {
        let mut r = Rng(seed ^ index.wrapping_mul(0xD605_BBB5_8C8A_BBFD));
        r.next_u64();
        r
    }

    /// A seed for a run not given one, from the clock and the process id. It is below
    /// 2^53, so that JSON readers which hold numbers as doubles (JavaScript, jq 1.6)
    /// read it exactly when it is shown.
    pub fn fresh_seed() -> u64 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Rng::stream(nanos, std::process::id() as u64).next_u64() >> 11
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n > 0`), without modulo bias (Lemire's method with
    /// rejection).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        loop {
            let m = (self.next_u64() as u128) * (n as u128);
            let low = m as u64;
            if low >= n.wrapping_neg() % n {
                return (m >> 64) as u64;
            }
        }
    }

    /// Shuffles a slice uniformly (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// A uniform random member of a non-empty bit set.
    pub fn pick_bit(&mut self, set: u64) -> u64 {
        let mut m = set;
        for _ in 0..self.below(set.count_ones() as u64) {
            m &= m - 1;
        }
        m & m.wrapping_neg()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_seeds_are_exact_as_doubles() {
        for _ in 0..100 {
            let seed = Rng::fresh_seed();
            assert_eq!(seed as f64 as u64, seed);
            assert!(seed < 1 << 53);
        }
    }

    #[test]
    fn splitmix_matches_the_reference_stream() {
        // The reference implementation's first outputs for seed 0.
        let mut s = Rng::new(0);
        assert_eq!(s.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(s.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut r = Rng::new(7);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[r.below(6) as usize] += 1;
        }
        assert!(seen.iter().all(|&k| (800..1200).contains(&k)), "{seen:?}");
        let mut v: Vec<u32> = (0..10).collect();
        r.shuffle(&mut v);
        v.sort();
        assert_eq!(v, (0..10).collect::<Vec<_>>());
        assert_eq!(r.pick_bit(0b1000), 0b1000);
    }
}
