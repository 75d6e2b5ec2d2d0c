//! `sudokit puzzles`.

use predicates::prelude::*;

use crate::util::sudokit;

#[test]
fn lists_and_prints_builtins() {
    sudokit()
        .arg("puzzles")
        .assert()
        .success()
        .stdout(predicate::str::contains("lo-shu").and(predicate::str::contains("figure 14.1")));
    sudokit()
        .args(["puzzles", "diag4"])
        .assert()
        .success()
        .stdout("1....2....3....4\n");
    sudokit().args(["puzzles", "nope"]).assert().code(2);
}
