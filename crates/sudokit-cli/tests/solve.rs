//! `sudokit solve`.

use std::io::Read;
use std::process::{Command as StdCommand, Stdio};

use predicates::prelude::*;
use serde_json::Value;

use crate::util::{assert_solves, data, data_lines, stdout_lines, sudokit};

const LO_SHU: &str =
    "816.....3357....8.4921.......3816......357......4921.......3816.2....3571.....492";
const LO_SHU_SOLUTION: &str =
    "816579243357624981492138765243816579981357624765492138579243816624981357138765492";

#[test]
fn solves_a_builtin_by_name_and_text_and_stdin() {
    sudokit()
        .args(["solve", "lo-shu"])
        .assert()
        .success()
        .stdout(format!("{LO_SHU_SOLUTION}\n"));
    sudokit()
        .args(["solve", LO_SHU])
        .assert()
        .success()
        .stdout(format!("{LO_SHU_SOLUTION}\n"));
    sudokit()
        .arg("solve")
        .write_stdin(format!("{LO_SHU}\n"))
        .assert()
        .success()
        .stdout(format!("{LO_SHU_SOLUTION}\n"));
}

#[test]
fn one_record_per_puzzle_in_order_with_exit_code_2_for_bad_lines() {
    let bad = LO_SHU.replace("816", "81x");
    let conflict = LO_SHU.replacen('.', "8", 1); // a second 8 in row 1
    let no_solution = &LO_SHU.replace("3571", "3577");
    let input = format!("# header\n{LO_SHU}\n{bad}\n{no_solution}\n\n{conflict}\n{LO_SHU}\n");
    let assert = sudokit()
        .args(["solve", "-"])
        .write_stdin(input)
        .assert()
        .code(2);
    let out = assert.get_output();
    let lines = stdout_lines(out);
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[0], LO_SHU_SOLUTION);
    assert!(
        lines[1].starts_with(&bad) && lines[1].contains("# error: 'x'"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], format!("{no_solution} # no solution"));
    assert!(
        lines[3].contains("# error: r1c1 and r1c4 both hold 8"),
        "{}",
        lines[3]
    );
    assert_eq!(lines[4], LO_SHU_SOLUTION);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("<stdin>:3:3: 'x' is not a digit"),
        "{stderr}"
    );
    assert!(
        stderr.contains("<stdin>:6:4: r1c1 and r1c4 both hold 8"),
        "{stderr}"
    );
}

#[test]
fn exit_code_1_when_a_puzzle_has_no_solution() {
    sudokit()
        .args(["solve", "lo-shu-7"])
        .assert()
        .code(1)
        .stdout(predicate::str::ends_with("# no solution\n"));
    sudokit()
        .args(["solve", "lo-shu", "lo-shu-6"])
        .assert()
        .code(0);
    sudokit()
        .args(["solve", "--unique", "lo-shu", "lo-shu-6"])
        .assert()
        .code(1);
}

#[test]
fn json_records_have_the_documented_keys() {
    let out = sudokit()
        .args([
            "solve", "--format", "json", "--unique", "lo-shu", "lo-shu-6", "lo-shu-7",
        ])
        .write_stdin("")
        .output()
        .unwrap();
    let records: Vec<Value> = stdout_lines(&out)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 3);
    for (i, r) in records.iter().enumerate() {
        for key in [
            "index", "file", "line", "puzzle", "shape", "status", "solution", "error",
        ] {
            assert!(r.get(key).is_some(), "record {i} lacks {key}: {r}");
        }
        assert_eq!(r["index"], i as u64 + 1);
    }
    assert_eq!(records[0]["status"], "solved");
    assert_eq!(records[0]["solution"], LO_SHU_SOLUTION);
    assert_eq!(records[0]["solutions"], 1);
    assert_eq!(records[1]["status"], "multiple");
    assert_eq!(records[2]["status"], "unsolvable");
    assert!(records[2]["solution"].is_null());
    let bad = sudokit()
        .args(["solve", "-f", "json"])
        .write_stdin("12345\n")
        .output()
        .unwrap();
    let r: Value = serde_json::from_str(&stdout_lines(&bad)[0]).unwrap();
    assert_eq!(r["status"], "invalid");
    assert!(r["error"].as_str().unwrap().contains("5 cells"), "{r}");
    assert!(r["puzzle"].is_null());
}

#[test]
fn octave_matrix_input_gives_the_articles_solution() {
    let puzzle = "\
   7   0   0   0   0   0   0   0   0
   0   2   0   0   6   0   0   3   0
   0   0   3   0   0   1   0   0   9
   0   0   0   5   0   0   3   0   0
   0   7   0   0   2   0   0   4   0
   0   0   8   0   0   7   0   0   1
   4   0   0   3   0   0   9   0   0
   0   8   0   0   9   0   0   6   3
   0   0   9   0   0   6   0   0   5
";
    let out = sudokit()
        .args(["solve", "--format", "matrix"])
        .write_stdin(puzzle)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "   7   1   4   9   5   3   6   8   2\n   9   2   5   7   6   8   1   3   4\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("   1   3   9   4   7   6   8   2   5\n"),
        "{text}"
    );
}

#[test]
fn pretty_and_matrix_output_read_back() {
    for format in ["pretty", "matrix"] {
        let out = sudokit()
            .args(["solve", "--format", format, "lo-shu"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        // The header line is a comment; pretty output puts puzzle and solution side by
        // side, so read the solution grid (matrix) or the right half (pretty).
        let grid: String = if format == "matrix" {
            text
        } else {
            text.lines()
                .map(|l| format!("{}\n", l.get(25..).unwrap_or("")))
                .collect()
        };
        let again = sudokit()
            .args(["solve", "-"])
            .write_stdin(grid)
            .output()
            .unwrap();
        assert_eq!(
            stdout_lines(&again),
            vec![LO_SHU_SOLUTION.to_string()],
            "{format}"
        );
    }
}

#[test]
fn letters_and_shapes() {
    let letters: String = LO_SHU
        .bytes()
        .map(|b| {
            if b == b'.' {
                '.'
            } else {
                (b'A' + b - b'1') as char
            }
        })
        .collect();
    let expected: String = LO_SHU_SOLUTION
        .bytes()
        .map(|b| (b'A' + b - b'1') as char)
        .collect();
    sudokit()
        .args(["solve", "--symbols", "ABCDEFGHI", &letters])
        .assert()
        .success()
        .stdout(format!("{expected}\n"));
    // 6x6 with 3x2 boxes instead of the default 2x3.
    let out = sudokit()
        .args(["solve", "--shape", "3x2", "-"])
        .write_stdin("1.....\n".repeat(0) + "123456...........................")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2)); // 33 cells: an error, reported
    sudokit()
        .args([
            "solve",
            "--shape",
            "3x2",
            "12....34....56....21....43....65....",
        ])
        .assert()
        .success();
}

#[test]
fn sixteen_by_sixteen_gecode_puzzles_match_their_solutions() {
    let Some(lines) = data_lines("gecode-large/sudoku16.txt", 55) else {
        return;
    };
    let mut input = String::new();
    let mut expected = Vec::new();
    for l in &lines {
        let fields: Vec<&str> = l.split_whitespace().collect();
        input.push_str(&format!("{} {}\n", fields[0], fields[1]));
        expected.push(fields[2].to_string());
    }
    let out = sudokit()
        .args(["solve", "-"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(stdout_lines(&out), expected);
}

#[test]
fn parallel_output_equals_sequential_output_and_solutions_are_valid() {
    let Some(lines) = data_lines("puzzles3_magictour_top1465", 1465) else {
        return;
    };
    let input = lines.join("\n") + "\n";
    let one = sudokit()
        .args(["solve", "--threads", "1"])
        .write_stdin(input.clone())
        .output()
        .unwrap();
    let four = sudokit()
        .args(["solve", "--threads", "4"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(one.status.success() && four.status.success());
    assert_eq!(one.stdout, four.stdout);
    let out = stdout_lines(&one);
    assert_eq!(out.len(), lines.len());
    for (s, p) in out.iter().zip(&lines) {
        assert_solves(s, p);
    }
}

#[test]
fn comments_and_ids_are_echoed_on_request() {
    let input = format!("00015097c6c3 {LO_SHU}  7.2\n");
    sudokit()
        .args(["solve", "--comments"])
        .write_stdin(input)
        .assert()
        .success()
        .stdout(format!("00015097c6c3 {LO_SHU_SOLUTION} 7.2\n"));
}

#[test]
fn limits_give_timeout_records() {
    let empty25 = ".".repeat(625);
    let out = sudokit()
        .args(["solve", "--node-limit", "1", "-f", "json", &empty25])
        .output()
        .unwrap();
    let r: Value = serde_json::from_str(&stdout_lines(&out)[0]).unwrap();
    assert!(r["status"] == "timeout" || r["status"] == "solved", "{r}");
}

#[test]
fn closed_pipe_ends_quietly() {
    let Some(path) = data("puzzles2_17_clue") else {
        return;
    };
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("sudokit"))
        .args(["solve", path.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 82];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "exit {status:?}, stderr {err}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn summary_on_request() {
    sudokit()
        .args(["solve", "--summary", "lo-shu", "lo-shu-7"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "puzzles: 2  solved: 1  unsolvable: 1  invalid: 0",
        ));
}

#[test]
fn a_25x25_benchmark_puzzle_is_solved_by_clause_learning() {
    // Gecode's 25x25 #20, whose unique solution a SAT solver (picosat) found: plain
    // backtracking does not finish it in seconds; the search hands over to clause
    // learning.
    let (Some(puzzles), Some(solutions)) = (
        data_lines("gecode-large/sudoku25.txt", 100),
        data_lines("gecode-large/sudoku25-solutions.txt", 100),
    ) else {
        return;
    };
    let field = |lines: &[String], id: &str, k: usize| {
        lines
            .iter()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .find(|f| f[0] == id)
            .map(|f| f[k].to_string())
            .unwrap()
    };
    let puzzle = field(&puzzles, "20", 1);
    let expected = field(&solutions, "20", 2);
    let out = sudokit()
        .args(["solve", "--timeout", "120s", &puzzle])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = String::from_utf8_lossy(&out.stdout);
    assert_eq!(got.trim(), expected);
}

/// The 25x25 gecode puzzles as `(id, puzzle, known solution if any)`.
fn gecode25() -> Option<Vec<(String, String, Option<String>)>> {
    let puzzles = data_lines("gecode-large/sudoku25.txt", 100)?;
    let solutions = data_lines("gecode-large/sudoku25-solutions.txt", 100).unwrap_or_default();
    Some(
        puzzles
            .iter()
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                let known = solutions
                    .iter()
                    .map(|s| s.split_whitespace().collect::<Vec<_>>())
                    .find(|s| s[0] == f[0])
                    .map(|s| s[2].to_string());
                (f[0].to_string(), f[1].to_string(), known)
            })
            .collect(),
    )
}

/// Solves the given 25x25 puzzles with `--unique`: each is unique, its solution keeps
/// the rules and the givens, and equals the SAT-checked solution where one is known.
fn gecode25_unique(ids: Option<&[&str]>) {
    let Some(puzzles) = gecode25() else {
        return;
    };
    for (id, puzzle, known) in puzzles {
        if ids.is_some_and(|ids| !ids.contains(&id.as_str())) {
            continue;
        }
        let out = sudokit()
            .args([
                "solve",
                "--unique",
                "-f",
                "json",
                "--timeout",
                "600s",
                &puzzle,
            ])
            .output()
            .unwrap();
        let record: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(record["status"], "solved", "puzzle {id}: {record}");
        assert_eq!(record["solutions"], 1, "puzzle {id}");
        let solution = record["solution"].as_str().unwrap();
        assert_solves(solution, &puzzle);
        if let Some(known) = known {
            assert_eq!(solution, known, "puzzle {id}");
        }
    }
}

#[test]
fn quick_25x25_gecode_puzzles_are_unique_and_solved() {
    // #89 and #90 are #19 with clues added (the search alone finishes them); #20 needs
    // clause learning but little of it.
    gecode25_unique(Some(&["20", "89", "90"]));
}

#[test]
#[ignore = "minutes in the test profile (opt-level 1); the release benchmark is benches/examples/large.rs"]
fn every_25x25_gecode_puzzle_is_unique_and_solved() {
    gecode25_unique(None);
}

#[test]
fn conflicting_givens_are_named_in_the_puzzles_symbols() {
    let puzzle = format!("AA{}", ".".repeat(79));
    for command in ["solve", "check", "explain", "count"] {
        let out = sudokit()
            .args([command, "--symbols", "ABCDEFGHI"])
            .write_stdin(format!("{puzzle}\n"))
            .assert()
            .failure();
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(
            stderr.contains("<stdin>:1:2: r1c1 and r1c2 both hold A"),
            "{command}: {stderr}"
        );
    }
}

#[test]
fn comments_come_back_on_every_line_oriented_command() {
    // `--comments` puts the id before the puzzle and the trailing text after the
    // verdict; it once did nothing on `check` and `count`, and `rate` lost the id.
    let line = format!("ID7 {LO_SHU_TEXT} my note\n");
    for (command, middle) in [
        ("check", " unique needs_guess=false "),
        ("count", " 1 "),
        ("rate", " "),
    ] {
        let out = sudokit()
            .args([command, "--comments"])
            .write_stdin(line.clone())
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.starts_with(&format!("ID7 {LO_SHU_TEXT}{middle}")),
            "{command}: {text}"
        );
        assert!(text.ends_with(" my note\n"), "{command}: {text}");
    }
    let explained = sudokit()
        .args(["explain", "--comments"])
        .write_stdin(line.clone())
        .output()
        .unwrap();
    let text = String::from_utf8(explained.stdout).unwrap();
    assert!(
        text.contains(&format!("\nID7 {LO_SHU_TEXT} my note\n")),
        "{text}"
    );
    let general = sudokit()
        .args(["general", "-f", "line", "--comments"])
        .write_stdin(line)
        .output()
        .unwrap();
    let text = String::from_utf8(general.stdout).unwrap();
    assert!(
        text.starts_with("ID7 8 1 6 ") && text.ends_with(" my note\n"),
        "{text}"
    );
}

const LO_SHU_TEXT: &str =
    "816.....3357....8.4921.......3816......357......4921.......3816.2....3571.....492";

#[test]
fn a_missing_file_is_reported_as_missing() {
    // `nonexistent.txt` has a dot and letters, so it once passed for puzzle text and got
    // "'n' is not a digit of a 15x15 grid".
    sudokit()
        .args(["solve", "nonexistent.txt"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "cannot read nonexistent.txt: no such file",
        ));
}

#[test]
fn built_in_puzzles_read_under_any_alphabet() {
    // Moler's letter display of Lo-Shu (exercise 14.13): the built-in is written in
    // digits, and `--symbols` once made it unreadable.
    let out = sudokit()
        .args(["solve", "--symbols", "ABCDEFGHI", "lo-shu"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let letters = String::from_utf8(out.stdout).unwrap();
    let digits: String = letters
        .trim()
        .chars()
        .map(|c| (b'1' + (c as u8 - b'A')) as char)
        .collect();
    assert_solves(&digits, LO_SHU_TEXT);
}

#[test]
fn an_alphabet_of_the_wrong_length_is_an_error_not_digits() {
    // Three symbols for a 9x9 built-in (or a generated 9x9) once printed digits
    // without a word.
    sudokit()
        .args(["solve", "--symbols", "ABC", "lo-shu"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "has 3 symbols; a side of 9 needs 9",
        ));
    sudokit()
        .args(["generate", "--symbols", "ABC", "--seed", "1"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("--symbols"));
}

#[test]
fn puzzle_text_arguments_may_carry_comments_with_any_characters() {
    // A comment with a slash once made the argument "not a file, ... or puzzle text".
    let line = format!("{LO_SHU_TEXT} lo-shu, from seeds/moler.txt");
    let out = sudokit().args(["solve", &line]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_solves(String::from_utf8(out.stdout).unwrap().trim(), LO_SHU_TEXT);
    let grid = "# Shidoku, n/a\n1 . | . .\n. . | . 1\n----+----\n. 1 | . .\n. . | 1 .";
    sudokit().args(["count", grid]).assert().success();
}
