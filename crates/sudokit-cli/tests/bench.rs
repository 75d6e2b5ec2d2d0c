//! `sudokit bench`.

use predicates::prelude::*;

use crate::util::sudokit;

#[test]
fn bench_reports_both_modes() {
    let dir = std::env::temp_dir().join(format!("sudokit-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.txt");
    std::fs::write(&file, "816.....3357....8.4921.......3816......357......4921.......3816.2....3571.....492\n# c\n1....2....3....4\n").unwrap();
    sudokit()
        .args(["bench", "--rounds", "1", file.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("unique").and(predicate::str::contains("first")))
        .stdout(predicate::str::contains("two.txt"));
    std::fs::remove_dir_all(&dir).ok();
}
