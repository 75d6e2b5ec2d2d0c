//! `sudokit render`: puzzles drawn for print. SVG comes from the library
//! (`sudokit::render`); the PDF booklet draws the same layout marks with `pdf-writer`:
//! A4 pages of puzzles (N per page, numbered, with their ids and comments as captions),
//! then pages of solutions in a smaller size.

use anyhow::{Context, Result, bail};
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str};
use sudokit::render::{Ink, Layout, Mark, Weight, layout, to_svg};
use sudokit::solve::{self, Verdict};
use sudokit::{Candidates, Grid};

use crate::cli::RenderArgs;
use crate::input::{self, read_items};
use crate::output;

/// A4 in points.
const PAGE: (f32, f32) = (595.0, 842.0);
const MARGIN: f32 = 40.0;

/// Runs `sudokit render`.
pub fn run(args: RenderArgs) -> Result<u8> {
    let sources = input::sources(&args.input.sources, None)?;
    let options = input::read_options(&args.input)?;
    let mut puzzles: Vec<(String, Grid)> = Vec::new();
    // Each puzzle's position in the input, which names its file (as `export` does).
    let mut indices: Vec<u64> = Vec::new();
    let mut code = 0;
    read_items(&sources, &options, &mut |item| {
        match &item.record {
            // Givens that break the rules are no puzzle to print.
            Ok(r)
                if let Some(message) =
                    output::located_conflict(&item.source, r, &options.symbols) =>
            {
                eprintln!("{message}");
                code = 2;
            }
            Ok(r) => {
                let caption = [r.prefix.as_str(), r.comment.as_str()]
                    .iter()
                    .filter(|s| !s.is_empty())
                    .copied()
                    .collect::<Vec<_>>()
                    .join("  ");
                puzzles.push((caption, r.grid.clone()));
                indices.push(item.index);
            }
            Err(e) => {
                eprintln!("{}:{}:{}: {}", item.source, e.line, e.column, e.message);
                code = 2;
            }
        }
        true
    })?;
    if puzzles.is_empty() {
        bail!("no puzzle to render");
    }
    let style = options.symbols.clone();
    if let Some(path) = &args.pdf {
        let bytes = booklet(&puzzles, &args, &style)?;
        std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
        return Ok(code);
    }
    let svg_of = |grid: &Grid| {
        let symbols = output::symbols(&style, grid.size());
        let solution = args.solution.then(|| solve::solve(grid)).flatten();
        let candidates = args.candidates.then(|| Candidates::from_grid(grid));
        to_svg(
            &layout(grid, solution.as_ref(), candidates.as_ref(), &symbols),
            40.0,
            None,
        )
    };
    match &args.output_dir {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            for ((_, grid), index) in puzzles.iter().zip(&indices) {
                let path = dir.join(format!("{index}.svg"));
                std::fs::write(&path, svg_of(grid))
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
        }
        None if puzzles.len() == 1 => output::print(svg_of(&puzzles[0].1).as_bytes())?,
        None => bail!(
            "{} puzzles: give --pdf FILE or --output-dir DIR",
            puzzles.len()
        ),
    }
    Ok(code)
}

/// Columns and rows of a page holding `per_page` puzzles.
fn page_grid(per_page: usize) -> (usize, usize) {
    match per_page {
        1 => (1, 1),
        2 => (1, 2),
        4 => (2, 2),
        6 => (2, 3),
        8 => (2, 4),
        9 => (3, 3),
        _ => (3, 4),
    }
}

/// Helvetica advance widths (thousandths of an em) for centring text.
fn helvetica_width(c: char) -> f32 {
    let w = match c {
        '0'..='9' | '$' => 556,
        'A' | 'B' | 'E' | 'K' | 'P' | 'S' | 'V' | 'X' | 'Y' => 667,
        'C' | 'D' | 'H' | 'N' | 'R' | 'U' => 722,
        'F' | 'T' | 'Z' => 611,
        'G' | 'O' | 'Q' => 778,
        'I' | 'f' | 't' | '.' => 278,
        'i' | 'j' | 'l' => 222,
        'J' | 'c' | 'k' | 's' | 'v' | 'x' | 'y' | 'z' => 500,
        'L' => 556,
        'M' | 'm' => 833,
        'W' => 944,
        'w' => 722,
        'r' => 333,
        '@' => 1015,
        '%' => 889,
        ' ' => 278,
        _ => 556,
    };
    w as f32 / 1000.0
}

/// Text in the fonts' encoding, WinAnsi (Windows-1252): ASCII, Latin-1 letters and
/// signs (`é`, `ü`, `ß`, `°`), `Š`, `Ž`, `Œ`, curly quotes and dashes; anything else
/// shown as `?`.
fn ascii(text: &str) -> Vec<u8> {
    text.chars().map(win_ansi).collect()
}

/// The WinAnsi byte of one character (`?` when it has none).
fn win_ansi(c: char) -> u8 {
    match c {
        ' '..='~' | '\u{a0}'..='\u{ff}' => c as u8,
        '€' => 0x80,
        '‚' => 0x82,
        'ƒ' => 0x83,
        '„' => 0x84,
        '…' => 0x85,
        '†' => 0x86,
        '‡' => 0x87,
        'ˆ' => 0x88,
        '‰' => 0x89,
        'Š' => 0x8a,
        '‹' => 0x8b,
        'Œ' => 0x8c,
        'Ž' => 0x8e,
        '‘' => 0x91,
        '’' => 0x92,
        '“' => 0x93,
        '”' => 0x94,
        '•' => 0x95,
        '–' => 0x96,
        '—' => 0x97,
        '˜' => 0x98,
        '™' => 0x99,
        'š' => 0x9a,
        '›' => 0x9b,
        'œ' => 0x9c,
        'ž' => 0x9e,
        'Ÿ' => 0x9f,
        _ => b'?',
    }
}

/// Draws a layout into `content` with its top-left corner at (x, y) in page points
/// (y measured from the top), `side` points wide.
fn draw(content: &mut Content, l: &Layout, x: f32, y: f32, side: f32) {
    let unit = side / l.size as f32;
    let px = |cx: f64| x + cx as f32 * unit;
    let py = |cy: f64| PAGE.1 - (y + cy as f32 * unit);
    content.set_fill_gray(0.9);
    for m in &l.marks {
        if let Mark::Shade { x: cx, y: cy } = m {
            content.rect(px(*cx), py(*cy + 1.0), unit, unit);
            content.fill_nonzero();
        }
    }
    for weight in [Weight::Thin, Weight::Thick] {
        content.set_line_width(match weight {
            Weight::Thin => unit * 0.02,
            Weight::Thick => unit * 0.07,
        });
        for m in &l.marks {
            if let Mark::Line {
                from,
                to,
                weight: w,
            } = m
            {
                if *w == weight {
                    content.move_to(px(from.0), py(from.1));
                    content.line_to(px(to.0), py(to.1));
                }
            }
        }
        content.stroke();
    }
    for m in &l.marks {
        if let Mark::Text {
            x: cx,
            y: cy,
            size,
            text,
            ink,
        } = m
        {
            let (font, gray) = match ink {
                Ink::Given => (Name(b"FB"), 0.0),
                Ink::Solution => (Name(b"F1"), 0.35),
                Ink::Candidate => (Name(b"F1"), 0.4),
            };
            let size = *size as f32 * unit;
            let width: f32 = text.chars().map(helvetica_width).sum::<f32>() * size;
            content.set_fill_gray(gray);
            content.begin_text();
            content.set_font(font, size);
            // Cap height of Helvetica is about 0.72 em: centre the glyphs vertically.
            content.next_line(px(*cx) - width / 2.0, py(*cy) - 0.36 * size);
            content.show(Str(&ascii(text)));
            content.end_text();
        }
    }
    content.set_fill_gray(0.0);
}

/// Writes a caption at (x, y) from the top, in points.
fn caption(content: &mut Content, text: &str, x: f32, y: f32, size: f32) {
    content.begin_text();
    content.set_font(Name(b"F1"), size);
    content.next_line(x, PAGE.1 - y);
    content.show(Str(&ascii(text)));
    content.end_text();
}

/// The booklet: puzzle pages, then solution pages (12 per page).
fn booklet(
    puzzles: &[(String, Grid)],
    args: &RenderArgs,
    style: &sudokit::format::SymbolStyle,
) -> Result<Vec<u8>> {
    let mut pages: Vec<Content> = Vec::new();
    let mut lay_out = |items: Vec<(String, Layout)>, per_page: usize, heading: &str| {
        let (cols, rows) = page_grid(per_page);
        let slot_w = (PAGE.0 - 2.0 * MARGIN) / cols as f32;
        let slot_h = (PAGE.1 - 2.0 * MARGIN - 20.0) / rows as f32;
        let label = (slot_h * 0.06).clamp(7.0, 12.0);
        let side = (slot_w * 0.9).min(slot_h - 2.5 * label);
        for chunk in items.chunks(per_page) {
            let mut content = Content::new();
            let page_title = match &args.title {
                Some(t) => format!("{t} - {heading}"),
                None => heading.to_string(),
            };
            caption(&mut content, &page_title, MARGIN, MARGIN - 10.0, 12.0);
            for (k, (title, l)) in chunk.iter().enumerate() {
                let (col, row) = (k % cols, k / cols);
                let x = MARGIN + col as f32 * slot_w + (slot_w - side) / 2.0;
                let y = MARGIN + 10.0 + row as f32 * slot_h;
                caption(&mut content, title, x, y + label, label);
                draw(&mut content, l, x, y + 1.6 * label, side);
            }
            let number = pages.len() + 1;
            caption(
                &mut content,
                &number.to_string(),
                PAGE.0 / 2.0 - 5.0,
                PAGE.1 - MARGIN / 2.0,
                9.0,
            );
            pages.push(content);
        }
    };
    let mut puzzle_pages = Vec::new();
    let mut solution_pages = Vec::new();
    for (i, (text, grid)) in puzzles.iter().enumerate() {
        let symbols = output::symbols(style, grid.size());
        let title = if text.is_empty() {
            format!("{}", i + 1)
        } else {
            format!("{}  {}", i + 1, text)
        };
        puzzle_pages.push((title, layout(grid, None, None, &symbols)));
        let title = format!("{}", i + 1);
        // A booklet's reader takes the printed solution for the only one: say when it
        // is not (here and on standard error).
        let (title, solution) = match solve::solve_unique(grid) {
            Verdict::Unique(s) => (title, Some(s)),
            Verdict::Multiple(s) => {
                eprintln!("sudokit: warning: puzzle {title} has several solutions");
                (format!("{title}: one of several solutions"), Some(s))
            }
            Verdict::None => {
                eprintln!("sudokit: warning: puzzle {title} has no solution");
                (format!("{title}: no solution"), None)
            }
        };
        match solution {
            Some(s) => solution_pages.push((title, layout(grid, Some(&s), None, &symbols))),
            None => solution_pages.push((title, layout(grid, None, None, &symbols))),
        }
    }
    lay_out(puzzle_pages, args.per_page, "Puzzles");
    lay_out(solution_pages, 12, "Solutions");

    let mut pdf = Pdf::new();
    let catalog = Ref::new(1);
    let tree = Ref::new(2);
    let regular = Ref::new(3);
    let bold = Ref::new(4);
    let first = 5;
    let page_ids: Vec<Ref> = (0..pages.len())
        .map(|i| Ref::new(first + 2 * i as i32))
        .collect();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree)
        .kids(page_ids.iter().copied())
        .count(pages.len() as i32);
    for (font, name) in [(regular, &b"Helvetica"[..]), (bold, b"Helvetica-Bold")] {
        pdf.type1_font(font)
            .base_font(Name(name))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
    }
    for (i, content) in pages.into_iter().enumerate() {
        let id = page_ids[i];
        let content_id = Ref::new(id.get() + 1);
        let mut page = pdf.page(id);
        page.media_box(Rect::new(0.0, 0.0, PAGE.0, PAGE.1));
        page.parent(tree);
        page.contents(content_id);
        let mut resources = page.resources();
        let mut fonts = resources.fonts();
        fonts.pair(Name(b"F1"), regular);
        fonts.pair(Name(b"FB"), bold);
        fonts.finish();
        resources.finish();
        page.finish();
        pdf.stream(content_id, &content.finish());
    }
    Ok(pdf.finish())
}
