//! The JSON endpoints, as pure functions from a route and a request body to a status
//! code and a JSON body: no sockets here, so tests and the fuzz target call them
//! directly, and the HTTP layer ([`crate::server`]) only moves bytes.
//!
//! Every endpoint takes `POST` with a JSON object; unknown keys are rejected (a typo
//! should not silently fall back to a default). The keys shared by the puzzle
//! endpoints:
//!
//! | key | meaning |
//! |---|---|
//! | `puzzle` | the puzzle in any format `sudokit` reads (one line, a grid, a matrix), or a built-in name (`lo-shu`) |
//! | `shape` | optional box shape (`3x3`, `2x3`...); inferred from the text when absent |
//! | `variant` | optional variant (`x`, `windoku`, `latin`, `jigsaw`...) |
//! | `regions` | a jigsaw's region map: n*n labels, row by row (implies `jigsaw`) |
//!
//! Endpoints and their answers (every cell is a row-major index from 0; `cell_names`
//! and `name` keys give the `r1c1` form):
//!
//! * `/api/solve` (`engine`: `fast` (default), `moler`, `octave`, `fallin`,
//!   `kronecker`, `gubin`; `pick`: `first-min`, `last-min`, `first-empty` for moler;
//!   `max_steps`: trace cap, default 20,000): `status` (`solved`, `unsolvable`,
//!   `timeout`), `solution`, `stats` (the engine's `steps`, `calls`, `max_depth`,
//!   `guesses`, `first_solution_call`, `first_solution_depth`, those that apply),
//!   `trace` (seed engines: `[{step, depth, cell, name, value, reason}]`, `reason` one
//!   of `given`, `singleton`, `hidden single`, `guess`, `dead end`, `backtrack`),
//!   `truncated` (the trace hit `max_steps`), plus the board every answer describes.
//! * `/api/count` (`limit`, default 1,000): `count`, `complete`, `status`.
//! * `/api/check` (`minimal`: bool): `verdict` (`none`, `unique`, `multiple`,
//!   `invalid`, `timeout`), `needs_guess`, `conflict`, `solution`, `minimal`,
//!   `redundant`.
//! * `/api/explain`: `status` (`solved` or `stuck`), `steps` (see below).
//! * `/api/hint` (`candidates`: optional per-cell digit lists, the pencil marks of the
//!   current state): `status` (`step`; `solved`; `broken` when the entries and pencil
//!   marks leave no solution; `multiple` when they allow several), `step`.
//! * `/api/rate`: `er`, `ep`, `ed` (Sudoku Explainer scale, null when its techniques do
//!   not finish), `level`, `score`, `techniques` (`[{name, count}]`), `brute_force`.
//! * `/api/generate` (`shape`, `variant`, `regions`, `symmetry`, `seed`, `level`):
//!   `puzzle`, `solution`, `clues`, `seed`, `level`, and the board of the puzzle.
//! * `GET /api/puzzles`: the built-in puzzles (`name`, `source`, `note`, `puzzle`).
//!
//! The board (`/api/solve`, `/api/check`, `/api/explain`, `/api/hint`,
//! `/api/generate`): `puzzle` (one line), `size`, `shape` (the geometry's name: `3x3`,
//! `3x3 x`, `jigsaw 9`...), `variant` (`standard`, `x`...), `region_map` (a jigsaw's
//! labels, else null), `houses` (each house as its cells: the page computes candidates
//! from them, so it needs no geometry code of its own), `regions` (each cell's box or
//! region, null in a Latin square: the page draws the heavy lines between them) and
//! `shaded` (the cells of diagonals, windows and extra houses).
//!
//! A logic step: `technique`, `name`, `rating` (SE scale), `line`, `text`,
//! `placements` and `eliminations` (`[cell, digit]`), `cells`, `fins`, `houses` (cells
//! of the pattern's houses), `digits`.
//!
//! Errors are `{"error": "..."}` with 400 (bad JSON, bad puzzle), 404 (unknown route),
//! 405 (wrong method), 503 (time limit exceeded or too many jobs running), and from the
//! HTTP layer ([`crate::server`]) 408 (request not received in time), 413 (body too
//! large), 431 (head too large) and 501 (a transfer coding other than chunked).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sudokit::engines::{self, Engine, Hooks, Pick, Stats};
use sudokit::format::{ReadOptions, parse_one};
use sudokit::generate::{self, Symmetry};
use sudokit::logic::{self, State};
use sudokit::rng::Rng;
use sudokit::solve::{self, Limits, Stop, Verdict};
use sudokit::{Candidates, DigitSet, Geometry, Grid, Shape, Variant};

/// The largest `max_steps` a request may ask for: the trace is kept in memory and sent
/// whole.
pub const MAX_TRACE: usize = 200_000;
/// The default trace cap.
pub const DEFAULT_TRACE: usize = 20_000;

/// What every request is allowed to use.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Wall-clock time per request.
    pub time: Duration,
    /// Jobs without a deadline of their own (logic, minimality) that may run at once,
    /// including those whose request already timed out.
    pub jobs: usize,
    /// Such jobs running now (shared by the clones of one budget).
    pub running: Arc<AtomicUsize>,
}

impl Budget {
    /// A budget of `time` per request and `jobs` long jobs at once.
    pub fn new(time: Duration, jobs: usize) -> Budget {
        Budget {
            time,
            jobs,
            running: Arc::new(AtomicUsize::new(0)),
        }
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::new(Duration::from_secs(10), 4)
    }
}

/// An answer: HTTP status and JSON body, serialised once where it is made (a long
/// trace as a tree of `Value`s would take several times the memory of its text).
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// HTTP status code.
    pub status: u16,
    /// The JSON text.
    pub body: String,
}

impl Answer {
    fn ok(body: &impl Serialize) -> Answer {
        match serde_json::to_string(body) {
            Ok(body) => Answer { status: 200, body },
            Err(e) => Answer::error(500, format!("cannot serialise the answer: {e}")),
        }
    }

    /// An error answer: `{"error": message}`.
    pub fn error(status: u16, message: impl Into<String>) -> Answer {
        Answer {
            status,
            body: json!({ "error": message.into() }).to_string(),
        }
    }

    /// The body parsed back (for tests).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// One step of an engine's trace (see the module documentation).
#[derive(Serialize)]
struct TraceStep {
    step: u64,
    depth: u32,
    cell: usize,
    name: String,
    value: u8,
    reason: &'static str,
}

/// The answer of `/api/solve`.
#[derive(Serialize)]
struct SolveBody {
    #[serde(flatten)]
    board: serde_json::Map<String, Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<Vec<TraceStep>>,
}

/// A parsed request, ready to run.
#[derive(Debug)]
pub enum Request {
    /// `/api/solve`.
    Solve(Puzzle, SolveOptions),
    /// `/api/count`.
    Count(Puzzle, u64),
    /// `/api/check`.
    Check(Puzzle, bool),
    /// `/api/explain`.
    Explain(Puzzle),
    /// `/api/hint`.
    Hint(Puzzle, Option<Candidates>),
    /// `/api/rate`.
    Rate(Puzzle),
    /// `/api/generate`.
    Generate(GenerateOptions),
    /// `GET /api/puzzles`.
    Puzzles,
}

/// A puzzle read from a request.
#[derive(Debug)]
pub struct Puzzle {
    /// The grid.
    pub grid: Grid,
}

/// Options of `/api/solve`.
#[derive(Debug)]
pub struct SolveOptions {
    /// The engine.
    pub engine: Engine,
    /// Trace cap.
    pub max_steps: usize,
}

/// Options of `/api/generate`.
#[derive(Debug)]
pub struct GenerateOptions {
    /// Geometry; `None` for a jigsaw without a map, which draws one from the seed.
    pub geometry: Option<Arc<Geometry>>,
    /// The shape asked for (a drawn jigsaw map's side).
    pub shape: Option<Shape>,
    /// The variant (for a drawn jigsaw map).
    pub variant: Variant,
    /// Symmetry of the givens.
    pub symmetry: Symmetry,
    /// Seed (random when absent).
    pub seed: u64,
    /// Wanted HoDoKu-style level.
    pub level: Option<logic::Level>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PuzzleKeys {
    puzzle: String,
    #[serde(default)]
    shape: Option<String>,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    regions: Option<String>,
    // Endpoint-specific keys, checked per route below.
    #[serde(default)]
    engine: Option<String>,
    #[serde(default)]
    pick: Option<String>,
    #[serde(default)]
    max_steps: Option<usize>,
    #[serde(default)]
    limit: Option<u64>,
    #[serde(default)]
    minimal: Option<bool>,
    #[serde(default)]
    candidates: Option<Vec<Vec<u8>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GenerateKeys {
    #[serde(default)]
    shape: Option<String>,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    regions: Option<String>,
    #[serde(default)]
    symmetry: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    level: Option<String>,
}

/// The routes that take a puzzle, with the extra keys each accepts.
const PUZZLE_ROUTES: &[(&str, &[&str])] = &[
    ("solve", &["engine", "pick", "max_steps"]),
    ("count", &["limit"]),
    ("check", &["minimal"]),
    ("explain", &[]),
    ("hint", &["candidates"]),
    ("rate", &[]),
];

fn bad(message: impl Into<String>) -> Answer {
    Answer::error(400, message)
}

/// Parses a request: the route decides the shape of the body. Never panics, whatever
/// the bytes (this is what the fuzz target exercises).
pub fn parse(method: &str, path: &str, body: &[u8]) -> Result<Request, Answer> {
    let route = path.split('?').next().unwrap_or(path);
    let Some(name) = route.strip_prefix("/api/") else {
        return Err(Answer::error(404, format!("no such endpoint: {route}")));
    };
    let known =
        name == "generate" || name == "puzzles" || PUZZLE_ROUTES.iter().any(|r| r.0 == name);
    if !known {
        return Err(Answer::error(404, format!("no such endpoint: {route}")));
    }
    let wanted = if name == "puzzles" { "GET" } else { "POST" };
    if method != wanted {
        return Err(Answer::error(
            405,
            format!("{route} takes {wanted}, not {method}"),
        ));
    }
    match name {
        "puzzles" => Ok(Request::Puzzles),
        "generate" => parse_generate(body),
        _ => parse_puzzle_request(name, body),
    }
}

fn json_error(e: serde_json::Error) -> Answer {
    bad(format!("bad JSON request: {e}"))
}

fn parse_puzzle_request(name: &str, body: &[u8]) -> Result<Request, Answer> {
    let keys: PuzzleKeys = serde_json::from_slice(body).map_err(json_error)?;
    let allowed = PUZZLE_ROUTES
        .iter()
        .find(|r| r.0 == name)
        .map_or(&[][..], |r| r.1);
    let given = [
        ("engine", keys.engine.is_some()),
        ("pick", keys.pick.is_some()),
        ("max_steps", keys.max_steps.is_some()),
        ("limit", keys.limit.is_some()),
        ("minimal", keys.minimal.is_some()),
        ("candidates", keys.candidates.is_some()),
    ];
    if let Some((key, _)) = given.iter().find(|(k, set)| *set && !allowed.contains(k)) {
        return Err(bad(format!("/api/{name} does not take `{key}`")));
    }
    let puzzle = read_puzzle(&keys)?;
    Ok(match name {
        "solve" => {
            let engine = read_engine(keys.engine.as_deref(), keys.pick.as_deref())?;
            engine.supports(puzzle.grid.geometry()).map_err(bad)?;
            let max_steps = keys.max_steps.unwrap_or(DEFAULT_TRACE);
            if max_steps > MAX_TRACE {
                return Err(bad(format!("max_steps is at most {MAX_TRACE}")));
            }
            Request::Solve(puzzle, SolveOptions { engine, max_steps })
        }
        "count" => Request::Count(puzzle, keys.limit.unwrap_or(1000).max(1)),
        "check" => Request::Check(puzzle, keys.minimal.unwrap_or(false)),
        "explain" => Request::Explain(puzzle),
        "hint" => {
            let cands = match keys.candidates {
                None => None,
                Some(c) => Some(read_candidates(&puzzle.grid, c)?),
            };
            Request::Hint(puzzle, cands)
        }
        _ => Request::Rate(puzzle),
    })
}

fn read_puzzle(keys: &PuzzleKeys) -> Result<Puzzle, Answer> {
    let mut options = ReadOptions::default();
    if let Some(s) = &keys.shape {
        options.shape = Some(
            s.parse::<Shape>()
                .map_err(|e| bad(format!("bad shape {s:?}: {e}")))?,
        );
    }
    // A jigsaw's map may follow the puzzle in its text, as the command line reads it;
    // the reader says when there is none.
    options.variant = read_variant(keys.variant.as_deref(), keys.regions.as_deref())?;
    let text = match sudokit::puzzles::builtin(keys.puzzle.trim()) {
        Some(b) => b.text,
        None => keys.puzzle.as_str(),
    };
    let record = parse_one(text, &options).map_err(|e| bad(format!("puzzle: {e}")))?;
    Ok(Puzzle { grid: record.grid })
}

/// The `variant` and `regions` keys (a jigsaw without `regions` gets its map from the
/// puzzle's text, or draws one when generated).
fn read_variant(variant: Option<&str>, regions: Option<&str>) -> Result<Variant, Answer> {
    let mut v = match variant {
        None => Variant::standard(),
        Some(v) => v
            .parse::<Variant>()
            .map_err(|e| bad(format!("bad variant {v:?}: {e}")))?,
    };
    if let Some(map) = regions {
        let regions = Variant::parse_region_map(map).map_err(|e| bad(format!("regions: {e}")))?;
        v = v
            .with_regions(regions)
            .map_err(|e| bad(format!("regions: {e}")))?;
    }
    Ok(v)
}

fn read_engine(name: Option<&str>, pick: Option<&str>) -> Result<Engine, Answer> {
    let engine: Engine = name.unwrap_or("fast").parse().map_err(bad)?;
    let Some(pick) = pick else {
        return Ok(engine);
    };
    let pick = [Pick::FirstMin, Pick::LastMin, Pick::FirstEmpty]
        .into_iter()
        .find(|p| p.name() == pick)
        .ok_or_else(|| {
            bad(format!(
                "unknown pick {pick:?} (first-min, last-min, first-empty)"
            ))
        })?;
    match engine {
        Engine::Moler(_) => Ok(Engine::Moler(pick)),
        _ => Err(bad("`pick` chooses the branching cell of the moler engine")),
    }
}

fn read_candidates(grid: &Grid, lists: Vec<Vec<u8>>) -> Result<Candidates, Answer> {
    let g = grid.geometry();
    if lists.len() != g.cell_count() {
        return Err(bad(format!(
            "candidates: {} cells, the puzzle has {}",
            lists.len(),
            g.cell_count()
        )));
    }
    let mut sets = Vec::with_capacity(lists.len());
    for (cell, list) in lists.iter().enumerate() {
        // A filled cell is its value, whatever marks came with it.
        let mut set = DigitSet::default();
        if grid.get(cell) != 0 {
            set.insert(grid.get(cell));
        } else {
            for &d in list {
                if d == 0 || d as usize > g.size() {
                    return Err(bad(format!(
                        "candidates: {d} in {} is not a digit of this puzzle",
                        g.cell_name(cell)
                    )));
                }
                set.insert(d);
            }
        }
        sets.push(set);
    }
    Candidates::from_sets(g.clone(), sets).map_err(|e| bad(format!("candidates: {e}")))
}

fn parse_generate(body: &[u8]) -> Result<Request, Answer> {
    // An empty body asks for the defaults.
    let keys: GenerateKeys = if body.iter().all(u8::is_ascii_whitespace) {
        serde_json::from_str("{}").map_err(json_error)?
    } else {
        serde_json::from_slice(body).map_err(json_error)?
    };
    let shape = match &keys.shape {
        None => None,
        Some(s) => Some(
            s.parse::<Shape>()
                .map_err(|e| bad(format!("bad shape {s:?}: {e}")))?,
        ),
    };
    let variant = read_variant(keys.variant.as_deref(), keys.regions.as_deref())?;
    // A jigsaw without a map draws one (from the seed) when it is generated.
    let geometry = match generate::draws_map(&variant) {
        true => None,
        false => Some(Geometry::for_new_puzzle(shape, &variant).map_err(|e| bad(e.to_string()))?),
    };
    let symmetry = match &keys.symmetry {
        None => Symmetry::None,
        Some(s) => s.parse::<Symmetry>().map_err(bad)?,
    };
    let level = match &keys.level {
        None => None,
        Some(l) => Some(
            [
                logic::Level::Easy,
                logic::Level::Medium,
                logic::Level::Hard,
                logic::Level::Unfair,
                logic::Level::Extreme,
            ]
            .into_iter()
            .find(|v| v.name() == l)
            .ok_or_else(|| {
                bad(format!(
                    "unknown level {l:?} (easy, medium, hard, unfair, extreme)"
                ))
            })?,
        ),
    };
    let seed = keys.seed.unwrap_or_else(Rng::fresh_seed);
    Ok(Request::Generate(GenerateOptions {
        geometry,
        shape,
        variant,
        symmetry,
        seed,
        level,
    }))
}

/// A place among the running jobs, given back when dropped (even by a panic).
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Runs `job`, turning a panic (a library bug) into a 500 answer rather than a lost
/// worker.
pub fn guarded(job: impl FnOnce() -> Answer) -> Answer {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(job))
        .unwrap_or_else(|_| Answer::error(500, "internal error (a bug: please report the request)"))
}

/// Runs `job` on its own thread and waits for it until `deadline`. A job that misses
/// its deadline keeps running (the library's logic cannot be interrupted) but its
/// request is answered with 503, and at most `budget.jobs` such jobs run at once.
fn bounded_job(
    budget: &Budget,
    deadline: Instant,
    job: impl FnOnce() -> Answer + Send + 'static,
) -> Answer {
    let running = Arc::clone(&budget.running);
    if running.fetch_add(1, Ordering::SeqCst) >= budget.jobs {
        running.fetch_sub(1, Ordering::SeqCst);
        return Answer::error(503, "too many long jobs running; try again shortly");
    }
    let (tx, rx) = mpsc::sync_channel(1);
    let slot = Slot(Arc::clone(&running));
    let spawned = std::thread::Builder::new()
        .name("sudokit-job".into())
        .spawn(move || {
            let answer = guarded(job);
            // Given back before answering, so the waiting worker's next job finds it.
            drop(slot);
            let _ = tx.send(answer);
        });
    if spawned.is_err() {
        return Answer::error(503, "cannot start a job");
    }
    let wait = deadline.saturating_duration_since(Instant::now());
    match rx.recv_timeout(wait) {
        Ok(answer) => answer,
        Err(_) => Answer::error(503, format!("time limit of {:?} exceeded", budget.time)),
    }
}

/// Parses and runs one request.
pub fn respond(method: &str, path: &str, body: &[u8], budget: &Budget) -> Answer {
    guarded(|| match parse(method, path, body) {
        Err(answer) => answer,
        Ok(request) => run(request, budget),
    })
}

/// Runs a parsed request within the budget.
pub fn run(request: Request, budget: &Budget) -> Answer {
    let deadline = Instant::now() + budget.time;
    match request {
        Request::Solve(p, o) => solve_answer(&p.grid, &o, deadline),
        Request::Count(p, limit) => count_answer(&p.grid, limit, deadline),
        Request::Check(p, minimal) => {
            if minimal {
                bounded_job(budget, deadline, move || {
                    check_answer(&p.grid, true, deadline)
                })
            } else {
                check_answer(&p.grid, false, deadline)
            }
        }
        Request::Explain(p) => {
            bounded_job(budget, deadline, move || explain_answer(&p.grid, deadline))
        }
        Request::Hint(p, c) => {
            bounded_job(budget, deadline, move || hint_answer(&p.grid, c, deadline))
        }
        Request::Rate(p) => bounded_job(budget, deadline, move || rate_answer(&p.grid, deadline)),
        Request::Generate(o) => {
            bounded_job(budget, deadline, move || generate_answer(&o, deadline))
        }
        Request::Puzzles => puzzles_answer(),
    }
}

/// The board keys every puzzle answer carries.
fn board(grid: &Grid) -> serde_json::Map<String, Value> {
    let g = grid.geometry();
    let houses: Vec<Vec<usize>> = g.houses().iter().map(|h| h.cells().collect()).collect();
    let mut m = serde_json::Map::new();
    m.insert("puzzle".into(), json!(line(grid)));
    m.insert("size".into(), json!(g.size()));
    m.insert("shape".into(), json!(g.name()));
    m.insert("variant".into(), json!(g.variant().to_string()));
    m.insert("region_map".into(), json!(g.variant().region_labels()));
    m.insert("houses".into(), json!(houses));
    let regions: Vec<Option<usize>> = (0..g.cell_count()).map(|c| g.region_of(c)).collect();
    let shaded: Vec<usize> = (0..g.cell_count()).filter(|&c| g.is_shaded(c)).collect();
    m.insert("regions".into(), json!(regions));
    m.insert("shaded".into(), json!(shaded));
    m
}

/// A grid on one line, in the standard alphabet (`.` = empty).
fn line(grid: &Grid) -> String {
    let symbols = sudokit::Symbols::standard(grid.size());
    sudokit::format::to_line(grid, &symbols)
}

fn stats_json(s: &Stats) -> Value {
    let mut m = serde_json::Map::new();
    let mut put = |k: &str, v: Option<u64>| {
        if let Some(v) = v {
            m.insert(k.into(), json!(v));
        }
    };
    put("steps", s.steps);
    put("calls", s.calls);
    put("max_depth", s.max_depth.map(u64::from));
    put("guesses", s.guesses);
    put("first_solution_call", s.first_solution_call);
    put(
        "first_solution_depth",
        s.first_solution_depth.map(u64::from),
    );
    Value::Object(m)
}

/// Whether the search hit a time or node bound.
fn timed_out(stop: Stop) -> bool {
    matches!(stop, Stop::Timeout | Stop::NodeLimit)
}

fn solve_answer(grid: &Grid, o: &SolveOptions, deadline: Instant) -> Answer {
    let g = grid.geometry();
    let mut m = board(grid);
    m.insert("engine".into(), json!(o.engine.name()));
    if let Some(c) = grid.first_conflict() {
        m.insert("status".into(), json!("invalid"));
        m.insert("error".into(), json!(c.describe(g)));
        m.insert("solution".into(), Value::Null);
        return Answer::ok(&Value::Object(m));
    }
    let limits = Limits {
        solutions: 1,
        nodes: None,
        deadline: Some(deadline),
    };
    let mut first: Option<Vec<u8>> = None;
    let mut trace = Vec::new();
    let mut truncated = false;
    let tracing = o.engine != Engine::Fast;
    let mut on_step = |s: &engines::Step| {
        if trace.len() < o.max_steps {
            trace.push(TraceStep {
                step: s.steps,
                depth: s.depth,
                cell: s.cell,
                name: g.cell_name(s.cell),
                value: s.value,
                reason: s.reason.name(),
            });
        } else {
            truncated = true;
        }
    };
    let started = Instant::now();
    let outcome = engines::run(
        o.engine,
        grid,
        &limits,
        Hooks {
            on_solution: &mut |cells, _| {
                first.get_or_insert_with(|| cells.to_vec());
                false
            },
            on_step: if tracing { Some(&mut on_step) } else { None },
        },
    );
    let status = if first.is_some() {
        "solved"
    } else if timed_out(outcome.report.stop) {
        "timeout"
    } else {
        "unsolvable"
    };
    let solution = first.and_then(|c| Grid::from_cells(g.clone(), c).ok());
    m.insert("status".into(), json!(status));
    m.insert("solution".into(), json!(solution.as_ref().map(line)));
    m.insert("stats".into(), stats_json(&outcome.stats));
    m.insert("guesses".into(), json!(outcome.report.guesses));
    m.insert(
        "millis".into(),
        json!(started.elapsed().as_secs_f64() * 1e3),
    );
    if tracing {
        m.insert("truncated".into(), json!(truncated));
    }
    Answer::ok(&SolveBody {
        board: m,
        trace: tracing.then_some(trace),
    })
}

fn count_answer(grid: &Grid, limit: u64, deadline: Instant) -> Answer {
    let limits = Limits {
        solutions: limit,
        nodes: None,
        deadline: Some(deadline),
    };
    let report = solve::count(grid, &limits.one_past()).capped(limit);
    let status = if timed_out(report.stop) {
        "timeout"
    } else if grid.first_conflict().is_some() {
        "invalid"
    } else {
        "done"
    };
    Answer::ok(&json!({
        "puzzle": line(grid),
        "status": status,
        "count": report.solutions,
        "complete": report.stop == Stop::Exhausted,
    }))
}

fn check_answer(grid: &Grid, minimal: bool, deadline: Instant) -> Answer {
    let g = grid.geometry();
    let options = sudokit::check::Options {
        engine: Engine::Fast,
        minimal,
        limits: Limits {
            solutions: 2,
            nodes: None,
            deadline: Some(deadline),
        },
    };
    let r = sudokit::check::check(grid, &options);
    let mut m = board(grid);
    m.insert("verdict".into(), json!(r.verdict.name()));
    m.insert("needs_guess".into(), json!(r.needs_guess));
    m.insert(
        "conflict".into(),
        json!(r.conflict.map(|c| json!({
            "cells": [c.first, c.second],
            "digit": c.digit,
            "text": c.describe(g),
        }))),
    );
    m.insert("solution".into(), json!(r.solution.as_ref().map(line)));
    m.insert(
        "minimal".into(),
        json!(r.minimality.as_ref().map(|x| x.minimal)),
    );
    m.insert(
        "redundant".into(),
        json!(r.minimality.as_ref().map(|x| x.redundant.clone())),
    );
    Answer::ok(&Value::Object(m))
}

/// A logic step as JSON (see the module documentation).
pub fn step_json(step: &logic::Step, g: &Geometry) -> Value {
    let pairs = |v: &[(usize, u8)]| v.iter().map(|&(c, d)| json!([c, d])).collect::<Vec<_>>();
    let mut house_cells: Vec<usize> = step
        .houses
        .iter()
        .chain(&step.cover)
        .filter_map(|&h| g.houses().get(h))
        .flat_map(|h| h.cells())
        .collect();
    house_cells.sort_unstable();
    house_cells.dedup();
    json!({
        "technique": step.technique.name(),
        "name": step.title(),
        "rating": step.rating_value(),
        "line": step.line(g),
        "text": step.sentence(g),
        "placements": pairs(&step.placements),
        "eliminations": pairs(&step.eliminations),
        "cells": step.cells,
        "fins": step.fins,
        "houses": house_cells,
        "digits": step.digits,
    })
}

/// Why logic cannot start on a grid: conflicting givens, no solution or several (the
/// uniqueness techniques would then be wrong), or time ran out deciding.
fn logic_refusal(grid: &Grid, deadline: Instant) -> Option<Answer> {
    if let Some(c) = grid.first_conflict() {
        return Some(bad(c.describe(grid.geometry())));
    }
    let report = solve::search(
        grid,
        &Limits {
            solutions: 2,
            nodes: None,
            deadline: Some(deadline),
        },
        &mut |_| true,
    );
    match (report.stop, report.solutions) {
        (Stop::Timeout | Stop::NodeLimit, _) => Some(Answer::error(503, "time limit exceeded")),
        (_, 0) => Some(bad("the puzzle has no solution")),
        (_, 1) => None,
        _ => Some(bad(
            "the puzzle has several solutions; human techniques need a unique one",
        )),
    }
}

fn explain_answer(grid: &Grid, deadline: Instant) -> Answer {
    if let Some(refusal) = logic_refusal(grid, deadline) {
        return refusal;
    }
    let g = grid.geometry();
    let path = logic::explain(&State::from_grid(grid));
    let mut m = board(grid);
    m.insert(
        "status".into(),
        json!(if path.solved { "solved" } else { "stuck" }),
    );
    m.insert(
        "steps".into(),
        Value::Array(path.steps.iter().map(|s| step_json(s, g)).collect()),
    );
    Answer::ok(&Value::Object(m))
}

fn hint_answer(grid: &Grid, cands: Option<Candidates>, deadline: Instant) -> Answer {
    let g = grid.geometry();
    // The hint answers the current state: the entries must not conflict, but they may
    // be wrong (then the state is broken).
    if let Some(c) = grid.first_conflict() {
        return bad(c.describe(g));
    }
    let state = match cands {
        Some(c) => State::from_entries(grid, &c),
        None => State::from_grid(grid),
    };
    if Instant::now() > deadline {
        return Answer::error(503, "time limit exceeded");
    }
    // A wrong entry or elimination may have lost the solution, or loose pencil marks
    // allow several: then no technique's step can be trusted.
    let verdict = match state.is_solved() {
        true => Verdict::Unique(state.grid()),
        false => match logic::verdict_within(&state, Some(deadline)) {
            Some(v) => v,
            None => return Answer::error(503, "time limit exceeded"),
        },
    };
    let (trouble, step) = match &verdict {
        Verdict::None => (Some("broken"), None),
        Verdict::Multiple(_) => (Some("multiple"), None),
        Verdict::Unique(solution) => (None, logic::hint_known(&state, solution.cells())),
    };
    let status = match (&step, state.is_solved()) {
        (Some(_), _) => "step",
        (None, true) => "solved",
        (None, false) => trouble.unwrap_or("broken"),
    };
    let mut m = board(grid);
    m.insert("status".into(), json!(status));
    m.insert("step".into(), json!(step.as_ref().map(|s| step_json(s, g))));
    Answer::ok(&Value::Object(m))
}

fn rate_answer(grid: &Grid, deadline: Instant) -> Answer {
    if let Some(refusal) = logic_refusal(grid, deadline) {
        return refusal;
    }
    let r = logic::rate(&State::from_grid(grid));
    let tenths = |t: Option<u16>| t.map(|t| f64::from(t) / 10.0);
    let techniques: Vec<Value> = r
        .techniques
        .iter()
        .map(|(t, n)| json!({ "name": t.title(), "technique": t.name(), "count": n }))
        .collect();
    Answer::ok(&json!({
        "puzzle": line(grid),
        "er": tenths(r.er),
        "ep": tenths(r.ep),
        "ed": tenths(r.ed),
        "level": r.level.name(),
        "score": r.score,
        "techniques": techniques,
        "brute_force": r.brute_force,
        "steps": r.path.steps.len(),
    }))
}

fn generate_answer(o: &GenerateOptions, deadline: Instant) -> Answer {
    let mut rng = Rng::new(o.seed);
    // A level is dug for (clues go only while the puzzle stays within it), as in `play`.
    let target = generate::Target {
        level: o.level,
        ..generate::Target::default()
    };
    let within = |p: &Grid| target.within(p);
    let options = generate::Options {
        symmetry: o.symmetry,
        attempts: 1,
        bound: o.level.is_some().then_some(&within as &generate::Bound),
        // Digging a large grid takes minutes: it stops at the deadline rather than
        // run on after its request was answered.
        deadline: Some(deadline),
        ..generate::Options::default()
    };
    let geometry = match &o.geometry {
        Some(g) => g.clone(),
        None => {
            match generate::new_geometry(o.shape, &o.variant, o.symmetry, &mut rng, Some(deadline))
            {
                Ok(g) => g,
                Err(generate::GenerateError::OutOfTime) => {
                    return Answer::error(
                        503,
                        "time limit exceeded before a region map had a grid",
                    );
                }
                Err(e) => return bad(e.to_string()),
            }
        }
    };
    // One attempt at a time, so a level is tried again until the deadline.
    while Instant::now() < deadline {
        let made = match generate::generate(&geometry, &options, &mut rng) {
            Ok(made) => made,
            Err(generate::GenerateError::Exhausted(_)) => continue,
            Err(generate::GenerateError::OutOfTime) => break,
            Err(e) => return bad(e.to_string()),
        };
        let level = if geometry.size() <= 9 || o.level.is_some() {
            let path = logic::explain(&State::from_grid(&made.puzzle));
            Some(logic::rate::hodoku(&path).0)
        } else {
            None
        };
        if o.level.is_some() && level != o.level {
            continue;
        }
        let mut m = board(&made.puzzle);
        m.insert("solution".into(), json!(line(&made.solution)));
        m.insert("clues".into(), json!(made.puzzle.filled()));
        m.insert("seed".into(), json!(o.seed));
        m.insert("level".into(), json!(level.map(|l| l.name())));
        return Answer::ok(&Value::Object(m));
    }
    Answer::error(
        503,
        "time limit exceeded before a puzzle met the requirements",
    )
}

fn puzzles_answer() -> Answer {
    let list: Vec<Value> = sudokit::puzzles::BUILTINS
        .iter()
        .map(|b| json!({ "name": b.name, "source": b.source, "note": b.note, "puzzle": b.text }))
        .collect();
    Answer::ok(&Value::Array(list))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_and_routes_are_refused() {
        let b = Budget::default();
        assert_eq!(respond("POST", "/api/nope", b"{}", &b).status, 404);
        assert_eq!(respond("GET", "/api/solve", b"{}", &b).status, 405);
        let a = respond(
            "POST",
            "/api/count",
            br#"{"puzzle":"lo-shu","engine":"moler"}"#,
            &b,
        );
        assert_eq!(a.status, 400, "{a:?}");
        let a = respond(
            "POST",
            "/api/solve",
            br#"{"puzzle":"lo-shu","colour":1}"#,
            &b,
        );
        assert_eq!(a.status, 400, "{a:?}");
    }

    #[test]
    fn a_hint_says_when_the_pencil_marks_lost_the_solution_or_allow_several() {
        let b = Budget::default();
        let status = |puzzle: &str, cands: &[Vec<u8>]| {
            let body = json!({"puzzle": puzzle, "candidates": cands}).to_string();
            let a = respond("POST", "/api/hint", body.as_bytes(), &b);
            let v: Value = serde_json::from_str(&a.body).unwrap();
            v["status"].as_str().unwrap().to_string()
        };
        // Lo-Shu's r1c4 is 5 (Moler's figure 14.3): without 5 among its marks, broken.
        let mut lists = vec![(1..=9).collect::<Vec<u8>>(); 81];
        lists[3].retain(|&d| d != 5);
        assert_eq!(status("lo-shu", &lists), "broken");
        lists[3].push(5);
        assert_eq!(status("lo-shu", &lists), "step");
        assert_eq!(status(&".".repeat(81), &lists), "multiple");
    }

    #[test]
    fn a_hint_on_pencil_marks_never_places_a_given_again() {
        // The page sends each given as its one mark; with every empty cell marked 1-9,
        // a given's digit was still a candidate of its peers, so the given counted as a
        // single to place: "Hidden Single => r1c2=1" on Lo-Shu's given 1 (found by QA).
        let b = Budget::default();
        let givens = lo_shu();
        let lists: Vec<Vec<u8>> = givens
            .iter()
            .map(|&d| if d == 0 { (1..=9).collect() } else { vec![d] })
            .collect();
        let body = json!({"puzzle": "lo-shu", "candidates": lists}).to_string();
        let a = respond("POST", "/api/hint", body.as_bytes(), &b);
        let v: Value = serde_json::from_str(&a.body).unwrap();
        assert_eq!(v["status"], "step", "{v}");
        let step = &v["step"];
        for pair in step["placements"].as_array().unwrap() {
            let cell = pair[0].as_u64().unwrap() as usize;
            assert_eq!(givens[cell], 0, "{step}");
        }
        assert!(
            !step["placements"].as_array().unwrap().is_empty()
                || !step["eliminations"].as_array().unwrap().is_empty()
        );
    }

    /// Lo-Shu's givens (the built-in puzzle), row-major, 0 for empty.
    fn lo_shu() -> Vec<u8> {
        "816.....3357....8.4921.......3816......357......4921.......3816.2....3571.....492"
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    #[test]
    fn candidates_must_fit_the_puzzle() {
        let b = Budget::default();
        let a = respond(
            "POST",
            "/api/hint",
            br#"{"puzzle":"lo-shu","candidates":[[1]]}"#,
            &b,
        );
        assert_eq!(a.status, 400);
        let mut lists = vec![vec![1u8, 2]; 81];
        lists[3] = vec![10];
        let body = json!({"puzzle": "lo-shu", "candidates": lists}).to_string();
        let a = respond("POST", "/api/hint", body.as_bytes(), &b);
        assert_eq!(a.status, 400, "{a:?}");
    }
}
