//! Feeds arbitrary text through the streaming reader with every option combination the
//! first byte selects, and checks the reader's promises: no panic, every record has a
//! valid grid of its geometry, writers round-trip what was read.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudokit::format::{self, ReadOptions, Reader, SymbolStyle};
use sudokit::{Shape, Symbols};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
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
    let options = ReadOptions { shape, symbols: symbols.clone(), ..ReadOptions::default() };
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
        let sym = symbols.symbols(g.size()).unwrap_or_else(|_| Symbols::standard(g.size()));
        let line = format::to_line(&g, &sym);
        let back = format::parse_one(&line, &ReadOptions { shape: g.geometry().shape(), ..options.clone() });
        assert_eq!(back.map(|b| b.grid), Ok(g));
    }
});
