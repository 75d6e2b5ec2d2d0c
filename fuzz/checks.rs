//! The properties every fuzz target checks, as plain functions: the cargo-fuzz targets
//! call them on generated inputs, and `crates/sudokit/tests/fuzz_corpus.rs` replays the
//! committed corpus and crash cases through the same functions in every `cargo test`.
#![allow(dead_code)]

use sudokit::format::{self, ReadOptions, Reader, SymbolStyle};
use sudokit::transform::Transform;
use sudokit::{Geometry, Grid, Shape, Symbols, Variant};

/// Feeds arbitrary text through the streaming reader with every option combination the
/// first byte selects, and checks the reader's promises: no panic, every record has a
/// valid grid of its geometry, writers round-trip what was read.
pub fn parse_text(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let shape = match selector & 7 {
        0 => Some(Shape::CLASSIC),
        1 => Some(Shape::SHIDOKU),
        2 => Some(Shape::new(2, 3).unwrap()),
        3 => Some(Shape::new(4, 4).unwrap()),
        _ => None,
    };
    let symbols = match selector >> 3 & 3 {
        0 => SymbolStyle::Standard,
        1 => SymbolStyle::ZeroBased,
        2 => SymbolStyle::Custom("ABCDEFGHI".into()),
        _ => SymbolStyle::Custom("1-9A-G".into()),
    };
    let options = ReadOptions {
        shape,
        symbols: symbols.clone(),
        ..ReadOptions::default()
    };
    let mut reader = Reader::new(options.clone());
    let mut records = Vec::new();
    let mut out = |r: format::ReadResult| records.push(r);
    for (i, line) in text.lines().enumerate() {
        reader.push(i + 1, line, &mut out);
    }
    reader.finish(&mut out);
    for r in records.into_iter().flatten() {
        let g = r.grid;
        assert_eq!(g.cells().len(), g.geometry().cell_count());
        assert!(g.cells().iter().all(|&v| (v as usize) <= g.size()));
        // What we write, we read back.
        let sym = symbols
            .symbols(g.size())
            .unwrap_or_else(|_| Symbols::standard(g.size()));
        let line = format::to_line(&g, &sym);
        let back = format::parse_one(
            &line,
            &ReadOptions {
                geometry: Some(g.geometry().clone()),
                ..options.clone()
            },
        );
        assert_eq!(back.map(|b| b.grid), Ok(g));
    }
}

/// Pencil-mark grids and 729-character candidate lines: the parser never panics, and
/// what it accepts is a candidate set of its geometry that writes and reads back.
pub fn parse_candidates(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let shape = match selector & 3 {
        0 => Some(Shape::CLASSIC),
        1 => Some(Shape::SHIDOKU),
        2 => Some(Shape::new(2, 3).unwrap()),
        _ => None,
    };
    let options = ReadOptions {
        shape,
        ..ReadOptions::default()
    };
    let _ = format::looks_like_candidates(&text);
    if let Ok(cands) = format::parse_candidates(&text, &options) {
        let symbols = Symbols::standard(cands.geometry().size());
        let written = format::to_pencilmarks(&cands, &symbols);
        let again = format::parse_candidates(&written, &options).expect("own output reads back");
        assert_eq!(format::to_pencilmarks(&again, &symbols), written);
    }
}

/// The Octave matrix form (n lines of n whitespace-separated integers) and pretty grids,
/// built from the input bytes so most inputs reach those readers: no panic, and every
/// grid read is valid for its geometry and reads back from its own line form.
pub fn parse_matrix(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let n = [4usize, 6, 9, 16][(selector & 3) as usize];
    let pretty = selector & 4 != 0;
    let mut text = String::new();
    for (i, &b) in rest.iter().enumerate() {
        match b {
            250 => text.push('|'),
            251 => text.push_str("\n------+-------+------\n"),
            252 => text.push('.'),
            253 => text.push_str("-1"),
            254 => text.push_str("999999999999"),
            255 => text.push('x'),
            _ => text.push_str(&(b as usize % (n + 2)).to_string()),
        }
        text.push(if (i + 1) % n == 0 {
            '\n'
        } else if pretty {
            ' '
        } else {
            '\t'
        });
    }
    for record in format::parse_one(&text, &ReadOptions::default()).into_iter() {
        let g = record.grid;
        assert_eq!(g.cells().len(), g.geometry().cell_count());
        assert!(g.cells().iter().all(|&v| (v as usize) <= g.size()));
        let line = format::to_line(&g, &Symbols::standard(g.size()));
        let options = ReadOptions {
            geometry: Some(g.geometry().clone()),
            ..ReadOptions::default()
        };
        assert_eq!(format::parse_one(&line, &options).map(|r| r.grid), Ok(g));
    }
}

/// Variant names, jigsaw region maps and the geometries built from them, plus the
/// transform syntax: no panic; accepted maps give geometries whose houses each hold
/// every cell's row once; accepted transforms apply to a grid of their shape.
pub fn parse_variant(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let (head, tail) = text.split_once('\n').unwrap_or((&text, ""));
    match selector % 3 {
        0 => {
            if let Ok(mut variant) = head.parse::<Variant>() {
                // What a variant prints (a `# variant:` line) reads back as itself.
                let again: Variant = variant.to_string().parse().expect("printed variant reads");
                assert_eq!(
                    again,
                    Variant {
                        regions: None,
                        ..variant.clone()
                    }
                );
                let n = [4usize, 6, 9][(selector / 3 % 3) as usize];
                if variant.jigsaw {
                    match Variant::parse_regions(tail, n) {
                        Ok(map) => variant.regions = Some(map),
                        Err(_) => return,
                    }
                }
                if let Ok(g) = Geometry::for_variant(n, Shape::for_size(n), &variant) {
                    for house in g.houses() {
                        assert_eq!(house.cells().len(), n);
                    }
                }
            }
        }
        1 => {
            let n = [4usize, 6, 9, 16][(selector / 3 % 4) as usize];
            if let Ok(map) = Variant::parse_regions(&text, n) {
                assert_eq!(map.len(), n * n);
                assert!(map.iter().all(|&r| (r as usize) < n));
            }
        }
        _ => {
            let shape = [
                Shape::SHIDOKU,
                Shape::CLASSIC,
                Shape::new(2, 3).unwrap(),
                Shape::new(1, 5).unwrap(),
            ][(selector / 3 % 4) as usize];
            if let Ok(t) = Transform::parse(shape, &text) {
                let n = shape.size();
                let grid = if shape.box_rows() == 1 {
                    Grid::empty(std::sync::Arc::new(Geometry::latin(n).unwrap()))
                } else {
                    Grid::empty(Geometry::standard(shape))
                };
                assert!(
                    t.apply(&grid).is_ok(),
                    "every parsed operation fits its shape"
                );
                // On a variant, applying succeeds exactly when the houses are kept.
                let variant: Variant = "x".parse().unwrap();
                if let Ok(x) = Geometry::for_variant(n, Some(shape), &variant) {
                    let x = std::sync::Arc::new(x);
                    assert_eq!(t.apply(&Grid::empty(x.clone())).is_ok(), t.keeps(&x));
                }
            }
        }
    }
}

/// A pencil-mark state built from the bytes: a built-in puzzle (some with one solution,
/// some with several, one with none), then candidates struck from it, so the state may
/// keep its solution, lose it, or narrow several solutions down to one. The second byte
/// says how: odd, the next bytes name `(cell, digit)` pairs to strike, any of them;
/// even, a few of the candidates that one solution does not use, each struck with the
/// probability of the third byte, chosen by the rest. The human path never panics on
/// it; when the state has exactly one solution, every step (uniqueness techniques
/// included, which lean on that) agrees with it and the path ends on it.
pub fn hint_state(data: &[u8]) {
    use sudokit::logic::{State, check_step, solver};
    use sudokit::puzzles::BUILTINS;
    use sudokit::rng::Rng;
    use sudokit::solve::{self, Verdict};

    let [selector, mode, rest @ ..] = data else {
        return;
    };
    // The built-in puzzles are all up to 9x9 (kron, with 283,576 solutions, is a fine
    // start for narrowing down to one).
    let builtin = &BUILTINS[*selector as usize % BUILTINS.len()];
    let grid = builtin.grid();
    let g = grid.geometry().clone();
    let (n, cells) = (g.size(), g.cell_count());
    let mut state = State::from_grid(&grid);
    if mode & 1 == 1 {
        for pair in rest.chunks_exact(2) {
            let c = pair[0] as usize % cells;
            let d = (pair[1] as usize % n) as u8 + 1;
            if state.value(c) == 0 {
                state.eliminate(c, d);
            }
        }
    } else if let (Some((&chance, choice)), Some(kept)) = (rest.split_first(), solve::solve(&grid))
    {
        let seed = choice
            .iter()
            .fold(0u64, |h, &b| h.rotate_left(8) ^ b as u64);
        let mut rng = Rng::new(seed);
        for c in 0..cells {
            for d in state.cands(c).iter() {
                if state.value(c) == 0 && d != kept.get(c) && (rng.below(256) as u8) < chance {
                    state.eliminate(c, d);
                }
            }
        }
    }
    match solver::verdict(&state) {
        Verdict::Unique(solution) => {
            let path =
                solver::explain_known(&state, Some(solution.cells().to_vec()), &mut |_| false);
            for step in &path.steps {
                if let Err(e) = check_step(step, solution.cells(), &g) {
                    panic!("{e}\n{}", step.line(&g));
                }
            }
            assert!(path.solved);
            assert_eq!(path.end.values(), solution.cells());
        }
        _ => {
            let _ = solver::next_step(&state);
        }
    }
}
