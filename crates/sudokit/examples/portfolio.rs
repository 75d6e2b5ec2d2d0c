use std::time::{Duration, Instant};
use sudokit::format::parse_grid;
use sudokit::solve::{Limits, cdcl};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("file");
    let mut total = 0.0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let puzzle = parse_grid(fields[1]).expect("puzzle");
        let limits = Limits {
            solutions: args.get(2).map_or(2, |s| s.parse().unwrap()),
            nodes: None,
            deadline: Some(Instant::now() + Duration::from_secs(60)),
        };
        let t = Instant::now();
        let r = cdcl::search(&puzzle, &limits, &mut |_| true);
        let e = t.elapsed().as_secs_f64();
        total += e;
        print!("{} {} {:.2} {:?} | ", fields[0], r.guesses, e, r.stop);
    }
    println!("total {:.2}", total);
}
