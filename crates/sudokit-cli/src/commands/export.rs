//! `sudokit export --cnf`: puzzles as DIMACS CNF for general-purpose SAT solvers (the
//! encoding is documented in `sudokit::cnf`).

use anyhow::{Context, Result, bail};
use sudokit::cnf;

use crate::cli::ExportArgs;
use crate::input::{self, read_items};
use crate::output;

/// Runs `sudokit export`.
pub fn run(args: ExportArgs) -> Result<u8> {
    let sources = input::sources(&args.input.sources, None)?;
    let options = input::read_options(&args.input)?;
    if let Some(dir) = &args.output_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut written = 0usize;
    let mut code = 0u8;
    let mut failure: Option<anyhow::Error> = None;
    let mut single: Option<String> = None;
    read_items(&sources, &options, &mut |item| {
        let grid = match &item.record {
            Ok(r) => &r.grid,
            Err(e) => {
                eprintln!("{}:{}:{}: {}", item.source, e.line, e.column, e.message);
                code = 2;
                return true;
            }
        };
        let text = cnf::to_dimacs(grid);
        match &args.output_dir {
            Some(dir) => {
                let path = dir.join(format!("{}.cnf", item.index));
                if let Err(e) = std::fs::write(&path, text) {
                    failure = Some(
                        anyhow::Error::new(e).context(format!("cannot write {}", path.display())),
                    );
                    return false;
                }
            }
            None if single.is_some() => {
                failure = Some(anyhow::anyhow!(
                    "more than one puzzle: give --output-dir to write one CNF file per puzzle"
                ));
                return false;
            }
            None => single = Some(text),
        }
        written += 1;
        true
    })?;
    if let Some(e) = failure {
        return Err(e);
    }
    if let Some(text) = single {
        output::print(text.as_bytes())?;
    } else if written == 0 && code == 0 {
        bail!("no puzzle to export");
    }
    Ok(code)
}
