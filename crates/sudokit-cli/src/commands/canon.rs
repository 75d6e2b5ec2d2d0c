//! `sudokit canon`: every puzzle's canonical form (the minlex representative of its
//! equivalence class, see `sudokit::canon`), in input order, in parallel.
//!
//! JSON Lines records (`--format json`): the keys of `sudokit transform` with the grid
//! under `canonical` instead of `result`, plus
//!
//! | key | meaning |
//! |---|---|
//! | `canonical` | the canonical form on one line, or null |
//! | `automorphisms` | how many transformations map the puzzle onto itself (1: no symmetry); null beyond 2^128 |
//! | `transformation` | operations (`sudokit transform --op` syntax) mapping the puzzle onto `canonical` |
//!
//! Puzzles whose givens conflict are `invalid`: the group's canonical form is defined for
//! any grid, but a broken puzzle is almost always a typing error worth reporting.

use anyhow::Result;
use sudokit::canon;

use crate::cli::CanonArgs;
use crate::commands::transform::{Made, json_str, run_each};

/// Runs `sudokit canon`.
pub fn run(args: CanonArgs) -> Result<u8> {
    run_each(
        &args.input,
        &args.run,
        ("canonical", "canonical"),
        |_, grid| {
            let c = canon::canonical(grid).map_err(|e| e.to_string())?;
            Ok(Made {
                grid: c.grid,
                json: vec![
                    (
                        "automorphisms",
                        c.automorphisms.map_or("null".into(), |a| a.to_string()),
                    ),
                    ("transformation", json_str(&c.transform.to_string())),
                ],
            })
        },
    )
}
