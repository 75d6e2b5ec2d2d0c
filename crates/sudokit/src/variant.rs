//! Variants: puzzle types whose rule is "all different in these houses".
//!
//! A variant is data that [`Geometry::for_variant`](crate::Geometry::for_variant) turns into
//! houses: `latin` drops the boxes, `x` adds both main diagonals, `windoku` adds the
//! windows between the boxes, `jigsaw` replaces the boxes by irregular regions,
//! `disjoint` adds the cells at each position of the boxes (disjoint groups),
//! `centre-dot` the boxes' centres, `asterisk` and `girandola` nine cells of a 9x9 grid
//! each. They combine where it makes sense (`x,jigsaw`, `x,windoku`, `x,disjoint`);
//! every engine then works on the houses and needs no code path of its own.

use std::fmt;
use std::str::FromStr;

/// The extra rules of a puzzle type; the default is plain sudoku.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Rows and columns only (a Latin square): no boxes.
    pub latin: bool,
    /// Both main diagonals are houses (X-sudoku).
    pub diagonals: bool,
    /// The windows between the boxes are houses (windoku).
    pub windows: bool,
    /// The cells at one position in every box form a house (disjoint groups).
    pub disjoint: bool,
    /// The centre cells of the boxes form a house (centre dot; boxes of odd sides).
    pub centre_dot: bool,
    /// Nine cells in the shape of an asterisk form a house (9x9).
    pub asterisk: bool,
    /// Nine cells in the shape of a pinwheel form a house (girandola, 9x9).
    pub girandola: bool,
    /// Maps of extra houses of the user's own, each one label per cell: the house of
    /// each cell in that map (0-based, in order of first appearance), or [`NO_HOUSE`].
    /// Several maps let houses cross: a cell is in one house of each map at most. Read
    /// (and kept by a [`Geometry`](crate::Geometry)) sorted and each once, so that the
    /// same maps make one variant in any order.
    pub extra: Vec<Vec<u8>>,
    /// Irregular regions replace the boxes (jigsaw); `None` while the map is not known.
    pub jigsaw: bool,
    /// The region of every cell (0-based, row-major), for jigsaw.
    pub regions: Option<Vec<u8>>,
}

/// Whether `c` is a label of a region map, not a blank or a `|`, `-`, `+` separator.
pub fn is_map_label(c: char) -> bool {
    !c.is_whitespace() && !matches!(c, '|' | '-' | '+')
}

/// A cell in no house of an extra-house map (written `.`).
pub const NO_HOUSE: u8 = u8::MAX;

/// Labels of regions and extra houses as written: `1-9`, then `A-Z`, then `a-z`.
const LABELS: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// The label written for region or extra house `r` (beyond `z`, further letters).
fn label(r: u8) -> char {
    LABELS.get(r as usize).map_or_else(
        || char::from_u32(0x100 + r as u32).unwrap_or('?'),
        |&b| b as char,
    )
}

/// Numbers `labels` (one per cell) in order of first appearance, `none` standing for a
/// cell in no house ([`NO_HOUSE`]). `Err` names the first label that does not cover
/// exactly `n` cells: with all of `n` cells, `n * n` labels make `n` houses, so it is the
/// one to name, with its size and the number of labels.
fn number_labels(
    labels: &[char],
    n: usize,
    none: Option<char>,
) -> Result<Vec<u8>, (char, usize, usize)> {
    let mut order: Vec<char> = Vec::new();
    let mut houses = Vec::with_capacity(labels.len());
    for &c in labels {
        if Some(c) == none {
            houses.push(NO_HOUSE);
            continue;
        }
        let index = order.iter().position(|&l| l == c).unwrap_or_else(|| {
            order.push(c);
            order.len() - 1
        });
        houses.push(index.min(NO_HOUSE as usize - 1) as u8);
    }
    for (i, &label) in order.iter().enumerate() {
        let size = houses.iter().filter(|&&h| h as usize == i).count();
        if size != n {
            return Err((label, size, order.len()));
        }
    }
    Ok(houses)
}

/// Why a variant or region map was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// An unknown variant name.
    #[error(
        "unknown variant {0:?}; known: standard, latin, x, windoku, jigsaw, disjoint, centre-dot, asterisk, girandola, extra=MAP (combine with commas, e.g. x,jigsaw)"
    )]
    Unknown(String),
    /// Variants that cannot go together.
    #[error("variants {0} and {1} cannot be combined")]
    Conflict(&'static str, &'static str),
    /// A region map of the wrong length.
    #[error("a region map for a {n}x{n} grid needs {} labels, got {got}", n.saturating_mul(*n))]
    RegionLength {
        /// The side.
        n: usize,
        /// Labels found.
        got: usize,
    },
    /// A region map whose length is no grid's cell count (not a square).
    #[error("a region map needs one label per cell (a square number: 81 for 9x9), got {got}")]
    RegionCount {
        /// Labels found.
        got: usize,
    },
    /// A region map whose regions are not all of size `n`.
    #[error(
        "region {label:?} has {size} cells; every region needs {n} (the map has {regions} regions)"
    )]
    RegionSize {
        /// The label of the faulty region.
        label: char,
        /// Its size.
        size: usize,
        /// The side.
        n: usize,
        /// Number of distinct labels.
        regions: usize,
    },
    /// An extra-house map whose length is no grid's cell count.
    #[error(
        "an extra-house map (extra=...) needs one label per cell, `.` for none (a square number: 81 for 9x9), got {got}"
    )]
    ExtraCount {
        /// Labels found.
        got: usize,
    },
    /// An extra house of the wrong size.
    #[error("extra house {label:?} has {size} cells; every house needs {n}")]
    ExtraSize {
        /// The label of the faulty house.
        label: char,
        /// Its size.
        size: usize,
        /// The side.
        n: usize,
    },
}

impl Variant {
    /// Plain sudoku.
    pub fn standard() -> Variant {
        Variant::default()
    }

    /// Whether this is plain sudoku.
    pub fn is_standard(&self) -> bool {
        *self == Variant::default()
    }

    /// Whether this is a Latin square and nothing more: rows and columns its only houses.
    pub fn is_latin_square(&self) -> bool {
        self.latin && !self.jigsaw && !self.has_extra_houses()
    }

    /// Whether houses beyond rows, columns and boxes or regions come with it: diagonals,
    /// windows, disjoint groups, a centre dot, an asterisk, a girandola, a map's.
    pub fn has_extra_houses(&self) -> bool {
        self.named_extras().iter().any(|&(on, _)| on) || !self.extra.is_empty()
    }

    /// The named rules that add houses, each with its word, in the order names and
    /// `# variant:` lines give them.
    pub fn named_extras(&self) -> [(bool, &'static str); 6] {
        [
            (self.diagonals, "x"),
            (self.windows, "windoku"),
            (self.disjoint, "disjoint"),
            (self.centre_dot, "centre-dot"),
            (self.asterisk, "asterisk"),
            (self.girandola, "girandola"),
        ]
    }

    /// Reads an extra-house map: one label per cell (`.` for a cell in no extra house),
    /// `n * n` of them, each label covering exactly `n` cells. Houses are numbered in
    /// order of first appearance. A map gives each cell one extra house at most; houses
    /// that cross (X-sudoku's diagonals) take two maps, two `extra=` words.
    pub fn parse_extra(text: &str) -> Result<Vec<u8>, VariantError> {
        let labels: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        let n = (labels.len() as f64).sqrt().round() as usize;
        if n * n != labels.len() || n < 2 {
            return Err(VariantError::ExtraCount { got: labels.len() });
        }
        number_labels(&labels, n, Some('.')).map_err(|(label, size, _)| VariantError::ExtraSize {
            label,
            size,
            n,
        })
    }

    /// The extra-house maps, each as text [`Variant::parse_extra`] reads back.
    pub fn extra_labels(&self) -> Vec<String> {
        self.extra
            .iter()
            .map(|map| {
                map.iter()
                    .map(|&h| if h == NO_HOUSE { '.' } else { label(h) })
                    .collect()
            })
            .collect()
    }

    /// The first rule that needs boxes (none in a Latin square or a jigsaw): windoku,
    /// disjoint groups, centre dot.
    fn box_rule(&self) -> Option<&'static str> {
        const ON_BOXES: [&str; 3] = ["windoku", "disjoint", "centre-dot"];
        self.named_extras()
            .into_iter()
            .find_map(|(on, word)| (on && ON_BOXES.contains(&word)).then_some(word))
    }

    /// Reads an n*n region map: one label character per cell (whitespace and `|`, `-`,
    /// `+` separators ignored), each label covering exactly `n` cells. Labels are
    /// numbered in order of first appearance.
    pub fn parse_regions(text: &str, n: usize) -> Result<Vec<u8>, VariantError> {
        let labels: Vec<char> = text.chars().filter(|&c| is_map_label(c)).collect();
        // A size read from a file may be huge: its square must not overflow.
        if n.checked_mul(n) != Some(labels.len()) {
            return Err(VariantError::RegionLength {
                n,
                got: labels.len(),
            });
        }
        number_labels(&labels, n, None).map_err(|(label, size, regions)| VariantError::RegionSize {
            label,
            size,
            n,
            regions,
        })
    }

    /// Reads a region map whose side `n` follows from its `n * n` labels (see
    /// [`Variant::parse_regions`]).
    pub fn parse_region_map(text: &str) -> Result<Vec<u8>, VariantError> {
        let labels = text.chars().filter(|&c| is_map_label(c)).count();
        let n = (labels as f64).sqrt().round() as usize;
        // An empty map (`--regions ''`) has no side at all.
        if n * n != labels || n < 2 {
            return Err(VariantError::RegionCount { got: labels });
        }
        Variant::parse_regions(text, n)
    }

    /// The variant with a jigsaw region map, or the conflict when it has a rule a
    /// jigsaw cannot go with (Latin, windoku, disjoint groups, centre dot), as
    /// `latin,jigsaw` is one.
    pub fn with_regions(mut self, regions: Vec<u8>) -> Result<Variant, VariantError> {
        if self.latin {
            return Err(VariantError::Conflict("latin", "jigsaw"));
        }
        if let Some(rule) = self.box_rule() {
            return Err(VariantError::Conflict(rule, "jigsaw"));
        }
        self.set_regions(regions);
        Ok(self)
    }

    /// Makes this a jigsaw with `regions` (a region map read by
    /// [`Variant::parse_regions`]); a Latin square has no regions, so it stops being one,
    /// and the rules that need boxes (windoku, disjoint groups, centre dot) go.
    pub fn set_regions(&mut self, regions: Vec<u8>) {
        self.jigsaw = true;
        self.latin = false;
        self.windows = false;
        self.disjoint = false;
        self.centre_dot = false;
        self.regions = Some(regions);
    }

    /// The jigsaw region map as text [`Variant::parse_regions`] reads back: one label
    /// per cell, `1-9`, then `A-Z`, then `a-z`, then further letters.
    pub fn region_labels(&self) -> Option<String> {
        Some(self.regions.as_ref()?.iter().map(|&r| label(r)).collect())
    }

    /// The regions (by label order) whose cells are not all connected orthogonally:
    /// allowed, but worth a warning.
    pub fn disconnected_regions(regions: &[u8], n: usize) -> Vec<usize> {
        (0..n)
            .filter(|&r| !region_connected(regions, n, r as u8))
            .collect()
    }
}

impl FromStr for Variant {
    type Err = VariantError;

    /// `standard`, `latin`, `x`, `windoku`, `jigsaw`, `disjoint`, `centre-dot`, `asterisk`,
    /// `girandola`, `extra=MAP` (see [`Variant::parse_extra`]), or a comma/plus-separated
    /// mix.
    fn from_str(spec: &str) -> Result<Variant, VariantError> {
        let mut v = Variant::default();
        // No word at all (`# variant:` with nothing after it) is a slip, not "standard".
        if spec.split([',', '+']).all(|w| w.trim().is_empty()) {
            return Err(VariantError::Unknown(spec.to_string()));
        }
        for word in spec
            .split([',', '+'])
            .map(str::trim)
            .filter(|w| !w.is_empty())
        {
            if let Some(map) = word.strip_prefix("extra=") {
                v.extra.push(Variant::parse_extra(map)?);
                continue;
            }
            match word.to_ascii_lowercase().as_str() {
                "standard" | "sudoku" | "classic" => {}
                "latin" => v.latin = true,
                "x" | "diagonal" | "diagonals" => v.diagonals = true,
                "windoku" | "windows" | "hyper" => v.windows = true,
                "jigsaw" | "irregular" => v.jigsaw = true,
                "disjoint" | "disjoint-groups" | "dg" | "colour" | "color" => v.disjoint = true,
                "centre-dot" | "center-dot" | "dot" => v.centre_dot = true,
                "asterisk" => v.asterisk = true,
                "girandola" | "pinwheel" => v.girandola = true,
                _ => return Err(VariantError::Unknown(word.to_string())),
            }
        }
        v.extra = normal_maps(&v.extra);
        if v.latin && v.jigsaw {
            return Err(VariantError::Conflict("latin", "jigsaw"));
        }
        if let Some(rule) = v.box_rule() {
            if v.latin {
                return Err(VariantError::Conflict("latin", rule));
            }
            if v.jigsaw {
                return Err(VariantError::Conflict("jigsaw", rule));
            }
        }
        // The centre dot is one of the disjoint groups: the same house twice.
        if v.disjoint && v.centre_dot {
            return Err(VariantError::Conflict("disjoint", "centre-dot"));
        }
        Ok(v)
    }
}

impl fmt::Display for Variant {
    /// The variant's words joined by commas (`standard` for plain sudoku).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let extra: Vec<String> = self
            .extra_labels()
            .iter()
            .map(|map| format!("extra={map}"))
            .collect();
        let mut words = vec![(self.latin, "latin"), (self.jigsaw, "jigsaw")];
        words.extend(self.named_extras());
        let mut words: Vec<&str> = words
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, w)| *w)
            .collect();
        words.extend(extra.iter().map(String::as_str));
        if words.is_empty() {
            words.push("standard");
        }
        f.write_str(&words.join(","))
    }
}

/// Extra-house maps as one variant holds them: each map's houses numbered in order of
/// first appearance, the maps sorted and each once, so that the same houses make the
/// same variant however a map was labelled or the maps ordered.
pub(crate) fn normal_maps(maps: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = maps
        .iter()
        .map(|map| {
            let mut seen: Vec<u8> = Vec::new();
            map.iter()
                .map(|&h| {
                    if h == NO_HOUSE {
                        return h;
                    }
                    let at = seen.iter().position(|&s| s == h).unwrap_or_else(|| {
                        seen.push(h);
                        seen.len() - 1
                    });
                    at as u8
                })
                .collect()
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The cells left, right, above and below `cell` in a grid of side `n`.
pub(crate) fn orthogonal_neighbours(cell: usize, n: usize) -> impl Iterator<Item = usize> {
    let (row, col) = (cell / n, cell % n);
    [
        (row > 0).then(|| cell - n),
        (row + 1 < n).then(|| cell + n),
        (col > 0).then(|| cell - 1),
        (col + 1 < n).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// Whether the cells of region `r` in a map of side `n` are connected orthogonally
/// (a region without cells is).
pub(crate) fn region_connected(regions: &[u8], n: usize, r: u8) -> bool {
    let Some(start) = regions.iter().position(|&x| x == r) else {
        return true;
    };
    let mut seen = vec![false; regions.len()];
    let (mut stack, mut reached) = (vec![start], 1);
    seen[start] = true;
    while let Some(c) = stack.pop() {
        for m in orthogonal_neighbours(c, n) {
            if !seen[m] && regions[m] == r {
                seen[m] = true;
                reached += 1;
                stack.push(m);
            }
        }
    }
    reached == regions.iter().filter(|&&x| x == r).count()
}

#[cfg(test)]
mod tests {
    #[test]
    fn regions_make_a_jigsaw_but_not_of_a_latin_square_or_windoku() {
        let map = Variant::parse_regions("1122112233443344", 4).unwrap();
        let x: Variant = "x".parse().unwrap();
        assert!(x.with_regions(map.clone()).unwrap().jigsaw);
        for name in ["latin", "windoku", "disjoint", "centre-dot"] {
            let v: Variant = name.parse().unwrap();
            assert_eq!(
                v.with_regions(map.clone()),
                Err(VariantError::Conflict(name, "jigsaw"))
            );
        }
    }

    use super::*;

    #[test]
    fn parses_and_prints() {
        assert_eq!("x".parse::<Variant>().unwrap().to_string(), "x");
        assert_eq!(
            "jigsaw+x".parse::<Variant>().unwrap().to_string(),
            "jigsaw,x"
        );
        assert!("standard".parse::<Variant>().unwrap().is_standard());
        assert!("latin,jigsaw".parse::<Variant>().is_err());
        assert_eq!(
            "Girandola+DG+x".parse::<Variant>().unwrap().to_string(),
            "x,disjoint,girandola"
        );
        assert_eq!(
            "center-dot,asterisk"
                .parse::<Variant>()
                .unwrap()
                .to_string(),
            "centre-dot,asterisk"
        );
        // Rules on boxes need boxes; the centre dot is a disjoint group already.
        for (spec, a, b) in [
            ("latin,disjoint", "latin", "disjoint"),
            ("jigsaw,centre-dot", "jigsaw", "centre-dot"),
            ("disjoint,centre-dot", "disjoint", "centre-dot"),
        ] {
            assert_eq!(spec.parse::<Variant>(), Err(VariantError::Conflict(a, b)));
        }
        assert!("latin,asterisk".parse::<Variant>().is_ok());
        // A map of extra houses rides in the words, its labels as written.
        let map = "aabb.cc.aabb.cc.";
        let v: Variant = format!("x,extra={map}").parse().unwrap();
        assert_eq!(v.extra_labels(), ["1122.33.1122.33."]);
        assert_eq!(v.to_string(), "x,extra=1122.33.1122.33.");
        assert_eq!(v.to_string().parse::<Variant>().unwrap(), v);
        // Several maps: one variant whatever their order, a repeated map once.
        let other = "a...a...a...a...";
        let both: Variant = format!("extra={map},extra={other}").parse().unwrap();
        let swapped: Variant = format!("extra={other},extra={map},extra={map}")
            .parse()
            .unwrap();
        assert_eq!(both, swapped);
        assert_eq!(both.extra.len(), 2);
        assert_eq!(both.to_string(), swapped.to_string());
        // Built in code, labels and order as they come: a geometry keeps them as read.
        let built = Variant {
            extra: vec![
                both.extra[1]
                    .iter()
                    .map(|&h| if h == NO_HOUSE { h } else { 3 - h })
                    .collect(),
                both.extra[0].clone(),
            ],
            ..Variant::default()
        };
        assert_ne!(built, both);
        let g = crate::Geometry::for_variant(4, None, &built).unwrap();
        assert_eq!(g.variant(), &both);
        assert_eq!(
            "extra=aab".parse::<Variant>(),
            Err(VariantError::ExtraCount { got: 3 })
        );
        assert_eq!(
            "extra=aabb.cc.aabbbcc.".parse::<Variant>(),
            Err(VariantError::ExtraSize {
                label: 'b',
                size: 5,
                n: 4
            })
        );
        assert!("sudoku-x".parse::<Variant>().is_err());
        // Nothing at all is a slip (an empty `# variant:` line), not plain sudoku.
        for empty in ["", " ", ",", " + "] {
            assert!(empty.parse::<Variant>().is_err(), "{empty:?}");
        }
    }

    #[test]
    fn region_maps() {
        let map = "aab\nabb\nccc";
        let r = Variant::parse_regions(map, 3).unwrap();
        assert_eq!(r, vec![0, 0, 1, 0, 1, 1, 2, 2, 2]);
        assert!(Variant::disconnected_regions(&r, 3).is_empty());
        assert!(matches!(
            Variant::parse_regions("aabbbbccc", 3),
            Err(VariantError::RegionSize {
                label: 'a',
                size: 2,
                ..
            })
        ));
        // A side whose square overflows (a saved game's `size` line) is a wrong length.
        assert!(matches!(
            Variant::parse_regions("aab", 9_123_456_789),
            Err(VariantError::RegionLength { got: 3, .. })
        ));
        assert!(matches!(
            Variant::parse_regions("aab", 3),
            Err(VariantError::RegionLength { .. })
        ));
        // A map of no square length cannot guess its grid: the message says so.
        assert_eq!(
            Variant::parse_region_map("123"),
            Err(VariantError::RegionCount { got: 3 })
        );
        // Nor can an empty one, or one label (`--regions ''` ran with side 0).
        for (map, got) in [("", 0), ("  ", 0), ("1", 1)] {
            assert_eq!(
                Variant::parse_region_map(map),
                Err(VariantError::RegionCount { got })
            );
        }
        // Four regions of the right size and a stray label: the short region is named.
        assert!(matches!(
            Variant::parse_regions("AAAABBBBCCCCDDDX", 4),
            Err(VariantError::RegionSize {
                label: 'D',
                size: 3,
                regions: 5,
                ..
            })
        ));
        // Region a is split in two.
        let split = Variant::parse_regions("aba\nbbc\nacc", 3).unwrap();
        assert_eq!(Variant::disconnected_regions(&split, 3), vec![0]);
    }
}
