use sudokit::{format::parse_grid, solve};
fn main() {
    let g = parse_grid(
        "816000000357000000492000000000816000000357000000492000000000816000000357000000492",
    )
    .unwrap();
    let mode = std::env::args().nth(1).unwrap_or_default();
    if mode == "enum" {
        let mut k = 0u64;
        let r = solve::rows::enumerate(&g, &solve::Limits::solutions(u64::MAX), &mut |s| {
            k += s[80] as u64;
            true
        });
        println!("{r:?} {k}");
    } else {
        let r = solve::rows::count(&g, &solve::Limits::solutions(u64::MAX));
        println!("{r:?}");
    }
}
