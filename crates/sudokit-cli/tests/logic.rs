//! `sudokit explain`, `hint`, `rate`, and the logic engine's soundness and rating
//! agreement on samples of the data sets (whole sets: ignored tests).
//!
//! Soundness: every step of every path is checked against the puzzle's solution (the
//! library's paths check themselves in debug builds, which tests are; the tests check
//! again explicitly). Agreement: the sudoku-exchange ratings were given by Sukaku
//! Explainer, an independent program.

use predicates::prelude::*;
use serde_json::Value;
use sudokit::format::parse_grid;
use sudokit::logic::{self, State, check_step, se};
use sudokit::solve::{Verdict, solve_unique};

use crate::util::{data, sudokit};

/// A 6.4 puzzle from the sudoku-exchange collection (Sukaku Explainer's ER).
const DIABOLICAL: &str =
    "000000000040807050002034600098375020001206500050149360004790100070403090000000000";

/// Its solution, Moler's figure 14.3.
const LO_SHU_SOLUTION: &str =
    "816579243357624981492138765243816579981357624765492138579243816624981357138765492";

fn json_lines(output: &std::process::Output) -> Vec<Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

/// `sudokit explain -f json` on one puzzle: its record.
fn explain_json(puzzle: &str) -> Value {
    let out = sudokit()
        .args(["explain", "-f", "json", puzzle])
        .output()
        .unwrap();
    json_lines(&out).swap_remove(0)
}

/// The steps of an `explain` record whose technique name passes `keep`.
fn steps_where(r: &Value, keep: impl Fn(&str) -> bool) -> Vec<&Value> {
    r["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter(|s| keep(s["technique"].as_str().unwrap_or("")))
        .collect()
}

#[test]
fn explain_lists_every_step_and_solves() {
    let out = sudokit()
        .args(["explain", DIABOLICAL])
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("# 1 <argument>:1 solved"));
    assert!(text.contains("  1. Full House: b5 => r5c5=8"));
    assert!(text.contains("X-Wing: 1 r2,r8 c1,c5 => r1c5,r9c1,r9c5<>1"));
}

#[test]
fn explain_verbose_shows_pencil_marks_and_sentences() {
    sudokit()
        .args(["explain", "--verbose", DIABOLICAL])
        .assert()
        .success()
        .stdout(predicate::str::contains("--------------------+"))
        .stdout(predicate::str::contains("is the last empty cell of box 5"));
}

#[test]
fn explain_json_steps_have_the_contract_keys() {
    let out = sudokit()
        .args(["explain", "-f", "json", DIABOLICAL])
        .assert()
        .success()
        .get_output()
        .clone();
    let records = json_lines(&out);
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r["status"], "solved");
    let steps = r["steps"].as_array().expect("steps");
    assert!(!steps.is_empty());
    for step in steps {
        for key in [
            "technique",
            "placements",
            "eliminations",
            "digits",
            "cells",
            "houses",
            "text",
        ] {
            assert!(step.get(key).is_some(), "missing {key}: {step}");
        }
        let t = step["technique"].as_str().expect("name");
        assert!(logic::Technique::from_name(t).is_some(), "{t}");
    }
    assert_eq!(steps[0]["placements"][0], "r5c5=8");
    let xwing = steps
        .iter()
        .find(|s| s["technique"] == "x-wing")
        .expect("x-wing");
    assert_eq!(xwing["eliminations"][0], "r1c5<>1");
}

#[test]
fn hint_of_a_puzzle_and_of_its_pencil_marks() {
    sudokit()
        .args(["hint", DIABOLICAL])
        .assert()
        .success()
        .stdout("Full House: b5 => r5c5=8\nr5c5 is the last empty cell of box 5, so r5c5 is 8.\n");
    // The same state as a pencil-mark grid (as `explain --verbose` prints it).
    let grid = parse_grid(DIABOLICAL).unwrap();
    let pm = sudokit::format::to_pencilmarks(
        State::from_grid(&grid).candidates(),
        &sudokit::Symbols::standard(9),
    );
    sudokit()
        .args(["hint", &pm])
        .assert()
        .success()
        .stdout(predicate::str::contains("r5c5=8"));
    // Several sources are answered in input order and numbered across the run (the
    // pencil-mark grids came first, each as index 1), every JSON record with one set
    // of keys (refusals had `steps` and no `step`).
    let out = sudokit()
        .args(["hint", "-f", "json", "lo-shu-6", &pm, "lo-shu"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let records = json_lines(&out);
    let files: Vec<&str> = records
        .iter()
        .map(|r| r["file"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["lo-shu-6", "<argument>", "lo-shu"]);
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r["index"], i as u64 + 1, "{r}");
        for key in ["line", "puzzle", "status", "step", "error"] {
            assert!(r.get(key).is_some(), "{key} missing: {r}");
        }
    }
    assert_eq!(records[0]["status"], "multiple");
    assert!(records[0]["step"].is_null());
    assert!(
        records[1]["step"]["placements"].is_array(),
        "{}",
        records[1]
    );
}

#[test]
fn explain_takes_up_from_pencil_marks() {
    // The diabolical puzzle after its first ten steps, written as pencil marks: explain
    // finishes it from there, every placement and elimination right by the solution.
    let grid = parse_grid(DIABOLICAL).unwrap();
    let Verdict::Unique(solution) = solve_unique(&grid) else {
        panic!("unique")
    };
    let mut state = State::from_grid(&grid);
    for step in logic::explain(&state).steps.iter().take(10) {
        state.apply(step);
    }
    let symbols = sudokit::Symbols::standard(9);
    let pm = sudokit::format::to_pencilmarks(state.candidates(), &symbols);
    let out = sudokit()
        .args(["explain", "-f", "json", &pm])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let record = json_lines(&out).swap_remove(0);
    assert_eq!(record["status"], "solved", "{record}");
    assert!(record["puzzle"].is_null());
    let g = grid.geometry();
    let digit_at = |name: &str| {
        let c = (0..81).find(|&c| g.cell_name(c) == name).expect("a cell");
        solution.get(c)
    };
    let mut placed: Vec<String> = (0..81)
        .filter(|&c| state.candidates().get(c).len() == 1)
        .map(|c| g.cell_name(c))
        .collect();
    for step in steps_where(&record, |_| true) {
        for p in step["placements"].as_array().unwrap() {
            let (cell, d) = p.as_str().unwrap().split_once('=').unwrap();
            assert_eq!(digit_at(cell).to_string(), d, "{step}");
            placed.push(cell.to_string());
        }
        for e in step["eliminations"].as_array().unwrap() {
            let (cell, d) = e.as_str().unwrap().split_once("<>").unwrap();
            assert_ne!(digit_at(cell).to_string(), d, "{step}");
        }
    }
    placed.sort();
    placed.dedup();
    assert_eq!(placed.len(), 81);
    // From standard input too, numbered with the puzzles around it; marks that lost
    // the solution are refused (exit 1) and the others still explained.
    let mut broken = state.clone();
    let c = (0..81)
        .find(|&c| state.candidates().get(c).len() > 1)
        .unwrap();
    broken.eliminate(c, solution.get(c));
    let broken = sudokit::format::to_pencilmarks(broken.candidates(), &symbols);
    let out = sudokit()
        .args(["explain", "lo-shu", "-", &broken])
        .write_stdin(pm.clone())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let heads: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("# "))
        .map(|l| l.split(" (").next().unwrap().to_string())
        .collect();
    assert_eq!(
        heads,
        [
            "# 1 lo-shu:1 solved",
            "# 2 <stdin>:1 solved",
            "# 3 <argument>:1 unsolvable: the pencil marks leave no solution: a wrong \
             placement or elimination",
        ]
    );
    // `--puzzle` as with hint: its givens are placed, not singles still to take.
    let own = sudokit().args(["explain", DIABOLICAL]).output().unwrap();
    let own = String::from_utf8(own.stdout).unwrap();
    let start = sudokit::format::to_pencilmarks(State::from_grid(&grid).candidates(), &symbols);
    let out = sudokit()
        .args(["explain", "--puzzle", DIABOLICAL, &start])
        .output()
        .unwrap();
    let steps = |text: &str| text.lines().skip(2).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(steps(&String::from_utf8(out.stdout).unwrap()), steps(&own));
}

#[test]
fn hint_on_loose_pencil_marks_places_the_givens_of_the_puzzle_named() {
    // Lo-Shu's givens, every empty cell marked 1-9: alone, the grid cannot tell r1c1's
    // given 8 from a naked single still to place; with `--puzzle` the hint is the
    // puzzle's own first step.
    let lo_shu = sudokit::puzzles::builtin("lo-shu").unwrap().grid();
    let pm: String = (0..9)
        .map(|r| {
            (0..9)
                .map(|c| match lo_shu.get(r * 9 + c) {
                    0 => "123456789".to_string(),
                    d => d.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    let alone = sudokit().args(["hint", &pm]).output().unwrap();
    assert!(
        String::from_utf8_lossy(&alone.stdout).contains("Naked Single => r1c1=8"),
        "{alone:?}"
    );
    let own = sudokit().args(["hint", "lo-shu"]).output().unwrap();
    sudokit()
        .args(["hint", "--puzzle", "lo-shu", &pm])
        .assert()
        .success()
        .stdout(String::from_utf8(own.stdout).unwrap());
    // JSON names the puzzle.
    let out = sudokit()
        .args(["hint", "-f", "json", "--puzzle", "lo-shu", &pm])
        .output()
        .unwrap();
    let puzzle: String = lo_shu
        .cells()
        .iter()
        .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
        .collect();
    assert_eq!(json_lines(&out)[0]["puzzle"], puzzle);
    // Pencil marks of another grid, or a puzzle where pencil marks belong: refused.
    sudokit()
        .args(["hint", "--puzzle", "shidoku", &pm])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("do not fit the grid of --puzzle"));
    sudokit()
        .args(["hint", "--puzzle", "lo-shu", "lo-shu"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "lo-shu does not read as a pencil-mark grid",
        ));
    // Marks that leave out a given's digit were not made on that puzzle (found by QA).
    sudokit()
        .args([
            "hint",
            "--puzzle",
            "shidoku",
            "2 1234 1234 1234 1234 1234 3 1234 1234 2 1234 1234 1234 1234 1234 4",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "r1c1 is given 1 in --puzzle, but its pencil marks leave it out",
        ));
}

#[test]
fn hint_reads_one_line_puzzles_whose_dots_split_them_into_a_square_number_of_groups() {
    // top1465 #2: its digits fall into 49 runs between dots, and `hint` once took it for
    // a 7x7 pencil-mark grid; a file of three such puzzles fared no better.
    let p = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........";
    let explained = sudokit().args(["explain", p]).output().unwrap();
    let first = String::from_utf8(explained.stdout).unwrap();
    // The hint is explain's first step.
    let step = first
        .lines()
        .find_map(|l| l.trim().strip_prefix("1. "))
        .unwrap();
    sudokit()
        .args(["hint", p])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(format!("{step}\n")));
    sudokit()
        .arg("hint")
        .write_stdin(format!("{p}\n{p}\n{p}\n"))
        .assert()
        .success()
        .stdout(predicate::str::contains("Hidden Single").count(3));
}

#[test]
fn hint_and_explain_speak_the_puzzles_symbols() {
    // Moler's letters display: the same puzzle written with A-I for 1-9 gets the same
    // steps, with its digits written as letters in the text people read.
    let letters: String = DIABOLICAL
        .chars()
        .map(|c| match c {
            '1'..='9' => (b'A' + (c as u8 - b'1')) as char,
            _ => '.',
        })
        .collect();
    sudokit()
        .args(["hint", "--symbols", "ABCDEFGHI", &letters])
        .assert()
        .success()
        .stdout("Full House: b5 => r5c5=H\nr5c5 is the last empty cell of box 5, so r5c5 is H.\n");
    // Its JSON record echoes the puzzle as written, as explain's does (it was in digits).
    for command in ["hint", "explain"] {
        let out = sudokit()
            .args([command, "-f", "json", "--symbols", "ABCDEFGHI", &letters])
            .output()
            .unwrap();
        let first = String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap()
            .to_string();
        let v: serde_json::Value = serde_json::from_str(&first).unwrap();
        assert_eq!(v["puzzle"], letters.as_str(), "{command}");
    }
    let digits = sudokit().args(["explain", DIABOLICAL]).output().unwrap();
    let lettered = sudokit()
        .args(["explain", "--symbols", "ABCDEFGHI", &letters])
        .output()
        .unwrap();
    let steps = |o: &std::process::Output| -> Vec<String> {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter(|l| {
                l.trim_start()
                    .split_once(". ")
                    .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
            })
            .map(|l| l.to_string())
            .collect()
    };
    let (digits, lettered) = (steps(&digits), steps(&lettered));
    assert!(digits.len() > 10);
    assert_eq!(digits.len(), lettered.len());
    // Character by character: equal (cell names keep their numbers), or a digit 1-9
    // written as its letter.
    let mut changed = 0;
    for (d, l) in digits.iter().zip(&lettered) {
        assert_eq!(d.len(), l.len(), "{d}\n{l}");
        for (a, b) in d.bytes().zip(l.bytes()) {
            if a != b {
                assert!(
                    a.is_ascii_digit() && a != b'0' && b == a - b'1' + b'A',
                    "{d}\n{l}"
                );
                changed += 1;
            }
        }
    }
    assert!(changed > 0);
}

#[test]
fn hint_reads_a_729_character_line() {
    let grid = parse_grid(DIABOLICAL).unwrap();
    let state = State::from_grid(&grid);
    let line: String = (0..81)
        .flat_map(|c| {
            let set = state.candidates().get(c);
            (1..=9u8).map(move |d| {
                if set.contains(d) {
                    (b'0' + d) as char
                } else {
                    '.'
                }
            })
        })
        .collect();
    assert_eq!(line.len(), 729);
    let out = sudokit()
        .args(["hint", "-f", "json", &line])
        .assert()
        .success()
        .get_output()
        .clone();
    let r = &json_lines(&out)[0];
    assert_eq!(r["step"]["technique"], "full-house");
}

/// A state of an X-sudoku (pencil marks), from a QA session's random mid-solve states.
const X_STATE: &str = "\
156789  135789 136789 | 12568 12567 4    | 13689 2689  12689  
1345678 14578  134678 | 12568 12567 9    | 1368  2468  123468 
14689   2      14689  | 3     16    168  | 5     7     14689  
----------------------------------------
13489   6      123489 | 1458  15    128  | 7     2589  2589   
4789    4789   5      | 4678  3     268  | 689   1     2689   
178     178    1278   | 1678  9     1568 | 4     3     2568   
----------------------------------------
1356789 135789 16789  | 1569  4     1356 | 2     5689  1356789
2       1479   134679 | 1569  8     1356 | 1369  4569  1345679
14689   134589 134689 | 12569 1256  7    | 13689 45689 145689 
";

/// Two cells of row 3 hold only 3 (the user placed it twice).
const CONFLICT_STATE: &str = "\
7     16   4      | 59    3569  356   | 3589   1368   2     
569   26   2569   | 8     2369  1     | 3479   3467   34679 
3     126  8      | 24579 2569  24567 | 579    167    3     
----------------------------------------
489   5    79     | 6     2389  2378  | 1      23478  34789 
2     367  1679   | 1579  4     3578  | 3789   3678   36789 
14689 3467 1679   | 1279  12389 2378  | 234789 5      346789
----------------------------------------
1456  246  1256   | 3     7     9     | 2458   1248   1458  
145   9    12357  | 1245  1258  2458  | 6      123478 134578
1456  8    123567 | 1245  1256  2456  | 23457  9      13457 
";

#[test]
fn hint_reads_pencil_marks_in_the_variant_and_checks_them() {
    // The variant applies to pencil marks as to puzzles: once read as a standard
    // sudoku, this state got a brute-force step that was wrong for the X-sudoku.
    sudokit()
        .args(["hint", "--variant", "x", X_STATE])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "Locked Candidates (Claiming): 7 in d1 => r1c2,r1c3,r2c1,r2c3<>7\n",
        ));
    // Pencil marks that lost the solution, or allow several: no step, said so.
    sudokit()
        .args(["hint", CONFLICT_STATE])
        .assert()
        .code(1)
        .stdout("no step: the pencil marks leave no solution: a wrong placement or elimination\n");
    let every: String = (0..81).map(|_| "123456789 ").collect();
    sudokit()
        .args(["hint", &every])
        .assert()
        .code(1)
        .stdout("no step: the pencil marks allow more than one solution\n");
    // A solved grid is solved, not a timeout.
    let out = sudokit()
        .args(["hint", "-f", "json", LO_SHU_SOLUTION])
        .assert()
        .success()
        .get_output()
        .clone();
    assert_eq!(json_lines(&out)[0]["status"], "solved");
}

#[test]
fn hint_reports_a_bad_pencil_mark_grid_with_line_and_column() {
    let mut bad = String::new();
    for r in 0..9 {
        let row: Vec<&str> = (0..9)
            .map(|c| if r == 2 && c == 4 { "1x3" } else { "12" })
            .collect();
        bad.push_str(&row.join(" "));
        bad.push('\n');
    }
    sudokit()
        .args(["hint", &bad])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("<argument>:3:14:"));
}

#[test]
fn rate_prints_se_ratings_and_hodoku_level() {
    sudokit()
        .args(["rate", DIABOLICAL])
        .assert()
        .success()
        // HoDoKu's level and score (hodoku-py 0.2.1: unfair, 1426 points, in 58 steps:
        // a naked pair, pointing, an X-wing, a kite, two Sue de Coqs, a hidden
        // rectangle, a W-wing and singles; ours takes the same steps).
        .stdout(predicate::str::contains(" 6.4/1.0/1.0 unfair 1426"));
    let out = sudokit()
        .args(["rate", "-f", "json", DIABOLICAL, "lo-shu"])
        .assert()
        .success()
        .get_output()
        .clone();
    let records = json_lines(&out);
    assert_eq!(records.len(), 2);
    for key in ["er", "ep", "ed", "level", "score", "techniques"] {
        assert!(records[0].get(key).is_some(), "missing {key}");
    }
    assert_eq!(records[0]["er"], 6.4);
    assert_eq!(records[1]["level"], "easy");
    // hodoku-py 0.2.1 on lo-shu: easy, 314 points, from 18 full houses, 15 naked
    // singles and 13 hidden singles, in the order its queues give them.
    assert_eq!(records[1]["score"], 314);
    let count = |t: &str| {
        records[1]["techniques"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["technique"] == t)
            .map(|x| x["count"].clone())
    };
    assert_eq!(count("full-house"), Some(18.into()));
    assert_eq!(count("naked-single"), Some(15.into()));
    assert_eq!(count("hidden-single"), Some(13.into()));
}

#[test]
fn the_path_takes_singles_in_hodokus_order() {
    // hodoku-py 0.2.1 on the diabolical example starts with a full house at r5c5, then
    // naked singles at r6c3, r4c7, r5c2, r6c1 and a full house at r6c9 (its queues'
    // order; a scan by cell would take r4c7 before r6c3).
    let r = &explain_json(DIABOLICAL);
    let first: Vec<(&str, &str)> = r["steps"].as_array().unwrap()[..6]
        .iter()
        .map(|s| {
            (
                s["technique"].as_str().unwrap(),
                s["placements"][0].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        first,
        [
            ("full-house", "r5c5=8"),
            ("naked-single", "r6c3=7"),
            ("naked-single", "r4c7=4"),
            ("naked-single", "r5c2=3"),
            ("naked-single", "r6c1=2"),
            ("full-house", "r6c9=8"),
        ]
    );
}

#[test]
fn rate_gives_up_at_the_timeout_and_says_so() {
    // top1465 #77, which Sudoku Explainer rates 9.8 (../shared/REFERENCE.md) after
    // 25 s: far more than a millisecond for us too.
    let Some(lines) = crate::util::data_lines("puzzles3_magictour_top1465", 77) else {
        return;
    };
    let puzzle = &lines[76][..81];
    let out = sudokit()
        .args(["rate", "-f", "json", "--timeout", "1ms", puzzle])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let record = &json_lines(&out)[0];
    assert_eq!(record["status"], "timeout");
    assert!(record["er"].is_null());
    let out = sudokit()
        .args(["rate", "-f", "json", puzzle])
        .output()
        .unwrap();
    assert_eq!(json_lines(&out)[0]["er"], 9.8);
}

#[test]
fn rate_refuses_puzzles_without_a_unique_solution() {
    // lo-shu-6 has two solutions (see the solve tests).
    sudokit()
        .args(["rate", "lo-shu-6"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("# multiple"))
        .stderr(predicate::str::contains("several solutions"));
}

// ------------------------------------------------------------------ data sets

/// Puzzles of a data file: every `step`-th non-comment line, at most `limit`.
fn sample(name: &str, step: usize, limit: usize) -> Option<Vec<(String, Option<u16>)>> {
    let text = std::fs::read_to_string(data(name)?).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .step_by(step)
            .take(limit)
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                if f.len() >= 3 {
                    let r: f64 = f[2].parse().expect("rating");
                    (f[1].to_string(), Some((r * 10.0).round() as u16))
                } else {
                    (f[0][..81].to_string(), None)
                }
            })
            .collect(),
    )
}

/// Checks both paths of a puzzle against its solution; returns our ER.
fn check_puzzle(puzzle: &str, human: bool) -> Option<u16> {
    let grid = parse_grid(puzzle).expect("puzzle");
    let Verdict::Unique(solution) = solve_unique(&grid) else {
        panic!("not unique: {puzzle}");
    };
    let start = State::from_grid(&grid);
    let rated = se::rate(&start, &se::Options::default());
    for step in &rated.steps {
        if let Err(e) = check_step(step, solution.cells(), grid.geometry()) {
            panic!("{puzzle}: SE path: {e}");
        }
    }
    if human {
        let path = logic::explain(&start);
        assert!(path.solved, "{puzzle}");
        for step in &path.steps {
            if let Err(e) = check_step(step, solution.cells(), grid.geometry()) {
                panic!("{puzzle}: human path: {e}");
            }
        }
    }
    rated.solved.then_some(rated.er)
}

/// Agreement counts: (puzzles, exact, within 0.5).
fn agreement(puzzles: &[(String, Option<u16>)], human: bool) -> (usize, usize, usize) {
    let (mut exact, mut near) = (0, 0);
    for (p, expected) in puzzles {
        let got = check_puzzle(p, human);
        let expected = expected.expect("rated data");
        let d = (got.unwrap_or(200) as i32 - expected as i32).abs();
        exact += (d == 0) as usize;
        near += (d <= 5) as usize;
    }
    (puzzles.len(), exact, near)
}

#[test]
fn sudoku_exchange_sample_is_sound_and_agrees_with_sukaku_explainer() {
    let Some(puzzles) = sample("sudoku-exchange/diabolical.txt", 400, 100) else {
        eprintln!("skipping: data not found");
        return;
    };
    let (n, exact, near) = agreement(&puzzles, true);
    assert!(exact * 10 >= n * 9, "exact {exact}/{n}");
    assert!(near * 100 >= n * 99, "within 0.5 {near}/{n}");
}

#[test]
fn top1465_sample_is_solved_by_logic_soundly() {
    let Some(puzzles) = sample("puzzles3_magictour_top1465", 50, 30) else {
        eprintln!("skipping: data not found");
        return;
    };
    for (p, _) in &puzzles {
        assert!(check_puzzle(p, false).is_some(), "{p} needs brute force");
    }
}

#[test]
#[ignore = "whole set: 39,719 puzzles, about 10 minutes in release mode"]
fn sudoku_exchange_whole_set() {
    let Some(puzzles) = sample("sudoku-exchange/diabolical.txt", 1, usize::MAX) else {
        return;
    };
    let (n, exact, near) = agreement(&puzzles, false);
    assert!(exact * 10 >= n * 9, "exact {exact}/{n}");
    assert!(near * 100 >= n * 99, "within 0.5 {near}/{n}");
}

#[test]
#[ignore = "whole set: 1,465 puzzles, some needing nested forcing chains (minutes)"]
fn top1465_whole_set_needs_no_brute_force() {
    let Some(puzzles) = sample("puzzles3_magictour_top1465", 1, usize::MAX) else {
        return;
    };
    for (p, _) in &puzzles {
        assert!(check_puzzle(p, true).is_some(), "{p} needs brute force");
    }
}

#[test]
#[ignore = "whole set: 375 of the hardest known puzzles, nested forcing chains (hours)"]
fn hardest_1106_whole_set_needs_no_brute_force() {
    let Some(puzzles) = sample("puzzles6_forum_hardest_1106", 1, usize::MAX) else {
        return;
    };
    for (p, _) in &puzzles {
        assert!(check_puzzle(p, false).is_some(), "{p} needs brute force");
    }
}

#[test]
fn sixteen_by_sixteen_puzzles_are_rated_without_a_panic() {
    // Found by the play branch: SE's path went on to 9x9-only techniques on a 16x16
    // grid and indexed out of bounds. Every puzzle must get its record.
    let Some(lines) = crate::util::data_lines("gecode-large/sudoku16.txt", 100) else {
        return;
    };
    let puzzles: Vec<&str> = lines
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    let out = crate::util::sudokit()
        .args(["rate", "-f", "json"])
        .write_stdin(puzzles.join("\n"))
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    assert_eq!(crate::util::stdout_lines(&out).len(), puzzles.len());
}

#[test]
fn twenty_five_by_twenty_five_puzzles_get_fish_chains_and_forcing_chains() {
    // 25x25 boards are 1,024-bit wide. This binary is built with debug assertions, so
    // `explain` checks every step against the solution: a technique with a narrower
    // grid's assumption left in it panics here.
    let Some(lines) = crate::util::data_lines("gecode-large/sudoku25.txt", 100) else {
        return;
    };
    let out = crate::util::sudokit()
        .args(["explain", &lines[16]])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains(" solved ("), "{text}");
    for technique in [
        "Finned X-Wing",
        "Grouped AIC",
        "ALS-",
        "Contradiction Forcing Chains",
    ] {
        assert!(text.contains(technique), "no {technique}:\n{text}");
    }
}

#[test]
fn explain_rate_and_hint_stop_at_the_timeout() {
    // `--timeout` once bounded only the rating, not the uniqueness proof before it nor
    // `explain` at all (a 25x25 puzzle took 12-36 s under `--timeout 2s`).
    let Some(lines) = crate::util::data_lines("gecode-large/sudoku25.txt", 100) else {
        return;
    };
    // `hint` had no --timeout: its uniqueness proof took 1-17 s on the 25x25 puzzles.
    for (command, timeout) in [("explain", "300ms"), ("rate", "300ms"), ("hint", "1ms")] {
        let start = std::time::Instant::now();
        let out = sudokit()
            .args([command, "--timeout", timeout, "-f", "json", &lines[0]])
            .output()
            .unwrap();
        assert!(start.elapsed().as_secs_f64() < 20.0, "{command}");
        assert_eq!(out.status.code(), Some(1), "{command}");
        let r = &json_lines(&out)[0];
        assert_eq!(r["status"], "timeout", "{command}");
        assert!(r["error"].as_str().unwrap().contains("--timeout"), "{r}");
    }
}

#[test]
fn forcing_chains_from_a_house_or_a_cell_name_every_branch() {
    // Sudoku Explainer's region and cell forcing chains (dynamic, where HoDoKu's
    // forcing chains and nets find nothing) once named one place and no house, or one
    // digit. Top1465 #127: region chains from 9 in column 8 (four places); #91: cell
    // chains from r6c8 (7, 8, 9).
    let named = |s: &Value, what: &str| s["name"].as_str().unwrap_or("").contains(what);
    let (mut regions, mut cells) = (0, 0);
    for p in [
        "4..6..3...1..2..6...8..7..19..8..5...4..5..1......2..75.....6...3..8..4......9..5",
        "...3..5...5..1..3...7..4..12.....4...6..9......1..6..28..7..2...9..8..5...5..9..7",
    ] {
        let r = &explain_json(p);
        for s in r["steps"].as_array().unwrap() {
            if named(s, "Region Forcing Chains") {
                assert_eq!(s["houses"].as_array().unwrap().len(), 1, "{s}");
                assert!(s["cells"].as_array().unwrap().len() >= 2, "{s}");
                if named(s, "Dynamic") && s["digits"] == serde_json::json!([9]) {
                    assert_eq!(s["houses"][0], "c8", "{s}");
                    assert_eq!(s["cells"].as_array().unwrap().len(), 4, "{s}");
                    regions += 1;
                }
            }
            if named(s, "Cell Forcing Chains") {
                assert!(s["digits"].as_array().unwrap().len() >= 2, "{s}");
                cells += 1;
            }
        }
    }
    assert!(regions > 0 && cells > 0);
}

#[test]
fn locked_pairs_and_triples_are_hodokus() {
    // hodoku-py 0.2.1 (`Solver().solve`) on this puzzle takes a locked triple and two
    // locked pairs (HoDoKu's steps 1000/1100, before locked candidates), with these
    // cells and eliminations (its cell indices 42-44, 52-53 and 69-70 written here as
    // rows and columns).
    let r = &explain_json(
        ".2.6.......6..71......1.....7...52...9546......4..18...4.8..92...2.74..8.....6..3",
    );
    let locked: Vec<(String, Value, Value)> = steps_where(r, |t| {
        t.starts_with("locked-") && !t.starts_with("locked-candidates")
    })
    .into_iter()
    .map(|s| {
        let t = s["technique"].as_str().unwrap().to_string();
        (t, s["cells"].clone(), s["eliminations"].clone())
    })
    .collect();
    let expected = [
        (
            "locked-triple",
            serde_json::json!(["r5c7", "r5c8", "r5c9"]),
            serde_json::json!([
                "r4c8<>1", "r4c8<>3", "r4c9<>1", "r5c1<>1", "r5c1<>3", "r6c8<>3"
            ]),
        ),
        (
            "locked-pair",
            serde_json::json!(["r6c8", "r6c9"]),
            serde_json::json!(["r4c8<>9", "r4c9<>9", "r6c5<>9"]),
        ),
        (
            "locked-pair",
            serde_json::json!(["r8c7", "r8c8"]),
            serde_json::json!(["r8c1<>5", "r8c2<>5", "r9c7<>5", "r9c8<>5"]),
        ),
    ];
    assert_eq!(locked.len(), expected.len(), "{locked:?}");
    for ((t, cells, elims), (et, ecells, eelims)) in locked.iter().zip(&expected) {
        assert_eq!(t, et);
        assert_eq!(cells, ecells);
        assert_eq!(elims, eelims);
    }
}

#[test]
fn chains_on_the_human_path_are_chosen_as_hodoku_does() {
    // HoDoKu ranks the chains it finds by eliminations (most first), not length:
    // hodoku-py 0.2.1 solves this puzzle with one XY-chain (r8c6<>4) and one AIC
    // that takes 6 from r4c4, r4c5 and r4c6 (the shortest AIC there removes one).
    let r = &explain_json(
        ".239.......6..........524.19.....1..2..8...9...4....37.9...1..5........6.4.5.92..",
    );
    let chains = steps_where(r, |t| t == "aic" || t == "xy-chain");
    assert_eq!(chains[0]["technique"], "xy-chain");
    assert_eq!(chains[0]["eliminations"], serde_json::json!(["r8c6<>4"]));
    assert_eq!(chains[1]["technique"], "aic");
    assert_eq!(
        chains[1]["eliminations"],
        serde_json::json!(["r4c4<>6", "r4c5<>6", "r4c6<>6"])
    );
}

#[test]
fn hidden_rectangles_take_two_bivalue_corners_on_a_diagonal() {
    // hodoku-py 0.2.1 on this puzzle: after a naked triple, a hidden rectangle on 4
    // and 6 in r8c3, r8c8, r9c3, r9c8 whose bivalue corners r8c8 and r9c3 face each
    // other removes 6 from r8c8 (its indices 65, 70, 74, 79; deletion 70<>6), then
    // BUG+1 removes 2 and 9 from r7c3.
    let r = &explain_json(
        "400020007200904006005010800603080409070000030508000602000030000000108000000205000",
    );
    let hard = steps_where(r, |t| t == "hidden-rectangle" || t == "bug-plus-one");
    assert_eq!(hard[0]["technique"], "hidden-rectangle");
    assert_eq!(hard[0]["eliminations"], serde_json::json!(["r8c8<>6"]));
    assert_eq!(hard[1]["technique"], "bug-plus-one");
}

#[test]
fn multi_colours_are_hodokus() {
    // hodoku-py 0.2.1 on this puzzle: Multi Colors 1 on 6 with the clusters
    // {r2c5, r7c4, r8c2} / {r7c3, r8c5} and {r4c8, r6c3} / {r6c9} (its cells 13, 57,
    // 64 / 56, 67 and 34, 47 / 53), removing 6 from r2c9 (its cell 17).
    let r = &explain_json(
        "007200000002003900090040021020589007008406200900132080480020090001900800000008600",
    );
    let mc = steps_where(r, |t| t == "multi-colors");
    assert_eq!(mc.len(), 1, "{mc:?}");
    assert_eq!(mc[0]["name"], "Multi Colors 1");
    assert_eq!(mc[0]["eliminations"], serde_json::json!(["r2c9<>6"]));
    assert_eq!(
        mc[0]["cells"],
        serde_json::json!([
            "r2c5", "r4c8", "r6c3", "r6c9", "r7c3", "r7c4", "r8c2", "r8c5"
        ])
    );
}

#[test]
fn als_xy_chains_are_hodokus() {
    // hodoku-py 0.2.1 on this SE 8+ puzzle (sudoku-exchange) takes two ALS-XY-chains:
    // the first removes 1 and 4 from r1c4 (its deletions 3<>1, 3<>4), the second 1
    // from r1c1 (0<>1), and no other ALS step.
    let r = &explain_json(
        "000060030000007048000003900490018570600000009051340062007500000260700000030080000",
    );
    let als: Vec<(&str, &Value)> = steps_where(r, |t| t.starts_with("als-"))
        .into_iter()
        .map(|s| (s["technique"].as_str().unwrap(), &s["eliminations"]))
        .collect();
    assert_eq!(
        als,
        [
            ("als-xy-chain", &serde_json::json!(["r1c4<>1", "r1c4<>4"])),
            ("als-xy-chain", &serde_json::json!(["r1c1<>1"])),
        ]
    );
}

#[test]
fn sue_de_coq_takes_hodokus_general_form() {
    // hodoku-py 0.2.1 on the diabolical example takes two Sue de Coqs: r2c1,r2c3 on
    // 1,3,6,9 (its cells 9, 11; deletions 2<>6, 13<>2), whose box set r1c2,r3c2 holds
    // a digit outside the intersection, then r7c1,r7c2 on 2,3,5,6,8.
    let r = &explain_json(DIABOLICAL);
    let sdc: Vec<(&Value, &Value)> = steps_where(r, |t| t == "sue-de-coq")
        .into_iter()
        .map(|s| (&s["cells"], &s["eliminations"]))
        .collect();
    assert_eq!(sdc.len(), 2);
    assert_eq!(sdc[0].0, &serde_json::json!(["r2c1", "r2c3"]));
    assert_eq!(sdc[0].1, &serde_json::json!(["r1c3<>6", "r2c5<>2"]));
    assert_eq!(sdc[1].0, &serde_json::json!(["r7c1", "r7c2"]));
}

#[test]
fn a_chain_back_to_its_start_by_strong_links_sets_it() {
    // hodoku-py 0.2.1 on this SE 8+ puzzle (sudoku-exchange) takes, as its sixth step
    // after the singles, a discontinuous nice loop whose start, 4 in r9c5, is reached
    // again by a strong link: r9c5 loses 2, 7 and 9 (its deletions 76<>2, 76<>7,
    // 76<>9).
    let r = &explain_json(
        "003000000090104030240000008160007200070408060004900017400000091080601020000000300",
    );
    let found = r["steps"].as_array().unwrap().iter().any(|s| {
        s["eliminations"] == serde_json::json!(["r9c5<>2", "r9c5<>7", "r9c5<>9"])
            && s["text"].as_str().unwrap().contains("so it is true")
    });
    assert!(found, "{r}");
}

#[test]
fn franken_fish_are_hodokus() {
    // hodoku-py 0.2.1 on this SE 8+ puzzle (sudoku-exchange) takes one Franken fish: a
    // Finned Franken Swordfish on 9, base c1, c9, b1, cover r1, r6, r9, fin r3c2,
    // removing 9 from r6c2 and r9c2 (its deletions 46<>9, 73<>9).
    let r = &explain_json(
        "070805020000692000206000803700020005001000300000584000600000001000349000005010400",
    );
    let franken = steps_where(r, |t| t.contains("franken"));
    assert_eq!(franken.len(), 1, "{franken:?}");
    assert_eq!(franken[0]["technique"], "finned-franken-swordfish");
    assert_eq!(
        franken[0]["eliminations"],
        serde_json::json!(["r6c2<>9", "r9c2<>9"])
    );
    assert!(
        franken[0]["line"]
            .as_str()
            .unwrap()
            .contains("9 c1,c9,b1 r1,r6,r9 fin r3c2"),
        "{}",
        franken[0]["line"]
    );
}

#[test]
fn unique_rectangles_come_type_by_type() {
    // hodoku-py 0.2.1 on this puzzle (puzzles1_unbiased) takes a type 1, then the type 3
    // on r5c4,r5c6,r9c4,r9c6 (r9c8 loses 4 and 9) while the type 4 on r3c4,r3c6,r8c4,
    // r8c6 (r3c6, r8c6 lose 8), found first in the grid, waits: HoDoKu asks for the
    // types in order.
    let r = &explain_json(
        "...5.4.6...62....37........27.9.5.1.....4.8.6.3...2...91......7.4....5..8...1....",
    );
    let urs: Vec<(&str, &Value)> = steps_where(r, |t| t.starts_with("unique-rectangle"))
        .into_iter()
        .map(|s| (s["technique"].as_str().unwrap(), &s["eliminations"]))
        .collect();
    assert_eq!(
        urs,
        [
            (
                "unique-rectangle-type-1",
                &serde_json::json!(["r1c5<>3", "r1c5<>9"])
            ),
            (
                "unique-rectangle-type-3",
                &serde_json::json!(["r9c8<>4", "r9c8<>9"])
            ),
            (
                "unique-rectangle-type-4",
                &serde_json::json!(["r3c6<>8", "r8c6<>8"])
            ),
        ]
    );
}

#[test]
fn xy_chains_clear_their_own_cells_as_hodoku_does() {
    // hodoku-py 0.2.1 on this puzzle (sudoku-exchange, SE 7.2) takes an XY-chain from 3 in
    // r1c2 to 3 in r7c1 that removes 3 from r2c1 (a cell of the chain, seeing both
    // ends) as well as from r7c2 and r9c2 (its deletions 9<>3, 55<>3, 73<>3); it
    // scores the puzzle 2384.
    takes_hodoku_step(
        "000000000097201000416097000800009040169000835040500006000940657000105390000000000",
        "xy-chain",
        &serde_json::json!(["r2c1<>3", "r7c2<>3", "r9c2<>3"]),
        " extreme 2384",
    );
}

/// Asserts that the path of `p` takes a `technique` step removing `eliminations`, as
/// hodoku-py's does, and that `rate` gives hodoku-py's level and `score`.
fn takes_hodoku_step(p: &str, technique: &str, eliminations: &Value, score: &str) {
    let r = &explain_json(p);
    let steps = steps_where(r, |t| t == technique);
    assert!(
        steps.iter().any(|s| &s["eliminations"] == eliminations),
        "{technique}: {r}"
    );
    rates_as_hodoku(p, score);
}

/// Asserts that `rate` gives `p` hodoku-py's level and score (`score`: " level score").
fn rates_as_hodoku(p: &str, score: &str) {
    sudokit()
        .args(["rate", p])
        .assert()
        .success()
        .stdout(predicate::str::contains(score));
}

#[test]
fn chains_rectangles_and_wings_are_the_ones_hodoku_takes() {
    // hodoku-py 0.2.1 on three puzzles (puzzles1_unbiased, sudoku-exchange): an
    // XY-chain removing 7 from r1c9 and r2c4 (its deletions 8<>7, 12<>7), reached only by
    // a chain that a breadth-first search cuts short; a remote pair clearing both its
    // digits, 1 and 6, from r5c9 (cells seeing two chain cells of opposite colours);
    // and a hidden rectangle on 5 and 7 in r1c4, r1c5, r7c4, r7c5 removing 7 from r1c5
    // though r7c5 has lost 7 already (HoDoKu's default: a digit no placed peer holds
    // still counts). Scores 2686, 1254 and 1112. Then the first W-wing and empty
    // rectangle in its order: a W-wing on 4 and 9 clearing the smaller digit, 4, from
    // r8c1 (deletion 63<>4); an empty rectangle in box 4 on 5 clearing r1c2 (1<>5),
    // one elimination a step. Scores 1530 and 2786. And its first X-wing: on 8, rows 2
    // and 5 as base (rows before columns), clearing r1c3 and r3c3; score 1840. And its
    // best turbot fish (an X-chain of four cells, ranked as chains are): on 7, clearing
    // r3c9 (26<>7) rather than 3 from r9c7; score 1710. And a Sue de Coq whose box set
    // (r4c2, r4c3, r6c2) holds two digits outside the core, 2 and 5, the first of its
    // cells both of them: r1c1<>4, r5c3<>6 (0<>4, 38<>6); score 2166.
    for (p, technique, eliminations, score) in [
        (
            "005201900083000170200000005300408009090000030008060400000000000000125000500934008",
            "sue-de-coq",
            serde_json::json!(["r1c1<>4", "r5c3<>6"]),
            " extreme 2166",
        ),
        (
            ".235.....4...89..1.....1.4.5...6.4.2.....5.16.3..1.8..9...276...4.......2......7.",
            "turbot-fish",
            serde_json::json!(["r3c9<>7"]),
            " unfair 1710",
        ),
        (
            ".2..6.8..4...83.1.7.92....32.16.9.....4...1.2......53.3..415......39...........4.",
            "xy-chain",
            serde_json::json!(["r1c9<>7", "r2c4<>7"]),
            " extreme 2686",
        ),
        (
            ".23......4.......2....1.56.6.7......8..9..7.........39..18.2..7...37..5.....9542.",
            "remote-pair",
            serde_json::json!(["r5c9<>1", "r5c9<>6"]),
            " hard 1254",
        ),
        (
            "1.........5.....177..1.453..7.6.348...14.5.2.....8......8..9..29..23..6......6.5.",
            "hidden-rectangle",
            serde_json::json!(["r1c5<>7"]),
            " hard 1112",
        ),
        (
            "...7...8..56.1.2.....4...61..1..7.9.3..16...75.7....26..........3...87..6...2..5.",
            "w-wing",
            serde_json::json!(["r8c1<>4"]),
            " hard 1530",
        ),
        (
            "...74........98.3..89..3...2.43..1.8....1...3..1....7...5..9..2...4.....8325..79.",
            "empty-rectangle",
            serde_json::json!(["r1c2<>5"]),
            " extreme 2786",
        ),
        (
            ".2..4...5.5....1.7.....5.......7.6.9.7.3.....6..2.4...9....84.3..5....81.17.3...2",
            "x-wing",
            serde_json::json!(["r1c3<>8", "r3c3<>8"]),
            " extreme 1840",
        ),
    ] {
        takes_hodoku_step(p, technique, &eliminations, score);
    }
}

#[test]
fn nice_loops_and_aics_are_the_ones_hodoku_tables_find() {
    // hodoku-py 0.2.1 on three puzzles (puzzles1_unbiased, sudoku-exchange): its 18th
    // step, an AIC on 9 through fifteen links clearing r5c3, r6c8 and r6c9 (its
    // deletions 38<>9, 52<>9, 53<>9), which the breadth-first chain search misses; a
    // grouped discontinuous nice loop clearing 1 from r7c5 (58<>1) through the group
    // r8c456; and a continuous nice loop with seven eliminations. Scores 3938, 3740 and
    // 1688: the paths agree step for step.
    for (p, technique, eliminations, score) in [
        (
            ".2.7...8.45..1...3.8......153.92..4.6...85...2..1.7....6..9..288.....93.......6.4",
            "aic",
            serde_json::json!(["r5c3<>9", "r6c8<>9", "r6c9<>9"]),
            " extreme 3938",
        ),
        (
            "12.8.....4.6...3....9...4....8..59.......7.8..614....2.3...92....5...8.6...35...9",
            "grouped-discontinuous-nice-loop",
            serde_json::json!(["r7c5<>1"]),
            " extreme 3740",
        ),
        (
            "..39.......6.42.....97..128.1....4.3.6..3..1.3.4....6.847..62.....41.5.......76..",
            "continuous-nice-loop",
            serde_json::json!([
                "r4c1<>7", "r4c5<>5", "r4c5<>8", "r4c5<>9", "r5c1<>2", "r5c9<>5", "r6c4<>2"
            ]),
            " unfair 1688",
        ),
    ] {
        takes_hodoku_step(p, technique, &eliminations, score);
    }
}

#[test]
fn forcing_nets_are_the_ones_hodoku_tables_find() {
    // hodoku-py 0.2.1 on a sudoku-exchange diabolical (SE 8+): where its forcing chains
    // find nothing, its nets (each premise followed through four rounds of singles)
    // place 9 in r8c9, then 9 in r2c1; before and after, its chains remove 1 from r4c2
    // and 9 from r8c8, then 2 from r1c8 and r3c6. Score 6780.
    let p = "500080004006407800480000071002090400300805002000243000200050006008070500090000040";
    let r = &explain_json(p);
    let forcing: Vec<(String, Value, Value)> = r["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["name"].as_str().unwrap_or("").contains("Forcing"))
        .map(|s| {
            let name = s["name"].as_str().unwrap().to_string();
            (name, s["placements"].clone(), s["eliminations"].clone())
        })
        .collect();
    let (chain, net) = ("Contradiction Forcing Chains", "Contradiction Forcing Net");
    let expected = [
        (chain, serde_json::json!([]), serde_json::json!(["r4c2<>1"])),
        (chain, serde_json::json!([]), serde_json::json!(["r8c8<>9"])),
        (net, serde_json::json!(["r8c9=9"]), serde_json::json!([])),
        (net, serde_json::json!(["r2c1=9"]), serde_json::json!([])),
        (chain, serde_json::json!([]), serde_json::json!(["r1c8<>2"])),
        (chain, serde_json::json!([]), serde_json::json!(["r3c6<>2"])),
    ];
    assert_eq!(forcing.len(), expected.len(), "{forcing:?}");
    for (got, want) in forcing.iter().zip(&expected) {
        assert_eq!((got.0.as_str(), &got.1, &got.2), (want.0, &want.1, &want.2));
    }
    rates_as_hodoku(p, " extreme 6780");
}

#[test]
fn unique_rectangles_of_type_3_are_hodokus() {
    // hodoku-py 0.2.1 on top1465 #1243: a unique rectangle on 4 and 8 (r1c5, r1c6,
    // r8c5, r8c6) whose roof's extras, 1 and 9, make a naked subset with four more cells
    // of row 8 (r8c1-r8c4: 2, 3, 5 and 9 with 1): five digits in the roof and four
    // cells, so 1 leaves r8c8 and r8c9 (its deletions 70<>1, 71<>1). The subset may take
    // any number of cells, but none holding 4 or 8. Score 6810.
    takes_hodoku_step(
        "35.6.......2.......9..5.48......5....6..1..9....4......18.6..5.......7.......7.32",
        "unique-rectangle-type-3",
        &serde_json::json!(["r8c8<>1", "r8c9<>1"]),
        " extreme 6810",
    );
}

#[test]
fn avoidable_rectangles_are_hodokus() {
    // hodoku-py 0.2.1: an avoidable rectangle of type 1 on 1 and 3 (r5c5, r5c6 and r8c5
    // solved, not given), removing 1 from r8c6 (its deletion 68<>1), on a
    // puzzles1_unbiased puzzle, score 978; one of type 2 (r9c2, r9c3 solved; r2c2 and
    // r2c3 each hold the missing digit and 7), removing 7 from r2c8 and r3c2 (16<>7,
    // 19<>7), on a sudoku-exchange diabolical, score 9680.
    for (p, technique, eliminations, score) in [
        (
            ".....4......7...1...9.6..42...87..3.6.52..97.8..9....53.2..97...746.....9..42..5.",
            "avoidable-rectangle-type-1",
            serde_json::json!(["r8c6<>1"]),
            " hard 978",
        ),
        (
            "58.7..........54....9.3.....9...61.5.6.....3.3.25...9.....1.3....49..........4.62",
            "avoidable-rectangle-type-2",
            serde_json::json!(["r2c8<>7", "r3c2<>7"]),
            " extreme 9680",
        ),
    ] {
        takes_hodoku_step(p, technique, &eliminations, score);
    }
}

#[test]
fn forcing_chains_are_the_ones_hodoku_tables_find() {
    // hodoku-py 0.2.1 on three sudoku-exchange diabolical puzzles, where its path needs
    // a forcing chain: its tables (chains only, through group nodes) find contradictions
    // placing 2 in r1c5 and removing 1 from r4c2, the first placement by cell, else the
    // first elimination, as its comparator ranks them. On the third its path takes no
    // death blossom (off in its defaults) but a forcing chain placing 5 in r1c5. Scores
    // 3450, 5442 and 3168: the paths agree step for step.
    for (p, placements, eliminations, score) in [
        (
            "063800070000700302000310000601070230200000007037060108000031000405007000010004780",
            serde_json::json!(["r1c5=2"]),
            serde_json::json!([]),
            " extreme 3450",
        ),
        (
            "230000017097000630580000094300000006040050020002070300008020900000891000000504000",
            serde_json::json!([]),
            serde_json::json!(["r4c2<>1"]),
            " extreme 5442",
        ),
        (
            "090000800058000079400820010000010400004205600006070000020061003340000960005000080",
            serde_json::json!(["r1c5=5"]),
            serde_json::json!([]),
            " extreme 3168",
        ),
    ] {
        let r = &explain_json(p);
        let forcing = steps_where(r, |t| t.ends_with("forcing-chain"));
        assert_eq!(forcing.len(), 1, "{r}");
        assert_eq!(forcing[0]["placements"], placements, "{r}");
        assert_eq!(forcing[0]["eliminations"], eliminations, "{r}");
        assert!(steps_where(r, |t| t == "death-blossom").is_empty(), "{r}");
        rates_as_hodoku(p, score);
    }
}

#[test]
fn als_xz_and_als_xy_wings_are_the_first_hodoku_finds() {
    // hodoku-py 0.2.1 takes the first ALS-XZ and ALS-XY-Wing in its order (pairs of
    // ALS house by house, depth first), not the one clearing most: on the first
    // puzzle (sudoku-exchange) an ALS-XZ removing 1 from r4c6 (its deletion 41<>1),
    // then ALS-XY-Wings removing 4, then 7 and 9, from r7c5; on the second
    // (puzzles1_unbiased) one removing 7 from r7c8. Scores 3118 and 2484.
    for (p, steps, score) in [
        (
            "030106548000008320000000006002800000705030804000005600200000000093500000176203080",
            serde_json::json!([
                ["als-xz", ["r4c6<>1"]],
                ["als-xy-wing", ["r7c5<>4"]],
                ["als-xy-wing", ["r7c5<>7", "r7c5<>9"]]
            ]),
            " extreme 3118",
        ),
        (
            "1.3.4....4.......2.89...3.6.7.38......1...78..6.5...2....8.92...1..........2..59.",
            serde_json::json!([["als-xy-wing", ["r7c8<>7"]]]),
            " extreme 2484",
        ),
    ] {
        let r = &explain_json(p);
        let als: Vec<Value> = steps_where(r, |t| t.starts_with("als-"))
            .into_iter()
            .map(|s| serde_json::json!([s["technique"], s["eliminations"]]))
            .collect();
        assert_eq!(Value::Array(als), steps, "{r}");
        rates_as_hodoku(p, score);
    }
}

#[test]
fn skyscrapers_and_kites_are_the_first_hodoku_meets() {
    // hodoku-py 0.2.1 takes the first skyscraper and 2-string kite it meets, not the
    // one clearing most. On the first puzzle (puzzles1_unbiased) its kite on 5 removes
    // r3c9 (its deletion 26<>5) before the one removing r9c4; on the second its
    // skyscraper on 7 (rows 3 and 8) removes r2c2 and r7c1, though one on columns 2 and
    // 5 would remove three candidates (rows come first).
    let r = &explain_json(
        "..376.......19.2........46...148......2...1.7....2.89..45..2..89.7....1..1.......",
    );
    let kites: Vec<&Value> = steps_where(r, |t| t == "two-string-kite")
        .into_iter()
        .map(|s| &s["eliminations"])
        .collect();
    assert_eq!(
        kites,
        [
            &serde_json::json!(["r3c9<>5"]),
            &serde_json::json!(["r9c4<>5"])
        ]
    );
    let r = &explain_json(
        ".2.6.....4.6...18...9.1.....3......6..12..4.78....7..2.1.......5.8.94.2.9......7.",
    );
    let sky = steps_where(r, |t| t == "skyscraper");
    assert_eq!(sky.len(), 1, "{sky:?}");
    assert_eq!(
        sky[0]["eliminations"],
        serde_json::json!(["r2c2<>7", "r7c1<>7"])
    );
}

#[test]
fn xy_wings_are_the_first_hodoku_meets() {
    // hodoku-py 0.2.1 on this puzzle (sudoku-exchange) takes the XY-wing on r7c6 (pivot),
    // r1c6, r7c7 removing 7 from r1c7, then the one on r4c7, r5c8, r8c7 removing 6 from
    // r5c7 and r8c8: it meets them in the order of their cells, not by eliminations.
    let r = &explain_json(
        "050000020300040006008000900060804070400000005009000200010050090700020003090176050",
    );
    let wings: Vec<(&Value, &Value)> = steps_where(r, |t| t == "xy-wing")
        .into_iter()
        .map(|s| (&s["cells"], &s["eliminations"]))
        .collect();
    assert_eq!(
        wings,
        [
            (
                &serde_json::json!(["r7c6", "r1c6", "r7c7"]),
                &serde_json::json!(["r1c7<>7"])
            ),
            (
                &serde_json::json!(["r4c7", "r5c8", "r8c7"]),
                &serde_json::json!(["r5c7<>6", "r8c8<>6"])
            ),
        ]
    );
}
