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
    // A bad line is reported with its line and column (once, not per mode or round),
    // the others are timed, and the exit code says something was wrong.
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "1....2....3....4\n1....2....x....4\n1....2....3....4\n",
    )
    .unwrap();
    let out = sudokit()
        .args(["bench", "--rounds", "2", bad.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(predicate::str::is_match(r"bad.txt +2 +unique").unwrap())
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("bad.txt:2:11: 'x'").count(), 1, "{stderr}");
    sudokit()
        .args(["bench", "--rounds", "0", bad.to_str().unwrap()])
        .assert()
        .code(2);
    std::fs::remove_dir_all(&dir).ok();
}
