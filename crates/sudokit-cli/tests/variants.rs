//! Variants through the command line: `--variant`, `--regions`, and file headers.

use std::sync::Arc;

use serde_json::Value;
use sudokit::{Geometry, Grid, Variant, format::parse_one};

use crate::util::{stdout_lines, sudokit};

/// An X-sudoku turned a quarter and relabelled by `transform`.
fn turned_x(x: &str) -> String {
    let out = sudokit()
        .args([
            "transform",
            "--variant",
            "x",
            "--op",
            "rot90,relabel=987654321",
            x,
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    puzzles(&out)[0].clone()
}

/// The puzzle lines of an output, without the `# variant:` lines that name the variant.
fn puzzles(output: &std::process::Output) -> Vec<String> {
    stdout_lines(output)
        .into_iter()
        .filter(|l| !l.starts_with('#'))
        .collect()
}

#[test]
fn xkcd_binary_sudoku_works_as_a_joke_should() {
    sudokit()
        .args(["solve", "--variant", "latin", "--symbols", "01", "1..."])
        .assert()
        .success()
        .stdout("1001\n");
}

/// `solve --variant VARIANT -f json` on the empty 9x9 grid: the record, and whether its
/// solution keeps X-sudoku's rules (read under the named variant's own geometry).
fn empty_solved_keeps_x(variant: &str) -> (Value, bool) {
    let empty = ".".repeat(81);
    let out = sudokit()
        .args(["solve", "--variant", variant, "-f", "json", &empty])
        .output()
        .unwrap();
    assert!(out.status.success());
    let r: Value = serde_json::from_str(&stdout_lines(&out)[0]).unwrap();
    let x = Arc::new(Geometry::for_variant(9, None, &"x".parse::<Variant>().unwrap()).unwrap());
    let options = sudokit::ReadOptions {
        geometry: Some(x.clone()),
        ..Default::default()
    };
    let solution = parse_one(r["solution"].as_str().unwrap(), &options)
        .unwrap()
        .grid;
    let keeps = solution.solves(&Grid::empty(x));
    (r, keeps)
}

#[test]
fn x_sudoku_solutions_keep_both_diagonals_distinct() {
    let (r, keeps_x) = empty_solved_keeps_x("x");
    assert_eq!(r["variant"], "x");
    assert_eq!(r["shape"], "3x3 x");
    assert!(keeps_x);
}

/// Crossing houses from two maps: both diagonals written as `extra=` maps make
/// X-sudoku, so solutions and generated puzzles are the named variant's.
#[test]
fn two_extra_maps_make_crossing_houses() {
    let map = |on: fn(usize) -> bool| -> String {
        (0..81).map(|c| if on(c) { 'd' } else { '.' }).collect()
    };
    let variant = format!(
        "extra={},extra={}",
        map(|c| c % 10 == 0),
        map(|c| c % 8 == 0 && c % 80 != 0)
    );
    let (r, keeps_x) = empty_solved_keeps_x(&variant);
    assert_eq!(r["variant"].as_str().unwrap().matches("extra=").count(), 2);
    assert!(keeps_x);
    // A puzzle generated with the two maps is X-sudoku's: unique under `x`, not under
    // plain rules; its `# variant:` line carries both maps to the next command.
    let generated = sudokit()
        .args(["generate", "--variant", &variant, "--seed", "1"])
        .output()
        .unwrap();
    assert!(generated.status.success());
    let lines = stdout_lines(&generated);
    assert_eq!(lines[0].matches("extra=").count(), 2, "{}", lines[0]);
    let check = |args: &[&str], stdin: Vec<u8>| {
        let out = sudokit()
            .arg("check")
            .args(args)
            .write_stdin(stdin)
            .output();
        stdout_lines(&out.unwrap())[0]
            .split(' ')
            .nth(1)
            .unwrap()
            .to_string()
    };
    assert_eq!(check(&[], generated.stdout.clone()), "unique");
    assert_eq!(check(&["--variant", "x", &lines[1]], vec![]), "unique");
    assert_eq!(check(&[&lines[1]], vec![]), "multiple");
}

#[test]
fn an_empty_jigsaw_that_defeats_backtracking_is_solved() {
    // The first three rows hold three whole regions: plain backtracking took minutes
    // on this empty grid (the solution was found after 18 minutes); clause learning
    // takes over after a small budget and solves it at once.
    let map = "AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII";
    let out = sudokit()
        .args([
            "solve",
            "--regions",
            map,
            "--timeout",
            "20s",
            &".".repeat(81),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = Variant {
        jigsaw: true,
        regions: Some(Variant::parse_regions(map, 9).unwrap()),
        ..Variant::default()
    };
    let g = Arc::new(Geometry::for_variant(9, None, &v).unwrap());
    let options = sudokit::ReadOptions {
        geometry: Some(g.clone()),
        ..Default::default()
    };
    let solution = parse_one(&stdout_lines(&out)[0], &options).unwrap().grid;
    assert!(solution.solves(&Grid::empty(g)));
}

#[test]
fn empty_36x36_windoku_and_disjoint_grids_are_solved_and_not_unique() {
    // Both engines ran out of 20 s on these empty grids; a grid built by formula
    // answers them, and any relabelling of it is a second solution.
    let empty = ".".repeat(36 * 36);
    for variant in ["windoku", "disjoint"] {
        let args = ["--shape", "6x6", "--variant", variant, "--timeout", "20s"];
        let t = std::time::Instant::now();
        let out = sudokit()
            .arg("solve")
            .args(args)
            .arg(&empty)
            .output()
            .unwrap();
        assert!(out.status.success(), "{variant}");
        let v: Variant = variant.parse().unwrap();
        let g = Arc::new(Geometry::for_variant(36, None, &v).unwrap());
        let options = sudokit::ReadOptions {
            geometry: Some(g.clone()),
            ..Default::default()
        };
        let solution = parse_one(&stdout_lines(&out)[0], &options).unwrap().grid;
        assert!(solution.solves(&Grid::empty(g)), "{variant}");
        sudokit()
            .arg("check")
            .args(args)
            .arg(&empty)
            .assert()
            .code(1)
            .stdout(predicates::str::contains(" multiple"));
        sudokit()
            .args(["count", "--limit", "1000"])
            .args(args)
            .arg(&empty)
            .assert()
            .success()
            .stdout(predicates::str::contains(" 1000+"));
        assert!(
            t.elapsed() < std::time::Duration::from_secs(10),
            "{variant}"
        );
    }
}

#[test]
fn jigsaw_from_option_header_and_trailing_map_agree() {
    let map = "AAAABBAABBBBCCCDDDCCCDDDEEEFFFEEEFFF";
    let puzzle = "1....................................";
    let puzzle = &puzzle[..36];
    let by_option = sudokit()
        .args(["solve", "--regions", map, puzzle])
        .output()
        .unwrap();
    assert!(
        by_option.status.success(),
        "{}",
        String::from_utf8_lossy(&by_option.stderr)
    );
    let by_header = sudokit()
        .args(["solve", "-"])
        .write_stdin(format!("# regions: {map}\n{puzzle}\n"))
        .output()
        .unwrap();
    let trailing = sudokit()
        .args(["solve", "--variant", "jigsaw", "-"])
        .write_stdin(format!("{puzzle}\n{map}\n"))
        .output()
        .unwrap();
    assert_eq!(by_option.stdout, by_header.stdout);
    assert_eq!(by_option.stdout, trailing.stdout);
    // Bad maps are rejected with the reason.
    sudokit()
        .args(["solve", "--regions", "AAB", puzzle])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("region map"));
}

#[test]
fn transform_keeps_a_variant_or_says_which_house_it_would_break() {
    // An X-sudoku puzzle: turned, it is still unique as an X-sudoku; a band swap takes
    // the diagonals off the diagonals and is refused, naming the house.
    let x = ".2..........4....143....7.9....5.2..........38................6.8...2.5...6.18...";
    let turned = turned_x(x);
    for p in [x, turned.as_str()] {
        sudokit()
            .args(["check", "--variant", "x", p])
            .assert()
            .success()
            .stdout(predicates::str::contains("unique"));
    }
    sudokit()
        .args(["transform", "--variant", "x", "--op", "bands=213", x])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "takes diagonal 1 of the 3x3 x grid onto cells that are not one of its houses",
        ));
    // A Latin square's rows move freely (bands of one row), and it transposes.
    sudokit()
        .args([
            "transform",
            "--variant",
            "latin",
            "--op",
            "rows=53124,transpose",
            "1...2.3....4.5.........1.",
        ])
        .assert()
        .success()
        .stdout("# variant: latin\n..1...4.3......15.....2..\n");
}

#[test]
fn transform_reads_list_lengths_in_each_puzzle_s_own_shape() {
    // `bands=2134` names four bands: right for 16x16 (read in its shape), wrong for 9x9.
    let sixteen = format!("1{}", ".".repeat(255));
    let out = sudokit()
        .args(["transform", "--op", "bands=2134", &sixteen])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(stdout_lines(&out)[0].find('1'), Some(64));
    sudokit()
        .args(["transform", "--op", "bands=2134", &".".repeat(81)])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("'4' is not an item from 1 to 3"));
}

#[test]
fn canon_equiv_and_dedupe_take_a_variant_s_own_group() {
    let x = ".2..........4....143....7.9....5.2..........38................6.8...2.5...6.18...";
    let turned = turned_x(x);
    let forms: Vec<String> = [x, turned.as_str()]
        .iter()
        .map(|p| {
            let out = sudokit()
                .args(["canon", "--variant", "x", p])
                .output()
                .unwrap();
            assert!(out.status.success());
            puzzles(&out)[0].clone()
        })
        .collect();
    assert_eq!(forms[0], forms[1]);
    sudokit()
        .args(["equiv", "--variant", "x", x, &turned])
        .assert()
        .code(0);
    // As standard sudokus the two are equivalent too, but a band swap, standard
    // equivalence, is no X-sudoku equivalence.
    let swapped = sudokit()
        .args(["transform", "--op", "bands=213", x])
        .output()
        .unwrap();
    let swapped = puzzles(&swapped)[0].clone();
    sudokit().args(["equiv", x, &swapped]).assert().code(0);
    sudokit()
        .args(["equiv", "--variant", "x", x, &swapped])
        .assert()
        .code(1);
    let out = sudokit()
        .args(["dedupe", "--variant", "x", "-"])
        .write_stdin(format!("{x}\n{turned}\n{swapped}\n"))
        .output()
        .unwrap();
    // The variant is named once, where it starts.
    assert_eq!(
        stdout_lines(&out),
        vec!["# variant: x".to_string(), x.to_string(), swapped.clone()]
    );
    // Shuffles stay in the class: same form, same verdict.
    for seed in ["1", "2", "3"] {
        let out = sudokit()
            .args(["shuffle", "--seed", seed, "--variant", "x", x])
            .output()
            .unwrap();
        let shuffled = puzzles(&out)[0].clone();
        let out = sudokit()
            .args(["canon", "--variant", "x", &shuffled])
            .output()
            .unwrap();
        assert_eq!(puzzles(&out)[0], forms[0]);
    }
    let out = sudokit()
        .args([
            "shuffle",
            "--seed",
            "5",
            "--variant",
            "latin",
            "1...2.3....4.5.........1.",
        ])
        .output()
        .unwrap();
    let shuffled = puzzles(&out)[0].clone();
    let counts: Vec<String> = ["1...2.3....4.5.........1.", shuffled.as_str()]
        .iter()
        .map(|p| {
            let out = sudokit()
                .args(["count", "--variant", "latin", p])
                .output()
                .unwrap();
            let line = stdout_lines(&out)[0].clone();
            line.split_whitespace().last().unwrap().to_string()
        })
        .collect();
    assert_eq!(counts[0], counts[1], "a shuffle keeps the solution count");
    sudokit()
        .args(["canon", "--variant", "latin", "1...2.3....4.5.........1."])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "no canonical form for a latin 5 grid",
        ));
}

#[test]
fn regions_conflict_with_latin_and_windoku_as_the_variant_names_do() {
    // `--regions` makes a jigsaw: with `--variant latin` it once dropped the Latin rule
    // without a word, and with windoku it complained about box shapes.
    for variant in ["latin", "windoku"] {
        sudokit()
            .args([
                "solve",
                "--variant",
                variant,
                "--regions",
                "111222111222333444333444555666555666",
                "......",
            ])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!(
                "variants {variant} and jigsaw cannot be combined"
            )));
    }
}

/// Every command's JSON record carries a jigsaw's variant and region map, so a record
/// can be checked or passed on without its input (solve had the variant alone; count,
/// check, general, explain and rate neither).
#[test]
fn json_records_carry_the_variant_and_the_region_map() {
    let map = "1122112233443344";
    for command in ["solve", "count", "check", "general", "explain", "rate"] {
        let out = sudokit()
            .args([
                command,
                "-f",
                "json",
                "--variant",
                "jigsaw",
                "--regions",
                map,
                "1............4..",
            ])
            .output()
            .unwrap();
        let line = stdout_lines(&out)[0].clone();
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["variant"], "jigsaw", "{command}: {line}");
        assert_eq!(v["regions"], map, "{command}: {line}");
    }
    // Plain sudoku records stay as they were.
    let out = sudokit()
        .args(["count", "-f", "json", "lo-shu"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_str(&stdout_lines(&out)[0]).unwrap();
    assert!(
        v.get("variant").is_none() && v.get("regions").is_none(),
        "{v}"
    );
}

#[test]
fn a_jigsaw_band_swap_that_transform_makes_is_an_equivalence() {
    // Found by QA: `transform` swaps the first and last bands of regions of this map
    // (they keep every region), yet `equiv` called the two puzzles different and
    // `dedupe` kept both, its group then being the square's eight symmetries.
    let map = "111222333111222333111222333445555666444455666444555666777888999777888999777888999";
    let p = "2..13.4..8...56.....59......7.4..8.9.....1.........5......6.9.75.3...21..........";
    let out = sudokit()
        .args(["transform", "--regions", map, "--op", "rows=789456123", p])
        .output()
        .unwrap();
    let q = stdout_lines(&out).last().unwrap().clone();
    assert_ne!(q, p);
    sudokit()
        .args(["equiv", "--regions", map, p, &q])
        .assert()
        .code(0);
    let kept = sudokit()
        .args(["dedupe", "--regions", map])
        .write_stdin(format!("{p}\n{q}\n"))
        .output()
        .unwrap();
    let kept: Vec<String> = stdout_lines(&kept)
        .into_iter()
        .filter(|l| !l.starts_with('#'))
        .collect();
    assert_eq!(kept, vec![p.to_string()]);
}
