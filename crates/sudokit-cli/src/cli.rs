//! Command-line definitions (clap derive). Every subcommand is a thin layer over the
//! library; the options shared by the batch commands live in flattened structs.

use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use sudokit::Shape;

/// A Sudoku toolkit: solve, count, check, rate, generate and transform puzzles of every
/// size.
#[derive(Debug, Parser)]
#[command(name = "sudokit", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve puzzles: one record out per puzzle in, in input order, in parallel.
    ///
    /// With no input and standard input a terminal, solves Moler's Lo-Shu puzzle.
    Solve(SolveArgs),
    /// Measure single-threaded solving throughput per file (first solution and uniqueness).
    Bench(BenchArgs),
    /// List the built-in puzzles (those printed in the seed documents), or print one.
    Puzzles(PuzzlesArgs),
    /// Solve puzzles step by step with human techniques, easiest first, explaining each
    /// step.
    Explain(ExplainArgs),
    /// The next logical step for a puzzle or a pencil-mark grid (the current state).
    Hint(HintArgs),
    /// Rate puzzles: Sudoku Explainer's ER/EP/ED and a HoDoKu-style level and score.
    Rate(RateArgs),
}

/// Where puzzles come from and how to read them.
#[derive(Debug, Args, Clone, Default)]
pub struct InputArgs {
    /// Puzzle sources: files, `-` for standard input, built-in puzzle names (see
    /// `sudokit puzzles`), or puzzle text. Standard input when none is given.
    #[arg(value_name = "SOURCE")]
    pub sources: Vec<String>,
    /// Box shape RxC (box rows x box columns): 2x2 (4x4 Shidoku), 2x3, 3x2, 3x3, 4x4
    /// (16x16), 5x5 (25x25)... Inferred from each puzzle's size when omitted.
    #[arg(long, value_name = "RxC")]
    pub shape: Option<Shape>,
    /// Digit symbols: `1-9A-Z` (default: 1-9 then letters), `0-F` / `hex` (zero-based:
    /// 0 is a digit), or an explicit alphabet such as `ABCDEFGHI` (Moler's letters).
    #[arg(long, value_name = "ALPHABET")]
    pub symbols: Option<String>,
}

/// Output format of batch commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// One line per puzzle (the default when standard output is not a terminal).
    Line,
    /// JSON Lines: one object per puzzle.
    Json,
    /// The Octave `disp` matrix form: n lines of integers, 0 = empty.
    Matrix,
    /// Grids with box separators, puzzle and result side by side.
    Pretty,
}

/// How batch commands run and report.
#[derive(Debug, Args, Clone, Default)]
pub struct RunArgs {
    /// Output format.
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<OutputFormat>,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j', value_name = "N")]
    pub threads: Option<usize>,
    /// Print a summary (puzzles, outcomes, seconds, puzzles/s) on standard error.
    #[arg(long)]
    pub summary: bool,
    /// Append each puzzle's id and trailing comment to its output line.
    #[arg(long)]
    pub comments: bool,
    /// Give up on a puzzle after this long (e.g. `500ms`, `2s`, `1m`); it gets a
    /// `timeout` record.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<Duration>,
    /// Give up on a puzzle after this many search nodes (guesses).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
}

/// Arguments of `sudokit solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Input.
    #[command(flatten)]
    pub input: InputArgs,
    /// Running and output.
    #[command(flatten)]
    pub run: RunArgs,
    /// Also prove uniqueness (search for a second solution); puzzles with several
    /// solutions get status `multiple`.
    #[arg(long)]
    pub unique: bool,
}

/// Arguments of `sudokit bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Files of puzzles (one per line) to time.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,
    /// Modes to time: `first` (stop at the first solution), `unique` (count up to 2).
    #[arg(long, value_delimiter = ',', default_value = "unique,first")]
    pub modes: Vec<BenchMode>,
    /// Timed rounds per file and mode; the best is reported.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
    /// Box shape, when the files are not 9x9.
    #[arg(long, value_name = "RxC")]
    pub shape: Option<Shape>,
}

/// A benchmark mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BenchMode {
    /// Stop at the first solution.
    First,
    /// Count up to two solutions (proves uniqueness).
    Unique,
}

/// Arguments of `sudokit explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Input.
    #[command(flatten)]
    pub input: InputArgs,
    /// Running and output.
    #[command(flatten)]
    pub run: RunArgs,
    /// Print the pencil marks before each step and a sentence after it.
    #[arg(long, short = 'v')]
    pub verbose: bool,
}

/// Arguments of `sudokit hint`.
#[derive(Debug, Args)]
pub struct HintArgs {
    /// Input: puzzles, or one pencil-mark grid / 729-character candidates line giving
    /// the current state.
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format (`line` prints the step's short line and its sentence; `json` one
    /// object per puzzle).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<OutputFormat>,
}

/// Arguments of `sudokit rate`.
#[derive(Debug, Args)]
pub struct RateArgs {
    /// Input.
    #[command(flatten)]
    pub input: InputArgs,
    /// Running and output.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Arguments of `sudokit puzzles`.
#[derive(Debug, Args)]
pub struct PuzzlesArgs {
    /// A puzzle to print (one line), instead of the list.
    pub name: Option<String>,
}

/// Parses `250ms`, `2s`, `1.5s`, `3m`, `1h` or a plain number of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration like 500ms, 2s or 1m"))?;
    let seconds = match unit.trim() {
        "" | "s" => value,
        "ms" => value / 1000.0,
        "us" | "µs" => value / 1e6,
        "m" | "min" => value * 60.0,
        "h" => value * 3600.0,
        other => {
            return Err(format!(
                "unknown duration unit {other:?} (use ms, s, m or h)"
            ));
        }
    };
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(format!("{text:?} is not a valid duration"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("2s").unwrap(), Duration::from_secs(2));
        assert_eq!(parse_duration("250ms").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_duration("1.5").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("1m").unwrap(), Duration::from_secs(60));
        assert!(parse_duration("x").is_err());
        assert!(parse_duration("3 parsecs").is_err());
    }

    #[test]
    fn cli_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
