//! The batch pipeline shared by every per-puzzle command: a reader thread turns the
//! sources into numbered items, worker threads turn items into rendered outcomes, and
//! the calling thread writes them strictly in input order.
//!
//! Memory is bounded whatever the input length or the mix of fast and slow puzzles:
//! the reader needs a ticket per batch and the writer returns it only once that batch
//! is written, so at most `TICKETS_PER_THREAD * threads` batches exist at any time. Batches
//! hold about two milliseconds of work each (from the measured time per puzzle), so a short
//! file of slow puzzles still spreads over every thread.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use crossbeam_channel::bounded;
use indicatif::{ProgressBar, ProgressStyle};
use sudokit::format::ReadOptions;

use crate::input::{Item, Source, read_items};

/// What became of one puzzle, for the summary and the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Solved (or, for other commands, processed).
    Solved,
    /// Proven to have no solution.
    Unsolvable,
    /// Several solutions where one was required.
    Multiple,
    /// The input could not be read.
    Invalid,
    /// A time or node limit stopped the work.
    Timeout,
}

impl Status {
    /// The exit code a run with this outcome earns: 2 unreadable input, 1 a puzzle not
    /// solved, 0 solved (a run exits with the largest).
    pub fn exit_code(self) -> u8 {
        match self {
            Status::Solved => 0,
            Status::Invalid => 2,
            Status::Unsolvable | Status::Multiple | Status::Timeout => 1,
        }
    }

    /// The word used in JSON records and summaries.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Multiple => "multiple",
            Status::Invalid => "invalid",
            Status::Timeout => "timeout",
        }
    }
}

/// A rendered result: the text for standard output (possibly several lines), the status,
/// and a diagnostic for standard error (`FILE:LINE:COL: message`).
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Text to print, ending with a newline.
    pub text: String,
    /// What happened.
    pub status: Status,
    /// A message for standard error.
    pub diagnostic: Option<String>,
}

/// Counts of outcomes over a run.
#[derive(Debug, Default, Clone)]
pub struct Summary {
    /// Puzzles read (including invalid ones).
    pub puzzles: u64,
    /// Outcomes by [`Status`], in the order of the enum.
    pub counts: [u64; 5],
    /// Wall time.
    pub elapsed: Duration,
}

impl Summary {
    fn add(&mut self, status: Status) {
        self.puzzles += 1;
        self.counts[status as usize] += 1;
    }

    /// How many puzzles had `status`.
    pub fn count(&self, status: Status) -> u64 {
        self.counts[status as usize]
    }

    /// Exit code: 130 after Ctrl-C, 2 when some input was invalid, 1 when some puzzle
    /// was not solved, else 0.
    pub fn exit_code(&self) -> u8 {
        if interrupted() {
            return 130;
        }
        [
            Status::Solved,
            Status::Unsolvable,
            Status::Multiple,
            Status::Invalid,
            Status::Timeout,
        ]
        .into_iter()
        .filter(|&s| self.count(s) > 0)
        .map(Status::exit_code)
        .max()
        .unwrap_or(0)
    }

    /// The one-line summary for standard error.
    pub fn line(&self, solved_word: &str) -> String {
        let secs = self.elapsed.as_secs_f64();
        let mut parts = vec![
            format!("puzzles: {}", self.puzzles),
            format!("{solved_word}: {}", self.count(Status::Solved)),
        ];
        for status in [
            Status::Unsolvable,
            Status::Multiple,
            Status::Invalid,
            Status::Timeout,
        ] {
            if self.count(status) > 0 || matches!(status, Status::Unsolvable | Status::Invalid) {
                parts.push(format!("{}: {}", status.name(), self.count(status)));
            }
        }
        parts.push(format!("seconds: {secs:.3}"));
        if secs > 0.0 {
            parts.push(format!("puzzles/s: {:.0}", self.puzzles as f64 / secs));
        }
        parts.join("  ")
    }
}

/// Set by Ctrl-C: readers stop taking input, everything already read is still
/// processed, written and flushed.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Installs the Ctrl-C handler: the first interrupt stops reading (the run then ends
/// normally, exit code 130); a second one exits at once.
pub fn handle_interrupts() {
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
}

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Most puzzles per batch: large enough to amortise channel costs on easy puzzles.
const BATCH: usize = 256;
/// Work a batch should hold: batches are sized from the measured time per puzzle, so
/// that easy puzzles travel 256 at a time and slow ones (hard ratings, 25x25 grids) one
/// at a time and every thread gets its share, however short the file.
const BATCH_WORK: Duration = Duration::from_millis(2);
/// A batch is sent early when its first item waited this long (slow producers).
const BATCH_WAIT: Duration = Duration::from_millis(20);
/// Batches in flight per worker thread.
const TICKETS_PER_THREAD: usize = 64;

/// Puzzles per batch when each takes `per_item` (none measured yet: one), at most `max`.
fn batch_size_for(per_item: Option<Duration>, max: usize) -> usize {
    match per_item {
        None => 1,
        Some(t) => {
            let fit = BATCH_WORK.as_nanos() / t.as_nanos().max(1);
            fit.clamp(1, max.max(1) as u128) as usize
        }
    }
}

/// Runs `job` over every puzzle of `sources` on `threads` threads and writes the outcomes
/// in input order to `out`; diagnostics go to standard error as they are written.
pub fn run<F>(
    sources: &[Source],
    options: &ReadOptions,
    threads: usize,
    job: F,
    out: &mut dyn Write,
) -> Result<Summary>
where
    F: Fn(&Item) -> Outcome + Sync,
{
    let progress = progress_bar(sources);
    run_items(
        |emit| read_items(sources, options, emit),
        threads,
        BATCH,
        job,
        out,
        progress,
    )
}

/// What every per-puzzle command does: [`run`] with the command's thread count, then the
/// summary on standard error (asked for, or interactive with several puzzles), and the
/// exit code. `verb` names what counts as success in the summary (`solved`, `rated`...).
pub fn run_command<F>(
    sources: &[Source],
    options: &ReadOptions,
    run_args: &crate::cli::RunArgs,
    verb: &str,
    job: F,
    out: &mut dyn Write,
) -> Result<u8>
where
    F: Fn(&Item) -> Outcome + Sync,
{
    let threads = crate::threads(run_args.threads);
    let summary = run(sources, options, threads, job, out)?;
    if run_args.summary || (io::stderr().is_terminal() && summary.puzzles > 1) {
        eprintln!("{}", summary.line(verb));
    }
    Ok(summary.exit_code())
}

/// Runs `job` for the numbers `0..count` (generated puzzles, say), in parallel, writing
/// the outcomes in order.
pub fn run_numbered<F>(count: u64, threads: usize, job: F, out: &mut dyn Write) -> Result<Summary>
where
    F: Fn(&u64) -> Outcome + Sync,
{
    let progress = if io::stderr().is_terminal() && count >= 100 {
        let bar = ProgressBar::new(count);
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len}  {per_sec}  eta {eta}")
                .expect("valid progress template"),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let produce = |emit: &mut dyn FnMut(u64) -> bool| -> Result<()> {
        for i in 0..count {
            if !emit(i) {
                break;
            }
        }
        Ok(())
    };
    // Each number is a costly job: one per message keeps every thread busy.
    run_items(produce, threads, 1, job, out, progress)
}

/// The pipeline: `produce` hands items to its callback (which returns false to stop);
/// `job` turns each into an outcome on one of `threads` threads; outcomes are written
/// in production order.
fn run_items<I, P, F>(
    produce: P,
    threads: usize,
    batch_size: usize,
    job: F,
    out: &mut dyn Write,
    progress: ProgressBar,
) -> Result<Summary>
where
    I: Send,
    P: FnOnce(&mut dyn FnMut(I) -> bool) -> Result<()> + Send,
    F: Fn(&I) -> Outcome + Sync,
{
    let start = Instant::now();
    let mut summary = Summary::default();
    let stderr = io::stderr();
    let mut write_outcome = |o: &Outcome, summary: &mut Summary| -> Result<()> {
        summary.add(o.status);
        if let Some(d) = &o.diagnostic {
            progress.suspend(|| {
                let _ = writeln!(stderr.lock(), "{d}");
            });
        }
        out.write_all(o.text.as_bytes())?;
        Ok(())
    };
    if threads <= 1 {
        let mut failure = None;
        produce(&mut |item| {
            if interrupted() {
                return false;
            }
            let outcome = job(&item);
            match write_outcome(&outcome, &mut summary) {
                Ok(()) => {
                    progress.inc(1);
                    true
                }
                Err(e) => {
                    failure = Some(e);
                    false
                }
            }
        })?;
        if let Some(e) = failure {
            return Err(e);
        }
    } else {
        let (batch_tx, batch_rx) = bounded::<(u64, Vec<I>)>(threads * 2);
        let (done_tx, done_rx) = bounded::<(u64, Vec<Outcome>)>(threads * 2);
        let tickets = threads * TICKETS_PER_THREAD;
        let (ticket_tx, ticket_rx) = bounded::<()>(tickets);
        for _ in 0..tickets {
            ticket_tx.send(()).expect("ticket channel has room");
        }
        let job = &job;
        // The latest measured time per item in nanoseconds (0: none yet).
        let item_nanos = AtomicU64::new(0);
        let item_nanos = &item_nanos;
        std::thread::scope(|scope| -> Result<()> {
            let reader = scope.spawn(move || -> Result<()> {
                let mut seq = 0u64;
                let mut size = batch_size_for(None, batch_size);
                let mut batch: Vec<I> = Vec::with_capacity(size);
                let mut first_at = Instant::now();
                let send = |batch: Vec<I>, seq: &mut u64| -> bool {
                    if ticket_rx.recv().is_err() {
                        return false;
                    }
                    let ok = batch_tx.send((*seq, batch)).is_ok();
                    *seq += 1;
                    ok
                };
                let mut alive = true;
                produce(&mut |item| {
                    if interrupted() {
                        return false;
                    }
                    if batch.is_empty() {
                        first_at = Instant::now();
                        let nanos = item_nanos.load(Ordering::Relaxed);
                        let measured = (nanos > 0).then(|| Duration::from_nanos(nanos));
                        size = batch_size_for(measured, batch_size);
                        batch.reserve(size);
                    }
                    batch.push(item);
                    if batch.len() >= size || first_at.elapsed() >= BATCH_WAIT {
                        alive = send(std::mem::take(&mut batch), &mut seq);
                    }
                    alive
                })?;
                if alive && !batch.is_empty() {
                    send(batch, &mut seq);
                }
                Ok(())
            });
            for _ in 0..threads {
                let batch_rx = batch_rx.clone();
                let done_tx = done_tx.clone();
                scope.spawn(move || {
                    for (seq, items) in batch_rx {
                        let started = Instant::now();
                        let outcomes: Vec<Outcome> = items.iter().map(job).collect();
                        let nanos = started.elapsed().as_nanos() / items.len().max(1) as u128;
                        item_nanos.store((nanos as u64).max(1), Ordering::Relaxed);
                        if done_tx.send((seq, outcomes)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(done_tx);
            drop(batch_rx);
            let mut next = 0u64;
            let mut waiting: BTreeMap<u64, Vec<Outcome>> = BTreeMap::new();
            let mut result = Ok(());
            'receive: for (seq, outcomes) in done_rx.iter() {
                waiting.insert(seq, outcomes);
                while let Some(outcomes) = waiting.remove(&next) {
                    for o in &outcomes {
                        if let Err(e) = write_outcome(o, &mut summary) {
                            result = Err(e);
                            break 'receive;
                        }
                    }
                    progress.inc(outcomes.len() as u64);
                    next += 1;
                    let _ = ticket_tx.send(());
                }
            }
            drop(done_rx);
            drop(ticket_tx);
            result?;
            reader.join().expect("reader thread does not panic")?;
            Ok(())
        })?;
    }
    progress.finish_and_clear();
    out.flush()?;
    summary.elapsed = start.elapsed();
    Ok(summary)
}

/// A progress counter on standard error, only when it is a terminal and the input is
/// large (or of unknown size).
fn progress_bar(sources: &[Source]) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let known: Option<u64> = sources.iter().map(|s| s.len()).sum();
    if known.is_some_and(|bytes| bytes < 4 << 20) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {human_pos} puzzles  {per_sec}  {elapsed}")
            .expect("valid progress template"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_hold_a_couple_of_milliseconds_of_work() {
        // Nothing measured yet: one puzzle, so that slow puzzles spread at once.
        assert_eq!(batch_size_for(None, BATCH), 1);
        // Easy puzzles (a few microseconds each) travel in full batches.
        assert_eq!(batch_size_for(Some(Duration::from_micros(2)), BATCH), BATCH);
        assert_eq!(batch_size_for(Some(Duration::from_nanos(0)), BATCH), BATCH);
        // 0.5 ms each: four per batch; a second or more: one.
        assert_eq!(batch_size_for(Some(Duration::from_micros(500)), BATCH), 4);
        assert_eq!(batch_size_for(Some(Duration::from_secs(2)), BATCH), 1);
        // Never above the caller's maximum (the one-number-per-message pipelines).
        assert_eq!(batch_size_for(Some(Duration::from_micros(1)), 1), 1);
    }
}
