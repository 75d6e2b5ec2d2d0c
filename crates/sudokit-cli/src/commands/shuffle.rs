//! `sudokit shuffle`: replaces every puzzle by a uniformly random member of its
//! equivalence class.
//!
//! A uniformly random transformation (every element of the group equally likely, see
//! `sudokit::transform`) gives a uniformly random member of the class: each member is
//! reached by exactly as many transformations as the puzzle has automorphisms. Puzzle
//! `N` draws from its own SplitMix64 stream seeded by `(seed, N)`, so a seeded run gives
//! the same output whatever the thread count, and the stream will never change under a
//! dependency update.
//!
//! JSON Lines records (`--format json`): the keys of `sudokit transform`, plus
//!
//! | key | meaning |
//! |---|---|
//! | `transformation` | the operations (`sudokit transform --op` syntax) that map the puzzle onto `result` |

use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Result;
use sudokit::transform::Transform;

use crate::batch;
use crate::cli::ShuffleArgs;
use crate::commands::transform::{Made, View, json_str, report, shape_of};
use crate::input;
use crate::output;

/// Runs `sudokit shuffle`.
pub fn run(args: ShuffleArgs) -> Result<u8> {
    let seed = args.seed.unwrap_or_else(|| {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        now ^ (std::process::id() as u64).rotate_left(32)
    });
    let sources = input::sources(&args.input.sources, None)?;
    let options = input::read_options(&args.input);
    let view = View::new(&args.run, &options.symbols, "result");
    let mut out = output::stdout();
    let summary = batch::run(
        &sources,
        &options,
        crate::threads(args.run.threads),
        |item| {
            view.outcome(item, |grid| {
                let mut rng = SplitMix64::new(seed, item.index);
                let t = Transform::random(shape_of(grid)?, &mut || rng.next());
                Ok(Made {
                    grid: t.apply(grid).map_err(|e| e.to_string())?,
                    json: vec![("transformation", json_str(&t.to_string()))],
                })
            })
        },
        &mut out,
    )?;
    report(&args.run, &summary, "shuffled");
    Ok(summary.exit_code())
}

/// SplitMix64 (Steele, Lea and Flood, 2014): tiny, fast, and a fixed definition, so a
/// seed means the same shuffle in every version.
struct SplitMix64(u64);

impl SplitMix64 {
    /// The stream of puzzle `index` under `seed`.
    fn new(seed: u64, index: u64) -> SplitMix64 {
        let mut s = SplitMix64(seed ^ index.wrapping_mul(0xD605_BBB5_8C8A_BBFD));
        s.next();
        s
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_reference_stream() {
        // The reference implementation's first outputs for seed 0.
        let mut s = SplitMix64(0);
        assert_eq!(s.next(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(s.next(), 0x6E78_9E6A_A1B9_65F4);
    }
}
