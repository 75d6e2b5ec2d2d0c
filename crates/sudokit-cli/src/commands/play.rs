//! `sudokit play`: the terminal player. Builds the starting [`Game`] from the
//! arguments (a puzzle, a new puzzle of a level, or a saved game) and hands it to the
//! `sudokit-play` crate, which owns the game, its view and the event loop.
//!
//! Exit codes: 0 after the player quits; 2 when the puzzle or saved game cannot be
//! read, no puzzle of the level could be made, or standard input/output is not a
//! terminal.

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use sudokit::Symbols;
use sudokit::format::SymbolStyle;
use sudokit::logic::Level;
use sudokit::rng::Rng;
use sudokit::symbols::Digits;
use sudokit_play::{Game, Options, levels, term};

use crate::cli::{InputArgs, PlayArgs, PlayLevel};
use crate::input;

/// The save file when neither `--save` nor `--load` names one.
const DEFAULT_SAVE: &str = "sudokit-play.txt";

/// Runs `sudokit play`.
pub fn run(args: PlayArgs) -> Result<u8> {
    let seed = args.seed.unwrap_or_else(Rng::fresh_seed);
    let input_args = InputArgs {
        shape: args.shape,
        symbols: args.symbols.clone(),
        variant: args.variant.clone(),
        regions: args.regions.clone(),
        ..InputArgs::default()
    };
    let game = if let Some(path) = &args.load {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        Game::from_save(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?
    } else if let Some(source) = &args.puzzle {
        let read = |symbols: Option<String>| {
            let options = input::read_options(&InputArgs {
                symbols,
                ..input_args.clone()
            })?;
            input::first_puzzle(source, &options)
        };
        // A puzzle written in digits (a built-in one, say) can still be shown in the
        // `--symbols` letters.
        let record = read(args.symbols.clone()).or_else(|e| match &args.symbols {
            Some(_) => read(None).map_err(|_| e),
            None => Err(e),
        })?;
        let grid = record.grid;
        let symbols = symbols(args.symbols.as_deref(), grid.size())?;
        if let Some(c) = grid.first_conflict() {
            let why = c.describe_in(grid.geometry(), Digits::symbols(&symbols));
            bail!("{source}: {why}");
        }
        Game::new(grid, symbols, source)
    } else {
        let level = level(args.level.unwrap_or(PlayLevel::Easy));
        let variant = input::read_options(&input_args)?.variant;
        let mut rng = Rng::new(seed);
        // A jigsaw without a map draws one, as `generate` does.
        let geometry = sudokit::generate::new_geometry(
            args.shape,
            &variant,
            sudokit::generate::Symmetry::None,
            &mut rng,
            None,
        )?;
        let symbols = symbols(args.symbols.as_deref(), geometry.size())?;
        let (made, got) = levels::new_puzzle(&geometry, level, &mut rng, levels::BUDGET)
            .map_err(|e| anyhow!("no {} {} puzzle: {e}", level.name(), geometry.name()))?;
        Game::from_generated(made, level, got, symbols)
    };
    let save_path = args
        .save
        .or(args.load)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_SAVE));
    let options = Options {
        color: term::color_wanted(),
        save_path,
        seed,
    };
    sudokit_play::run(game, &options)?;
    Ok(0)
}

/// The alphabet for side `n`.
fn symbols(spec: Option<&str>, n: usize) -> Result<Symbols> {
    Ok(match input::symbol_style(spec) {
        SymbolStyle::Standard => Symbols::standard(n),
        SymbolStyle::ZeroBased => Symbols::zero_based(n),
        SymbolStyle::Custom(spec) => Symbols::custom(&spec, n)?,
    })
}

fn level(l: PlayLevel) -> Level {
    match l {
        PlayLevel::Easy => Level::Easy,
        PlayLevel::Medium => Level::Medium,
        PlayLevel::Hard => Level::Hard,
        PlayLevel::Unfair => Level::Unfair,
        PlayLevel::Extreme => Level::Extreme,
    }
}
