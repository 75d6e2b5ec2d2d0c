//! The `sudokit` command line. `main` only maps results to exit codes; every subcommand
//! lives in [`commands`] and calls the library.
//!
//! Exit codes: 0 success (every puzzle solved / unique / processed), 1 some puzzle had
//! no solution (or several, or hit a limit, where one was required), 2 input errors or
//! usage errors, 130 interrupted by Ctrl-C (after writing every record already read). A
//! closed output pipe ends the run quietly with 0.

mod batch;
mod cli;
mod commands;
mod input;
mod marks;
mod output;

use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;

use cli::{Cli, Command};

fn main() -> ExitCode {
    match run() {
        Ok(code) => ExitCode::from(code),
        Err(e) if output::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sudokit: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<u8> {
    let cli = Cli::parse();
    batch::handle_interrupts();
    match cli.command {
        Command::Solve(args) => commands::solve::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Puzzles(args) => commands::puzzles::run(args),
        Command::Export(args) => commands::export::run(args),
        Command::Render(args) => commands::render::run(args),
        Command::Generate(args) => commands::generate::run(args),
        Command::Transform(args) => commands::transform::run(args),
        Command::Shuffle(args) => commands::shuffle::run(args),
        Command::Canon(args) => commands::canon::run(args),
        Command::Equiv(args) => commands::equiv::run(args),
        Command::Dedupe(args) => commands::dedupe::run(args),
        Command::Count(args) => commands::count::run(args),
        Command::All(args) => commands::all::run(args),
        Command::Check(args) => commands::check::run(args),
        Command::General(args) => commands::general::run(args),
        Command::Explain(args) => commands::explain::run(args),
        Command::Hint(args) => commands::hint::run(args),
        Command::Rate(args) => commands::rate::run(args),
        Command::Serve(args) => commands::serve::run(args),
        Command::Play(args) => commands::play::run(args),
    }
}

/// Worker threads: the `--threads` value, else one per core.
pub fn threads(asked: Option<usize>) -> usize {
    asked
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}
