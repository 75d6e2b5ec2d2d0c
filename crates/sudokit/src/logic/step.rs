//! [`Step`]: one deduction as data (technique, pattern, placements, eliminations,
//! rating) and [`Technique`]: the catalogue of techniques with their stable names,
//! HoDoKu scores and levels. Text is produced from the data: a short line
//! (`X-Wing: 7 r2,r8 c3,c6 => r5c3<>7`) and a sentence for people.

use std::fmt::Write as _;

use crate::geometry::{Cell, Geometry};
pub use crate::symbols::Digits;

/// HoDoKu's difficulty levels, in increasing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Singles only.
    Easy,
    /// Intersections and small subsets.
    Medium,
    /// Fish, wings, single-digit patterns, uniqueness.
    Hard,
    /// Chains, ALS, finned fish.
    Unfair,
    /// Forcing chains and nets, brute force.
    Extreme,
}

impl Level {
    /// Lower-case name (`easy` ... `extreme`).
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Unfair => "unfair",
            Level::Extreme => "extreme",
        }
    }

    /// HoDoKu's score cap for the level (a puzzle whose total score exceeds it moves
    /// up a level).
    pub fn cap(self) -> u32 {
        match self {
            Level::Easy => 800,
            Level::Medium => 1000,
            Level::Hard => 1600,
            Level::Unfair => 1800,
            Level::Extreme => u32::MAX,
        }
    }

    fn next(self) -> Level {
        match self {
            Level::Easy => Level::Medium,
            Level::Medium => Level::Hard,
            Level::Hard => Level::Unfair,
            _ => Level::Extreme,
        }
    }

    /// HoDoKu's rule: the highest level used, raised while the score exceeds its cap.
    /// HoDoKu rates 9x9 only; a grid of `cells` cells has that many more steps to take
    /// in proportion, so its caps grow with it (a 16x16 solved by singles alone scores
    /// some 2,000 and is easy, not extreme).
    pub fn from_score(mut level: Level, score: u32, cells: usize) -> Level {
        let over = |level: Level| score as u64 * 81 > level.cap() as u64 * cells as u64;
        while level != Level::Extreme && over(level) {
            level = level.next();
        }
        level
    }
}

macro_rules! techniques {
    ($($variant:ident => $name:literal, $title:literal, $score:literal, $level:ident;)*) => {
        /// Every technique the logic engine knows, easiest first (roughly).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Technique {
            $(
                #[doc = $title]
                $variant,
            )*
        }

        impl Technique {
            /// Every technique.
            pub const ALL: &'static [Technique] = &[$(Technique::$variant),*];

            /// The stable kebab-case name (`hidden-single`, `x-wing`, `forcing-net`).
            pub fn name(self) -> &'static str {
                match self { $(Technique::$variant => $name,)* }
            }

            /// The name people use (`Hidden Single`, `X-Wing`).
            pub fn title(self) -> &'static str {
                match self { $(Technique::$variant => $title,)* }
            }

            /// HoDoKu's base score for one use.
            pub fn score(self) -> u32 {
                match self { $(Technique::$variant => $score,)* }
            }

            /// HoDoKu's level of the technique.
            pub fn level(self) -> Level {
                match self { $(Technique::$variant => Level::$level,)* }
            }

            /// The technique with a given kebab-case name.
            pub fn from_name(name: &str) -> Option<Technique> {
                match name { $($name => Some(Technique::$variant),)* _ => None }
            }
        }
    };
}

techniques! {
    FullHouse => "full-house", "Full House", 4, Easy;
    HiddenSingle => "hidden-single", "Hidden Single", 14, Easy;
    NakedSingle => "naked-single", "Naked Single", 4, Easy;
    DirectPointing => "direct-pointing", "Direct Pointing", 50, Medium;
    DirectClaiming => "direct-claiming", "Direct Claiming", 50, Medium;
    DirectHiddenPair => "direct-hidden-pair", "Direct Hidden Pair", 70, Medium;
    DirectHiddenTriple => "direct-hidden-triple", "Direct Hidden Triple", 100, Medium;
    LockedPair => "locked-pair", "Locked Pair", 40, Medium;
    LockedTriple => "locked-triple", "Locked Triple", 60, Medium;
    LockedCandidatesPointing => "locked-candidates-pointing", "Locked Candidates (Pointing)", 50, Medium;
    LockedCandidatesClaiming => "locked-candidates-claiming", "Locked Candidates (Claiming)", 50, Medium;
    NakedPair => "naked-pair", "Naked Pair", 60, Medium;
    HiddenPair => "hidden-pair", "Hidden Pair", 70, Medium;
    NakedTriple => "naked-triple", "Naked Triple", 80, Medium;
    HiddenTriple => "hidden-triple", "Hidden Triple", 100, Medium;
    NakedQuad => "naked-quad", "Naked Quad", 120, Hard;
    HiddenQuad => "hidden-quad", "Hidden Quad", 150, Hard;
    XWing => "x-wing", "X-Wing", 140, Hard;
    Swordfish => "swordfish", "Swordfish", 150, Hard;
    Jellyfish => "jellyfish", "Jellyfish", 160, Hard;
    Skyscraper => "skyscraper", "Skyscraper", 130, Hard;
    TwoStringKite => "two-string-kite", "2-String Kite", 150, Hard;
    TurbotFish => "turbot-fish", "Turbot Fish", 120, Hard;
    EmptyRectangle => "empty-rectangle", "Empty Rectangle", 120, Hard;
    StrongLinks => "strong-links", "Strong Links", 200, Hard;
    XYWing => "xy-wing", "XY-Wing", 160, Hard;
    XYZWing => "xyz-wing", "XYZ-Wing", 180, Hard;
    WWing => "w-wing", "W-Wing", 150, Hard;
    RemotePair => "remote-pair", "Remote Pair", 110, Hard;
    UniqueRectangle1 => "unique-rectangle-type-1", "Unique Rectangle Type 1", 100, Hard;
    UniqueRectangle2 => "unique-rectangle-type-2", "Unique Rectangle Type 2", 100, Hard;
    UniqueRectangle3 => "unique-rectangle-type-3", "Unique Rectangle Type 3", 100, Hard;
    UniqueRectangle4 => "unique-rectangle-type-4", "Unique Rectangle Type 4", 100, Hard;
    UniqueRectangle5 => "unique-rectangle-type-5", "Unique Rectangle Type 5", 100, Hard;
    UniqueRectangle6 => "unique-rectangle-type-6", "Unique Rectangle Type 6", 100, Hard;
    HiddenRectangle => "hidden-rectangle", "Hidden Rectangle", 100, Hard;
    AvoidableRectangle1 => "avoidable-rectangle-type-1", "Avoidable Rectangle Type 1", 100, Hard;
    AvoidableRectangle2 => "avoidable-rectangle-type-2", "Avoidable Rectangle Type 2", 100, Hard;
    UniqueLoop => "unique-loop", "Unique Loop", 100, Hard;
    BugPlusOne => "bug-plus-one", "BUG+1", 100, Hard;
    BugType2 => "bug-type-2", "BUG Type 2", 100, Hard;
    BugType3 => "bug-type-3", "BUG Type 3", 100, Hard;
    BugType4 => "bug-type-4", "BUG Type 4", 100, Hard;
    FinnedXWing => "finned-x-wing", "Finned X-Wing", 130, Hard;
    SashimiXWing => "sashimi-x-wing", "Sashimi X-Wing", 150, Hard;
    SimpleColors => "simple-colors", "Simple Colors", 150, Hard;
    MultiColors => "multi-colors", "Multi Colors", 200, Hard;
    FinnedSwordfish => "finned-swordfish", "Finned Swordfish", 200, Unfair;
    SashimiSwordfish => "sashimi-swordfish", "Sashimi Swordfish", 240, Unfair;
    FinnedJellyfish => "finned-jellyfish", "Finned Jellyfish", 250, Unfair;
    SashimiJellyfish => "sashimi-jellyfish", "Sashimi Jellyfish", 260, Unfair;
    WXYZWing => "wxyz-wing", "WXYZ-Wing", 200, Unfair;
    VWXYZWing => "vwxyz-wing", "VWXYZ-Wing", 240, Unfair;
    UVWXYZWing => "uvwxyz-wing", "UVWXYZ-Wing", 280, Unfair;
    TUVWXYZWing => "tuvwxyz-wing", "TUVWXYZ-Wing", 300, Unfair;
    SueDeCoq => "sue-de-coq", "Sue de Coq", 250, Unfair;
    XChain => "x-chain", "X-Chain", 260, Unfair;
    XYChain => "xy-chain", "XY-Chain", 260, Unfair;
    Aic => "aic", "Alternating Inference Chain", 280, Unfair;
    GroupedAic => "grouped-aic", "Grouped AIC", 300, Unfair;
    ContinuousNiceLoop => "continuous-nice-loop", "Continuous Nice Loop", 280, Unfair;
    DiscontinuousNiceLoop => "discontinuous-nice-loop", "Discontinuous Nice Loop", 280, Unfair;
    GroupedContinuousNiceLoop => "grouped-continuous-nice-loop", "Grouped Continuous Nice Loop", 300, Unfair;
    GroupedDiscontinuousNiceLoop => "grouped-discontinuous-nice-loop", "Grouped Discontinuous Nice Loop", 300, Unfair;
    XCycle => "x-cycle", "Bidirectional X-Cycle", 260, Unfair;
    YCycle => "y-cycle", "Bidirectional Y-Cycle", 260, Unfair;
    XYCycle => "xy-cycle", "Bidirectional Cycle", 280, Unfair;
    ForcingXChain => "forcing-x-chain", "Forcing X-Chain", 260, Unfair;
    ForcingChain => "forcing-chain", "Forcing Chain", 280, Unfair;
    AlsXz => "als-xz", "ALS-XZ", 300, Unfair;
    AlsXyWing => "als-xy-wing", "ALS-XY-Wing", 320, Unfair;
    AlsXyChain => "als-xy-chain", "ALS-XY-Chain", 340, Unfair;
    DeathBlossom => "death-blossom", "Death Blossom", 360, Unfair;
    FrankenXWing => "franken-x-wing", "Franken X-Wing", 300, Unfair;
    FrankenSwordfish => "franken-swordfish", "Franken Swordfish", 350, Unfair;
    FinnedFrankenXWing => "finned-franken-x-wing", "Finned Franken X-Wing", 390, Unfair;
    FinnedFrankenSwordfish => "finned-franken-swordfish", "Finned Franken Swordfish", 410, Unfair;
    AlignedPairExclusion => "aligned-pair-exclusion", "Aligned Pair Exclusion", 320, Unfair;
    AlignedTripleExclusion => "aligned-triple-exclusion", "Aligned Triple Exclusion", 400, Extreme;
    NishioForcingChain => "nishio-forcing-chain", "Nishio Forcing Chain", 500, Extreme;
    CellForcingChain => "cell-forcing-chain", "Cell Forcing Chains", 500, Extreme;
    RegionForcingChain => "region-forcing-chain", "Region Forcing Chains", 500, Extreme;
    DoubleForcingChain => "double-forcing-chain", "Double Forcing Chains", 500, Extreme;
    ContradictionForcingChain => "contradiction-forcing-chain", "Contradiction Forcing Chains", 500, Extreme;
    ForcingNet => "forcing-net", "Forcing Net", 700, Extreme;
    BruteForce => "brute-force", "Brute Force", 10000, Extreme;
}

/// One node of a chain: a digit in one cell or in a group of cells of one house.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// The digit.
    pub digit: u8,
    /// The cell, or the cells of a group.
    pub cells: Vec<Cell>,
}

/// One deduction: what was found and what it proves.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// The digits the pattern is about.
    pub digits: Vec<u8>,
    /// The cells of the pattern (defining cells: the pair, the wing, the rectangle...).
    pub cells: Vec<Cell>,
    /// Base houses (fish base lines, the house of a subset or a single, the box of an
    /// intersection), as indices into [`Geometry::houses`].
    pub houses: Vec<usize>,
    /// Cover houses (fish cover lines, the line an intersection clears).
    pub cover: Vec<usize>,
    /// Fins of a finned fish, extra cells of uniqueness patterns, targets of forcing
    /// chains.
    pub fins: Vec<Cell>,
    /// A chain: nodes in order; `strong[i]` tells whether the link from node `i` to
    /// node `i + 1` is strong (`=`) or weak (`-`).
    pub chain: Vec<Node>,
    /// Link kinds of [`Step::chain`].
    pub strong: Vec<bool>,
    /// Values this step places: (cell, digit).
    pub placements: Vec<(Cell, u8)>,
    /// Candidates this step removes: (cell, digit).
    pub eliminations: Vec<(Cell, u8)>,
    /// Difficulty on Sudoku Explainer's scale, in tenths (23 = 2.3).
    pub rating: u16,
    /// Nesting level of forcing nets (0 = none), HoDoKu-style size of fish, etc.
    pub level: u8,
    /// Extra lines of explanation (the chains of forcing chains), as text whose digits
    /// are marked to be written in the reader's symbols: read them through
    /// [`Step::sentence_in`] (or [`Step::detail_in`]).
    pub detail: Vec<String>,
    /// A more precise name than the technique's title, when it has one
    /// (`Dynamic Cell Forcing Chains (+)`, `3 Skyscrapers`).
    pub name: Option<String>,
}

impl Step {
    /// HoDoKu's order between steps of one kind (smallest first): most eliminations,
    /// then the smallest sum over the eliminations, in (digit, cell) order, of `cell *
    /// weight + digit` with weights 1, 1 + (cells - 1), 1 + 2 (cells - 1), ... (80
    /// apart on 9x9: HoDoKu's `getIndexSumme`). `cells` is the grid's cell count.
    pub fn hodoku_rank(&self, cells: usize) -> (std::cmp::Reverse<usize>, u64) {
        let mut sorted: Vec<(u8, usize)> = self.eliminations.iter().map(|&(c, d)| (d, c)).collect();
        sorted.sort_unstable();
        let step = cells.saturating_sub(1) as u64;
        let sum = sorted
            .iter()
            .enumerate()
            .map(|(i, &(d, c))| c as u64 * (1 + i as u64 * step) + d as u64)
            .sum();
        (std::cmp::Reverse(self.eliminations.len()), sum)
    }

    /// A step of a technique with nothing filled in yet.
    pub fn new(technique: Technique) -> Step {
        Step {
            technique,
            digits: Vec::new(),
            cells: Vec::new(),
            houses: Vec::new(),
            cover: Vec::new(),
            fins: Vec::new(),
            chain: Vec::new(),
            strong: Vec::new(),
            placements: Vec::new(),
            eliminations: Vec::new(),
            rating: 0,
            level: 0,
            detail: Vec::new(),
            name: None,
        }
    }

    /// The rating as a number (`2.3`).
    pub fn rating_value(&self) -> f64 {
        f64::from(self.rating) / 10.0
    }

    /// Whether the step makes progress.
    pub fn is_useful(&self) -> bool {
        !self.placements.is_empty() || !self.eliminations.is_empty()
    }

    /// The display name: the precise name when known, else the technique's title.
    pub fn title(&self) -> &str {
        self.name.as_deref().unwrap_or(self.technique.title())
    }

    /// Placements as `r3c9=5` strings.
    pub fn placement_strings(&self, g: &Geometry) -> Vec<String> {
        self.placements
            .iter()
            .map(|&(c, d)| format!("{}={}", g.cell_name(c), d))
            .collect()
    }

    /// Eliminations as `r5c3<>7` strings, sorted by cell then digit.
    pub fn elimination_strings(&self, g: &Geometry) -> Vec<String> {
        let mut e = self.eliminations.clone();
        e.sort_unstable();
        e.iter()
            .map(|&(c, d)| format!("{}<>{}", g.cell_name(c), d))
            .collect()
    }

    /// The results: `r3c9=5` placements and grouped eliminations (`r5c3,r5c7<>7`).
    pub fn results(&self, g: &Geometry) -> String {
        self.results_in(g, Digits::NUMBERS)
    }

    /// [`Step::results`] with digits written as `digits` says.
    pub fn results_in(&self, g: &Geometry, digits: Digits) -> String {
        let mut parts: Vec<String> = self
            .placements
            .iter()
            .map(|&(c, d)| format!("{}={}", g.cell_name(c), digits.show(d)))
            .collect();
        // Group eliminations by digit, as solvers write them.
        let mut by_digit: Vec<(u8, Vec<Cell>)> = Vec::new();
        let mut e = self.eliminations.clone();
        e.sort_unstable_by_key(|&(c, d)| (d, c));
        for (c, d) in e {
            match by_digit.last_mut() {
                Some((dd, cs)) if *dd == d => cs.push(c),
                _ => by_digit.push((d, vec![c])),
            }
        }
        for (d, cs) in by_digit {
            parts.push(format!("{}<>{}", cell_list(g, &cs), digits.show(d)));
        }
        parts.join(", ")
    }

    /// The short line: `X-Wing: 7 r2,r8 c3,c6 => r5c3<>7`.
    pub fn line(&self, g: &Geometry) -> String {
        self.line_in(g, Digits::NUMBERS)
    }

    /// [`Step::line`] with digits written as `digits` says.
    pub fn line_in(&self, g: &Geometry, digits: Digits) -> String {
        let pattern = self.pattern_in(g, digits);
        let results = self.results_in(g, digits);
        if pattern.is_empty() {
            format!("{} => {}", self.title(), results)
        } else {
            format!("{}: {} => {}", self.title(), pattern, results)
        }
    }

    /// The pattern part of the short line.
    pub fn pattern(&self, g: &Geometry) -> String {
        self.pattern_in(g, Digits::NUMBERS)
    }

    /// [`Step::pattern`] with digits written as `style` says.
    pub fn pattern_in(&self, g: &Geometry, style: Digits) -> String {
        use Technique::*;
        let digits = digit_list(&self.digits, style);
        let houses = house_list(g, &self.houses);
        let cover = house_list(g, &self.cover);
        let cells = cell_list(g, &self.cells);
        if !self.chain.is_empty() {
            return chain_text_in(g, &self.chain, &self.strong, style);
        }
        match self.technique {
            FullHouse | HiddenSingle | NakedSingle => houses,
            DirectPointing
            | DirectClaiming
            | LockedCandidatesPointing
            | LockedCandidatesClaiming => format!("{digits} in {houses}"),
            NakedPair | NakedTriple | NakedQuad | LockedPair | LockedTriple | HiddenPair
            | HiddenTriple | HiddenQuad | DirectHiddenPair | DirectHiddenTriple => {
                format!("{digits} in {cells}")
            }
            XWing
            | Swordfish
            | Jellyfish
            | FinnedXWing
            | FinnedSwordfish
            | FinnedJellyfish
            | SashimiXWing
            | SashimiSwordfish
            | SashimiJellyfish
            | FrankenXWing
            | FrankenSwordfish
            | FinnedFrankenXWing
            | FinnedFrankenSwordfish => {
                let mut s = format!("{digits} {houses} {cover}");
                if !self.fins.is_empty() {
                    let _ = write!(s, " fin {}", cell_list(g, &self.fins));
                }
                s
            }
            BruteForce => String::new(),
            _ => {
                let mut s = if cells.is_empty() {
                    digits
                } else {
                    format!("{digits} in {cells}")
                };
                if !self.fins.is_empty() {
                    let _ = write!(s, " + {}", cell_list(g, &self.fins));
                }
                s
            }
        }
    }

    /// A sentence for people.
    pub fn sentence(&self, g: &Geometry) -> String {
        self.sentence_in(g, Digits::NUMBERS)
    }

    /// [`Step::sentence`] with digits written as `style` says.
    pub fn sentence_in(&self, g: &Geometry, style: Digits) -> String {
        use Technique::*;
        let digits = digit_or(&self.digits, style);
        let house = |h: &usize| house_name(g, *h);
        let results = self.results_sentence(g, style);
        let cells = cell_and(g, &self.cells);
        match self.technique {
            FullHouse => format!(
                "{} is the last empty cell of {}, so {}.",
                cells,
                self.houses.first().map(house).unwrap_or_default(),
                results
            ),
            HiddenSingle => format!(
                "In {}, {} can only go in {}, so {}.",
                self.houses.first().map(house).unwrap_or_default(),
                digits,
                cells,
                results
            ),
            NakedSingle => format!("{cells} has no other candidate left, so {results}."),
            LockedCandidatesPointing | DirectPointing => format!(
                "In {}, {} is only possible in {}, so it cannot be elsewhere in {}: {}.",
                self.houses.first().map(house).unwrap_or_default(),
                digits,
                self.cover.first().map(house).unwrap_or_default(),
                self.cover.first().map(house).unwrap_or_default(),
                results
            ),
            LockedCandidatesClaiming | DirectClaiming => format!(
                "In {}, {} is only possible inside {}, so it cannot be elsewhere in {}: {}.",
                self.houses.first().map(house).unwrap_or_default(),
                digits,
                self.cover.first().map(house).unwrap_or_default(),
                self.cover.first().map(house).unwrap_or_default(),
                results
            ),
            NakedPair | NakedTriple | NakedQuad | LockedPair | LockedTriple => format!(
                "{} hold only {} between them, so these digits cannot go elsewhere in {}: {}.",
                cells,
                digit_and(&self.digits, style),
                house_and(g, &self.houses),
                results
            ),
            HiddenPair | HiddenTriple | HiddenQuad | DirectHiddenPair | DirectHiddenTriple => {
                format!(
                    "In {}, {} can only go in {}, so those cells hold nothing else: {}.",
                    house_and(g, &self.houses),
                    digit_and(&self.digits, style),
                    cells,
                    results
                )
            }
            XWing | Swordfish | Jellyfish => format!(
                "In {}, {} is confined to {}, so it cannot be elsewhere in {}: {}.",
                house_and(g, &self.houses),
                digits,
                house_and(g, &self.cover),
                house_and(g, &self.cover),
                results
            ),
            FinnedXWing | FinnedSwordfish | FinnedJellyfish | SashimiXWing | SashimiSwordfish
            | SashimiJellyfish => format!(
                "In {}, {} is confined to {} except for the fin {}; either the fish holds or \
                 the fin does, and both remove {} from the cells that see the fin: {}.",
                house_and(g, &self.houses),
                digits,
                house_and(g, &self.cover),
                cell_and(g, &self.fins),
                digits,
                results
            ),
            FrankenXWing | FrankenSwordfish => format!(
                "In {}, {} is confined to {}, so it cannot be elsewhere in them, nor in a \
                 cell two of them share: {}.",
                house_and(g, &self.houses),
                digits,
                house_and(g, &self.cover),
                results
            ),
            FinnedFrankenXWing | FinnedFrankenSwordfish => format!(
                "In {}, {} is confined to {} except for the {} {}; either the fish holds or \
                 a fin does, and both remove {} from the cells that see every fin: {}.",
                house_and(g, &self.houses),
                digits,
                house_and(g, &self.cover),
                if self.fins.len() == 1 { "fin" } else { "fins" },
                cell_and(g, &self.fins),
                digits,
                results
            ),
            BruteForce => format!(
                "No logical technique applies: the solution is looked up by search ({results})."
            ),
            _ => {
                let mut s = String::new();
                if !self.chain.is_empty() {
                    let _ = write!(
                        s,
                        "The chain {} (\"=\": if one end is false the other is true; \"-\": \
                         both cannot be true) proves it: {}.",
                        chain_text_in(g, &self.chain, &self.strong, style),
                        results
                    );
                    let closed = self.chain.len() > 2 && self.chain.first() == self.chain.last();
                    if closed && self.strong.last() == Some(&true) {
                        s.push_str(
                            " It leaves its first node by a \"=\" link and comes back to it by \
                             one: were that node false, the nodes after and before it would \
                             both be true, and the chain between them says they cannot both be: so it is true.",
                        );
                    } else if closed {
                        s.push_str(
                            " The chain closes into a loop, so each \"-\" link holds exactly \
                             one true end: a candidate in conflict with both ends of one is false.",
                        );
                    }
                } else if self.cells.is_empty() {
                    let _ = write!(s, "{}: {}.", self.title(), results);
                } else {
                    let _ = write!(
                        s,
                        "The {} on {} in {} forces: {}.",
                        self.title(),
                        digit_and(&self.digits, style),
                        cells,
                        results
                    );
                }
                for line in &self.detail {
                    s.push(' ');
                    s.push_str(&style.fill(line));
                    if !line.ends_with('.') {
                        s.push('.');
                    }
                }
                s
            }
        }
    }

    /// The extra lines of explanation, digits written in `style`.
    pub fn detail_in(&self, style: Digits) -> Vec<String> {
        self.detail.iter().map(|line| style.fill(line)).collect()
    }

    fn results_sentence(&self, g: &Geometry, style: Digits) -> String {
        let mut parts: Vec<String> = self
            .placements
            .iter()
            .map(|&(c, d)| format!("{} is {}", g.cell_name(c), style.show(d)))
            .collect();
        let mut e = self.eliminations.clone();
        e.sort_unstable_by_key(|&(c, d)| (d, c));
        let mut i = 0;
        while i < e.len() {
            let d = e[i].1;
            let cs: Vec<Cell> = e[i..]
                .iter()
                .take_while(|x| x.1 == d)
                .map(|x| x.0)
                .collect();
            i += cs.len();
            parts.push(format!("{} cannot be {}", cell_and(g, &cs), style.show(d)));
        }
        join_and(&parts)
    }
}

/// `r1c1,r1c5`.
pub fn cell_list(g: &Geometry, cells: &[Cell]) -> String {
    cells
        .iter()
        .map(|&c| g.cell_name(c))
        .collect::<Vec<_>>()
        .join(",")
}

pub(crate) fn house_name(g: &Geometry, h: usize) -> String {
    let house = &g.houses()[h];
    format!("{} {}", house.kind().name(), house.index() + 1)
}

fn house_list(g: &Geometry, hs: &[usize]) -> String {
    hs.iter()
        .map(|&h| g.houses()[h].to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn house_and(g: &Geometry, hs: &[usize]) -> String {
    join_and(&hs.iter().map(|&h| house_name(g, h)).collect::<Vec<_>>())
}

fn digit_list(ds: &[u8], style: Digits) -> String {
    ds.iter()
        .map(|&d| style.show(d))
        .collect::<Vec<_>>()
        .join(",")
}

fn digit_and(ds: &[u8], style: Digits) -> String {
    join_and(&ds.iter().map(|&d| style.show(d)).collect::<Vec<_>>())
}

fn digit_or(ds: &[u8], style: Digits) -> String {
    let parts: Vec<String> = ds.iter().map(|&d| style.show(d)).collect();
    match parts.len() {
        0 => String::new(),
        1 => parts[0].clone(),
        n => format!("{} or {}", parts[..n - 1].join(", "), parts[n - 1]),
    }
}

fn cell_and(g: &Geometry, cells: &[Cell]) -> String {
    join_and(&cells.iter().map(|&c| g.cell_name(c)).collect::<Vec<_>>())
}

fn join_and(parts: &[String]) -> String {
    match parts.len() {
        0 => String::new(),
        1 => parts[0].clone(),
        n => format!("{} and {}", parts[..n - 1].join(", "), parts[n - 1]),
    }
}

/// Eureka-style chain text: `5 r1c1=r1c7-r4c7=r4c2` when one digit, else
/// `(1)r1c1=(2)r1c1-(2)r5c1`.
pub fn chain_text(g: &Geometry, chain: &[Node], strong: &[bool]) -> String {
    chain_text_in(g, chain, strong, Digits::NUMBERS)
}

/// [`chain_text`] with digits written as `style` says.
pub fn chain_text_in(g: &Geometry, chain: &[Node], strong: &[bool], style: Digits) -> String {
    let single = chain.iter().all(|n| n.digit == chain[0].digit);
    let mut s = String::new();
    if single && !chain.is_empty() {
        let _ = write!(s, "{} ", style.show(chain[0].digit));
    }
    for (i, node) in chain.iter().enumerate() {
        if i > 0 {
            s.push(if strong.get(i - 1).copied().unwrap_or(false) {
                '='
            } else {
                '-'
            });
        }
        if !single {
            let _ = write!(s, "({})", style.show(node.digit));
        }
        s.push_str(&group_name(g, &node.cells));
    }
    s
}

/// A group of cells in one row or column as `r1c12` (`r13c13,15` on grids above 9x9,
/// where numbers take two digits), else a cell list in braces.
pub fn group_name(g: &Geometry, cells: &[Cell]) -> String {
    if cells.len() == 1 {
        return g.cell_name(cells[0]);
    }
    let join = |ns: &mut dyn Iterator<Item = usize>| -> String {
        let ns: Vec<String> = ns.map(|n| (n + 1).to_string()).collect();
        ns.join(if g.size() > 9 { "," } else { "" })
    };
    let rows: Vec<usize> = cells.iter().map(|&c| g.row(c)).collect();
    let cols: Vec<usize> = cells.iter().map(|&c| g.col(c)).collect();
    if rows.iter().all(|&r| r == rows[0]) {
        format!("r{}c{}", rows[0] + 1, join(&mut cols.into_iter()))
    } else if cols.iter().all(|&c| c == cols[0]) {
        format!("r{}c{}", join(&mut rows.into_iter()), cols[0] + 1)
    } else {
        format!("{{{}}}", cell_list(g, cells))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &t in Technique::ALL {
            assert!(seen.insert(t.name()), "duplicate {}", t.name());
            assert_eq!(Technique::from_name(t.name()), Some(t));
            assert!(
                t.name()
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            );
        }
    }

    #[test]
    fn groups_above_9x9_separate_their_numbers() {
        let classic = Geometry::classic();
        assert_eq!(group_name(&classic, &[0, 2]), "r1c13");
        let big = Geometry::new(crate::Shape::new(4, 4).unwrap());
        // r16c1 and r16c4, not r16c14.
        assert_eq!(group_name(&big, &[240, 243]), "r16c1,4");
        assert_eq!(group_name(&big, &[12, 28, 44]), "r1,2,3c13");
    }

    #[test]
    fn x_wing_line() {
        let g = Geometry::classic();
        let mut s = Step::new(Technique::XWing);
        s.digits = vec![7];
        s.houses = vec![1, 7];
        s.cover = vec![9 + 2, 9 + 5];
        s.eliminations = vec![(g.cell(4, 2), 7)];
        assert_eq!(s.line(&g), "X-Wing: 7 r2,r8 c3,c6 => r5c3<>7");
        assert!(s.sentence(&g).contains("r5c3 cannot be 7"));
    }

    #[test]
    fn hodoku_levels_rise_with_score() {
        assert_eq!(Level::from_score(Level::Easy, 500, 81), Level::Easy);
        assert_eq!(Level::from_score(Level::Easy, 900, 81), Level::Medium);
        assert_eq!(Level::from_score(Level::Hard, 1700, 81), Level::Unfair);
        assert_eq!(Level::from_score(Level::Unfair, 5000, 81), Level::Extreme);
        // 256 cells: the caps scale by 256/81 (Easy 2,528).
        assert_eq!(Level::from_score(Level::Easy, 2500, 256), Level::Easy);
        assert_eq!(Level::from_score(Level::Easy, 2600, 256), Level::Medium);
    }
}
