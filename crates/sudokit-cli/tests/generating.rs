//! `sudokit generate`: every puzzle unique and minimal by other commands and engines,
//! seeds reproducible whatever the thread count, knobs honoured, bad knobs rejected.

use serde_json::Value;

use crate::util::{assert_solves, stdout_lines, sudokit};

fn generate(args: &[&str]) -> Vec<String> {
    let out = sudokit().arg("generate").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The puzzles; a variant's header lines (`# variant: x`) are checked where it matters.
    stdout_lines(&out)
        .into_iter()
        .filter(|l| !l.starts_with('#'))
        .collect()
}

#[test]
fn puzzles_are_unique_and_minimal_by_a_seed_engine() {
    // Fallin's engine, not the generator's search, counts the solutions; plain puzzles
    // are minimal clue by clue, symmetric ones only group by group (so `check` may find
    // a single clue to spare).
    for (symmetry, minimal) in [("none", true), ("rot180", false)] {
        let puzzles = generate(&["-n", "6", "--seed", "21", "--symmetry", symmetry]);
        assert_eq!(puzzles.len(), 6);
        let out = sudokit()
            .args(["check", "--minimal", "--engine", "fallin"])
            .write_stdin(puzzles.join("\n"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        for line in stdout_lines(&out) {
            assert!(line.contains(" unique "), "{line}");
            if minimal {
                assert!(line.contains("minimal=true"), "{line}");
            }
        }
    }
}

#[test]
fn a_seed_gives_the_same_puzzles_whatever_the_thread_count() {
    let one = generate(&["-n", "8", "--seed", "99", "-j", "1"]);
    let two = generate(&["-n", "8", "--seed", "99", "-j", "2"]);
    assert_eq!(one, two);
    // A puzzle's own seed (JSON) makes it again, alone.
    let json = generate(&["-n", "3", "--seed", "99", "-f", "json"]);
    let third: Value = serde_json::from_str(&json[2]).unwrap();
    let seed = third["seed"].as_u64().unwrap().to_string();
    assert_eq!(generate(&["--seed", &seed]), vec![one[2].clone()]);
}

#[test]
fn json_records_carry_the_solution_and_the_rating() {
    for line in generate(&["-n", "2", "--seed", "4", "-f", "json", "--level", "medium"]) {
        let r: Value = serde_json::from_str(&line).unwrap();
        assert_solves(
            r["solution"].as_str().unwrap(),
            r["puzzle"].as_str().unwrap(),
        );
        assert_eq!(r["level"], "medium");
        assert_eq!(r["minimal"], true);
        for key in ["clues", "symmetry", "er", "techniques", "seed"] {
            assert!(!r[key].is_null(), "{key} is null: {r}");
        }
    }
}

#[test]
fn a_shape_other_than_the_inferred_one_travels_with_the_puzzles() {
    // One-line 6x6 puzzles are read as 2x3 unless told: the generator's output says
    // `# shape: 3x2`, so `check` (its own count) finds every 3x2 puzzle unique.
    let out = sudokit()
        .args(["generate", "--shape", "3x2", "-n", "4", "--seed", "8"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("# variant: standard\n# shape: 3x2\n"),
        "{text}"
    );
    let checked = sudokit().arg("check").write_stdin(text).output().unwrap();
    assert_eq!(checked.status.code(), Some(0));
    let lines = stdout_lines(&checked);
    assert_eq!(lines.len(), 4);
    assert!(lines.iter().all(|l| l.contains(" unique")), "{lines:?}");
}

#[test]
fn digging_within_a_level_makes_easy_x_sudoku() {
    let mut args = vec!["--variant", "x", "--level", "easy", "--within", "-n", "3"];
    args.extend(["--seed", "5", "-f", "json"]);
    for line in generate(&args) {
        let r: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(r["level"], "easy");
        assert_eq!(r["variant"], "x");
        // `check` counts on its own (no generator involved) and reads the variant.
        let out = sudokit()
            .args(["check", "--variant", "x", r["puzzle"].as_str().unwrap()])
            .output()
            .unwrap();
        assert!(stdout_lines(&out)[0].contains(" unique"), "{line}");
    }
    let out = sudokit().args(["generate", "--within"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--within needs a target"));
}

#[test]
fn difficulty_window_and_clue_bounds() {
    let lines = generate(&[
        "-n", "2", "--seed", "8", "--er", "7.0..8.0", "--clues", "26",
    ]);
    let out = sudokit()
        .args(["rate", "-f", "json"])
        .write_stdin(lines.join("\n"))
        .output()
        .unwrap();
    for (line, record) in lines.iter().zip(stdout_lines(&out)) {
        let r: Value = serde_json::from_str(&record).unwrap();
        let er = r["er"].as_f64().unwrap();
        assert!((7.0..=8.0).contains(&er), "{er}");
        assert!(line.chars().filter(|c| c.is_ascii_digit()).count() <= 26);
    }
}

#[test]
fn shapes_variants_and_patterns() {
    let six = generate(&["--shape", "2x3", "-n", "3", "--seed", "1"]);
    assert!(six.iter().all(|l| l.len() == 36));
    let x = generate(&["--variant", "x", "--seed", "2"]);
    let out = sudokit()
        .args(["check", "--variant", "x", &x[0]])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains(" unique "));
    // The output names its variant, so the next command needs no `--variant`.
    let raw = sudokit()
        .args(["generate", "--variant", "x", "--seed", "2"])
        .output()
        .unwrap();
    assert_eq!(stdout_lines(&raw)[0], "# variant: x");
    let out = sudokit()
        .arg("check")
        .write_stdin(raw.stdout)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains(" unique "));
    let dir = tempfile::tempdir().unwrap();
    let pattern = dir.path().join("pattern.txt");
    let mask: String = x[0]
        .chars()
        .map(|c| if c == '.' { '.' } else { 'x' })
        .collect();
    std::fs::write(&pattern, mask).unwrap();
    let same = generate(&[
        "--variant",
        "x",
        "--seed",
        "3",
        "--pattern",
        pattern.to_str().unwrap(),
    ]);
    let shape = |s: &str| s.chars().map(|c| c == '.').collect::<Vec<_>>();
    assert_eq!(shape(&same[0]), shape(&x[0]));
    // A 4x4 pattern that 24 of the 288 grids fill uniquely (QA counted them): every
    // attempt drew the same grid, so a seed whose grid was not one of them never
    // finished; now each attempt draws its own.
    std::fs::write(&pattern, "x..x\n....\n.x..\n..x.\n").unwrap();
    for seed in ["1", "2"] {
        let p = generate(&[
            "--shape",
            "2x2",
            "--seed",
            seed,
            "--pattern",
            pattern.to_str().unwrap(),
        ]);
        assert_eq!(shape(&p[0]), shape("x..x.....x....x."), "seed {seed}");
    }
}

/// A jigsaw without a map draws one for each puzzle (from the puzzle's seed), printed
/// before it; Fallin's engine, reading each puzzle under its own map, finds each
/// unique. Maps that cannot hold a grid (diagonals on 2x2) fail with a clear error.
#[test]
fn jigsaws_without_a_map_draw_their_own() {
    let run = |threads: &str| {
        let out = sudokit()
            .args([
                "generate",
                "-n",
                "3",
                "--variant",
                "jigsaw",
                "--seed",
                "4",
                "-j",
                threads,
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        stdout_lines(&out)
    };
    let lines = run("2");
    assert_eq!(lines, run("1"), "a seed gives the same maps and puzzles");
    let maps: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("# regions: "))
        .collect();
    assert_eq!(maps.len(), 3, "{lines:?}");
    assert!(maps[0] != maps[1] && maps[1] != maps[2] && maps[0] != maps[2]);
    let out = sudokit()
        .args(["check", "--engine", "fallin"])
        .write_stdin(lines.join("\n"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let checked = stdout_lines(&out);
    assert_eq!(checked.len(), 3);
    assert!(checked.iter().all(|l| l.contains(" unique")), "{checked:?}");
    // The JSON record carries the drawn map.
    let out = sudokit()
        .args([
            "generate",
            "--variant",
            "x,jigsaw",
            "--seed",
            "5",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let record: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["variant"], "jigsaw,x");
    assert_eq!(
        record["regions"].as_str().map(str::len),
        Some(81),
        "{record}"
    );
    let out = sudokit()
        .args([
            "generate",
            "--variant",
            "x,jigsaw",
            "--shape",
            "1x2",
            "--seed",
            "5",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("random region maps has a complete grid"),
        "{err}"
    );
}

#[test]
fn bad_knobs_are_rejected_clearly() {
    for (args, needle) in [
        (&["--level", "impossible"][..], "unknown level"),
        (&["--er", "8..7"][..], "empty window"),
        (&["--require", "telepathy"][..], "unknown technique"),
        (&["--symmetry", "spiral"][..], "symmetry"),
        (&["--uniform", "--shape", "3x3"][..], "6x6"),
    ] {
        let out = sudokit().arg("generate").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn techniques_the_path_never_takes_are_refused_at_once() {
    // `--require x-cycle` (Sudoku Explainer's, not the human path's) searched on for
    // minutes; the death blossom is off on the classic grid (HoDoKu's defaults) and
    // avoidable rectangles are the classic grid's. No seed is drawn first.
    for (args, needle) in [
        (
            &["--require", "x-cycle"][..],
            "x-cycle: the human path never takes it",
        ),
        (&["--require", "death-blossom"], "on the classic grid"),
        (
            &["--variant", "x", "--require", "avoidable-rectangle-type-1"],
            "on this grid",
        ),
    ] {
        let out = sudokit()
            .arg("generate")
            .args(args)
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(needle) && !err.contains("seed"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn clue_bounds_no_puzzle_can_meet_are_refused_at_once() {
    // Each once churned through 100,000 attempts (13-16 s) before failing.
    for args in [
        &["--min-clues", "30", "--clues", "20"][..],
        &["--min-clues", "100"],
        &["--clues", "16"],
        &["--shape", "2x2", "--clues", "3"],
    ] {
        sudokit()
            .arg("generate")
            .args(args)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stdout("");
    }
    // A pattern with fewer givens than any unique puzzle has: one given on 4x4 (it
    // once ran out its attempts), 16 on 9x9.
    let dir = tempfile::tempdir().unwrap();
    for (shape, givens) in [("2x2", 1), ("3x3", 16)] {
        let n: usize = if shape == "2x2" { 4 } else { 9 };
        let pattern: String = (0..n * n)
            .map(|i| if i < givens { 'x' } else { '.' })
            .collect();
        let path = dir.path().join(format!("{shape}.txt"));
        std::fs::write(&path, pattern).unwrap();
        sudokit()
            .args(["generate", "--shape", shape, "--pattern"])
            .arg(&path)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicates::str::contains(format!(
                "the pattern has {givens} givens"
            )));
    }
}

#[test]
fn generate_stops_at_its_timeout() {
    // Drawing and digging a 64x64 grid takes minutes, and a grid of 36x36 X-windoku
    // comes only from searching the empty grid (seconds to more than a minute; the
    // empty-grid search once ran on past its timeout); `--timeout` bounds each
    // puzzle, even within an attempt.
    for args in ["--shape 8x8", "--shape 6x6 --variant x,windoku"] {
        let t = std::time::Instant::now();
        sudokit()
            .arg("generate")
            .args(args.split(' '))
            .args(["--timeout", "1s"])
            .timeout(std::time::Duration::from_secs(30))
            .assert()
            .code(1)
            .stdout(predicates::str::ends_with(
                "# error: out of time before a puzzle was made\n",
            ))
            .stderr(predicates::str::contains("out of time"));
        assert!(
            t.elapsed() < std::time::Duration::from_secs(10),
            "{args:?}: {:?}",
            t.elapsed()
        );
    }
}
