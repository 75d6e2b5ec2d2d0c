//! `sudokit count`, `sudokit all`, `sudokit check` and `sudokit general`: the ground
//! truths of the seed documents and of published counts.

use serde_json::Value;

use crate::util::{data_lines, stdout_lines, sudokit};

fn json_records(args: &[&str]) -> (Vec<Value>, i32) {
    let out = sudokit().args(args).output().unwrap();
    let records = stdout_lines(&out)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    (records, out.status.code().unwrap())
}

#[test]
fn counts_of_the_seed_documents() {
    // Moler: kron(eye(3),magic(3)) "has 283576 solutions"; the Lo-Shu puzzle is unique,
    // and with its (9,1) clue 5 unique, 6 two solutions, 7 none (exercise 14.5); the
    // emptied clue leaves four; diag(1:4) has two.
    let (records, code) = json_records(&[
        "count", "-f", "json", "kron", "lo-shu", "lo-shu-5", "lo-shu-6", "lo-shu-7", "lo-shu-0",
        "diag4",
    ]);
    assert_eq!(code, 0);
    let counts: Vec<u64> = records
        .iter()
        .map(|r| r["count"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, vec![283_576, 1, 1, 2, 0, 4, 2]);
    for r in &records {
        assert_eq!(r["complete"], true);
        for key in ["index", "puzzle", "count", "complete"] {
            assert!(r.get(key).is_some(), "{key} missing: {r}");
        }
    }
}

#[test]
fn count_limits_and_line_output() {
    sudokit()
        .args(["count", "--limit", "1000", "kron", "lo-shu-6"])
        .assert()
        .success()
        .stdout(
            "816......357......492.........816......357......492.........816......357......492 1000+\n\
             816.....3357....8.4921.......3816......357......4921.......3816.2....3576.....492 2\n",
        );
    let (records, _) = json_records(&["count", "-f", "json", "--limit", "10", "kron"]);
    assert_eq!(
        (records[0]["count"].as_u64(), &records[0]["complete"]),
        (Some(10), &Value::Bool(false))
    );
    // A limit met exactly is a complete count (Moler: lo-shu-6 has two solutions, the
    // emptied clue four; kron 283,576), one solution fewer a cut; with a seed engine too.
    for engine in ["fast", "moler"] {
        sudokit()
            .args(["count", "--engine", engine, "--limit", "2", "lo-shu-6", "lo-shu-0"])
            .assert()
            .success()
            .stdout(
                "816.....3357....8.4921.......3816......357......4921.......3816.2....3576.....492 2\n\
                 816.....3357....8.4921.......3816......357......4921.......3816.2....357......492 2+\n",
            );
    }
    let (records, _) = json_records(&["count", "-f", "json", "--limit", "283576", "kron"]);
    assert_eq!(
        (records[0]["count"].as_u64(), &records[0]["complete"]),
        (Some(283_576), &Value::Bool(true))
    );
    // The 288 Shidoku grids (published count).
    sudokit()
        .args(["count", "--shape", "2x2", "................"])
        .assert()
        .success()
        .stdout("................ 288\n");
    // Every 9x9 grid (Felgenhauer and Jarvis, quoted by the Octave article): above 2^64,
    // an exact JSON integer; under a limit a cut; under a too short timeout a bound.
    let empty = ".".repeat(81);
    let out = sudokit()
        .args(["count", "-f", "json", &empty])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let line = String::from_utf8_lossy(&out.stdout);
    assert!(
        line.contains(r#""count":6670903752021072936960,"complete":true"#),
        "{line}"
    );
    sudokit()
        .args(["count", "--limit", "5", &empty])
        .assert()
        .success()
        .stdout(format!("{empty} 5+\n"));
    sudokit()
        .args(["count", "--timeout", "0.001", &empty])
        .assert()
        .code(1)
        .stdout(format!("{empty} 0+ # timeout\n"));
    // Conflicting givens: an error naming the pair, exit code 2.
    let conflict =
        "88......3357....8.4921.......3816......357......4921.......3816.2....3571.....492";
    let out = sudokit().args(["count", conflict]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("r1c1 and r1c2 both hold 8"));
}

#[test]
fn essentially_different_grids_are_counted_for_empty_grids() {
    // kjellfp's table (enjoysudoku forum): 4x4, 2 with transposing, 3 without; 6x6, 49.
    let four = ".".repeat(16);
    let six = ".".repeat(36);
    sudokit()
        .args(["count", "--essentially-different", &four, &six])
        .assert()
        .success()
        .stdout(format!("{four} 2\n{six} 49\n"));
    let (records, code) = json_records(&[
        "count",
        "-f",
        "json",
        "--essentially-different",
        "--no-transposing",
        &four,
    ]);
    assert_eq!(code, 0);
    assert_eq!(records[0]["count"], 3);
    assert_eq!(records[0]["complete"], true);
    // With --stats, Burnside's terms: 288 grids, 2*8*8 symmetries in 20 conjugacy
    // classes (see the library's test), and class sizes times invariants averaging to 2.
    let out = sudokit()
        .args(["count", "--essentially-different", "--stats", &four])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(&format!(
            "{four} 2 # grids 288, symmetries 128 (with transposing), conjugacy classes 20, "
        )),
        "{text}"
    );
    let (records, _) = json_records(&[
        "count",
        "-f",
        "json",
        "--essentially-different",
        "--stats",
        &four,
    ]);
    let burnside = &records[0]["burnside"];
    assert_eq!(burnside["grids"], 288);
    let total: u64 = burnside["invariants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| pair[0].as_u64().unwrap() * pair[1].as_u64().unwrap())
        .sum();
    assert_eq!(total, 2 * 128);
    // Latin squares of order 6 up to isotopy: 22 (OEIS A040082).
    sudokit()
        .args(["count", "--essentially-different", "--no-transposing"])
        .args(["--variant", "latin", "--shape", "1x6", &six])
        .assert()
        .success()
        .stdout(format!("{six} 22\n"));
    // And up to paratopy, their main classes: 12 (OEIS A003090); only Latin squares
    // have them.
    sudokit()
        .args(["count", "--essentially-different", "--main-classes"])
        .args(["--variant", "latin", "--shape", "1x6", &six])
        .assert()
        .success()
        .stdout(format!("{six} 12\n"));
    let out = sudokit()
        .args(["count", "--essentially-different", "--main-classes", &four])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("main classes are counted for Latin"));
    // Givens, variants and shapes beyond the band method are errors naming the line; the
    // other puzzles are still counted.
    let given = format!("1{}", ".".repeat(15));
    let ten = ".".repeat(100);
    let out = sudokit()
        .args(["count", "--essentially-different", &given, &ten, &four])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.ends_with(&format!("{four} 2\n")), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("<argument>:1:1: --essentially-different counts the grids of an empty"),
        "{stderr}"
    );
    assert!(stderr.contains("not 2x5"), "{stderr}");
    let out = sudokit()
        .args([
            "count",
            "--essentially-different",
            "--variant",
            "x",
            &".".repeat(81),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // A limit makes no sense for a number of classes; a timeout gives up (exit 1).
    sudokit()
        .args(["count", "--essentially-different", "--limit", "5", &four])
        .assert()
        .code(2);
    sudokit()
        .args([
            "count",
            "--essentially-different",
            "--timeout",
            "0.001",
            &".".repeat(81),
        ])
        .assert()
        .code(1)
        .stdout(format!("{} 0+ # timeout\n", ".".repeat(81)));
}

#[test]
fn seed_engines_count_too() {
    // The Octave article: "Trial calls and recursion depth: 435 15", one solution.
    let (records, _) = json_records(&[
        "count", "-f", "json", "--engine", "octave", "--stats", "octave",
    ]);
    let r = &records[0];
    assert_eq!(r["count"], 1);
    assert_eq!(r["stats"]["calls"], 435);
    assert_eq!(r["stats"]["max_depth"], 15);
    assert_eq!(r["stats"]["first_solution_call"], 46);
    assert_eq!(r["stats"]["first_solution_depth"], 8);
    for engine in ["moler", "fallin", "kronecker", "gubin"] {
        let (records, _) = json_records(&[
            "count", "-f", "json", "--engine", engine, "lo-shu-0", "lo-shu-6",
        ]);
        let counts: Vec<u64> = records
            .iter()
            .map(|r| r["count"].as_u64().unwrap())
            .collect();
        assert_eq!(counts, vec![4, 2], "{engine}");
    }
}

#[test]
fn solve_with_moler_takes_50_steps_and_traces_the_figure() {
    sudokit()
        .args(["solve", "--engine", "moler", "--stats", "lo-shu"])
        .assert()
        .success()
        .stdout(predicates::str::contains("# steps 50,"));
    let out = sudokit()
        .args(["solve", "--engine", "moler", "--trace", "lo-shu"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let work: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("# step") && !l.ends_with("given"))
        .collect();
    assert!(work[0].ends_with("r3c9=5 singleton"), "{}", work[0]);
    assert!(work[6].ends_with("r6c1=6 guess"), "{}", work[6]);
    assert!(work.iter().any(|l| l.ends_with("r6c2 dead end")));
    assert!(text.lines().last().unwrap().starts_with("816579243"));
    // --pick belongs to moler; --trace to the seed engines.
    sudokit()
        .args([
            "solve", "--engine", "octave", "--pick", "last-min", "lo-shu",
        ])
        .assert()
        .code(2);
    sudokit()
        .args(["solve", "--trace", "lo-shu"])
        .assert()
        .code(2);
    // Gubin's engine is 9x9 only.
    sudokit()
        .args(["solve", "--engine", "gubin", "diag4"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("9x9"));
}

#[test]
fn all_prints_every_solution() {
    // diag(1:4): two solutions, transposes of each other.
    let out = sudokit().args(["all", "diag4"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 2);
    let t = |s: &str| -> String {
        let b = s.as_bytes();
        (0..16).map(|i| b[(i % 4) * 4 + i / 4] as char).collect()
    };
    assert_eq!(lines[1], t(&lines[0]));
    // No solution: exit code 1; a limit.
    sudokit()
        .args(["all", "lo-shu-7"])
        .assert()
        .code(1)
        .stdout("");
    let out = sudokit()
        .args(["all", "--limit", "5", "kron"])
        .output()
        .unwrap();
    assert_eq!(stdout_lines(&out).len(), 5);
    // A limit met exactly is complete (diag4 has two), one below it a cut.
    for (limit, lines, complete) in [("2", 3, true), ("1", 2, false)] {
        let (records, _) = json_records(&["all", "-f", "json", "--limit", limit, "diag4"]);
        assert_eq!(records.len(), lines, "--limit {limit}");
        assert_eq!(records[lines - 1]["complete"], complete, "--limit {limit}");
    }
    // Exercise 14.10: steps per solution and their mean.
    let out = sudokit()
        .args(["all", "--engine", "moler", "--stats", "lo-shu-0"])
        .output()
        .unwrap();
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 5);
    assert!(lines[..4].iter().all(|l| l.contains(" # steps ")));
    assert!(lines[4].contains("4 solutions, mean steps"), "{}", lines[4]);
    let (records, _) = json_records(&[
        "all", "-f", "json", "--engine", "moler", "--stats", "lo-shu-0",
    ]);
    assert_eq!(records.len(), 5);
    let steps: Vec<u64> = records[..4]
        .iter()
        .map(|r| r["stats"]["steps"].as_u64().unwrap())
        .collect();
    let mean = records[4]["mean_steps"].as_f64().unwrap();
    assert!((mean - steps.iter().sum::<u64>() as f64 / 4.0).abs() < 1e-9);
    assert_eq!(records[4]["count"], 4);
}

#[test]
fn check_verdicts_and_exit_codes() {
    let (records, code) = json_records(&[
        "check",
        "-f",
        "json",
        "--minimal",
        "lo-shu",
        "lo-shu-6",
        "lo-shu-7",
        "shidoku",
    ]);
    assert_eq!(code, 1);
    let verdicts: Vec<&str> = records
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["unique", "multiple", "none", "unique"]);
    assert_eq!(records[3]["minimal"], true);
    assert_eq!(records[3]["needs_guess"], false);
    sudokit()
        .args(["check", "lo-shu", "shidoku"])
        .assert()
        .code(0);
    let conflict =
        "88......3357....8.4921.......3816......357......4921.......3816.2....3571.....492";
    let (records, code) = json_records(&["check", "-f", "json", conflict]);
    assert_eq!(code, 2);
    assert_eq!(records[0]["verdict"], "invalid");
    assert_eq!(records[0]["error"], "r1c1 and r1c2 both hold 8");
}

#[test]
fn check_on_the_data_sets() {
    // All 17-clue puzzles are uniquely solvable; all of Serg's benchmark puzzles have two
    // or more solutions (the data README).
    for (set, verdict, code) in [
        ("puzzles2_17_clue", "unique", 0),
        ("puzzles7_serg_benchmark", "multiple", 1),
    ] {
        let Some(lines) = data_lines(set, 300) else {
            return;
        };
        let out = sudokit()
            .arg("check")
            .write_stdin(lines.join("\n"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{set}");
        for l in stdout_lines(&out) {
            assert_eq!(l.split(' ').nth(1), Some(verdict), "{set}: {l}");
        }
    }
}

#[test]
fn general_solution_of_diag4_and_lo_shu_variants() {
    let (records, code) = json_records(&["general", "-f", "json", "diag4", "lo-shu-7"]);
    assert_eq!(code, 1);
    let general: Vec<&str> = records[0]["general"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    // The two solutions (Y and its transpose, printed in the chapter) take exactly the
    // candidates of figure 14.9 ("no singletons").
    assert_eq!(
        general,
        [
            "1", "34", "24", "23", "34", "2", "14", "13", "24", "14", "3", "12", "23", "13", "12",
            "4"
        ]
    );
    assert_eq!(records[0]["fixed"].as_array().unwrap().len(), 0);
    assert!(records[1]["general"].is_null());
    // Gubin: the same union, and what depletion left before the exact test.
    let (records, _) = json_records(&["general", "-f", "json", "--engine", "gubin", "lo-shu-6"]);
    let (fast, _) = json_records(&["general", "-f", "json", "lo-shu-6"]);
    assert_eq!(records[0]["general"], fast[0]["general"]);
    assert_eq!(records[0]["outcome"], "uncertain");
    assert!(records[0]["depleted"].is_array());
}

#[test]
fn a_general_solution_cut_short_fixes_nothing() {
    // kron has 283,576 solutions (the Kronecker seed) and no empty cell the same in all;
    // cut short after 20 nodes, the one solution seen fixed all 54 of them.
    let (records, code) = json_records(&["general", "-f", "json", "--node-limit", "20", "kron"]);
    assert_eq!(code, 1);
    assert_eq!(records[0]["complete"], false);
    assert!(records[0]["fixed"].is_null(), "{}", records[0]);
    let out = sudokit()
        .args(["general", "--node-limit", "20", "kron"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.contains("fixed\n") && text.contains("fixed: unknown"),
        "{text}"
    );
    let (records, _) = json_records(&["general", "-f", "json", "kron"]);
    assert_eq!(records[0]["fixed"].as_array().unwrap().len(), 0);
    // Cut short before its first solution, a Shidoku with one given (72 solutions) is
    // not "no solution" (found by QA).
    for (format, says) in [
        (
            "pretty",
            "no solution found before a limit stopped the search",
        ),
        ("line", "1............... # timeout"),
    ] {
        sudokit()
            .args([
                "general",
                "-f",
                format,
                "--node-limit",
                "3",
                "1...............",
            ])
            .assert()
            .code(1)
            .stdout(predicates::str::contains(says));
    }
}
