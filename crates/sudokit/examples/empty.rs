//! Times solving empty grids of every shape and variant (a hard case for naive search:
//! one early wrong choice can hide a dead end deep down).
use std::sync::Arc;
use std::time::{Duration, Instant};

use sudokit::solve::{self, Limits};
use sudokit::{Geometry, Grid, Shape, Variant};

fn run(name: &str, g: Arc<Geometry>) {
    let t = Instant::now();
    let limits = Limits {
        solutions: 1,
        nodes: None,
        deadline: Some(Instant::now() + Duration::from_secs(5)),
    };
    let rep = solve::search(&Grid::empty(g), &limits, &mut |_| false);
    println!(
        "{name:>12}: {:?} {:?} guesses {}",
        rep.stop,
        t.elapsed(),
        rep.guesses
    );
}

fn main() {
    for (r, c) in [
        (2, 2),
        (2, 3),
        (3, 3),
        (3, 4),
        (4, 4),
        (4, 5),
        (5, 5),
        (6, 6),
        (7, 7),
        (8, 8),
    ] {
        run(
            &format!("{r}x{c}"),
            Geometry::standard(Shape::new(r, c).unwrap()),
        );
    }
    for spec in ["x", "windoku", "x,windoku", "latin"] {
        let v: Variant = spec.parse().unwrap();
        run(spec, Arc::new(Geometry::for_variant(9, None, &v).unwrap()));
    }
    let map =
        "AAAABBCCC AAABBBCCC AABBBBCCC DDDEEEFFF DDDEEEFFF DDDEEEFFF GGGHHHIII GGGHHHIII GGGHHHIII";
    let v = Variant {
        jigsaw: true,
        regions: Some(Variant::parse_regions(map, 9).unwrap()),
        ..Variant::default()
    };
    run(
        "jigsaw",
        Arc::new(Geometry::for_variant(9, None, &v).unwrap()),
    );
    run("latin 30", Arc::new(Geometry::latin(30).unwrap()));
}
