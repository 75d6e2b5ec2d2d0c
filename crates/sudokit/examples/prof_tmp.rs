use sudokit::format::parse_grid;
use sudokit::logic::{State, se};
fn main() {
    let every: usize = std::env::args().nth(1).map_or(400, |a| a.parse().unwrap());
    let text = std::fs::read_to_string("/work/shared/data/sudoku-exchange/diabolical.txt").unwrap();
    let t = std::time::Instant::now();
    let mut steps = 0;
    for l in text.lines().step_by(every) {
        let p = l.split_whitespace().nth(1).unwrap();
        steps += se::rate(
            &State::from_grid(&parse_grid(p).unwrap()),
            &se::Options::default(),
        )
        .steps
        .len();
    }
    println!("total {:?} steps {steps}", t.elapsed());
}
