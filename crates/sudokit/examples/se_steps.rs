//! Prints Sudoku Explainer's path for one puzzle (debugging aid): each step's rating
//! and short line.
use sudokit::format::parse_grid;
use sudokit::logic::{State, se};
fn main() {
    let p = std::env::args().nth(1).expect("puzzle");
    let grid = parse_grid(&p).expect("puzzle");
    let r = se::rate(&State::from_grid(&grid), &se::Options::default());
    let min: u16 = std::env::args().nth(2).map_or(0, |m| m.parse().unwrap());
    let mut state = State::from_grid(&grid);
    for st in &r.steps {
        if st.rating >= min {
            if std::env::args().any(|a| a == "--pm") {
                print!(
                    "{}",
                    sudokit::format::to_pencilmarks(
                        state.candidates(),
                        &sudokit::Symbols::standard(9)
                    )
                );
            }
            println!("{:>4} {}", st.rating, st.line(grid.geometry()));
        }
        state.apply(st);
    }
    println!("ER {} EP {} ED {} solved {}", r.er, r.ep, r.ed, r.solved);
}
