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
    /// Count the solutions of each puzzle (`--limit` stops early).
    Count(CountArgs),
    /// Print every solution of each puzzle, one per line, as they are found.
    All(AllArgs),
    /// Verdict per puzzle: none, unique, multiple or invalid; whether it needs a guess;
    /// with `--minimal`, whether every given is needed. Exit code 0 when all are unique.
    Check(CheckArgs),
    /// The general solution: every value each cell takes over all solutions, as pencil
    /// marks, and the cells that are the same in all solutions.
    General(GeneralArgs),
}

/// Which engine runs, and what it reports.
#[derive(Debug, Args, Clone, Default)]
pub struct EngineArgs {
    /// The engine: `fast` (the library's search) or a seed document's program, step for
    /// step: `moler` (Moler's sudoku_basic/sudoku_all), `octave` (the Linux Gazette
    /// sudoku01.m), `fallin` (Fallin's reduce/solve), `kronecker` (the Kronecker-product
    /// one-liner), `gubin` (Gubin's compatibility matrices, 9x9).
    #[arg(long, value_enum, default_value_t = EngineName::Fast)]
    pub engine: EngineName,
    /// Moler's branching choice (exercise 14.11): the first or last cell with fewest
    /// candidates, or the first empty cell (column-major, as MATLAB's find).
    #[arg(long, value_enum, value_name = "PICK")]
    pub pick: Option<PickName>,
    /// Report the engine's statistics (steps, calls, max depth, guesses, first solution
    /// call and depth; JSON key `stats`).
    #[arg(long)]
    pub stats: bool,
    /// Print every step of a seed engine: cell, value, reason (given, singleton, hidden
    /// single, guess, dead end, backtrack) and depth.
    #[arg(long)]
    pub trace: bool,
}

/// `--engine` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum EngineName {
    /// The library's exact search.
    #[default]
    Fast,
    /// Moler, Experiments with MATLAB, ch. 14.
    Moler,
    /// Luaña and Otero-de-la-Roza, Linux Gazette 174.
    Octave,
    /// Fallin, Sudoku and Recursive Algorithms.
    Fallin,
    /// The one-screen MATLAB solver of "Solving Soduko in Matlab".
    Kronecker,
    /// Gubin, A Sudoku Solver (compatibility matrices).
    Gubin,
}

/// `--pick` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PickName {
    /// `find(N==min(N),1)`, the book's choice.
    FirstMin,
    /// `find(N==min(N),1,'last')`.
    LastMin,
    /// `find(X==0,1,'first')`.
    FirstEmpty,
}

/// Arguments of `sudokit count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// Input.
    #[command(flatten)]
    pub input: InputArgs,
    /// Running and output.
    #[command(flatten)]
    pub run: RunArgs,
    /// Engine.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Stop counting at N solutions (the count is then a lower bound: `complete` is
    /// false).
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
}

/// Arguments of `sudokit all`.
#[derive(Debug, Args)]
pub struct AllArgs {
    /// Input.
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format of each solution (default: one line each).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<OutputFormat>,
    /// Engine.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// At most N solutions per puzzle.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Give up on a puzzle after this long.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<Duration>,
}

/// Arguments of `sudokit check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Input.
    #[command(flatten)]
    pub input: InputArgs,
    /// Running and output.
    #[command(flatten)]
    pub run: RunArgs,
    /// Engine.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Also test whether every given is needed (unique puzzles): removing any one must
    /// lose uniqueness.
    #[arg(long)]
    pub minimal: bool,
}

/// Arguments of `sudokit general`.
#[derive(Debug, Args)]
pub struct GeneralArgs {
    /// Input.
    #[command(flatten)]
    pub input: InputArgs,
    /// Running and output (default format: pencil marks).
    #[command(flatten)]
    pub run: RunArgs,
    /// `fast` (enumerate, or test candidates one by one) or `gubin` (depletion of the
    /// compatibility matrices, then the same test; JSON adds `depleted` and `outcome`).
    #[arg(long, value_enum, default_value_t = EngineName::Fast)]
    pub engine: EngineName,
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
    /// Engine.
    #[command(flatten)]
    pub engine: EngineArgs,
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
