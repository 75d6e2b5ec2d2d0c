//! Command-line definitions (clap derive). Every subcommand is a thin layer over the
//! library; the options shared by the batch commands live in flattened structs.

use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use sudokit::{Shape, Variant};

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
    /// Export puzzles for other tools: `--cnf` writes DIMACS CNF for SAT solvers.
    Export(ExportArgs),
    /// Draw puzzles for print: SVG, or a PDF booklet with the solutions at the end.
    Render(RenderArgs),
    /// Generate unique, minimal puzzles: by symmetry, pattern, clue count, any shape.
    Generate(GenerateArgs),
    /// Apply validity-preserving operations (transpose, rotate, flip, relabel, permute
    /// bands, stacks, rows, columns) to every puzzle.
    Transform(TransformArgs),
    /// Replace every puzzle by a uniformly random member of its equivalence class.
    Shuffle(ShuffleArgs),
    /// Print every puzzle's canonical (minlex) form; in JSON also its automorphism
    /// count and the transformation that produces the form.
    Canon(CanonArgs),
    /// Tell whether two puzzles are equivalent (exit 0) or not (exit 1), and how one maps
    /// onto the other.
    Equiv(EquivArgs),
    /// Keep the first puzzle of every equivalence class, in input order.
    Dedupe(DedupeArgs),
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
    /// Solve puzzles step by step with human techniques, easiest first, explaining each
    /// step.
    Explain(ExplainArgs),
    /// The next logical step for a puzzle or a pencil-mark grid (the current state).
    Hint(HintArgs),
    /// Rate puzzles: Sudoku Explainer's ER/EP/ED and a HoDoKu-style level and score.
    Rate(RateArgs),
    /// Serve a local web page that shows engines solving step by step and helps solve
    /// by hand (JSON endpoints too); 127.0.0.1 only unless `--bind` says otherwise.
    Serve(crate::commands::serve::ServeArgs),
    /// Play in the terminal, with pencil marks, hints from the logic engine, undo and
    /// redo, check, timer, saved games and new puzzles by level.
    Play(PlayArgs),
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
    /// Search bounds.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Engine.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Stop counting at N solutions (the count is then a lower bound: `complete` is
    /// false).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// For an empty grid, count the essentially different grids instead: two grids are
    /// one if reordering bands, rows within a band, stacks, columns within a stack,
    /// transposing (square boxes) and relabelling map one onto the other. 9x9 (about 6 s
    /// on two cores), boxes two cells wide or high up to 8x8, and Latin squares up to
    /// order 8 (any row and column reordering; order 8 takes 30-45 s).
    #[arg(long, conflicts_with = "limit")]
    pub essentially_different: bool,
    /// With --essentially-different: transposing is not one of the symmetries.
    #[arg(long, requires = "essentially_different")]
    pub no_transposing: bool,
    /// With --essentially-different, for Latin squares: count main classes, a square's
    /// conjugates (rows, columns and symbols trading roles) being the same square too.
    #[arg(
        long,
        requires = "essentially_different",
        conflicts_with = "no_transposing"
    )]
    pub main_classes: bool,
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
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
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
    /// Search bounds.
    #[command(flatten)]
    pub limits: LimitArgs,
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
    /// Search bounds.
    #[command(flatten)]
    pub limits: LimitArgs,
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
    /// Puzzle type: `standard`, `latin` (rows and columns only), `x` (both diagonals),
    /// `windoku` (extra windows), `jigsaw` (irregular regions), `disjoint` (the cells at
    /// one position of every box), `centre-dot` (the boxes' centres), `asterisk` and
    /// `girandola` (nine cells each, 9x9), `extra=MAP` (houses of your own: one label per
    /// cell, `.` for none, each label on n cells; several maps for crossing houses);
    /// combine with commas (`x,jigsaw`).
    /// Files can also say `# variant: x` before their puzzles.
    #[arg(long, value_name = "VARIANT", value_parser = parse_variant)]
    pub variant: Option<Variant>,
    /// Jigsaw region map: n*n labels, one per cell row by row (`111222333...`), each
    /// label covering n cells. Implies `--variant jigsaw`.
    #[arg(long, value_name = "LABELS", value_parser = parse_regions)]
    pub regions: Option<Regions>,
}

/// A validated jigsaw region map (region of every cell, from 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regions(pub Vec<u8>);

pub(crate) fn parse_variant(text: &str) -> Result<Variant, String> {
    text.parse()
        .map_err(|e: sudokit::variant::VariantError| e.to_string())
}

pub(crate) fn parse_level(text: &str) -> Result<sudokit::logic::Level, String> {
    use sudokit::logic::Level;
    [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Unfair,
        Level::Extreme,
    ]
    .into_iter()
    .find(|l| l.name() == text.to_ascii_lowercase())
    .ok_or_else(|| format!("unknown level {text:?} (easy, medium, hard, unfair, extreme)"))
}

pub(crate) fn parse_technique(text: &str) -> Result<sudokit::logic::Technique, String> {
    sudokit::logic::Technique::from_name(&text.to_ascii_lowercase())
        .ok_or_else(|| format!("unknown technique {text:?} (kebab-case, e.g. x-wing)"))
}

/// An SE rating window in tenths: `7.0..8.0`, `7..8`, or a single value.
pub(crate) fn parse_er_window(text: &str) -> Result<(u16, u16), String> {
    let tenths = |t: &str| -> Result<u16, String> {
        let v: f64 = t
            .trim()
            .parse()
            .map_err(|_| format!("{t:?} is not a rating like 7.2"))?;
        if !(0.0..=20.0).contains(&v) {
            return Err(format!("rating {v} is outside 0.0..20.0"));
        }
        Ok((v * 10.0).round() as u16)
    };
    let (lo, hi) = match text.split_once("..") {
        Some((a, b)) => (tenths(a)?, tenths(b)?),
        None => (tenths(text)?, tenths(text)?),
    };
    if lo > hi {
        return Err(format!("empty window {text:?}"));
    }
    Ok((lo, hi))
}

/// A thread count: at least one, and at most 1,024 (a million threads took the
/// machine's time spawning them, for one puzzle).
fn parse_threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n @ 1..=1024) => Ok(n),
        _ => Err(format!("{text:?} is not a thread count from 1 to 1024")),
    }
}

pub(crate) fn parse_regions(text: &str) -> Result<Regions, String> {
    Variant::parse_region_map(text)
        .map(Regions)
        .map_err(|e| e.to_string())
}

/// Output format of batch commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// One line per puzzle (the default, but for `general`, `explain --verbose` and the
    /// built-in example of a bare `solve`, which print grids).
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
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Print a summary (puzzles, outcomes, seconds, puzzles/s) on standard error.
    #[arg(long)]
    pub summary: bool,
    /// Append each puzzle's id and trailing comment to its output line.
    #[arg(long)]
    pub comments: bool,
}

/// Bounds on the search for each puzzle, for the commands that search (the others
/// refuse these options rather than ignore them).
#[derive(Debug, Args, Clone, Default)]
pub struct LimitArgs {
    /// Give up on a puzzle after this long (e.g. `500ms`, `2s`, `1m`); it gets a
    /// `timeout` record.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<Duration>,
    /// Give up on a puzzle after this many search nodes (guesses).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub node_limit: Option<u64>,
}

impl LimitArgs {
    /// The library's bounds on one puzzle's search for up to `solutions` solutions,
    /// its clock starting now.
    pub fn for_puzzle(&self, solutions: u64) -> sudokit::solve::Limits {
        sudokit::solve::Limits {
            solutions,
            nodes: self.node_limit,
            deadline: self.timeout.map(|t| std::time::Instant::now() + t),
        }
    }
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
    /// Search bounds.
    #[command(flatten)]
    pub limits: LimitArgs,
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
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
    pub rounds: u64,
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

/// Arguments of `sudokit export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Input.
    #[command(flatten)]
    pub input: InputArgs,
    /// Write DIMACS CNF (variable c*n+d: cell c, row-major from 0, holds digit d).
    #[arg(long, required = true)]
    pub cnf: bool,
    /// Write one file per puzzle (`1.cnf`, `2.cnf`, ...) into this folder; without it,
    /// the input must hold exactly one puzzle, written to standard output.
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<std::path::PathBuf>,
}

/// Arguments of `sudokit render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Input.
    #[command(flatten)]
    pub input: InputArgs,
    /// Write a PDF booklet of every puzzle to this file (solutions on the last pages).
    #[arg(long, value_name = "FILE")]
    pub pdf: Option<std::path::PathBuf>,
    /// Write one SVG per puzzle (`1.svg`, `2.svg`, ...) into this folder; without it
    /// (and without --pdf) the single puzzle's SVG goes to standard output.
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<std::path::PathBuf>,
    /// Show the solution's digits (SVG).
    #[arg(long)]
    pub solution: bool,
    /// Show the pencil marks of empty cells (SVG).
    #[arg(long)]
    pub candidates: bool,
    /// Puzzles per PDF page: 1, 2, 4, 6, 8, 9 or 12.
    #[arg(long, default_value_t = 4, value_parser = parse_per_page)]
    pub per_page: usize,
    /// A title for the booklet's pages.
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
}

/// Arguments of `sudokit generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Number of puzzles.
    #[arg(short = 'n', long = "count", default_value_t = 1)]
    pub count: u64,
    /// Box shape RxC (default 3x3).
    #[arg(long, value_name = "RxC")]
    pub shape: Option<Shape>,
    /// Puzzle type (see `solve --help`); a jigsaw without --regions draws a map for each puzzle.
    #[arg(long, value_name = "VARIANT", value_parser = parse_variant)]
    pub variant: Option<Variant>,
    /// Jigsaw region map (n*n labels); without it each puzzle draws its own.
    #[arg(long, value_name = "LABELS", value_parser = parse_regions)]
    pub regions: Option<Regions>,
    /// Digit symbols for the output (see `solve --help`).
    #[arg(long, value_name = "ALPHABET")]
    pub symbols: Option<String>,
    /// Master seed: the same seed gives the same puzzles whatever --threads is. Each
    /// puzzle's own seed (JSON key `seed`) regenerates it alone. Random when omitted
    /// (then printed on standard error).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Symmetry of the givens: none, rot180, rot90, mirror-h, mirror-v, mirror-both,
    /// diagonal, antidiagonal, bidiagonal, dihedral. Clues are removed in symmetric
    /// groups; the result is minimal under the symmetry. A drawn jigsaw map takes it
    /// too where it can.
    #[arg(long, default_value = "none", value_name = "SYMMETRY")]
    pub symmetry: sudokit::generate::Symmetry,
    /// A file with the exact pattern of givens: a grid of `x` (given) and `.` (empty).
    #[arg(long, value_name = "FILE")]
    pub pattern: Option<std::path::PathBuf>,
    /// At most this many clues.
    #[arg(long = "clues", value_name = "MAX")]
    pub max_clues: Option<usize>,
    /// At least this many clues.
    #[arg(long, value_name = "MIN")]
    pub min_clues: Option<usize>,
    /// Dig this complete grid (a source: file, text or name) instead of random ones.
    #[arg(long, value_name = "GRID")]
    pub from: Option<String>,
    /// Draw complete grids exactly uniformly (shapes up to 6x6; slower). 4x4 grids are
    /// always drawn uniformly.
    #[arg(long)]
    pub uniform: bool,
    /// Difficulty level of the human path (HoDoKu's levels): easy, medium, hard,
    /// unfair, extreme.
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    pub level: Option<sudokit::logic::Level>,
    /// Sudoku Explainer rating window, e.g. `7.0..8.0` (or one value, `7.2`).
    #[arg(long, value_name = "LO..HI", value_parser = parse_er_window)]
    pub er: Option<(u16, u16)>,
    /// A technique the human path must use (kebab-case, as `explain` prints them:
    /// x-wing, xy-wing, swordfish...); repeatable. One the path never takes on the grid
    /// (Sudoku Explainer's own, like x-cycle) is refused.
    #[arg(long, value_name = "TECHNIQUE", value_parser = parse_technique)]
    pub require: Vec<sudokit::logic::Technique>,
    /// Only puzzles that human techniques solve without guessing.
    #[arg(long)]
    pub no_guess: bool,
    /// Remove a clue only while the puzzle stays within --level, --er and --no-guess
    /// (no harder): easy targets are met at once on every variant, where minimal puzzles
    /// are seldom easy (X-sudoku, windoku). The puzzles are not minimal: a clue stays
    /// where removing it would make the puzzle harder than the target.
    #[arg(long)]
    pub within: bool,
    /// Give up on a puzzle after this many candidates.
    #[arg(long, default_value_t = 100_000, value_name = "N")]
    pub attempts: u64,
    /// Give up on a puzzle after this long (e.g. `30s`), even within an attempt; it
    /// gets an error record.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<Duration>,
    /// Output format: line (default), json, matrix or pretty (a grid per puzzle).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<OutputFormat>,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Print a summary on standard error.
    #[arg(long)]
    pub summary: bool,
}

/// Arguments of `sudokit explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Input: puzzles, or pencil-mark grids / 729-character candidates lines giving a
    /// current state (one a file, read whole).
    #[command(flatten)]
    pub input: InputArgs,
    /// Running and output.
    #[command(flatten)]
    pub run: RunArgs,
    /// Give up on a puzzle after this long (e.g. `500ms`, `2s`, `1m`), checked in the
    /// uniqueness proof and between steps; it gets a `timeout` record.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<Duration>,
    /// Print the pencil marks before each step and a sentence after it.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// The puzzle the pencil marks were made on (see `hint --help`). Only with
    /// pencil-mark grids.
    #[arg(long, value_name = "PUZZLE")]
    pub puzzle: Option<String>,
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
    /// The puzzle the pencil marks were made on (a built-in name, puzzle text or a
    /// file): its givens are placed, not taken for singles still to place when a
    /// peer's marks keep their digit. Only with pencil-mark grids.
    #[arg(long, value_name = "PUZZLE")]
    pub puzzle: Option<String>,
    /// Give up on a puzzle whose uniqueness is not settled after this long (a hard
    /// 25x25 takes seconds); it gets a `timeout` record.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<Duration>,
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
    /// Give up on a puzzle after this long (e.g. `500ms`, `2s`, `1m`), checked in the
    /// uniqueness proof and between steps; it gets a `timeout` record.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<Duration>,
}

/// Arguments of `sudokit play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The puzzle: a built-in name (`lo-shu`), puzzle text, or a file (its first
    /// puzzle). Without it, a new puzzle of `--level` is made.
    #[arg(value_name = "PUZZLE", conflicts_with_all = ["level", "load"])]
    pub puzzle: Option<String>,
    /// Level of the new puzzle (default easy).
    #[arg(long, value_enum, conflicts_with = "load")]
    pub level: Option<PlayLevel>,
    /// Box shape RxC: of the puzzle when it cannot be inferred, or of the new puzzle
    /// (default 3x3; 2x2 for 4x4 up to 4x4 for 16x16).
    #[arg(long, value_name = "RxC")]
    pub shape: Option<Shape>,
    /// Digit symbols (see `solve --help`), e.g. `ABCDEFGHI` for Moler's letters.
    #[arg(long, value_name = "ALPHABET")]
    pub symbols: Option<String>,
    /// Puzzle type (see `solve --help`): of the puzzle, or of the new puzzle (`x`,
    /// `windoku`, `latin`, `jigsaw`: with `--regions`, or on a map drawn at random).
    #[arg(long, value_name = "VARIANT", value_parser = parse_variant, conflicts_with = "load")]
    pub variant: Option<Variant>,
    /// Jigsaw region map (see `solve --help`). Implies `--variant jigsaw`.
    #[arg(long, value_name = "LABELS", value_parser = parse_regions, conflicts_with = "load")]
    pub regions: Option<Regions>,
    /// Resume a game saved with `s`.
    #[arg(long, value_name = "FILE")]
    pub load: Option<std::path::PathBuf>,
    /// Where `s` saves and `o` loads (default: the `--load` file, else
    /// `sudokit-play.txt`).
    #[arg(long, value_name = "FILE")]
    pub save: Option<std::path::PathBuf>,
    /// Seed of new puzzles (random when omitted).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

/// `play --level` values: HoDoKu's levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PlayLevel {
    /// Singles only.
    Easy,
    /// Intersections and small subsets.
    Medium,
    /// Fish, wings, single-digit patterns, uniqueness.
    Hard,
    /// Chains, ALS, finned fish.
    Unfair,
    /// Forcing chains and nets.
    Extreme,
}

/// Arguments of `sudokit puzzles`.
#[derive(Debug, Args)]
pub struct PuzzlesArgs {
    /// A puzzle to print (one line), instead of the list.
    pub name: Option<String>,
}

fn parse_per_page(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n @ (1 | 2 | 4 | 6 | 8 | 9 | 12)) => Ok(n),
        _ => Err("puzzles per page: 1, 2, 4, 6, 8, 9 or 12".to_string()),
    }
}

/// Arguments of `sudokit transform`.
#[derive(Debug, Args)]
pub struct TransformArgs {
    /// Operations, comma-separated, applied left to right: `transpose`; `rot90`,
    /// `rot180`, `rot270` (counterclockwise, as MATLAB's rot90(X,k)); `flip-v` (upside
    /// down, flipud); `flip-h` (mirror, fliplr); `relabel=912345678` (digit 1 becomes 9,
    /// 2 becomes 1, ...); `bands=312` (new bands are old bands 3, 1, 2); `stacks=213`;
    /// `rows=1:213` (rows within band 1); `cols=3:132` (columns within stack 3);
    /// `rows=PERM` / `cols=PERM` (a whole band- / stack-preserving permutation). Items
    /// are 1-9 then A-Z, or numbers separated by `.`. Transposition and quarter turns
    /// need square boxes (a 2x3 grid turned on its side has 3x2 boxes). A variant takes
    /// the operations that carry each of its houses onto a house (X-sudoku: turns,
    /// flips, relabelling); a Latin square any row and column permutation.
    #[arg(long, short = 'o', value_name = "OPS", required = true)]
    pub op: String,
    /// Input.
    #[command(flatten)]
    pub input: InputArgs,
    /// Running and output.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Arguments of `sudokit shuffle`.
#[derive(Debug, Args)]
pub struct ShuffleArgs {
    /// Seed for reproducible shuffles (puzzle N always gets the same transformation for
    /// a given seed, whatever the thread count); random when omitted.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Input.
    #[command(flatten)]
    pub input: InputArgs,
    /// Running and output.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Arguments of `sudokit canon`.
#[derive(Debug, Args)]
pub struct CanonArgs {
    /// Input.
    #[command(flatten)]
    pub input: InputArgs,
    /// Running and output.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Arguments of `sudokit equiv`.
#[derive(Debug, Args)]
pub struct EquivArgs {
    /// The first puzzle: a file (its first puzzle), `-`, a built-in name or puzzle text.
    #[arg(value_name = "A")]
    pub a: String,
    /// The second puzzle.
    #[arg(value_name = "B")]
    pub b: String,
    /// Box shape RxC, when it cannot be inferred.
    #[arg(long, value_name = "RxC")]
    pub shape: Option<Shape>,
    /// Digit symbols (as for `solve`).
    #[arg(long, value_name = "ALPHABET")]
    pub symbols: Option<String>,
    /// Puzzle type (as for `solve`): `x`, `windoku`, `jigsaw`, ... Variants compare
    /// under the transformations that keep their houses.
    #[arg(long, value_name = "VARIANT", value_parser = parse_variant)]
    pub variant: Option<Variant>,
    /// Jigsaw region map (as for `solve`).
    #[arg(long, value_name = "LABELS", value_parser = parse_regions)]
    pub regions: Option<Regions>,
    /// Output format: `line` (a sentence) or `json` (`matrix` and `pretty` print the
    /// sentences as `line` does).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<OutputFormat>,
}

/// Arguments of `sudokit dedupe`.
#[derive(Debug, Args)]
pub struct DedupeArgs {
    /// Input.
    #[command(flatten)]
    pub input: InputArgs,
    /// Running and output.
    #[command(flatten)]
    pub run: RunArgs,
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
    // Every duration here is a time limit: zero stopped some commands before they
    // began and went unnoticed by others that finish before looking at the clock.
    if seconds == 0.0 {
        return Err(format!("{text:?}: a time limit must be more than zero"));
    }
    // A deadline is now plus the duration: one past what a clock holds would panic.
    if seconds > MAX_DURATION_SECS {
        return Err(format!(
            "{text:?} is longer than a year; leave the option out to wait without limit"
        ));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// The longest duration an option takes: a year.
const MAX_DURATION_SECS: f64 = 365.0 * 24.0 * 3600.0;

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
        assert!(parse_duration("0").is_err());
        assert!(parse_duration("0ms").is_err());
        assert!(parse_duration("3 parsecs").is_err());
        // Found by QA: a deadline this far out overflowed the clock and panicked.
        assert!(parse_duration("18446744073709551615s").is_err());
        assert!(parse_duration("9000h").is_err());
        assert!(parse_duration("8000h").is_ok());
    }

    #[test]
    fn cli_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
