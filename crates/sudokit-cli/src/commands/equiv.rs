//! `sudokit equiv A B`: whether two puzzles are equivalent, by comparing canonical forms.
//!
//! Exit codes: 0 equivalent, 1 not equivalent, 2 a puzzle could not be read (or has
//! conflicting givens, or the answer needs a canonical form its geometry does not have:
//! two different Latin squares of order 11 and up). Each argument is a file (its first puzzle is used), `-`, a
//! built-in puzzle name, or puzzle text.
//!
//! JSON output (`--format json`, one object), a contract:
//!
//! | key | meaning |
//! |---|---|
//! | `equivalent` | true or false |
//! | `transformation` | operations (`sudokit transform --op` syntax) mapping A onto B, or null |
//! | `a`, `b` | the two puzzles on one line |
//! | `canonical_a`, `canonical_b` | their canonical forms (null where the geometry has none) |

use std::io::Write;

use anyhow::{Result, anyhow, bail};
use sudokit::canon;

use crate::cli::{EquivArgs, InputArgs, OutputFormat};
use crate::commands::transform::json_str;
use crate::input;
use crate::output;

/// Runs `sudokit equiv`.
pub fn run(args: EquivArgs) -> Result<u8> {
    let input = InputArgs {
        sources: Vec::new(),
        shape: args.shape,
        symbols: args.symbols.clone(),
        variant: args.variant.clone(),
        regions: args.regions.clone(),
    };
    let options = input::read_options(&input)?;
    // Clashing givens are located as every batch command locates them.
    let read = |arg: &str| -> Result<sudokit::Record> {
        let (source, record) = input::first_puzzle_of(arg, &options)?;
        if let Some(message) = output::located_conflict(&source, &record, &options.symbols) {
            bail!(message);
        }
        Ok(record)
    };
    let a = read(&args.a)?;
    let b = read(&args.b)?;
    // A geometry without canonical forms (a Latin square of order 11) still has its
    // answer when the two differ in geometry or are the same puzzle.
    let (ca, cb) = (canon::canonical(&a.grid), canon::canonical(&b.grid));
    let map =
        canon::equivalence_by(&a.grid, &b.grid, &|| ca.clone(), &|| cb.clone()).map_err(|e| {
            let what = if ca.is_err() { &args.a } else { &args.b };
            anyhow!("{what}: {e}")
        })?;
    let line = |g: &sudokit::Grid| output::line(g, &options.symbols);
    let form = |c: &Result<canon::Canonical, canon::CanonError>| match c {
        Ok(c) => line(&c.grid),
        Err(e) => format!("none ({e})"),
    };
    let json_form = |c: &Result<canon::Canonical, canon::CanonError>| match c {
        Ok(c) => json_str(&line(&c.grid)),
        Err(_) => "null".into(),
    };
    let mut out = output::stdout();
    match args.format.unwrap_or(OutputFormat::Line) {
        OutputFormat::Json => writeln!(
            out,
            "{{\"equivalent\":{},\"transformation\":{},\"a\":{},\"b\":{},\"canonical_a\":{},\"canonical_b\":{}}}",
            map.is_some(),
            map.as_ref()
                .map_or("null".into(), |t| json_str(&t.to_string())),
            json_str(&line(&a.grid)),
            json_str(&line(&b.grid)),
            json_form(&ca),
            json_form(&cb),
        )?,
        _ => match &map {
            Some(t) => {
                // The command must read A as it was read here (a Latin square's
                // operations break a sudoku's bands).
                let options: String = output::geometry_fields(&a.grid)
                    .into_iter()
                    .filter(|(key, value)| !(*key == "variant" && value == "standard"))
                    .map(|(key, value)| format!("--{key} {value} "))
                    .collect();
                writeln!(
                    out,
                    "equivalent: `sudokit transform {options}--op {t}` maps A onto B\ncanonical form: {}",
                    form(&ca)
                )?
            }
            None => {
                let (ga, gb) = (a.grid.geometry(), b.grid.geometry());
                // Different geometries are never equivalent: say why, not just that.
                let why = if ga == gb {
                    String::new()
                } else if ga.name() == gb.name() {
                    ": A and B have different region maps".to_string()
                } else {
                    format!(": A is a {} grid, B a {} grid", ga.name(), gb.name())
                };
                writeln!(
                    out,
                    "not equivalent{why}\ncanonical form of A: {}\ncanonical form of B: {}",
                    form(&ca),
                    form(&cb)
                )?
            }
        },
    }
    out.flush()?;
    Ok(if map.is_some() { 0 } else { 1 })
}
