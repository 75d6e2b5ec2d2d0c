//! Counting: the rows engine against the propagating search on puzzles with many
//! solutions (sparse puzzles made from the data sets by removing clues).
use std::time::{Duration, Instant};
use sudokit::format::parse_grid;
use sudokit::solve::{self, Limits};

fn main() {
    let lines = sudokit_benches::load("puzzles2_17_clue").expect("data");
    for (k, line) in lines.iter().take(9).enumerate() {
        let mut grid = parse_grid(&line[..81]).unwrap();
        let clues: Vec<usize> = (0..81).filter(|&c| grid.get(c) != 0).collect();
        for &c in clues.iter().take(k % 3 + 1) {
            grid.set(c, 0);
        }
        let limits = || Limits {
            solutions: 200_000,
            nodes: None,
            deadline: Some(Instant::now() + Duration::from_secs(5)),
        };
        let t = Instant::now();
        let b = solve::search(&grid, &limits(), &mut |_| true);
        let tb = t.elapsed();
        let t = Instant::now();
        let c = solve::rows::count(&grid, &limits());
        let tc = t.elapsed();
        let t = Instant::now();
        let a = solve::count(&grid, &limits());
        let ta = t.elapsed();
        println!(
            "{k}: count {} {:?} {:?} | search {} {:?} {:?} | rows {} {:?} {:?}",
            a.solutions, a.stop, ta, b.solutions, b.stop, tb, c.solutions, c.stop, tc
        );
    }
}
