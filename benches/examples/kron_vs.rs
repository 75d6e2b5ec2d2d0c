use std::time::Instant;
use sudokit::{format::parse_grid, solve};
fn main() {
    let text = "816000000357000000492000000000816000000357000000492000000000816000000357000000492";
    let g = parse_grid(text).unwrap();
    let s = sudoku::Sudoku::from_str_line(&text.replace('0', ".")).unwrap();
    for _ in 0..5 {
        let t = Instant::now();
        let a = solve::count_solutions(&g, u64::MAX).count;
        let ta = t.elapsed();
        let t = Instant::now();
        let b = s.solutions_count_up_to(usize::MAX);
        let tb = t.elapsed();
        println!("sudokit {a} {ta:?}  crate {b} {tb:?}");
    }
}
