//! Canonicalises N solution grids of the 17-clue set with one program, for instruction
//! counts under callgrind: `canon_ir ours|crate|none [N] [grids|puzzles]` (run `none`
//! for the set-up cost to subtract).
use sudokit::format::parse_grid;
use sudokit::{canon, solve};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let who = args.get(1).map_or("ours", |s| s.as_str());
    let max: usize = args.get(2).map_or(300, |s| s.parse().unwrap());
    let grids = args.get(3).is_none_or(|s| s == "grids");
    let mut lines = sudokit_benches::load("puzzles2_17_clue").expect("data");
    lines.truncate(max);
    let mut set: Vec<_> = lines
        .iter()
        .map(|l| parse_grid(&l[..81]).unwrap())
        .collect();
    if grids {
        set = set.iter().map(|p| solve::solve(p).unwrap()).collect();
    }
    let text: Vec<String> = set
        .iter()
        .map(|g| {
            g.cells()
                .iter()
                .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
                .collect()
        })
        .collect();
    let mut sum = 0usize;
    match who {
        "ours" => {
            for g in &set {
                sum += canon::canonical(g).unwrap().grid.cells()[80] as usize;
            }
        }
        "crate" => {
            for t in &text {
                let s = sudoku::Sudoku::from_str_line(t).unwrap();
                sum += s
                    .canonicalized()
                    .map_or(0, |(c, _)| c.to_bytes()[80] as usize);
            }
        }
        _ => {}
    }
    println!("{sum}");
}
