//! `sudokit transform`, `shuffle`, `canon`, `equiv`, `dedupe`.

use predicates::prelude::*;
use serde_json::Value;

use crate::util::{data, data_lines, stdout_lines, sudokit};

const LO_SHU: &str =
    "816.....3357....8.4921.......3816......357......4921.......3816.2....3571.....492";

fn run_ok(args: &[&str], stdin: &str) -> String {
    let out = sudokit()
        .args(args)
        .write_stdin(stdin.to_string())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// MATLAB's `rot90(X)` written out cell by cell on a one-line 9x9 puzzle.
fn matlab_rot90(line: &str) -> String {
    let b = line.as_bytes();
    (0..81)
        .map(|k| b[(k % 9) * 9 + 8 - k / 9] as char)
        .collect()
}

#[test]
fn transform_applies_moler_operations_in_order() {
    let out = run_ok(&["transform", "--op", "rot90", LO_SHU], "");
    assert_eq!(out.trim(), matlab_rot90(LO_SHU));
    // Four quarter turns, and a list followed by its undoing, give the puzzle back.
    let mut x = LO_SHU.to_string();
    for _ in 0..4 {
        x = run_ok(&["transform", "--op", "rot90", &x], "")
            .trim()
            .to_string();
    }
    assert_eq!(x, LO_SHU);
    let ops = "transpose,rot90,flip-v,flip-h,relabel=912345678,bands=312,stacks=213,rows=1:213,cols=3:132";
    let undo = "cols=3:132,rows=1:213,stacks=213,bands=231,relabel=234567891,flip-h,flip-v,rot270,transpose";
    let there = run_ok(&["transform", "--op", ops, LO_SHU], "");
    let back = run_ok(&["transform", "--op", undo, there.trim()], "");
    assert_eq!(back.trim(), LO_SHU);
}

#[test]
fn transform_rejects_what_a_shape_cannot_do() {
    let six = ".".repeat(36);
    sudokit()
        .args(["transform", "--op", "transpose", "--shape", "2x3", &six])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "<argument>:1:1: --op \"transpose\" on a 6x6 puzzle: transpose needs square boxes",
        ));
    sudokit()
        .args([
            "transform",
            "--op",
            "rot180,bands=321,stacks=21",
            "--shape",
            "2x3",
            &six,
        ])
        .assert()
        .success();
    sudokit()
        .args(["transform", "--op", "twist", LO_SHU])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown operation"));
    // Parameters that do not fit a puzzle's side are the option's fault, named so.
    sudokit()
        .args(["transform", "--op", "bands=12", LO_SHU])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--op \"bands=12\" on a 9x9 puzzle: a band permutation needs 3 items",
        ));
}

#[test]
fn shuffle_is_reproducible_and_stays_in_the_class() {
    let input = format!("{LO_SHU}\n{}\n", ".".repeat(80) + "1");
    let a = run_ok(&["shuffle", "--seed", "42", "-j", "1"], &input);
    let b = run_ok(&["shuffle", "--seed", "42", "-j", "2"], &input);
    let c = run_ok(&["shuffle", "--seed", "43"], &input);
    assert_eq!(a, b);
    assert_ne!(a, c);
    let first = a.lines().next().unwrap();
    assert_ne!(first, LO_SHU);
    sudokit().args(["equiv", LO_SHU, first]).assert().code(0);
    // The reported transformation maps the input onto the output.
    let json = run_ok(&["shuffle", "--seed", "42", "-f", "json", LO_SHU], "");
    let v: Value = serde_json::from_str(json.trim()).unwrap();
    let ops = v["transformation"].as_str().unwrap();
    let mapped = run_ok(&["transform", "--op", ops, LO_SHU], "");
    assert_eq!(mapped.trim(), v["result"].as_str().unwrap());
    assert_eq!(v["result"].as_str().unwrap(), first);
}

#[test]
fn canon_is_the_same_for_every_member_of_a_class() {
    let shuffled = run_ok(
        &["shuffle", "--seed", "1"],
        &format!("{LO_SHU}\n").repeat(5),
    );
    let forms = run_ok(&["canon"], &shuffled);
    let lines: Vec<&str> = forms.lines().collect();
    assert_eq!(lines.len(), 5);
    assert!(lines.iter().all(|l| *l == lines[0]));
    let json = run_ok(&["canon", "-f", "json", LO_SHU], "");
    let v: Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v["canonical"].as_str().unwrap(), lines[0]);
    assert_eq!(v["status"], "ok");
    let mapped = run_ok(
        &[
            "transform",
            "--op",
            v["transformation"].as_str().unwrap(),
            LO_SHU,
        ],
        "",
    );
    assert_eq!(mapped.trim(), lines[0]);
    // The empty grid is fixed by the whole group: 9! * 6^8 * 2 transformations.
    let empty = run_ok(&["canon", "-f", "json", &".".repeat(81)], "");
    let v: Value = serde_json::from_str(empty.trim()).unwrap();
    assert_eq!(v["automorphisms"].as_u64(), Some(362_880 * 1_679_616 * 2));
}

#[test]
fn canon_reports_bad_puzzles_and_keeps_their_line() {
    let conflict = LO_SHU.replacen('.', "8", 1);
    let out = sudokit()
        .arg("canon")
        .write_stdin(format!("{conflict}\n{LO_SHU}\n"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].contains("# error: r1c1 and r1c4 both hold 8"),
        "{}",
        lines[0]
    );
}

#[test]
fn published_minlex_17_clue_puzzles_are_their_own_canonical_form() {
    // The first lines of the 17-clue collection are printed in minlex form.
    let Some(lines) = data_lines("puzzles2_17_clue", 200) else {
        eprintln!("skipped: shared data not found");
        return;
    };
    let input = lines.join("\n") + "\n";
    let out = run_ok(&["canon"], &input);
    assert_eq!(out, input);
}

#[test]
fn equiv_exit_codes_and_mapping() {
    let moved = run_ok(
        &["transform", "--op", "rot270,relabel=987654321", LO_SHU],
        "",
    );
    let moved = moved.trim();
    let json = run_ok(&["equiv", "-f", "json", LO_SHU, moved], "");
    let v: Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v["equivalent"], true);
    let mapped = run_ok(
        &[
            "transform",
            "--op",
            v["transformation"].as_str().unwrap(),
            LO_SHU,
        ],
        "",
    );
    assert_eq!(mapped.trim(), moved);
    sudokit()
        .args(["equiv", "lo-shu", "lo-shu-5"])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("not equivalent"));
    sudokit()
        .args(["equiv", "lo-shu", "diag4"])
        .assert()
        .code(1);
    sudokit()
        .args(["equiv", "lo-shu", &LO_SHU.replace("816", "81x")])
        .assert()
        .code(2);
    // Clashing givens are located like a syntax error (source, line, column).
    sudokit()
        .args(["equiv", "lo-shu", &LO_SHU.replace("816", "818")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "<argument>:1:3: r1c1 and r1c3 both hold 8",
        ));
    // Latin squares of order 11 have no canonical form here, yet a puzzle is its own
    // equivalent and a sudoku is not one of them (both were exit 2, "no canonical form").
    let latin: String = (0..121)
        .map(|k| if k % 12 == 0 { "1 " } else { "0 " })
        .collect();
    let v: Value = serde_json::from_str(
        run_ok(
            &["equiv", "--variant", "latin", "-f", "json", &latin, &latin],
            "",
        )
        .trim(),
    )
    .unwrap();
    assert_eq!(
        (&v["equivalent"], &v["transformation"], &v["canonical_a"]),
        (&Value::Bool(true), &Value::from("identity"), &Value::Null)
    );
    sudokit()
        .args(["equiv", "--variant", "latin", &latin, "lo-shu"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "A is a latin 11 grid, B a latin 9 grid",
        ));
    let other = latin.replacen("1 ", "2 ", 1);
    sudokit()
        .args(["equiv", "--variant", "latin", &latin, &other])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no canonical form for a latin 11 grid",
        ));
}

/// Asserts that `equiv` finds `a` and `b` (puzzles of `variant`) equivalent, that its
/// transformation maps `a` onto `b`, and that `dedupe` keeps one of the two.
fn assert_one_class(variant: &str, a: &str, b: &str) {
    assert_ne!(a, b);
    let json = run_ok(&["equiv", "--variant", variant, "-f", "json", a, b], "");
    let v: Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v["equivalent"], true, "{variant}: {v}");
    let op = v["transformation"].as_str().unwrap();
    let mapped = run_ok(&["transform", "--variant", variant, "--op", op, a], "");
    assert_eq!(mapped.lines().last().unwrap(), b, "{variant}");
    // The command the sentence suggests reads A in its variant (it left `--variant`
    // out, and a Latin square's operations then broke a sudoku's bands).
    let sentence = run_ok(&["equiv", "--variant", variant, a, b], "");
    assert!(
        sentence.contains(&format!("sudokit transform --variant {variant} --op {op}")),
        "{sentence}"
    );
    let kept = run_ok(&["dedupe", "--variant", variant], &format!("{a}\n{b}\n"));
    assert_eq!(
        kept.lines().filter(|l| !l.starts_with('#')).count(),
        1,
        "{variant}: {kept}"
    );
}

#[test]
fn latin_puzzles_are_told_equivalent_through_their_solution() {
    // A generated Latin puzzle, shuffled in its own group (rows, columns, labels,
    // transposition; with diagonals, the maps that keep them): `equiv` says equivalent,
    // and its mapping reproduces the shuffle's output; `dedupe` keeps one of the two.
    for variant in ["latin", "latin,x"] {
        let made = run_ok(
            &[
                "generate",
                "--variant",
                variant,
                "--shape",
                "1x7",
                "--seed",
                "2",
            ],
            "",
        );
        let shuffled = run_ok(&["shuffle", "--seed", "3"], &made);
        assert_one_class(
            variant,
            made.lines().last().unwrap(),
            shuffled.lines().last().unwrap(),
        );
    }
}

#[test]
fn sixteen_by_sixteen_variants_shuffle_within_their_group() {
    // Groups beyond 9x9 are searched, not run through (10^14 maps): a 16x16 X or
    // windoku puzzle shuffles to an equivalent one, which `equiv` maps back and `dedupe`
    // folds; the shuffled puzzle keeps its variant's rules (it still solves).
    for variant in ["x", "windoku"] {
        let solved = run_ok(&["solve", "--variant", variant, &".".repeat(256)], "");
        let solved = solved.split_whitespace().last().unwrap();
        let puzzle: String = solved
            .chars()
            .enumerate()
            .map(|(i, c)| if i % 3 == 0 { c } else { '.' })
            .collect();
        let shuffled = run_ok(
            &["shuffle", "--variant", variant, "--seed", "5", &puzzle],
            "",
        );
        let b = shuffled.lines().last().unwrap();
        run_ok(&["solve", "--variant", variant, b], "");
        assert_one_class(variant, &puzzle, b);
    }
}

#[test]
fn dedupe_keeps_the_first_of_each_class_in_order() {
    let other = run_ok(&["puzzles", "lo-shu-5"], "");
    let other = other.trim();
    let shuffled = run_ok(&["shuffle", "--seed", "9"], &format!("{LO_SHU}\n{other}\n"));
    let s: Vec<&str> = shuffled.lines().collect();
    let input = format!(
        "{}\n{LO_SHU}\nnonsense\n{}\n{other}\n{}\n",
        s[0], s[1], s[0]
    );
    let out = sudokit().arg("dedupe").write_stdin(input).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "one unreadable line");
    assert_eq!(stdout_lines(&out), vec![s[0].to_string(), s[1].to_string()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("<stdin>:3:1:"));
    // Puzzles without a canonical form (Latin squares of order 11) are kept, with a
    // note, and only an identical one is a duplicate (they were all left out, exit 2).
    let a: String = (0..121)
        .map(|k| if k % 12 == 0 { '1' } else { '.' })
        .collect();
    let b = a.replacen('1', "2", 1);
    let out = sudokit()
        .args(["dedupe", "--variant", "latin"])
        .write_stdin(format!("{a}\n{b}\n{a}\n"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout_lines(&out),
        vec!["# variant: latin".to_string(), a.clone(), b]
    );
    let notes = String::from_utf8_lossy(&out.stderr);
    assert!(
        notes.contains("<stdin>:2:1: kept, compared with identical puzzles only"),
        "{notes}"
    );
}

#[test]
fn dedupe_finds_no_duplicates_among_the_17_clue_puzzles() {
    // The collection holds essentially different puzzles only.
    if data("puzzles2_17_clue").is_none() {
        eprintln!("skipped: shared data not found");
        return;
    }
    let lines = data_lines("puzzles2_17_clue", 3000).unwrap();
    let out = sudokit()
        .args(["dedupe", "--summary"])
        .write_stdin(lines.join("\n"))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(stdout_lines(&out), lines);
    assert!(String::from_utf8_lossy(&out.stderr).contains("duplicates: 0"));
}
