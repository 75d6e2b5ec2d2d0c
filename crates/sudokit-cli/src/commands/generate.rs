//! `sudokit generate`: unique, minimal puzzles, streamed in order, made in parallel.
//!
//! Puzzle `i` (from 0) is made from its own seed: the master seed for the first, and a
//! SplitMix64 draw from the master seed's stream `i` for the others, so a seed gives the
//! same puzzles whatever the thread count, and a puzzle's own seed regenerates it alone.
//!
//! JSON Lines records (`--format json`):
//!
//! | key | meaning |
//! |---|---|
//! | `index` | 1-based number of the puzzle |
//! | `puzzle` | the puzzle on one line |
//! | `solution` | its unique solution |
//! | `clues` | number of givens |
//! | `symmetry` | symmetry of the givens |
//! | `shape` | geometry, e.g. `3x3` |
//! | `minimal` | whether every clue (group of clues) is needed (null when not known: 25x25 and wider, where some removal's check ran out of its budget) |
//! | `seed` | this puzzle's seed (`sudokit generate --seed SEED` makes it again): below 2^53 (read exactly as a double by JavaScript's `JSON.parse`) unless `--seed` gave a larger one |
//! | `attempts` | candidate puzzles made before this one passed every test |
//! | `er` | Sudoku Explainer rating (null when SE's techniques do not finish) |
//! | `level` | HoDoKu-style level of the human path |
//! | `techniques` | techniques of the human path, easiest first |
//! | `error` | why no puzzle came out (then the other keys are null) |

use std::sync::Arc;

use anyhow::{Context, Result, bail};
use serde::Serialize;
use sudokit::generate::{self, Generated, Options, Symmetry, Target};
use sudokit::rng::Rng;
use sudokit::{Geometry, Grid};

use crate::batch::{self, Outcome, Status};
use crate::cli::{GenerateArgs, InputArgs, OutputFormat};
use crate::input;
use crate::output;

/// One generated record.
#[derive(Serialize)]
struct JsonRecord<'a> {
    index: u64,
    puzzle: Option<String>,
    solution: Option<String>,
    clues: Option<usize>,
    symmetry: &'a str,
    shape: &'a str,
    /// The variant, unless plain sudoku (`x`, `jigsaw`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<String>,
    /// A jigsaw's region map, one label per cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    regions: Option<String>,
    minimal: Option<bool>,
    seed: u64,
    attempts: Option<u64>,
    er: Option<f64>,
    level: Option<&'a str>,
    techniques: Option<Vec<String>>,
    error: Option<String>,
}

/// The seed of puzzle `index` under a master seed: below 2^53 after the first, like a
/// drawn seed, so that JSON readers holding numbers as doubles read it exactly.
pub fn puzzle_seed(master: u64, index: u64) -> u64 {
    if index == 0 {
        master
    } else {
        Rng::stream(master, index).next_u64() >> 11
    }
}

/// Runs `sudokit generate`.
pub fn run(args: GenerateArgs) -> Result<u8> {
    let input = InputArgs {
        shape: args.shape,
        symbols: args.symbols.clone(),
        variant: args.variant.clone(),
        regions: args.regions.clone(),
        ..InputArgs::default()
    };
    let options = input::read_options(&input)?;
    let from = match &args.from {
        Some(src) => Some(first_grid(src, &options)?),
        None => None,
    };
    // A jigsaw without a map: each puzzle draws its own (from its seed).
    let drawn_maps = from.is_none() && generate::draws_map(&options.variant);
    let geometry: Option<Arc<Geometry>> = match &from {
        Some(g) => Some(g.geometry().clone()),
        None if drawn_maps => None,
        None => Some(Geometry::for_new_puzzle(args.shape, &options.variant)?),
    };
    let n = geometry
        .as_ref()
        .map_or(args.shape.unwrap_or(sudokit::Shape::CLASSIC).size(), |g| {
            g.size()
        });
    // Uniqueness needs n - 1 clues on any jigsaw (see `fewest_clues`).
    let fewest = geometry.as_deref().map_or(n - 1, fewest_clues);
    check_clue_bounds(args.min_clues, args.max_clues, n, fewest)?;
    let pattern = match &args.pattern {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            Some(parse_pattern(&text, n).with_context(|| format!("pattern {}", path.display()))?)
        }
        None => None,
    };
    if let Some(p) = &pattern {
        if !args.symmetry.holds(p, n) && args.symmetry != Symmetry::None {
            bail!("the pattern does not have {} symmetry", args.symmetry);
        }
        let givens = p.iter().filter(|&&g| g).count();
        if givens < fewest {
            bail!(
                "the pattern has {givens} givens: a unique {n}x{n} puzzle of this kind needs at least {fewest}"
            );
        }
    }
    if args.uniform && n > 6 {
        bail!("--uniform draws grids exactly only up to 6x6 (it counts completions)");
    }
    let style = options.symbols.clone();
    // A custom alphabet of the wrong length would otherwise print digits without a word.
    style
        .symbols(n)
        .map_err(|e| anyhow::anyhow!("--symbols: {e}"))?;
    // A technique the path never takes would be searched for until the attempts ran out.
    let classic = geometry.as_ref().is_some_and(|g| g.is_classic());
    if let Some(t) = args
        .require
        .iter()
        .find(|&&t| !sudokit::logic::solver::can_take(t, classic))
    {
        bail!(
            "--require {}: the human path never takes it on {}",
            t.name(),
            if classic {
                "the classic grid"
            } else {
                "this grid"
            }
        );
    }
    // Drawn (and shown) once the options are known to be usable.
    let master = args.seed.unwrap_or_else(|| {
        let seed = Rng::fresh_seed();
        eprintln!("seed: {seed}");
        seed
    });
    let format = args.format.unwrap_or(OutputFormat::Line);
    let symmetry_name = args.symmetry.name();
    let target = Target {
        level: args.level,
        er: args.er,
        require: args.require.clone(),
        no_guess: args.no_guess,
    };
    let accept = |puzzle: &Grid, _: &Grid| target.check(puzzle).0;
    let accept: Option<&generate::Accept> = (!target.is_any()).then_some(&accept);
    if args.within && target.level.is_none() && target.er.is_none() && !target.no_guess {
        bail!("--within needs a target to stay within: --level, --er or --no-guess");
    }
    let within = |puzzle: &Grid| target.within(puzzle);
    let bound: Option<&generate::Bound> = args.within.then_some(&within);
    let make = |index: &u64| -> Outcome {
        let seed = puzzle_seed(master, *index);
        let mut rng = Rng::new(seed);
        let deadline = args.timeout.map(|t| std::time::Instant::now() + t);
        let geometry = match &geometry {
            Some(g) => Ok(g.clone()),
            None => generate::new_geometry(
                args.shape,
                &options.variant,
                args.symmetry,
                &mut rng,
                deadline,
            ),
        };
        let opts = Options {
            symmetry: args.symmetry,
            pattern: pattern.clone(),
            max_clues: args.max_clues,
            min_clues: args.min_clues,
            from: from.clone(),
            // Each attempt draws its own grid (one drawn per puzzle left a fixed
            // --pattern the same grid every attempt).
            uniform: args.uniform || n == 4,
            accept,
            bound,
            attempts: args.attempts,
            deadline,
        };
        let made = match &geometry {
            Ok(g) => generate::generate(g, &opts, &mut rng),
            Err(e) => Err(e.clone()),
        };
        // The variant and region map come from the geometry, so a failed puzzle's
        // record carries them too (not a map none of whose grids was found).
        let (shape, variant, regions) = match &geometry {
            Ok(g) => (
                g.name().to_string(),
                g.variant().clone(),
                g.variant().region_labels(),
            ),
            Err(_) => (format!("jigsaw {n}"), options.variant.clone(), None),
        };
        let variant = Some(variant)
            .filter(|v| !v.is_standard())
            .map(|v| v.to_string());
        render(
            *index,
            seed,
            made,
            format,
            &style,
            symmetry_name,
            (&shape, variant, regions),
            args.symmetry,
        )
    };
    let threads = crate::threads(args.threads);
    let mut out = output::Headers::new(output::stdout());
    let summary = batch::run_numbered(args.count, threads, make, &mut out)?;
    if args.summary {
        eprintln!("{}", summary.line("generated"));
    }
    Ok(summary.exit_code())
}

#[allow(clippy::too_many_arguments)]
fn render(
    index: u64,
    seed: u64,
    made: Result<Generated, generate::GenerateError>,
    format: OutputFormat,
    style: &sudokit::format::SymbolStyle,
    symmetry: &str,
    (shape, variant, regions): (&str, Option<String>, Option<String>),
    sym: Symmetry,
) -> Outcome {
    match made {
        Ok(g) => {
            let puzzle = output::line(&g.puzzle, style);
            let text = match format {
                OutputFormat::Json => {
                    let rating = sudokit::logic::rate(&sudokit::logic::State::from_grid(&g.puzzle));
                    let record = JsonRecord {
                        index: index + 1,
                        puzzle: Some(puzzle),
                        solution: Some(output::line(&g.solution, style)),
                        clues: Some(g.puzzle.filled()),
                        symmetry,
                        shape,
                        variant,
                        regions,
                        minimal: g.minimality(sym),
                        seed,
                        attempts: Some(g.attempts),
                        er: rating.er.map(|t| f64::from(t) / 10.0),
                        level: Some(rating.level.name()),
                        techniques: Some(
                            rating
                                .techniques
                                .iter()
                                .map(|(t, _)| t.name().to_string())
                                .collect(),
                        ),
                        error: None,
                    };
                    serde_json::to_string(&record).expect("records serialise") + "\n"
                }
                OutputFormat::Pretty => format!(
                    "{}# {} seed {seed}\n{}\n",
                    output::variant_header(&g.puzzle),
                    index + 1,
                    output::side_by_side(&g.puzzle, Some(&g.solution), style)
                ),
                OutputFormat::Matrix => format!(
                    "{}# {} seed {seed}\n{}\n",
                    output::variant_header(&g.puzzle),
                    index + 1,
                    sudokit::format::to_matrix(&g.puzzle)
                ),
                OutputFormat::Line => {
                    format!("{}{puzzle}\n", output::variant_header(&g.puzzle))
                }
            };
            Outcome {
                text,
                status: Status::Solved,
                diagnostic: None,
            }
        }
        Err(e) => {
            let text = match format {
                OutputFormat::Json => {
                    let record = JsonRecord {
                        index: index + 1,
                        puzzle: None,
                        solution: None,
                        clues: None,
                        symmetry,
                        shape,
                        variant,
                        regions,
                        minimal: None,
                        seed,
                        attempts: None,
                        er: None,
                        level: None,
                        techniques: None,
                        error: Some(e.to_string()),
                    };
                    serde_json::to_string(&record).expect("records serialise") + "\n"
                }
                _ => format!("# error: {e}\n"),
            };
            Outcome {
                text,
                status: Status::Timeout,
                diagnostic: Some(format!("puzzle {}: {e}", index + 1)),
            }
        }
    }
}

/// The first puzzle of a source, which must be a complete grid.
fn first_grid(src: &str, options: &sudokit::ReadOptions) -> Result<Grid> {
    let sources = input::sources(&[src.to_string()], None)?;
    let mut found = None;
    input::read_items(&sources, options, &mut |item| {
        found = Some(item.record);
        false
    })?;
    let record = found
        .context("--from: no grid found")?
        .map_err(|e| anyhow::anyhow!("--from: {e}"))?;
    if !record.grid.is_complete() || record.grid.first_conflict().is_some() {
        bail!("--from needs a complete, valid grid");
    }
    Ok(record.grid)
}

/// Reads a pattern of givens: `x` (or any digit, `#`, `*`) for a given, `.`, `0`, `_` or
/// `o` for an empty cell; blanks and `|`, `+`, `-` separators are ignored.
fn parse_pattern(text: &str, n: usize) -> Result<Vec<bool>> {
    let mut cells = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('#') && line.trim().len() > 1 {
            continue;
        }
        for (col, ch) in line.chars().enumerate() {
            match ch {
                'x' | 'X' | '#' | '*' | '1'..='9' => cells.push(true),
                '.' | '0' | '_' | 'o' | 'O' => cells.push(false),
                c if c.is_whitespace() || matches!(c, '|' | '+' | '-' | '=') => {}
                c => bail!(
                    "line {}, column {}: {c:?} is neither a given (x) nor empty (.)",
                    line_no + 1,
                    col + 1
                ),
            }
        }
    }
    if cells.len() != n * n {
        bail!("{} cells, but the grid has {}", cells.len(), n * n);
    }
    Ok(cells)
}

/// The fewest clues a unique puzzle can have: `n - 1` (two digits that appear nowhere
/// can be swapped in any solution), 17 on standard 9x9 (McGuire, Tugemann and Civario,
/// 2012), 4 on standard 4x4 (each of the 288 grids has a 4-clue puzzle and none a
/// 3-clue one, by enumeration).
fn fewest_clues(geometry: &Geometry) -> usize {
    match geometry.size() {
        _ if geometry.is_classic() => 17,
        4 if geometry.is_standard() => 4,
        n => n - 1,
    }
}

/// Refuses clue bounds no puzzle can meet before any search (each impossible request
/// once churned through every attempt): more clues than cells of a grid of side `n`, a
/// minimum above the maximum, or fewer clues than uniqueness needs (`fewest`, from
/// [`fewest_clues`]).
fn check_clue_bounds(
    min: Option<usize>,
    max: Option<usize>,
    n: usize,
    fewest: usize,
) -> Result<()> {
    let cells = n * n;
    if let Some(m) = min
        && m > cells
    {
        bail!("--min-clues {m} is more than the {cells} cells of a {n}x{n} grid");
    }
    if let (Some(lo), Some(hi)) = (min, max)
        && lo > hi
    {
        bail!("--min-clues {lo} is more than --clues {hi}");
    }
    if let Some(hi) = max
        && hi < fewest
    {
        bail!("--clues {hi}: a unique {n}x{n} puzzle of this kind needs at least {fewest} clues");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_parse() {
        let p =
            parse_pattern("x . | x .\n. x | . x\n----+----\nx . | . .\n. . | . x\n", 4).unwrap();
        assert_eq!(p.iter().filter(|&&g| g).count(), 6);
        assert!(parse_pattern("x.?.", 2).is_err());
        assert!(parse_pattern("x.", 2).is_err());
    }

    #[test]
    fn puzzle_seeds_are_stable() {
        assert_eq!(puzzle_seed(42, 0), 42);
        assert_eq!(puzzle_seed(42, 5), puzzle_seed(42, 5));
        assert_ne!(puzzle_seed(42, 5), puzzle_seed(42, 6));
        assert!((1..1000).all(|i| puzzle_seed(u64::MAX, i) < 1 << 53));
    }

    #[test]
    fn variants_parse_for_generation() {
        let _: sudokit::Variant = "x".parse().unwrap();
    }
}
