//! `sudokit puzzles`: the built-in collection.

use std::io::Write;

use anyhow::{Result, bail};
use sudokit::puzzles::{BUILTINS, builtin};

use crate::cli::PuzzlesArgs;
use crate::output;

/// Runs `sudokit puzzles`.
pub fn run(args: PuzzlesArgs) -> Result<u8> {
    let mut out = output::stdout();
    match args.name {
        Some(name) => match builtin(&name) {
            Some(b) => writeln!(out, "{}", b.text)?,
            None => bail!("no built-in puzzle named {name:?}; `sudokit puzzles` lists them"),
        },
        None => {
            for b in BUILTINS {
                let n = b.grid().size();
                writeln!(out, "{:<18} {n}x{n}  {}", b.name, b.source)?;
                writeln!(out, "{:<18}       {}", "", b.note)?;
            }
        }
    }
    out.flush()?;
    Ok(0)
}
