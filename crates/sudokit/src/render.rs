//! Drawing puzzles for print and screen.
//!
//! [`layout`] turns a grid into drawing marks (lines, shaded cells, text) in cell units,
//! the grid spanning `0..n` on both axes with `y` growing downwards. Every backend draws
//! the same marks: [`to_svg`] here, the PDF booklet in the command line, the web page.
//! Thick lines follow the boxes or jigsaw regions (any house of kind box or region, read
//! from the geometry), X-sudoku diagonals and windoku windows are shaded.

use std::fmt::Write as _;

use crate::grid::{Candidates, Grid};
use crate::symbols::Symbols;

/// What a piece of text is, for its colour and weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    /// A given digit.
    Given,
    /// A digit of the solution (not a given).
    Solution,
    /// A pencil mark.
    Candidate,
}

/// How heavy a line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weight {
    /// Between cells of one box or region.
    Thin,
    /// Between boxes or regions, and the outer frame.
    Thick,
}

/// One drawing instruction, in cell units.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A straight line.
    Line {
        /// Start (x, y).
        from: (f64, f64),
        /// End (x, y).
        to: (f64, f64),
        /// Its weight.
        weight: Weight,
    },
    /// A lightly shaded cell (diagonals, windows).
    Shade {
        /// Column of the cell.
        x: f64,
        /// Row of the cell.
        y: f64,
    },
    /// Text centred on a point.
    Text {
        /// Centre x.
        x: f64,
        /// Centre y (the middle of the glyphs).
        y: f64,
        /// Height in cell units.
        size: f64,
        /// The characters.
        text: String,
        /// What it is.
        ink: Ink,
    },
}

/// A grid laid out as marks: `size` is the side `n` (the drawing spans `0..n`).
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The side, in cells.
    pub size: f64,
    /// The marks, shading first, then lines, then text.
    pub marks: Vec<Mark>,
}

/// Lays out a puzzle; with `solution`, its other digits are drawn too (in
/// [`Ink::Solution`]); with `candidates`, the empty cells show their pencil marks.
pub fn layout(
    puzzle: &Grid,
    solution: Option<&Grid>,
    candidates: Option<&Candidates>,
    symbols: &Symbols,
) -> Layout {
    let g = puzzle.geometry();
    let n = g.size();
    let mut marks = Vec::new();
    // Shading: cells of diagonals and windows.
    for c in (0..n * n).filter(|&c| g.is_shaded(c)) {
        marks.push(Mark::Shade {
            x: g.col(c) as f64,
            y: g.row(c) as f64,
        });
    }
    // The block (box or jigsaw region) of every cell, if the geometry has blocks.
    let block: Vec<Option<usize>> = (0..n * n).map(|c| g.region_of(c)).collect();
    let weight = |a: usize, b: usize| {
        if block[a] != block[b] {
            Weight::Thick
        } else {
            Weight::Thin
        }
    };
    for r in 0..n {
        for c in 0..n {
            let cell = r * n + c;
            if c + 1 < n {
                let x = (c + 1) as f64;
                marks.push(Mark::Line {
                    from: (x, r as f64),
                    to: (x, (r + 1) as f64),
                    weight: weight(cell, cell + 1),
                });
            }
            if r + 1 < n {
                let y = (r + 1) as f64;
                marks.push(Mark::Line {
                    from: (c as f64, y),
                    to: ((c + 1) as f64, y),
                    weight: weight(cell, cell + n),
                });
            }
        }
    }
    let side = n as f64;
    for (from, to) in [
        ((0.0, 0.0), (side, 0.0)),
        ((side, 0.0), (side, side)),
        ((side, side), (0.0, side)),
        ((0.0, side), (0.0, 0.0)),
    ] {
        marks.push(Mark::Line {
            from,
            to,
            weight: Weight::Thick,
        });
    }
    // Digits: givens, then solution digits, then pencil marks of empty cells.
    let per_row = (n as f64).sqrt().ceil() as usize;
    for cell in 0..n * n {
        let (x, y) = (g.col(cell) as f64, g.row(cell) as f64);
        let given = puzzle.get(cell);
        let shown = solution.map_or(0, |s| s.get(cell));
        if given != 0 || shown != 0 {
            marks.push(Mark::Text {
                x: x + 0.5,
                y: y + 0.5,
                size: 0.6,
                text: symbols
                    .char(if given != 0 { given } else { shown })
                    .to_string(),
                ink: if given != 0 {
                    Ink::Given
                } else {
                    Ink::Solution
                },
            });
        } else if let Some(cands) = candidates {
            for d in cands.get(cell).iter() {
                let k = d as usize - 1;
                let (i, j) = (k / per_row, k % per_row);
                let step = 1.0 / per_row as f64;
                marks.push(Mark::Text {
                    x: x + step * (j as f64 + 0.5),
                    y: y + step * (i as f64 + 0.5),
                    size: 0.8 * step,
                    text: symbols.char(d).to_string(),
                    ink: Ink::Candidate,
                });
            }
        }
    }
    Layout { size: side, marks }
}

/// Escapes text for XML.
fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Draws a layout as a standalone SVG document, `cell` pixels per cell, with an
/// optional title above the grid.
pub fn to_svg(layout: &Layout, cell: f64, title: Option<&str>) -> String {
    let margin = cell * 0.5;
    let head = if title.is_some() { cell * 0.9 } else { 0.0 };
    let side = layout.size * cell;
    let (w, h) = (side + 2.0 * margin, side + 2.0 * margin + head);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.1} {h:.1}">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    if let Some(t) = title {
        let _ = writeln!(
            s,
            r#"<text x="{margin:.1}" y="{:.1}" font-family="Helvetica, Arial, sans-serif" font-size="{:.1}">{}</text>"#,
            margin + cell * 0.45,
            cell * 0.45,
            xml(t)
        );
    }
    let _ = writeln!(
        s,
        r#"<g transform="translate({margin:.1} {:.1})">"#,
        margin + head
    );
    for mark in &layout.marks {
        match mark {
            Mark::Shade { x, y } => {
                let _ = writeln!(
                    s,
                    r##"<rect x="{:.1}" y="{:.1}" width="{cell:.1}" height="{cell:.1}" fill="#e8e8e8"/>"##,
                    x * cell,
                    y * cell
                );
            }
            Mark::Line { from, to, weight } => {
                let width = match weight {
                    Weight::Thin => cell * 0.025,
                    Weight::Thick => cell * 0.075,
                };
                let _ = writeln!(
                    s,
                    r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="black" stroke-width="{width:.2}" stroke-linecap="square"/>"#,
                    from.0 * cell,
                    from.1 * cell,
                    to.0 * cell,
                    to.1 * cell
                );
            }
            Mark::Text {
                x,
                y,
                size,
                text,
                ink,
            } => {
                let (fill, weight) = match ink {
                    Ink::Given => ("black", "bold"),
                    Ink::Solution => ("#1f5fbf", "normal"),
                    Ink::Candidate => ("#555555", "normal"),
                };
                let _ = writeln!(
                    s,
                    r#"<text x="{:.1}" y="{:.1}" font-family="Helvetica, Arial, sans-serif" font-size="{:.1}" font-weight="{weight}" fill="{fill}" text-anchor="middle" dominant-baseline="central">{}</text>"#,
                    x * cell,
                    y * cell,
                    size * cell,
                    xml(text)
                );
            }
        }
    }
    s.push_str("</g>\n</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_grid;
    use crate::solve::solve;

    #[test]
    fn classic_layout_has_thick_box_lines_and_all_digits() {
        let p = parse_grid(
            "816.....3357....8.4921.......3816......357......4921.......3816.2....3571.....492",
        )
        .unwrap();
        let s = solve(&p).unwrap();
        let l = layout(&p, Some(&s), None, &Symbols::standard(9));
        let texts = l
            .marks
            .iter()
            .filter(|m| matches!(m, Mark::Text { .. }))
            .count();
        assert_eq!(texts, 81);
        let thick = l
            .marks
            .iter()
            .filter(|m| {
                matches!(
                    m,
                    Mark::Line {
                        weight: Weight::Thick,
                        ..
                    }
                )
            })
            .count();
        // 2 inner thick lines each way, 9 segments each, plus the 4 frame lines.
        assert_eq!(thick, 2 * 2 * 9 + 4);
        let svg = to_svg(&l, 40.0, Some("Lo-Shu & co"));
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("Lo-Shu &amp; co"));
    }

    #[test]
    fn candidates_fill_empty_cells() {
        let p = parse_grid("1....2....3....4").unwrap();
        let c = Candidates::from_grid(&p);
        let l = layout(&p, None, Some(&c), &Symbols::standard(4));
        let marks = l
            .marks
            .iter()
            .filter(|m| {
                matches!(
                    m,
                    Mark::Text {
                        ink: Ink::Candidate,
                        ..
                    }
                )
            })
            .count();
        let expected: usize = (0..16)
            .filter(|&i| p.get(i) == 0)
            .map(|i| c.get(i).len())
            .sum();
        assert_eq!(marks, expected);
    }
}
