use std::time::Instant;
use sudokit::{Geometry, Grid, Shape, format::parse_grid, solve};
fn main() {
    let g = parse_grid(
        "816000000357000000492000000000816000000357000000492000000000816000000357000000492",
    )
    .unwrap();
    for _ in 0..5 {
        let t = Instant::now();
        let c = solve::count_solutions(&g, u64::MAX);
        println!("kron {:?} {:?}", c, t.elapsed());
    }
    let e = Grid::empty(Geometry::standard(Shape::new(2, 3).unwrap()));
    let t = Instant::now();
    let c = solve::count_solutions(&e, u64::MAX);
    println!("6x6 count {:?} {:?}", c, t.elapsed());
    let t = Instant::now();
    let mut k = 0u64;
    let r = solve::enumerate(&e, &solve::Limits::solutions(u64::MAX), &mut |s| {
        k += s[35] as u64;
        true
    });
    println!("6x6 enumerate {:?} {} {:?}", r, k, t.elapsed());
    let t = Instant::now();
    let r = solve::enumerate(&g, &solve::Limits::solutions(u64::MAX), &mut |s| {
        k += s[35] as u64;
        true
    });
    println!("kron enumerate {:?} {} {:?}", r, k, t.elapsed());
}
