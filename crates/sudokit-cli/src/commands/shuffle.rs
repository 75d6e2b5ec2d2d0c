//! `sudokit shuffle`: replaces every puzzle by a uniformly random member of its
//! equivalence class.
//!
//! A uniformly random transformation (every element of the group equally likely, see
//! `sudokit::transform`) gives a uniformly random member of the class: each member is
//! reached by exactly as many transformations as the puzzle has automorphisms. Puzzle
//! `N` draws from its own SplitMix64 stream (`sudokit::rng::Rng::stream`) seeded by `(seed, N)`, so a seeded run gives
//! the same output whatever the thread count, and the stream will never change under a
//! dependency update.
//!
//! JSON Lines records (`--format json`): the keys of `sudokit transform`, plus
//!
//! | key | meaning |
//! |---|---|
//! | `transformation` | the operations (`sudokit transform --op` syntax) that map the puzzle onto `result` |

use anyhow::Result;
use sudokit::canon;
use sudokit::rng::Rng;

use crate::cli::ShuffleArgs;
use crate::commands::transform::{Made, json_str, run_each};

/// Runs `sudokit shuffle`.
pub fn run(args: ShuffleArgs) -> Result<u8> {
    let seed = args.seed.unwrap_or_else(Rng::fresh_seed);
    run_each(
        &args.input,
        &args.run,
        ("result", "shuffled"),
        |item, grid| {
            let mut rng = Rng::stream(seed, item.index);
            let t = canon::random_transform(grid, &mut || rng.next_u64()).map_err(|e| match e {
                // The same limit as canon's, said as what shuffle could not do.
                canon::CanonError::Variant(name, why) => {
                    format!("no random transformation for a {name} grid: {why}")
                }
                other => other.to_string(),
            })?;
            Ok(Made {
                grid: t.apply(grid).map_err(|e| e.to_string())?,
                json: vec![("transformation", json_str(&t.to_string()))],
            })
        },
    )
}
