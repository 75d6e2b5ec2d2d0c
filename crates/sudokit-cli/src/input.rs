//! Puzzle sources: files, standard input, built-in puzzle names and literal puzzle text,
//! read line by line in constant memory and turned into numbered [`Item`]s.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read};
use std::sync::Arc;

use anyhow::{Context, Result, anyhow, bail};
use sudokit::format::{ParseError, ReadOptions, Reader, Record, SymbolStyle};
use sudokit::puzzles;
use sudokit::shape::MAX_SIZE;
use sudokit::symbols::{Symbols, SymbolsError};

use crate::cli::InputArgs;

/// Lines longer than this are reported as errors and skipped (a 64x64 puzzle is 4096
/// characters); it bounds memory whatever the input.
pub const MAX_LINE: usize = 1 << 16;

/// One puzzle source.
#[derive(Debug, Clone)]
pub enum Source {
    /// Standard input.
    Stdin,
    /// Standard input whose first bytes were already read (to see what it holds):
    /// those bytes, then the rest.
    StdinAfter(Vec<u8>),
    /// A file path.
    File(String),
    /// Text given on the command line or a built-in puzzle: (display name, text).
    Text(String, String),
}

impl Source {
    /// The name used in messages (`FILE:LINE:COL`).
    pub fn name(&self) -> &str {
        match self {
            Source::Stdin | Source::StdinAfter(_) => "<stdin>",
            Source::File(path) => path,
            Source::Text(name, _) => name,
        }
    }

    /// Size in bytes when known (for progress).
    pub fn len(&self) -> Option<u64> {
        match self {
            Source::File(path) => std::fs::metadata(path).ok().map(|m| m.len()),
            Source::Text(_, text) => Some(text.len() as u64),
            Source::Stdin | Source::StdinAfter(_) => None,
        }
    }
}

/// Resolves command-line source arguments: `-`, an existing file, a built-in name, or
/// puzzle text. With none, standard input (or `default` when stdin is a terminal).
pub fn sources(args: &[String], default: Option<&str>) -> Result<Vec<Source>> {
    if args.is_empty() {
        if let Some(name) = default.filter(|_| io::stdin().is_terminal()) {
            return sources(&[name.to_string()], None);
        }
        return Ok(vec![Source::Stdin]);
    }
    args.iter().map(|arg| source(arg)).collect()
}

fn source(arg: &str) -> Result<Source> {
    if arg == "-" {
        return Ok(Source::Stdin);
    }
    if std::path::Path::new(arg).exists() {
        return Ok(Source::File(arg.to_string()));
    }
    if let Some(b) = puzzles::builtin(arg) {
        return Ok(Source::Text(b.name.to_string(), b.text.to_string()));
    }
    // Puzzle text: puzzle characters only, with at least one digit or empty-cell mark
    // (so a mistyped name like `lo-shoo` is reported as such, not parsed).
    // A one-line puzzle may carry a comment after it, and grid text comment lines (`#`),
    // whatever their characters (`/` included: such text is no file, as checked above).
    let puzzle_chars = |s: &str| {
        s.chars()
            .all(|c| c.is_ascii_alphanumeric() || ".*_ |-+".contains(c))
    };
    let first = arg.split_whitespace().next().unwrap_or("");
    let commented_line = !arg.contains('\n')
        && first.len() >= 16
        && puzzle_chars(first)
        && arg.split_whitespace().nth(1).is_some();
    // A missing file whose name ends like one (`puzzles.txt`) would otherwise pass for
    // puzzle text, and get an error about its letters.
    // (Lower case only: a 25x25 or larger puzzle's letters could spell some of these.)
    const EXTENSIONS: &[&str] = &["txt", "sdk", "sdm", "json", "jsonl", "csv", "opensudoku"];
    if let Some((stem, ext)) = arg.rsplit_once('.')
        && !commented_line
        && !stem.is_empty()
        && EXTENSIONS.contains(&ext)
    {
        bail!("cannot read {arg}: no such file");
    }
    let looks_like_puzzle = arg.len() >= 4
        && arg.chars().any(|c| c.is_ascii_digit() || ".*_".contains(c))
        && (commented_line
            || arg
                .lines()
                .all(|l| l.trim_start().starts_with('#') || puzzle_chars(l)));
    if looks_like_puzzle {
        return Ok(Source::Text("<argument>".to_string(), arg.to_string()));
    }
    bail!("{arg:?} is not a file, a built-in puzzle name (see `sudokit puzzles`) or puzzle text")
}

/// The read options the input arguments ask for (a disconnected jigsaw region is allowed
/// but warned about on standard error); an error when `--regions` (a jigsaw) meets a
/// variant it cannot combine with, as `--variant latin,jigsaw` is.
pub fn read_options(args: &InputArgs) -> Result<ReadOptions> {
    let mut variant = args.variant.clone().unwrap_or_default();
    if let Some(regions) = &args.regions {
        let n = (regions.0.len() as f64).sqrt().round() as usize;
        for r in sudokit::Variant::disconnected_regions(&regions.0, n) {
            eprintln!("sudokit: warning: jigsaw region {} is not connected", r + 1);
        }
        variant = variant
            .with_regions(regions.0.clone())
            .map_err(|e| anyhow::anyhow!("{e} (--regions makes a jigsaw)"))?;
    }
    let symbols = symbol_style(args.symbols.as_deref());
    check_alphabet(&symbols)?;
    Ok(ReadOptions {
        geometry: None,
        shape: args.shape,
        variant,
        symbols,
    })
}

/// A custom `--symbols` alphabet must give some side its symbols: a repeated or
/// reserved character is a usage error up front (a puzzle written in the alphabet was
/// refused for an unrelated character, "unexpected 'D'").
fn check_alphabet(style: &SymbolStyle) -> Result<()> {
    let SymbolStyle::Custom(spec) = style else {
        return Ok(());
    };
    if (2..=MAX_SIZE).any(|n| Symbols::custom(spec, n).is_ok()) {
        return Ok(());
    }
    match Symbols::custom(spec, 2) {
        Err(SymbolsError::Count { got, .. }) => {
            bail!("--symbols {spec:?} has {got} symbols; a side is 2 to {MAX_SIZE}")
        }
        Err(e) => bail!("--symbols {spec:?}: {e}"),
        Ok(_) => Ok(()),
    }
}

/// `--symbols`: `hex`/`0-F`-style zero-based alphabets, the default, or explicit.
pub fn symbol_style(spec: Option<&str>) -> SymbolStyle {
    match spec {
        None => SymbolStyle::Standard,
        Some(s) if s.eq_ignore_ascii_case("hex") || s.starts_with("0-") => SymbolStyle::ZeroBased,
        Some(s) if s.starts_with("1-9A-") || s == "1-9" || s.eq_ignore_ascii_case("standard") => {
            SymbolStyle::Standard
        }
        Some(s) => SymbolStyle::Custom(s.to_string()),
    }
}

/// One puzzle (or one input error) with where it came from.
#[derive(Debug)]
pub struct Item {
    /// 1-based position among all puzzles of the run.
    pub index: u64,
    /// Display name of the source.
    pub source: Arc<str>,
    /// The puzzle, or why its text could not be read.
    pub record: Result<sudokit::Record, ParseError>,
    /// The text of the line the puzzle (or error) starts on, for echoing errors.
    pub text: String,
}

/// Reads every source in order and hands each [`Item`] to `emit`; stops early when
/// `emit` returns false. I/O errors on a source are fatal (reported with its name).
/// An input without puzzles gets a warning on standard error.
pub fn read_items(
    sources: &[Source],
    options: &ReadOptions,
    emit: &mut dyn FnMut(Item) -> bool,
) -> Result<()> {
    let read = read_quietly(sources, options, emit)?;
    // An empty input is not an error (a filter upstream may pass nothing), but silence
    // would hide a wrong file name or format: say so.
    if read == 0 && !crate::batch::interrupted() {
        let names: Vec<&str> = sources.iter().map(Source::name).collect();
        eprintln!("sudokit: warning: no puzzles in {}", names.join(", "));
    }
    Ok(())
}

/// [`read_items`] without the warning, for callers that say themselves what an empty
/// input means: the number of items read.
pub fn read_quietly(
    sources: &[Source],
    options: &ReadOptions,
    emit: &mut dyn FnMut(Item) -> bool,
) -> Result<u64> {
    let mut index = 0u64;
    for src in sources {
        let name: Arc<str> = Arc::from(src.name());
        let reader: Box<dyn Read> = match src {
            Source::Stdin => Box::new(io::stdin().lock()),
            Source::StdinAfter(head) => {
                Box::new(io::Cursor::new(head.clone()).chain(io::stdin().lock()))
            }
            Source::File(path) => {
                Box::new(File::open(path).with_context(|| format!("cannot open {path}"))?)
            }
            Source::Text(_, text) => Box::new(io::Cursor::new(text.clone().into_bytes())),
        };
        let mut input = BufReader::with_capacity(1 << 16, reader);
        // Built-in puzzles are written in digits: read them so under any `--symbols`
        // (the output still speaks the alphabet: Moler's letter display of Lo-Shu).
        let builtin = matches!(src, Source::Text(name, _) if puzzles::builtin(name).is_some());
        let mut parser = if builtin && matches!(options.symbols, SymbolStyle::Custom(_)) {
            Reader::new(ReadOptions {
                symbols: SymbolStyle::Standard,
                ..options.clone()
            })
        } else {
            Reader::new(options.clone())
        };
        // Recent lines, so an error can echo the text of the line it names.
        let mut recent: Vec<(usize, String)> = Vec::new();
        let mut line = Vec::new();
        let mut line_no = 0usize;
        let mut keep_going = true;
        let mut pending: Vec<(Result<sudokit::Record, ParseError>, usize)> = Vec::new();
        loop {
            line.clear();
            let (n, too_long) = read_line_capped(&mut input, &mut line)
                .with_context(|| format!("cannot read {}", name))?;
            if n == 0 {
                parser.finish(&mut |r| {
                    let at = r.as_ref().map_or_else(|e| e.line, |rec| rec.line);
                    pending.push((r, at));
                });
            } else {
                line_no += 1;
                let text = String::from_utf8_lossy(&line);
                let text = text.trim_end_matches(['\n', '\r']);
                if too_long {
                    pending.push((
                        Err(ParseError {
                            line: line_no,
                            column: MAX_LINE + 1,
                            message: format!("line longer than {MAX_LINE} bytes"),
                        }),
                        line_no,
                    ));
                } else {
                    if recent.len() >= 128 {
                        recent.remove(0);
                    }
                    recent.push((line_no, text.chars().take(200).collect()));
                    parser.push(line_no, text, &mut |r| {
                        let at = r.as_ref().map_or_else(|e| e.line, |rec| rec.line);
                        pending.push((r, at));
                    });
                }
            }
            for (mut record, at) in pending.drain(..) {
                index += 1;
                if builtin {
                    record = record.and_then(|rec| fits_alphabet(rec, &options.symbols));
                }
                let text = recent
                    .iter()
                    .rev()
                    .find(|(l, _)| *l == at)
                    .map(|(_, t)| t.trim().to_string())
                    .unwrap_or_default();
                if keep_going {
                    keep_going = emit(Item {
                        index,
                        source: name.clone(),
                        record,
                        text,
                    });
                }
            }
            if n == 0 || !keep_going {
                break;
            }
        }
        if !keep_going {
            break;
        }
    }
    Ok(index)
}

/// A built-in puzzle read in digits must still be printable in the `--symbols`
/// alphabet: one of another length is an error, not a silent fall back to digits.
fn fits_alphabet(rec: sudokit::Record, style: &SymbolStyle) -> Result<sudokit::Record, ParseError> {
    match style.symbols(rec.grid.size()) {
        Ok(_) => Ok(rec),
        Err(e) => Err(ParseError {
            line: rec.line,
            column: rec.column,
            message: format!("--symbols: {e}"),
        }),
    }
}

/// Reads one line into `buf` (with its newline), keeping at most [`MAX_LINE`] bytes:
/// returns (bytes consumed, whether the line was cut).
fn read_line_capped(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<(usize, bool)> {
    let mut consumed = 0;
    let mut too_long = false;
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok((consumed, too_long));
        }
        let (take, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        if take > room {
            too_long = true;
        }
        buf.extend_from_slice(&available[..take.min(room)]);
        input.consume(take);
        consumed += take;
        if done {
            return Ok((consumed, too_long));
        }
    }
}

/// The first puzzle of a source; unreadable text is an error naming its place.
pub fn first_puzzle(arg: &str, options: &sudokit::ReadOptions) -> Result<Record> {
    first_puzzle_of(arg, options).map(|(_, record)| record)
}

/// [`first_puzzle`], with the name of its source (`<argument>`, `<stdin>` or the file)
/// for locating later errors about it.
pub fn first_puzzle_of(arg: &str, options: &sudokit::ReadOptions) -> Result<(String, Record)> {
    let sources = sources(&[arg.to_string()], None)?;
    let mut first = None;
    read_quietly(&sources, options, &mut |item| {
        first = Some(item);
        false
    })
    .with_context(|| format!("reading {arg}"))?;
    let Some(item) = first else {
        bail!("{arg}: no puzzle found");
    };
    let record = item
        .record
        .map_err(|e| anyhow!("{}:{}:{}: {}", item.source, e.line, e.column, e.message))?;
    Ok((item.source.to_string(), record))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_lines() {
        let long = "x".repeat(MAX_LINE + 10);
        let text = format!("ab\n{long}\ncd");
        let mut input = BufReader::new(io::Cursor::new(text.into_bytes()));
        let mut buf = Vec::new();
        assert_eq!(read_line_capped(&mut input, &mut buf).unwrap(), (3, false));
        buf.clear();
        let (n, cut) = read_line_capped(&mut input, &mut buf).unwrap();
        assert!(cut && n == MAX_LINE + 11 && buf.len() == MAX_LINE);
        buf.clear();
        assert_eq!(read_line_capped(&mut input, &mut buf).unwrap(), (2, false));
        assert_eq!(buf, b"cd");
    }

    #[test]
    fn items_are_numbered_across_sources_and_errors_keep_their_text() {
        let sources = vec![
            Source::Text("a".into(), "lo-shu".into()),
            Source::Text(
                "b".into(),
                format!("{}\nnot a puzzle\n", "1.........3....4"),
            ),
        ];
        // "lo-shu" as text is not a puzzle: an error item; then a puzzle and an error.
        let mut items = Vec::new();
        read_items(&sources, &ReadOptions::default(), &mut |i| {
            items.push(i);
            true
        })
        .unwrap();
        assert_eq!(items.len(), 3);
        assert_eq!(
            items.iter().map(|i| i.index).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        assert!(items[1].record.is_ok());
        assert_eq!(items[2].text, "not a puzzle");
        assert_eq!(&*items[2].source, "b");
    }
}
