//! Symbols: how digits `1..=n` are written as characters.
//!
//! The default alphabet is `1-9` then `A-Z` then `a-z` then `@$%` (64 symbols), the
//! convention of 16x16 and 25x25 collections (`1-9A-G`, `1-9A-P`). The zero-based
//! alphabet `0-9A-F...` is the other 16x16 convention. Moler's letters display is the
//! custom alphabet `ABCDEFGHI`. Empty cells are read as `.`, `_`, `*` or `0` (when `0`
//! is not a symbol) and written as `.`.

use std::fmt;

/// Characters read as an empty cell (plus `0` when it is not a symbol).
pub const EMPTY_CHARS: &[u8] = b"._*";

/// The lookup entry of a byte that is neither a symbol nor an empty marker.
const NOT_A_SYMBOL: u8 = u8::MAX;

const STANDARD: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$%";
const ZERO_BASED: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$";

/// The characters of digits `1..=n`, and their inverse.
#[derive(Clone, PartialEq, Eq)]
pub struct Symbols {
    chars: Vec<u8>,
    /// `lookup[byte]` = digit, 0 for an empty-cell marker, [`NOT_A_SYMBOL`] otherwise:
    /// one load per character, because parsing is a sizeable share of solving an easy
    /// puzzle.
    lookup: [u8; 256],
}

/// Why an alphabet was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SymbolsError {
    /// Wrong number of symbols for the side.
    #[error("the alphabet {alphabet:?} has {got} symbols; a side of {size} needs {size}")]
    Count {
        /// The alphabet as given.
        alphabet: String,
        /// Its number of symbols.
        got: usize,
        /// The side.
        size: usize,
    },
    /// A symbol that cannot be used.
    #[error(
        "{0:?} cannot be a symbol (symbols are printable ASCII, not '.', '_', '*', '#', '|', '-', '+' or repeated)"
    )]
    Bad(char),
}

impl Symbols {
    /// The default alphabet for side `n`: `1-9`, then `A-Z`, `a-z`, `@$%`.
    ///
    /// Letters are case-insensitive on input while `n <= 35`.
    pub fn standard(n: usize) -> Symbols {
        Symbols::build(&STANDARD[..n.min(STANDARD.len())], n <= 35)
    }

    /// The zero-based alphabet `0-9A-F...` (hexadecimal for 16x16); `0` is then a digit.
    pub fn zero_based(n: usize) -> Symbols {
        Symbols::build(&ZERO_BASED[..n.min(ZERO_BASED.len())], n <= 36)
    }

    /// A custom alphabet for side `n`: either `n` characters (`ABCDEFGHI`, `01`) or
    /// ranges (`1-9A-G`, `0-F`, `A-I`).
    pub fn custom(spec: &str, n: usize) -> Result<Symbols, SymbolsError> {
        let bytes = spec.as_bytes();
        let mut chars = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if i + 2 < bytes.len()
                && bytes[i + 1] == b'-'
                && bytes[i].is_ascii_alphanumeric()
                && bytes[i + 2].is_ascii_alphanumeric()
                && bytes[i] < bytes[i + 2]
            {
                // A range such as 1-9 or A-G; 9-A style jumps follow ASCII order within
                // one class only.
                let (a, b) = (bytes[i], bytes[i + 2]);
                chars.extend((a..=b).filter(|c| c.is_ascii_alphanumeric()));
                i += 3;
            } else {
                chars.push(bytes[i]);
                i += 1;
            }
        }
        // Named as written: the bytes of a character outside ASCII are not characters.
        if let Some(c) = spec.chars().find(|c| !c.is_ascii()) {
            return Err(SymbolsError::Bad(c));
        }
        for (k, &c) in chars.iter().enumerate() {
            let bad = !(c.is_ascii_graphic()) || b"._*#|-+".contains(&c) || chars[..k].contains(&c);
            if bad {
                return Err(SymbolsError::Bad(c as char));
            }
        }
        if chars.len() != n {
            return Err(SymbolsError::Count {
                alphabet: spec.to_string(),
                got: chars.len(),
                size: n,
            });
        }
        let letters_unique_ignoring_case = {
            let mut seen = [false; 128];
            chars.iter().all(|&c| {
                let l = c.to_ascii_lowercase() as usize;
                !std::mem::replace(&mut seen[l], true)
            })
        };
        Ok(Symbols::build(&chars, letters_unique_ignoring_case))
    }

    fn build(chars: &[u8], case_insensitive: bool) -> Symbols {
        let mut lookup = [NOT_A_SYMBOL; 256];
        for &c in EMPTY_CHARS.iter().chain(b"0") {
            lookup[c as usize] = 0;
        }
        for (i, &c) in chars.iter().enumerate() {
            lookup[c as usize] = i as u8 + 1;
            if case_insensitive && c.is_ascii_alphabetic() {
                lookup[c.to_ascii_lowercase() as usize] = i as u8 + 1;
                lookup[c.to_ascii_uppercase() as usize] = i as u8 + 1;
            }
        }
        Symbols {
            chars: chars.to_vec(),
            lookup,
        }
    }

    /// Number of symbols (the side they serve).
    pub fn len(&self) -> usize {
        self.chars.len()
    }

    /// Whether there are no symbols (never, for a valid alphabet).
    pub fn is_empty(&self) -> bool {
        self.chars.is_empty()
    }

    /// The character of digit `d` (1-based); `.` for 0.
    pub fn char(&self, d: u8) -> char {
        match d {
            0 => '.',
            _ => self.chars[d as usize - 1] as char,
        }
    }

    /// The digit a byte stands for: `Some(0)` for an empty cell, `None` if it is
    /// neither a symbol nor an empty marker.
    #[inline]
    pub fn digit(&self, byte: u8) -> Option<u8> {
        let d = self.lookup[byte as usize];
        (d != NOT_A_SYMBOL).then_some(d)
    }

    /// Whether `0` is a digit (zero-based alphabets), so it cannot mean "empty".
    pub fn zero_is_digit(&self) -> bool {
        !matches!(self.lookup[b'0' as usize], 0 | NOT_A_SYMBOL)
    }
}

impl fmt::Debug for Symbols {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Symbols({})", String::from_utf8_lossy(&self.chars))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marked_digits_are_written_in_the_readers_symbols() {
        // Forcing chains' details are text made before the symbols are known: they
        // came out in numbers ("r10c4=16") under letters or zero-based symbols.
        let text = format!(
            "If r1c5={}, r6c7 ({}, {}) fails",
            Digits::mark(3),
            Digits::mark(1),
            Digits::mark(16)
        );
        assert_eq!(Digits::NUMBERS.fill(&text), "If r1c5=3, r6c7 (1, 16) fails");
        let letters = Symbols::custom("ABCDEFGHIJKLMNOP", 16).unwrap();
        assert_eq!(
            Digits::symbols(&letters).fill(&text),
            "If r1c5=C, r6c7 (A, P) fails"
        );
        let hex = Symbols::zero_based(16);
        assert_eq!(
            Digits::symbols(&hex).fill(&text),
            "If r1c5=2, r6c7 (0, F) fails"
        );
    }

    #[test]
    fn standard_and_zero_based() {
        let s = Symbols::standard(16);
        assert_eq!(s.char(10), 'A');
        assert_eq!(s.char(16), 'G');
        assert_eq!(s.digit(b'g'), Some(16));
        assert_eq!(s.digit(b'0'), Some(0));
        assert_eq!(s.digit(b'H'), None);
        let h = Symbols::zero_based(16);
        assert_eq!(h.char(1), '0');
        assert_eq!(h.digit(b'0'), Some(1));
        assert_eq!(h.digit(b'F'), Some(16));
        assert_eq!(h.digit(b'.'), Some(0));
        assert!(h.zero_is_digit());
        assert_eq!(Symbols::standard(64).char(64), '%');
        assert_eq!(Symbols::standard(64).digit(b'a'), Some(36));
    }

    #[test]
    fn custom_alphabets() {
        let moler = Symbols::custom("ABCDEFGHI", 9).unwrap();
        assert_eq!(moler.char(1), 'A');
        assert_eq!(moler.digit(b'i'), Some(9));
        assert_eq!(
            Symbols::custom("1-9A-G", 16).unwrap(),
            Symbols::standard(16)
        );
        assert_eq!(
            Symbols::custom("0-9A-F", 16).unwrap(),
            Symbols::zero_based(16)
        );
        assert_eq!(Symbols::custom("0-F", 16).unwrap().len(), 16);
        let binary = Symbols::custom("01", 2).unwrap();
        assert_eq!(binary.digit(b'0'), Some(1));
        assert!(Symbols::custom("ABC", 9).is_err());
        assert!(Symbols::custom("AAB", 3).is_err());
        assert!(Symbols::custom("A.B", 3).is_err());
        // A character outside ASCII is named as written, not by its first byte.
        let e = Symbols::custom("éabc", 4).unwrap_err().to_string();
        assert!(e.contains("'é'"), "{e}");
    }
}

/// How step text writes digits: as numbers (the default, and what the JSON strings
/// such as `r3c9=5` always use), or in the puzzle's own symbols, so that a puzzle read
/// with `--symbols ABCDEFGHI` is explained in letters.
#[derive(Clone, Copy, Default)]
pub struct Digits<'a>(Option<&'a Symbols>);

impl<'a> Digits<'a> {
    /// Digits as numbers.
    pub const NUMBERS: Digits<'static> = Digits(None);

    /// Digits written with these symbols.
    pub fn symbols(symbols: &'a Symbols) -> Digits<'a> {
        Digits(Some(symbols))
    }

    /// One digit's text.
    pub(crate) fn show(&self, d: u8) -> String {
        match self.0 {
            Some(s) if (1..=s.len()).contains(&(d as usize)) => s.char(d).to_string(),
            _ => d.to_string(),
        }
    }

    /// A digit inside text written before the symbols are known (a step's chain
    /// details): marked, for [`Digits::fill`] to write in the reader's symbols.
    pub(crate) fn mark(d: u8) -> String {
        format!("{DIGIT_START}{d}{DIGIT_END}")
    }

    /// `text` with each [`Digits::mark`]ed digit written in these symbols.
    pub(crate) fn fill(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find(DIGIT_START) {
            out.push_str(&rest[..start]);
            let after = &rest[start + DIGIT_START.len_utf8()..];
            let Some(end) = after.find(DIGIT_END) else {
                rest = after;
                break;
            };
            match after[..end].parse::<u8>() {
                Ok(d) => out.push_str(&self.show(d)),
                Err(_) => out.push_str(&after[..end]),
            }
            rest = &after[end + DIGIT_END.len_utf8()..];
        }
        out.push_str(rest);
        out
    }
}

/// The marks around a digit in text not yet written in symbols (control characters: no
/// step text holds them otherwise).
const DIGIT_START: char = '\u{2}';
const DIGIT_END: char = '\u{3}';
