//! The built-in collection: every puzzle printed in the seed documents, by name.
//!
//! Each entry keeps the source it was transcribed from, so that a figure can be checked
//! against the document. Names are usable anywhere a puzzle is read
//! (`sudokit solve lo-shu`).

use crate::format::parse_grid;
use crate::grid::Grid;

/// A named puzzle from the seed documents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Builtin {
    /// The name to ask for it by.
    pub name: &'static str,
    /// Where it is printed.
    pub source: &'static str,
    /// What the source says about it.
    pub note: &'static str,
    /// The puzzle as one line (`.` = empty).
    pub text: &'static str,
}

impl Builtin {
    /// The puzzle as a grid.
    pub fn grid(&self) -> Grid {
        parse_grid(self.text).expect("built-in puzzles parse")
    }
}

/// All built-in puzzles, in the order of the seed documents.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "lo-shu",
        source: "Moler, Experiments with MATLAB, ch. 14, figure 14.1",
        note: "kron(eye(3),magic(3)) plus eight clues; unique; sudoku_basic takes 50 steps (figure 14.12)",
        text: "816.....3357....8.4921.......3816......357......4921.......3816.2....3571.....492",
    },
    Builtin {
        name: "lo-shu-5",
        source: "Moler, ch. 14, exercise 14.5",
        note: "the Lo-Shu puzzle with its (9,1) clue replaced by 5: unique",
        text: "816.....3357....8.4921.......3816......357......4921.......3816.2....3575.....492",
    },
    Builtin {
        name: "lo-shu-6",
        source: "Moler, ch. 14, exercise 14.5",
        note: "the Lo-Shu puzzle with its (9,1) clue replaced by 6: two solutions",
        text: "816.....3357....8.4921.......3816......357......4921.......3816.2....3576.....492",
    },
    Builtin {
        name: "lo-shu-7",
        source: "Moler, ch. 14, exercise 14.5",
        note: "the Lo-Shu puzzle with its (9,1) clue replaced by 7: no solution",
        text: "816.....3357....8.4921.......3816......357......4921.......3816.2....3577.....492",
    },
    Builtin {
        name: "lo-shu-0",
        source: "Moler, ch. 14, exercise 14.5",
        note: "the Lo-Shu puzzle with its (9,1) clue emptied",
        text: "816.....3357....8.4921.......3816......357......4921.......3816.2....357......492",
    },
    Builtin {
        name: "kron",
        source: "Moler, ch. 14",
        note: "kron(eye(3),magic(3)) alone: 283576 solutions (\"a little over half an hour\" for sudoku_all)",
        text: "816......357......492.........816......357......492.........816......357......492",
    },
    Builtin {
        name: "shidoku",
        source: "Moler, ch. 14, figure 14.4",
        note: "Shidoku (4x4), solved by singletons",
        text: "1.....3..2.....4",
    },
    Builtin {
        name: "diag4",
        source: "Moler, ch. 14, figure 14.8",
        note: "diag(1:4): no singletons; two solutions, transposes of each other",
        text: "1....2....3....4",
    },
    Builtin {
        name: "kronecker",
        source: "\"Solving Soduko in Matlab\", the professor's one-screen solver (default X)",
        note: "the default puzzle of the Kronecker one-liner",
        text: ".2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2.",
    },
    Builtin {
        name: "kronecker-example",
        source: "\"Solving Soduko in Matlab\", sudoku.m listing (example P)",
        note: "unique; solution printed as S{1}",
        text: ".4...51..56...3..2..26.8..47.5....3...........1....5.72..9.64..3..8...26..64...8.",
    },
    Builtin {
        name: "fallin",
        source: "Fallin, Sudoku and Recursive Algorithms, figure 1",
        note: "the top left cell can only be 3 or 9",
        text: ".6.1.4.5...83.56..2.......18..4.7..6..6...3..7..9.1..45.......2..72.69...4.5.8.7.",
    },
    Builtin {
        name: "octave",
        source: "Luana and Otero-de-la-Roza, Solving sudokus with GNU Octave (I), Linux Gazette 174",
        note: "top1465 #77 plus one clue, as the article prints it (its reader transposes the 81-character string); first solution at call 46, 435 calls in all",
        text: "7.........2..6..3...3..1..9...5..3...7..2..4...8..7..14..3..9...8..9..63..9..6..5",
    },
];

/// The built-in puzzle of that name.
pub fn builtin(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_parses_and_lo_shu_matches_the_recap_construction() {
        for b in BUILTINS {
            let g = b.grid();
            assert!(g.first_conflict().is_none(), "{}", b.name);
        }
        // sudoku_recap: X = kron(eye(3),magic(3)) + sparse([9 8 4 3 7 6 2 1],[1:4 6:9],[1 2 3 1 3 1 8 3])
        let magic = [[8, 1, 6], [3, 5, 7], [4, 9, 2]];
        let mut x = [[0u8; 9]; 9];
        for block in 0..3 {
            for i in 0..3 {
                for j in 0..3 {
                    x[3 * block + i][3 * block + j] = magic[i][j];
                }
            }
        }
        let rows = [9, 8, 4, 3, 7, 6, 2, 1];
        let cols = [1, 2, 3, 4, 6, 7, 8, 9];
        let vals = [1, 2, 3, 1, 3, 1, 8, 3];
        let kron = builtin("kron").unwrap().grid();
        assert_eq!(kron.cells(), x.concat().as_slice());
        for k in 0..8 {
            x[rows[k] - 1][cols[k] - 1] += vals[k];
        }
        assert_eq!(
            builtin("lo-shu").unwrap().grid().cells(),
            x.concat().as_slice()
        );
        for (name, v) in [
            ("lo-shu-5", 5),
            ("lo-shu-6", 6),
            ("lo-shu-7", 7),
            ("lo-shu-0", 0),
        ] {
            let mut y = x;
            y[8][0] = v;
            assert_eq!(
                builtin(name).unwrap().grid().cells(),
                y.concat().as_slice(),
                "{name}"
            );
        }
    }

    #[test]
    fn octave_puzzle_is_the_transpose_of_the_article_string() {
        let article =
            "700000400020070080003008009000500300060020090001007006000300900030040060009001035";
        let a: Vec<u8> = article.bytes().map(|b| b - b'0').collect();
        let transposed: Vec<u8> = (0..81).map(|i| a[(i % 9) * 9 + i / 9]).collect();
        assert_eq!(
            builtin("octave").unwrap().grid().cells(),
            transposed.as_slice()
        );
    }
}
