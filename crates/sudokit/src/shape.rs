//! Box shapes: a sudoku of side `n = box_rows * box_cols` is tiled by `n` boxes of
//! `box_rows` x `box_cols` cells.
//!
//! The shape is the only size parameter of a standard sudoku; everything else (houses,
//! peers) is derived from it once, in [`crate::geometry`].

use std::fmt;
use std::str::FromStr;

/// The largest side length supported: candidates are stored as 64-bit digit sets.
pub const MAX_SIZE: usize = 64;

/// A box shape: `box_rows` rows by `box_cols` columns per box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    box_rows: u8,
    box_cols: u8,
}

/// Why a shape was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// The text is not of the form `RxC`.
    #[error("shape must look like RxC (box rows x box columns), e.g. 3x3 or 2x3; got {0:?}")]
    Syntax(String),
    /// The side `R*C` is outside `2..=64`.
    #[error("a {rows}x{cols} box gives a side of {side}; sides from 2 to {MAX_SIZE} are supported")]
    Size {
        /// Box rows.
        rows: usize,
        /// Box columns.
        cols: usize,
        /// Their product.
        side: usize,
    },
}

impl Shape {
    /// Classic 9x9 sudoku: 3x3 boxes.
    pub const CLASSIC: Shape = Shape {
        box_rows: 3,
        box_cols: 3,
    };
    /// Shidoku, the 4x4 puzzle of Moler's chapter: 2x2 boxes.
    pub const SHIDOKU: Shape = Shape {
        box_rows: 2,
        box_cols: 2,
    };

    /// A shape of `box_rows` x `box_cols` boxes; the side must be between 2 and 64.
    pub fn new(box_rows: usize, box_cols: usize) -> Result<Shape, ShapeError> {
        let side = box_rows.saturating_mul(box_cols);
        if box_rows == 0 || box_cols == 0 || !(2..=MAX_SIZE).contains(&side) {
            return Err(ShapeError::Size {
                rows: box_rows,
                cols: box_cols,
                side,
            });
        }
        Ok(Shape {
            box_rows: box_rows as u8,
            box_cols: box_cols as u8,
        })
    }

    /// Rows per box.
    pub fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns per box.
    pub fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// Side length `n`: cells per row, column and box, and the number of digits.
    pub fn size(self) -> usize {
        self.box_rows() * self.box_cols()
    }

    /// Number of cells, `n * n`.
    pub fn cell_count(self) -> usize {
        self.size() * self.size()
    }

    /// Box number (row-major, from 0) of a cell (row-major, from 0).
    pub fn box_of(self, cell: usize) -> usize {
        let n = self.size();
        let (r, c) = (cell / n, cell % n);
        (r / self.box_rows()) * (n / self.box_cols()) + c / self.box_cols()
    }

    /// The conventional shape for a grid of side `n`: the most nearly square box with
    /// more columns than rows (6 -> 2x3, 12 -> 3x4), or `None` when `n` is prime
    /// (no boxes fit; such grids are Latin squares).
    pub fn for_size(n: usize) -> Option<Shape> {
        if !(2..=MAX_SIZE).contains(&n) {
            return None;
        }
        let mut rows = (n as f64).sqrt() as usize;
        while rows > 1 && n % rows != 0 {
            rows -= 1;
        }
        if rows <= 1 {
            return None;
        }
        Shape::new(rows, n / rows).ok()
    }

    /// The shape inferred from a cell count (16 -> 2x2, 36 -> 2x3, 81 -> 3x3, 256 -> 4x4, ...).
    pub fn for_cell_count(cells: usize) -> Option<Shape> {
        let n = (cells as f64).sqrt().round() as usize;
        if n * n != cells {
            return None;
        }
        Shape::for_size(n)
    }

    /// The same boxes turned on their side (2x3 -> 3x2).
    pub fn transposed(self) -> Shape {
        Shape {
            box_rows: self.box_cols,
            box_cols: self.box_rows,
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.box_rows, self.box_cols)
    }
}

impl FromStr for Shape {
    type Err = ShapeError;

    fn from_str(s: &str) -> Result<Shape, ShapeError> {
        let syntax = || ShapeError::Syntax(s.to_string());
        let (r, c) = s.trim().split_once(['x', 'X', '*']).ok_or_else(syntax)?;
        let r: usize = r.trim().parse().map_err(|_| syntax())?;
        let c: usize = c.trim().parse().map_err(|_| syntax())?;
        Shape::new(r, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_displays() {
        assert_eq!("3x3".parse::<Shape>().unwrap(), Shape::CLASSIC);
        assert_eq!("2x3".parse::<Shape>().unwrap().to_string(), "2x3");
        assert_eq!("8X8".parse::<Shape>().unwrap().size(), 64);
        assert!("9x9".parse::<Shape>().is_err());
        assert!("1x1".parse::<Shape>().is_err());
        assert!("0x3".parse::<Shape>().is_err());
        assert!("3".parse::<Shape>().is_err());
        assert!("axb".parse::<Shape>().is_err());
        assert!("99999999999999999999x2".parse::<Shape>().is_err());
    }

    #[test]
    fn infers_conventional_shapes() {
        assert_eq!(Shape::for_cell_count(16), Some(Shape::SHIDOKU));
        assert_eq!(Shape::for_cell_count(36), Some(Shape::new(2, 3).unwrap()));
        assert_eq!(Shape::for_cell_count(81), Some(Shape::CLASSIC));
        assert_eq!(Shape::for_cell_count(256), Some(Shape::new(4, 4).unwrap()));
        assert_eq!(Shape::for_cell_count(625), Some(Shape::new(5, 5).unwrap()));
        assert_eq!(Shape::for_cell_count(144), Some(Shape::new(3, 4).unwrap()));
        assert_eq!(Shape::for_cell_count(49), None);
        assert_eq!(Shape::for_cell_count(80), None);
        assert_eq!(Shape::for_cell_count(1), None);
        assert_eq!(Shape::for_size(64), Some(Shape::new(8, 8).unwrap()));
    }
}
