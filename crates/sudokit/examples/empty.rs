use std::time::{Duration, Instant};
use sudokit::{
    Geometry, Grid, Shape,
    solve::{self, Limits},
};
fn main() {
    for (r, c) in [
        (2, 2),
        (2, 3),
        (3, 3),
        (3, 4),
        (4, 4),
        (4, 5),
        (5, 5),
        (5, 6),
        (6, 6),
        (7, 7),
        (8, 8),
    ] {
        let g = Grid::empty(Geometry::standard(Shape::new(r, c).unwrap()));
        let t = Instant::now();
        let rep = solve::search(
            &g,
            &Limits {
                solutions: 1,
                nodes: None,
                deadline: Some(Instant::now() + Duration::from_secs(5)),
            },
            &mut |_| false,
        );
        println!("{r}x{c}: {:?} {:?}", rep, t.elapsed());
    }
}
