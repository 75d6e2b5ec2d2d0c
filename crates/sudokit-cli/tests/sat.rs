//! `sudokit export --cnf`, and the variants cross-checked by an independent engine: a
//! general-purpose SAT solver (CaDiCaL or MiniSat, where installed; `.ci/run` installs
//! them) run on our CNF export.

use std::path::Path;
use std::process::Command as StdCommand;
use std::sync::Arc;

use sudokit::solve::{count_solutions, solve};
use sudokit::{Geometry, Grid, Variant, cnf};

use crate::util::sudokit;

/// Runs a SAT solver on a CNF text: `Some(model)` if satisfiable, `None` if not; skips
/// (returns `Err`) when no solver is installed.
fn sat(cnf_text: &str, dir: &Path) -> Result<Option<String>, ()> {
    let input = dir.join("in.cnf");
    std::fs::write(&input, cnf_text).unwrap();
    if let Ok(out) = StdCommand::new("cadical").arg("-q").arg(&input).output() {
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        return Ok(if text.contains("s SATISFIABLE") {
            Some(
                text.lines()
                    .filter(|l| l.starts_with("v "))
                    .map(|l| &l[2..])
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        } else {
            assert!(text.contains("s UNSATISFIABLE"), "cadical said: {text}");
            None
        });
    }
    let result = dir.join("out.txt");
    if StdCommand::new("minisat")
        .arg(&input)
        .arg(&result)
        .output()
        .is_ok()
    {
        let text = std::fs::read_to_string(&result).unwrap();
        return Ok(text.strip_prefix("SAT\n").map(str::to_string));
    }
    Err(())
}

/// Planted puzzles of several variants: a solution of the empty grid with about half
/// of its cells blanked in a fixed pattern.
fn planted(n: usize, variant: &str, regions: Option<&str>) -> Grid {
    let mut v: Variant = variant.parse().unwrap();
    if let Some(map) = regions {
        v.regions = Some(Variant::parse_regions(map, n).unwrap());
    }
    let g = Arc::new(Geometry::for_variant(n, None, &v).unwrap());
    let solution = solve(&Grid::empty(g)).expect("empty grid solves");
    let mut puzzle = solution.clone();
    for cell in 0..n * n {
        if (cell * 7 + cell / n) % 3 != 0 {
            puzzle.set(cell, 0);
        }
    }
    puzzle
}

#[test]
fn sat_solver_agrees_on_variants() {
    let dir = std::env::temp_dir().join(format!("sudokit-sat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        planted(9, "standard", None),
        planted(9, "x", None),
        planted(9, "windoku", None),
        planted(9, "x,windoku", None),
        planted(9, "disjoint", None),
        planted(9, "centre-dot,asterisk", None),
        planted(9, "girandola,windoku", None),
        planted(
            9,
            // Windoku's windows as a map of extra houses (spaces are ignored).
            "x,extra=......... .aaa.bbb. .aaa.bbb. .aaa.bbb. ......... \
             .ccc.ddd. .ccc.ddd. .ccc.ddd. .........",
            None,
        ),
        planted(6, "jigsaw", Some("AAAABBAABBBBCCCDDDCCCDDDEEEFFFEEEFFF")),
        planted(7, "latin", None),
    ];
    for puzzle in cases {
        let name = puzzle.geometry().name().to_string();
        let Ok(model) = sat(&cnf::to_dimacs(&puzzle), &dir) else {
            eprintln!("no SAT solver installed: skipping");
            return;
        };
        let model = model.unwrap_or_else(|| panic!("{name}: SAT solver finds no solution"));
        let sat_solution = cnf::decode_model(&puzzle, &model).expect("model decodes");
        assert!(
            sat_solution.solves(&puzzle),
            "{name}: SAT model breaks the rules"
        );
        // Uniqueness: forbid the SAT solution and ask again.
        let ours = count_solutions(&puzzle, 2).count;
        let n = puzzle.size();
        let block: String = (0..n * n)
            .map(|c| format!("-{} ", cnf::variable(n, c, sat_solution.get(c))))
            .collect();
        let mut text = cnf::to_dimacs(&puzzle);
        let header = text.lines().nth(1).unwrap().to_string();
        let clauses: usize = header.rsplit(' ').next().unwrap().parse().unwrap();
        text = text.replace(&header, &format!("p cnf {} {}", n * n * n, clauses + 1));
        text.push_str(&format!("{block}0\n"));
        let second = sat(&text, &dir).unwrap();
        assert_eq!(
            ours >= 2,
            second.is_some(),
            "{name}: uniqueness verdicts differ (ours: {ours})"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn export_writes_dimacs() {
    let out = sudokit()
        .args(["export", "--cnf", "diag4"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|l| l.starts_with("p cnf 64 ")), "{text}");
    sudokit()
        .args(["export", "--cnf", "diag4", "lo-shu"])
        .assert()
        .code(2);
}
