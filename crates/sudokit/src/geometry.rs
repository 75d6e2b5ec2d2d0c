//! Geometry: the cells of an `n x n` grid and its *houses*, the groups of `n` cells that
//! must each hold every digit exactly once.
//!
//! Houses are data, computed once per geometry: rows, columns and boxes for a standard
//! sudoku, and whatever a variant adds (diagonals, windows, jigsaw regions). Every module
//! that needs peers or houses asks the geometry, so a variant is a new list of houses,
//! never a new code path.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use crate::shape::{MAX_SIZE, Shape};
use crate::variant::{NO_HOUSE, Variant};

/// Index of a cell, row-major: `row * n + col`, both from 0.
pub type Cell = usize;

/// What kind of constraint a house is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HouseKind {
    /// A row of the grid.
    Row,
    /// A column of the grid.
    Column,
    /// A box of the box shape.
    Box,
    /// A main diagonal (X-sudoku).
    Diagonal,
    /// An extra window (windoku).
    Window,
    /// An irregular region (jigsaw).
    Region,
    /// The cells at one position in every box (disjoint groups).
    Group,
    /// A one-off house of a named pattern: centre dot, asterisk, girandola.
    Extra,
}

impl HouseKind {
    /// The lower-case noun for messages ("row", "column", "box", ...).
    pub fn name(self) -> &'static str {
        match self {
            HouseKind::Row => "row",
            HouseKind::Column => "column",
            HouseKind::Box => "box",
            HouseKind::Diagonal => "diagonal",
            HouseKind::Window => "window",
            HouseKind::Region => "region",
            HouseKind::Group => "disjoint group",
            HouseKind::Extra => "extra house",
        }
    }
}

/// A group of `n` cells that hold each digit exactly once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct House {
    kind: HouseKind,
    index: usize,
    cells: Box<[u16]>,
}

impl House {
    /// The kind of the house.
    pub fn kind(&self) -> HouseKind {
        self.kind
    }

    /// Its number among houses of the same kind, from 0.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Its cells, in increasing order.
    pub fn cells(&self) -> impl ExactSizeIterator<Item = Cell> + '_ {
        self.cells.iter().map(|&c| c as Cell)
    }

    /// Whether `cell` is in the house.
    pub fn contains(&self, cell: Cell) -> bool {
        self.cells.binary_search(&(cell as u16)).is_ok()
    }
}

impl fmt::Display for House {
    /// `r3`, `c5`, `b7` (1-based), `d1`, `w2`, `g4` (jigsaw region), `p5` (disjoint group:
    /// the fifth position of a box), `e1` (an extra house).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = match self.kind {
            HouseKind::Row => 'r',
            HouseKind::Column => 'c',
            HouseKind::Box => 'b',
            HouseKind::Diagonal => 'd',
            HouseKind::Window => 'w',
            HouseKind::Region => 'g',
            HouseKind::Group => 'p',
            HouseKind::Extra => 'e',
        };
        write!(f, "{}{}", letter, self.index + 1)
    }
}

/// The cells and houses of one puzzle type (a size plus its constraints).
#[derive(Debug)]
pub struct Geometry {
    size: usize,
    shape: Option<Shape>,
    name: String,
    houses: Vec<House>,
    /// `cell_houses[cell_house_start[c]..cell_house_start[c+1]]` are the houses of cell `c`.
    cell_houses: Vec<u32>,
    cell_house_start: Vec<u32>,
    /// `peers[peer_start[c]..peer_start[c+1]]` are the cells sharing a house with `c`.
    peers: Vec<u16>,
    peer_start: Vec<u32>,
    standard: bool,
    variant: Variant,
}

impl PartialEq for Geometry {
    fn eq(&self, other: &Geometry) -> bool {
        self.size == other.size && self.shape == other.shape && self.houses == other.houses
    }
}

impl Eq for Geometry {}

/// The asterisk's cells as published, (row, column) from 1: its arms and centre.
const ASTERISK: [(usize, usize); 9] = [
    (2, 5),
    (3, 3),
    (3, 7),
    (5, 2),
    (5, 5),
    (5, 8),
    (7, 3),
    (7, 7),
    (8, 5),
];

/// The girandola's cells: the four corners, the centre and the four cells between.
const GIRANDOLA: [(usize, usize); 9] = [
    (1, 1),
    (1, 9),
    (2, 5),
    (5, 2),
    (5, 5),
    (5, 8),
    (8, 5),
    (9, 1),
    (9, 9),
];

/// Why a list of houses does not make a geometry.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    /// The side is outside the supported range.
    #[error("side {0} is outside the supported range 2..={MAX_SIZE}")]
    Size(usize),
    /// Boxes (or windows) are needed but the side has no box shape.
    #[error(
        "a side of {0} has no box shape; give one with --shape RxC, or use --variant latin or jigsaw"
    )]
    NeedsShape(usize),
    /// The box shape does not fit the side.
    #[error("a {shape} box shape makes a side of {}, not {n}", shape.size())]
    ShapeSize {
        /// The shape given.
        shape: Shape,
        /// The side of the puzzle.
        n: usize,
    },
    /// A jigsaw without its region map.
    #[error(
        "a jigsaw puzzle needs a region map (--regions, a `# regions:` line, or a region grid after the puzzle)"
    )]
    NeedsRegions,
    /// Windoku windows need square boxes.
    #[error("windoku windows need square boxes (2x2, 3x3, 4x4...), not {0}")]
    Windows(Shape),
    /// A centre dot needs boxes with a centre cell.
    #[error("a centre dot needs boxes of odd sides (3x3, 3x5, 5x5...), not {0}")]
    CentreDot(Shape),
    /// An extra-house map of another grid's cell count.
    #[error("the extra-house map has {labels} labels; a {n}x{n} grid needs {}", n * n)]
    ExtraSide {
        /// Labels in the map.
        labels: usize,
        /// The side of the puzzle.
        n: usize,
    },
    /// An asterisk or a girandola is drawn on a 9x9 grid only.
    #[error("{0} is a 9x9 pattern; this grid is {1}x{1}")]
    NineOnly(&'static str, usize),
    /// A house has the wrong number of cells or a cell out of range.
    #[error(
        "{kind} {index} has {len} cells; every house needs exactly {size} distinct cells of the grid"
    )]
    BadHouse {
        /// Kind of the faulty house.
        kind: &'static str,
        /// Its 1-based number.
        index: usize,
        /// Its number of cells.
        len: usize,
        /// The side the house should have.
        size: usize,
    },
}

impl Geometry {
    /// The standard sudoku of a box shape: rows, columns and boxes.
    pub fn new(shape: Shape) -> Geometry {
        let n = shape.size();
        let mut houses = rows_and_columns(n);
        for b in 0..n {
            let (br, bc) = (shape.box_rows(), shape.box_cols());
            // Boxes are numbered row-major: n / box_cols boxes across.
            let top = (b / (n / bc)) * br;
            let left = (b % (n / bc)) * bc;
            let cells = (0..br)
                .flat_map(|r| (0..bc).map(move |c| ((top + r) * n + left + c) as u16))
                .collect();
            houses.push(House {
                kind: HouseKind::Box,
                index: b,
                cells,
            });
        }
        let mut g = Geometry::build(n, Some(shape), shape.to_string(), houses);
        g.standard = true;
        g
    }

    /// A Latin square of side `n`: rows and columns only.
    pub fn latin(n: usize) -> Result<Geometry, GeometryError> {
        // The geometry `--variant latin` gives: engines recognise a Latin square by its
        // variant.
        let latin = Variant {
            latin: true,
            ..Variant::standard()
        };
        Geometry::for_variant(n, None, &latin)
    }

    /// A geometry from explicit extra houses added to rows and columns (variants).
    ///
    /// `shape` is kept for display and transforms; `name` describes the variant. A house
    /// with the cells of an earlier one is dropped.
    pub fn with_houses(
        n: usize,
        shape: Option<Shape>,
        name: String,
        extra: Vec<(HouseKind, Vec<Cell>)>,
    ) -> Result<Geometry, GeometryError> {
        if !(2..=MAX_SIZE).contains(&n) {
            return Err(GeometryError::Size(n));
        }
        let mut houses = rows_and_columns(n);
        let mut counters: HashMap<HouseKind, usize> = HashMap::new();
        for (kind, mut cells) in extra {
            cells.sort_unstable();
            cells.dedup();
            // The same cells twice (a map's house on a diagonal of X-sudoku) are one
            // house: techniques that take houses as distinct would read more into two.
            if houses
                .iter()
                .any(|h| h.cells.iter().map(|&c| c as Cell).eq(cells.iter().copied()))
            {
                continue;
            }
            let index = counters.entry(kind).or_default();
            if cells.len() != n || cells.iter().any(|&c| c >= n * n) {
                return Err(GeometryError::BadHouse {
                    kind: kind.name(),
                    index: *index + 1,
                    len: cells.len(),
                    size: n,
                });
            }
            houses.push(House {
                kind,
                index: *index,
                cells: cells.iter().map(|&c| c as u16).collect(),
            });
            *index += 1;
        }
        Ok(Geometry::build(n, shape, name, houses))
    }

    fn build(size: usize, shape: Option<Shape>, name: String, houses: Vec<House>) -> Geometry {
        let cells = size * size;
        let mut per_cell: Vec<Vec<u32>> = vec![Vec::new(); cells];
        for (h, house) in houses.iter().enumerate() {
            for c in house.cells() {
                per_cell[c].push(h as u32);
            }
        }
        let mut cell_houses = Vec::new();
        let mut cell_house_start = vec![0u32];
        let mut peers = Vec::new();
        let mut peer_start = vec![0u32];
        let mut mark = vec![false; cells];
        for (c, hs) in per_cell.iter().enumerate() {
            cell_houses.extend_from_slice(hs);
            cell_house_start.push(cell_houses.len() as u32);
            let mut mine: Vec<u16> = Vec::new();
            for &h in hs {
                for p in houses[h as usize].cells() {
                    if p != c && !mark[p] {
                        mark[p] = true;
                        mine.push(p as u16);
                    }
                }
            }
            for &p in &mine {
                mark[p as usize] = false;
            }
            mine.sort_unstable();
            peers.extend_from_slice(&mine);
            peer_start.push(peers.len() as u32);
        }
        Geometry {
            size,
            shape,
            name,
            houses,
            cell_houses,
            cell_house_start,
            peers,
            peer_start,
            standard: false,
            variant: Variant::standard(),
        }
    }

    /// The geometry of a variant of side `n` (boxes from `shape`, or the conventional
    /// shape for `n`, unless the variant has none).
    pub fn for_variant(
        n: usize,
        shape: Option<Shape>,
        variant: &Variant,
    ) -> Result<Geometry, GeometryError> {
        if !(2..=MAX_SIZE).contains(&n) {
            return Err(GeometryError::Size(n));
        }
        if let Some(s) = shape.filter(|s| s.size() != n) {
            return Err(GeometryError::ShapeSize { shape: s, n });
        }
        let needs_boxes = !variant.latin && !variant.jigsaw;
        let shape = shape.or_else(|| Shape::for_size(n));
        if variant.is_standard() {
            return Ok(Geometry::new(shape.ok_or(GeometryError::NeedsShape(n))?));
        }
        let mut extra: Vec<(HouseKind, Vec<Cell>)> = Vec::new();
        // Disjoint groups and the centre dot are cells of boxes (a Latin square or a
        // jigsaw has none: the variant's words refuse those mixes).
        if (variant.disjoint || variant.centre_dot) && !needs_boxes {
            return Err(GeometryError::NeedsShape(n));
        }
        if needs_boxes || variant.windows {
            let shape = shape.ok_or(GeometryError::NeedsShape(n))?;
            if needs_boxes {
                let boxes = Geometry::new(shape);
                let boxes: Vec<Vec<Cell>> = boxes
                    .houses()
                    .iter()
                    .filter(|h| h.kind() == HouseKind::Box)
                    .map(|h| h.cells().collect())
                    .collect();
                for cells in &boxes {
                    extra.push((HouseKind::Box, cells.clone()));
                }
                // A box's cells run row by row, so its k-th cell is at row k / box_cols,
                // column k % box_cols of the box; disjoint group k takes that cell of
                // every box.
                let (br, bc) = (shape.box_rows(), shape.box_cols());
                let group = |k: usize| boxes.iter().map(|cells| cells[k]).collect();
                if variant.disjoint {
                    for k in 0..n {
                        extra.push((HouseKind::Group, group(k)));
                    }
                }
                if variant.centre_dot {
                    if br % 2 == 0 || bc % 2 == 0 {
                        return Err(GeometryError::CentreDot(shape));
                    }
                    extra.push((HouseKind::Extra, group(br / 2 * bc + bc / 2)));
                }
            }
            if variant.windows {
                let b = shape.box_rows();
                if shape.box_cols() != b {
                    return Err(GeometryError::Windows(shape));
                }
                // Windows sit one cell in from each box corner: offsets 1, b+2, ...
                for wr in 0..b - 1 {
                    for wc in 0..b - 1 {
                        let (top, left) = (1 + wr * (b + 1), 1 + wc * (b + 1));
                        let cells = (0..b)
                            .flat_map(|r| (0..b).map(move |c| (top + r) * n + left + c))
                            .collect();
                        extra.push((HouseKind::Window, cells));
                    }
                }
            }
        }
        if variant.jigsaw {
            let regions = variant
                .regions
                .as_ref()
                .ok_or(GeometryError::NeedsRegions)?;
            for r in 0..n {
                let cells = (0..n * n)
                    .filter(|&c| regions.get(c) == Some(&(r as u8)))
                    .collect();
                extra.push((HouseKind::Region, cells));
            }
        }
        let patterns = [
            (variant.asterisk, "asterisk", ASTERISK),
            (variant.girandola, "girandola", GIRANDOLA),
        ];
        for (on, word, cells) in patterns {
            if on {
                if n != 9 {
                    return Err(GeometryError::NineOnly(word, n));
                }
                let cells = cells.iter().map(|&(r, c)| (r - 1) * 9 + c - 1).collect();
                extra.push((HouseKind::Extra, cells));
            }
        }
        // Labelled as read, whatever labels the caller chose.
        let maps = crate::variant::normal_maps(&variant.extra);
        for map in &maps {
            if map.len() != n * n {
                return Err(GeometryError::ExtraSide {
                    labels: map.len(),
                    n,
                });
            }
            let labels = map
                .iter()
                .filter(|&&h| h != NO_HOUSE)
                .max()
                .map_or(0, |&h| h + 1);
            for h in 0..labels {
                let cells = (0..n * n).filter(|&c| map[c] == h).collect();
                extra.push((HouseKind::Extra, cells));
            }
        }
        if variant.diagonals {
            extra.push((HouseKind::Diagonal, (0..n).map(|i| i * n + i).collect()));
            extra.push((
                HouseKind::Diagonal,
                (0..n).map(|i| i * n + n - 1 - i).collect(),
            ));
        }
        let name = if variant.latin {
            format!("latin {n}")
        } else if variant.jigsaw {
            format!("jigsaw {n}")
        } else {
            shape.map_or_else(|| n.to_string(), |s| s.to_string())
        };
        let mut extras: Vec<&str> = variant
            .named_extras()
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, w)| *w)
            .collect();
        if !variant.extra.is_empty() {
            extras.push("extra");
        }
        let name = if extras.is_empty() {
            name
        } else {
            format!("{name} {}", extras.join(" "))
        };
        let keep_shape = if needs_boxes { shape } else { None };
        let mut g = Geometry::with_houses(n, keep_shape, name, extra)?;
        g.variant = Variant {
            regions: if variant.jigsaw {
                variant.regions.clone()
            } else {
                None
            },
            extra: maps,
            ..variant.clone()
        };
        Ok(g)
    }

    /// The geometry of a new puzzle (generate, play): `shape` (default 3x3) with
    /// `variant`; a jigsaw's side comes from its region map.
    pub fn for_new_puzzle(
        shape: Option<Shape>,
        variant: &Variant,
    ) -> Result<Arc<Geometry>, GeometryError> {
        if variant.is_standard() {
            return Ok(Geometry::standard(shape.unwrap_or(Shape::CLASSIC)));
        }
        let n = match &variant.regions {
            Some(r) => (r.len() as f64).sqrt().round() as usize,
            None => shape.unwrap_or(Shape::CLASSIC).size(),
        };
        let shape = shape.or_else(|| Shape::for_size(n));
        Ok(Arc::new(Geometry::for_variant(n, shape, variant)?))
    }

    /// The box or region of `cell` (None in a Latin square), equal for the cells of one
    /// and different across them: where drawings put heavy lines. A box's number is
    /// its index into [`Geometry::houses`], a jigsaw region's its number in the map.
    pub fn region_of(&self, cell: Cell) -> Option<usize> {
        // From the map: a region with the cells of a row or column is kept once among
        // the houses, as that row or column, so the houses do not name every region.
        if let Some(map) = &self.variant.regions {
            return map.get(cell).map(|&r| r as usize);
        }
        self.houses_of(cell)
            .find(|&h| matches!(self.houses[h].kind(), HouseKind::Box | HouseKind::Region))
    }

    /// Whether `cell` lies on a diagonal, in a window or in an extra house (centre dot,
    /// asterisk, girandola, an `extra=` map's): the cells drawings shade. Disjoint
    /// groups cover the grid, so their cells are not shaded.
    pub fn is_shaded(&self, cell: Cell) -> bool {
        self.houses_of(cell).any(|h| {
            matches!(
                self.houses[h].kind(),
                HouseKind::Diagonal | HouseKind::Window | HouseKind::Extra
            )
        })
    }

    /// The variant this geometry was built for.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The classic 9x9 geometry, shared.
    pub fn classic() -> Arc<Geometry> {
        static CLASSIC: OnceLock<Arc<Geometry>> = OnceLock::new();
        CLASSIC
            .get_or_init(|| Arc::new(Geometry::new(Shape::CLASSIC)))
            .clone()
    }

    /// The standard geometry of a box shape, built once per process and shared.
    pub fn standard(shape: Shape) -> Arc<Geometry> {
        if shape == Shape::CLASSIC {
            return Geometry::classic();
        }
        static CACHE: OnceLock<Mutex<HashMap<Shape, Arc<Geometry>>>> = OnceLock::new();
        let mut cache = CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        cache
            .entry(shape)
            .or_insert_with(|| Arc::new(Geometry::new(shape)))
            .clone()
    }

    /// Side length `n`: the number of digits and of cells per house.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Every digit of the side as a mask, bit `d - 1` for digit `d` (sides up to 64).
    pub fn digit_mask(&self) -> u64 {
        u64::MAX >> (64 - self.size)
    }

    /// Number of cells, `n * n`.
    pub fn cell_count(&self) -> usize {
        self.size * self.size
    }

    /// The box shape, if the geometry has standard boxes.
    pub fn shape(&self) -> Option<Shape> {
        self.shape
    }

    /// A short description: `3x3`, `latin 5`, `3x3 x`, ...
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether this is a plain sudoku (rows, columns, boxes of its shape and nothing else).
    pub fn is_standard(&self) -> bool {
        self.standard
    }

    /// Whether this is the classic 9x9 sudoku, which has a specialised fast engine.
    pub fn is_classic(&self) -> bool {
        self.standard && self.shape == Some(Shape::CLASSIC)
    }

    /// All houses: rows `0..n`, then columns `n..2n`, then the rest (boxes first).
    pub fn houses(&self) -> &[House] {
        &self.houses
    }

    /// The houses containing `cell`, as indices into [`Geometry::houses`].
    pub fn houses_of(&self, cell: Cell) -> impl ExactSizeIterator<Item = usize> + '_ {
        let (a, b) = (
            self.cell_house_start[cell] as usize,
            self.cell_house_start[cell + 1] as usize,
        );
        self.cell_houses[a..b].iter().map(|&h| h as usize)
    }

    /// The cells that share a house with `cell` (not `cell` itself), in increasing order.
    pub fn peers(&self, cell: Cell) -> &[u16] {
        &self.peers[self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize]
    }

    /// Whether two distinct cells share a house.
    pub fn are_peers(&self, a: Cell, b: Cell) -> bool {
        a != b && self.peers(a).binary_search(&(b as u16)).is_ok()
    }

    /// Row of a cell, from 0.
    pub fn row(&self, cell: Cell) -> usize {
        cell / self.size
    }

    /// Column of a cell, from 0.
    pub fn col(&self, cell: Cell) -> usize {
        cell % self.size
    }

    /// The cell at a row and column, both from 0.
    pub fn cell(&self, row: usize, col: usize) -> Cell {
        row * self.size + col
    }

    /// The house index of row `r`.
    pub fn row_house(&self, r: usize) -> usize {
        r
    }

    /// The house index of column `c`.
    pub fn col_house(&self, c: usize) -> usize {
        self.size + c
    }

    /// Box number (row-major, from 0) of a cell, for geometries with a shape.
    pub fn box_of(&self, cell: Cell) -> Option<usize> {
        Some(self.shape?.box_of(cell))
    }

    /// The `r3c9` name of a cell (1-based, as solvers write it).
    pub fn cell_name(&self, cell: Cell) -> String {
        format!("r{}c{}", self.row(cell) + 1, self.col(cell) + 1)
    }
}

fn rows_and_columns(n: usize) -> Vec<House> {
    let mut houses = Vec::with_capacity(3 * n);
    for r in 0..n {
        houses.push(House {
            kind: HouseKind::Row,
            index: r,
            cells: (0..n).map(|c| (r * n + c) as u16).collect(),
        });
    }
    for c in 0..n {
        houses.push(House {
            kind: HouseKind::Column,
            index: c,
            cells: (0..n).map(|r| (r * n + c) as u16).collect(),
        });
    }
    houses
}

#[cfg(test)]
mod tests {
    #[test]
    fn digit_masks() {
        let mask = |r, c| Geometry::standard(Shape::new(r, c).unwrap()).digit_mask();
        assert_eq!(mask(2, 2), 0b1111);
        assert_eq!(mask(3, 3), 0x1ff);
        assert_eq!(mask(8, 8), u64::MAX);
    }

    use super::*;

    #[test]
    fn jigsaw_regions_that_are_rows_still_have_regions() {
        // Regions 3 and 4 are rows 3 and 4, kept once among the houses as rows: they
        // had no region, and drawings (render, play, the web page) drew a thin line
        // between them.
        let v = Variant::default()
            .with_regions(Variant::parse_regions("1112122233334444", 4).unwrap())
            .unwrap();
        let g = Geometry::for_variant(4, None, &v).unwrap();
        let region: Vec<Option<usize>> = (0..16).map(|c| g.region_of(c)).collect();
        assert!(region.iter().all(Option::is_some));
        assert_eq!(region[8], region[11]);
        assert_ne!(region[8], region[12]);
        assert_ne!(region[0], region[3]);
        assert_eq!(region[3], region[5]);
    }

    #[test]
    fn classic_has_twenty_peers_and_three_houses() {
        let g = Geometry::classic();
        assert_eq!(g.houses().len(), 27);
        for cell in 0..81 {
            assert_eq!(g.peers(cell).len(), 20);
            assert_eq!(g.houses_of(cell).len(), 3);
        }
        assert!(g.is_classic());
        assert_eq!(g.box_of(g.cell(4, 7)), Some(5));
        assert_eq!(g.houses()[18 + 5].to_string(), "b6");
        assert!(!g.are_peers(0, 80) && g.are_peers(0, 20) && g.are_peers(0, 72));
    }

    /// The extra houses, drawn as the puzzle books draw them (`#` a cell of the house):
    /// a different route to the cells than the coordinates in `for_variant`.
    #[test]
    fn named_extra_houses_have_their_published_cells() {
        let extra = |variant: &str, shape: Shape| {
            let v: Variant = variant.parse().unwrap();
            let g = Geometry::for_variant(shape.size(), Some(shape), &v).unwrap();
            g.houses()
                .iter()
                .filter(|h| matches!(h.kind(), HouseKind::Extra | HouseKind::Group))
                .map(|h| h.cells().collect::<Vec<_>>())
                .collect::<Vec<_>>()
        };
        let drawn = |picture: &str| -> Vec<Cell> {
            let marks = picture.chars().filter(|c| !c.is_whitespace());
            marks
                .enumerate()
                .filter(|&(_, c)| c == '#')
                .map(|(i, _)| i)
                .collect()
        };
        let asterisk = "
            ......... ....#.... ..#...#.. ......... .#..#..#. ......... ..#...#.. ....#.... .........";
        let girandola = "
            #.......# ....#.... ......... ......... .#..#..#. ......... ......... ....#.... #.......#";
        let centre_dot = "
            ......... .#..#..#. ......... ......... .#..#..#. ......... ......... .#..#..#. .........";
        assert_eq!(extra("asterisk", Shape::CLASSIC), [drawn(asterisk)]);
        assert_eq!(extra("girandola", Shape::CLASSIC), [drawn(girandola)]);
        assert_eq!(extra("centre-dot", Shape::CLASSIC), [drawn(centre_dot)]);
        // 15x15 with 3x5 boxes: the centres sit at rows 2, 5, 8, 11, 14 and columns 3, 8, 13.
        let wide = extra("centre-dot", Shape::new(3, 5).unwrap());
        let centres: Vec<Cell> = [1, 4, 7, 10, 13]
            .iter()
            .flat_map(|row| [2, 7, 12].map(|col| row * 15 + col))
            .collect();
        assert_eq!(wide, [centres]);
        // Disjoint groups of 6x6 (2x3 boxes): six groups, a cell of each box in each,
        // and every cell in exactly one.
        let groups = extra("disjoint", Shape::new(2, 3).unwrap());
        assert_eq!(groups.len(), 6);
        assert_eq!(groups[0], [0, 3, 12, 15, 24, 27]);
        assert_eq!(groups[5], [8, 11, 20, 23, 32, 35]);
        let mut all: Vec<Cell> = groups.concat();
        all.sort_unstable();
        assert_eq!(all, (0..36).collect::<Vec<_>>());
        // What does not exist says why.
        let fails = |variant: &str, shape: Shape| {
            let v: Variant = variant.parse().unwrap();
            Geometry::for_variant(shape.size(), Some(shape), &v)
                .unwrap_err()
                .to_string()
        };
        assert!(fails("asterisk", Shape::new(4, 4).unwrap()).contains("9x9 pattern"));
        assert!(fails("centre-dot", Shape::new(2, 3).unwrap()).contains("odd sides"));
        assert!(
            fails("extra=1122.33.1122.33.", Shape::CLASSIC)
                .contains("16 labels; a 9x9 grid needs 81")
        );
    }

    /// Extra houses of the user's own: windoku's windows and the asterisk written as
    /// maps are the houses those variants build; a map's house that repeats a diagonal
    /// of X-sudoku is kept once; several maps give crossing houses.
    #[test]
    fn extra_house_maps_make_the_houses_they_draw() {
        let houses = |variant: &str| {
            let v: Variant = variant.parse().unwrap();
            let g = Geometry::for_variant(9, None, &v).unwrap();
            let mut sets: Vec<Vec<Cell>> = g.houses().iter().map(|h| h.cells().collect()).collect();
            sets.sort();
            sets
        };
        let windows = "......... .111.222. .111.222. .111.222. ......... .333.444. .333.444. .333.444. .........";
        let asterisk = "......... ....#.... ..#...#.. ......... .#..#..#. ......... ..#...#.. ....#.... .........";
        let word = |map: &str| format!("extra={}", map.replace(' ', ""));
        assert_eq!(houses(&word(windows)), houses("windoku"));
        assert_eq!(houses(&word(asterisk)), houses("asterisk"));
        let diagonal: String = (0..81)
            .map(|c| if c % 10 == 0 { 'd' } else { '.' })
            .collect();
        assert_eq!(houses(&format!("x,{}", word(&diagonal))), houses("x"));
        assert_eq!(houses("x").len(), 29);
        // Houses that cross come from several maps: both diagonals, windows and asterisk.
        let anti: String = (0..81)
            .map(|c| if c % 8 == 0 && c % 80 != 0 { 'a' } else { '.' })
            .collect();
        assert_eq!(
            houses(&format!("{},{}", word(&diagonal), word(&anti))),
            houses("x")
        );
        assert_eq!(
            houses(&format!("{},{}", word(windows), word(asterisk))),
            houses("windoku,asterisk")
        );
    }

    #[test]
    fn rectangular_boxes_tile_the_grid() {
        for (r, c) in [(2, 3), (3, 2), (3, 4), (2, 5), (4, 4), (5, 5), (8, 8)] {
            let shape = Shape::new(r, c).unwrap();
            let g = Geometry::new(shape);
            let n = shape.size();
            let mut seen = vec![0; n * n];
            for h in g.houses().iter().filter(|h| h.kind() == HouseKind::Box) {
                assert_eq!(h.cells().len(), n);
                for cell in h.cells() {
                    seen[cell] += 1;
                    assert_eq!(g.box_of(cell), Some(h.index()));
                }
            }
            assert!(seen.iter().all(|&k| k == 1), "{shape}");
            // Peers: row + column + the box cells outside them.
            let expected = 2 * (n - 1) + (r - 1) * (c - 1);
            assert!((0..n * n).all(|cell| g.peers(cell).len() == expected));
        }
    }

    #[test]
    fn extra_houses_are_checked() {
        let diag: Vec<Cell> = (0..9).map(|i| i * 10).collect();
        let g =
            Geometry::with_houses(9, None, "x".into(), vec![(HouseKind::Diagonal, diag)]).unwrap();
        assert!(g.are_peers(0, 80));
        let bad =
            Geometry::with_houses(9, None, "bad".into(), vec![(HouseKind::Region, vec![1, 2])]);
        assert!(bad.is_err());
        assert!(Geometry::latin(1).is_err());
        assert_eq!(Geometry::latin(5).unwrap().peers(0).len(), 8);
        let latin = Variant {
            latin: true,
            ..Variant::standard()
        };
        assert_eq!(
            Geometry::latin(5).unwrap().variant(),
            Geometry::for_variant(5, None, &latin).unwrap().variant()
        );
    }
}
