//! What `--engine`, `--pick`, `--stats` and `--trace` share across solve, count, all and
//! check: choosing the engine, running it with a trace, and rendering statistics and
//! steps as text and JSON (one rendering for every command).
//!
//! JSON: `stats` is an object with the keys that apply to the engine (`steps`, `calls`,
//! `max_depth`, `guesses`, `first_solution_call`, `first_solution_depth`); `trace` is an
//! array of steps `{"step", "depth", "cell", "value", "reason"}` (`cell` in r1c1
//! notation, `reason` one of `given`, `singleton`, `hidden single`, `guess`, `dead end`,
//! `backtrack`; `step` is the step counter after the step, Moler's count).

use anyhow::{Result, bail};
use serde::Serialize;
use sudokit::engines::{self, Engine, Hooks, Outcome, Pick, Stats, Step};
use sudokit::solve::Limits;
use sudokit::{Geometry, Grid};

use crate::cli::{EngineArgs, EngineName, PickName};

/// The engine the arguments ask for; `--pick` belongs to Moler's engine only.
pub fn engine(args: &EngineArgs) -> Result<Engine> {
    let pick = args.pick.map(|p| match p {
        PickName::FirstMin => Pick::FirstMin,
        PickName::LastMin => Pick::LastMin,
        PickName::FirstEmpty => Pick::FirstEmpty,
    });
    if pick.is_some() && args.engine != EngineName::Moler {
        bail!("--pick chooses the branching cell of --engine moler (exercise 14.11)");
    }
    if args.trace && args.engine == EngineName::Fast {
        bail!(
            "--trace follows a seed engine step by step: use --engine moler, octave, fallin, kronecker or gubin"
        );
    }
    Ok(named(args.engine, pick.unwrap_or_default()))
}

/// The engine of a name.
pub fn named(name: EngineName, pick: Pick) -> Engine {
    match name {
        EngineName::Fast => Engine::Fast,
        EngineName::Moler => Engine::Moler(pick),
        EngineName::Octave => Engine::Octave,
        EngineName::Fallin => Engine::Fallin,
        EngineName::Kronecker => Engine::Kronecker,
        EngineName::Gubin => Engine::Gubin,
    }
}

/// Runs `engine` and keeps the trace when asked.
pub fn run(
    engine: Engine,
    grid: &Grid,
    limits: &Limits,
    trace: bool,
    on_solution: &mut dyn FnMut(&[u8], &Stats) -> bool,
) -> (Outcome, Vec<Step>) {
    let mut steps = Vec::new();
    let mut record = |s: &Step| steps.push(*s);
    let outcome = engines::run(
        engine,
        grid,
        limits,
        Hooks {
            on_solution,
            on_step: if trace { Some(&mut record) } else { None },
        },
    );
    (outcome, steps)
}

/// `steps 50, calls 12, max depth 4, guesses 2`: the fields that apply.
pub fn stats_text(stats: &Stats) -> String {
    let mut parts = Vec::new();
    let mut add = |name: &str, v: Option<String>| {
        if let Some(v) = v {
            parts.push(format!("{name} {v}"));
        }
    };
    add("steps", stats.steps.map(|v| v.to_string()));
    add("calls", stats.calls.map(|v| v.to_string()));
    add("max depth", stats.max_depth.map(|v| v.to_string()));
    add("guesses", stats.guesses.map(|v| v.to_string()));
    add(
        "first solution at call",
        stats.first_solution_call.map(|v| v.to_string()),
    );
    add(
        "first solution depth",
        stats.first_solution_depth.map(|v| v.to_string()),
    );
    parts.join(", ")
}

/// The statistics at the moment a solution was found, without the first-solution
/// fields (the same on every line).
pub fn stats_text_at_solution(stats: &Stats) -> String {
    stats_text(&Stats {
        first_solution_call: None,
        first_solution_depth: None,
        ..*stats
    })
}

/// The JSON object of [`Stats`] (absent fields left out).
#[derive(Serialize)]
pub struct JsonStats {
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    calls: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_depth: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    guesses: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_solution_call: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_solution_depth: Option<u32>,
}

impl From<&Stats> for JsonStats {
    fn from(s: &Stats) -> JsonStats {
        JsonStats {
            steps: s.steps,
            calls: s.calls,
            max_depth: s.max_depth,
            guesses: s.guesses,
            first_solution_call: s.first_solution_call,
            first_solution_depth: s.first_solution_depth,
        }
    }
}

/// One step in JSON.
#[derive(Serialize)]
pub struct JsonStep {
    step: u64,
    depth: u32,
    cell: String,
    value: u8,
    reason: &'static str,
}

/// The JSON array of a trace.
pub fn json_trace(steps: &[Step], geometry: &Geometry) -> Vec<JsonStep> {
    steps
        .iter()
        .map(|s| JsonStep {
            step: s.steps,
            depth: s.depth,
            cell: geometry.cell_name(s.cell),
            value: s.value,
            reason: s.reason.name(),
        })
        .collect()
}

/// One trace line: `# step  7 depth 1: r6c1=6 guess`.
pub fn trace_line(step: &Step, geometry: &Geometry) -> String {
    format!(
        "# step {:>3} depth {}: {}\n",
        step.steps,
        step.depth,
        step.describe(geometry)
    )
}

/// A whole trace as comment lines.
pub fn trace_text(steps: &[Step], geometry: &Geometry) -> String {
    steps.iter().map(|s| trace_line(s, geometry)).collect()
}
