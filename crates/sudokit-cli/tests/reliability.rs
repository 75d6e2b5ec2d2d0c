//! Hostile and pathological input: every record accounted for, no panic, clean stops.

use std::process::{Command as StdCommand, Stdio};
use std::time::Duration;

use predicates::prelude::*;

use crate::util::{assert_solves, data_lines, stdout_lines, sudokit};

#[test]
fn absurd_sizes_get_clear_errors() {
    // A million worker threads took longer to spawn than any test waits.
    for j in ["0", "1000000"] {
        sudokit()
            .args(["solve", "-j", j, "lo-shu"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("thread count from 1 to 1024"));
    }
    let long = "1".repeat(10_000);
    sudokit()
        .args(["solve", "-"])
        .write_stdin(format!("{long}\n"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("found 10000 cells"));
    sudokit()
        .args(["solve", "-"])
        .write_stdin("5\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("found 1 cells"));
    sudokit()
        .args(["solve", "--shape", "10x10", "lo-shu"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("sides from 2 to 64"));
    // Bytes that are not UTF-8 are reported like any bad character.
    sudokit()
        .args(["solve", "-"])
        .write_stdin(b"\xff\xfe\x00garbage\n".to_vec())
        .assert()
        .code(2);
    // An empty input is zero puzzles, not an error, but not silence either (a wrong
    // file name or a comment-only file would otherwise look like success).
    sudokit()
        .args(["solve", "-"])
        .write_stdin("# nothing here\n")
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains("warning: no puzzles in <stdin>"));
    // `equiv` needs a puzzle on each side: an empty one is its one error, not also
    // the batch commands' warning.
    sudokit()
        .args(["equiv", "-", "lo-shu"])
        .write_stdin("# nothing here\n")
        .assert()
        .code(2)
        .stderr("sudokit: -: no puzzle found\n");
    // A repeated symbol in --symbols is a usage error naming it (a puzzle in the
    // alphabet was refused for "unexpected 'D'").
    sudokit()
        .args([
            "solve",
            "--symbols",
            "ABCDEFGHH",
            "..........D.H.G.E...B.CDF...IHCGE.B...AB.FE...E.ADICF...DGI.A...G.D.C.I..........",
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("'H' cannot be a symbol"));
    // A region map of no square length names what it needs, not a 2x2 grid.
    sudokit()
        .args(["solve", "--variant", "jigsaw", "--regions", "123", "lo-shu"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("one label per cell")
                .and(predicate::str::contains("2x2").not()),
        );
    // A conflict is located at its second given by every command (canon and dedupe
    // said column 1, where the puzzle starts).
    let conflict = format!("88{}", ".".repeat(79));
    for command in ["solve", "canon", "dedupe", "all", "count", "check"] {
        sudokit()
            .args([command, "-"])
            .write_stdin(format!("{conflict}\n"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "<stdin>:1:2: r1c1 and r1c2 both hold 8",
            ));
    }
    // A limit of no solutions asks for nothing (`count` printed `0+`, `all` nothing),
    // nor does a budget of no search nodes (it answered `timeout` whenever a guess was
    // needed).
    for (command, option) in [
        ("count", "--limit"),
        ("all", "--limit"),
        ("solve", "--node-limit"),
        ("count", "--node-limit"),
        ("check", "--node-limit"),
        ("general", "--node-limit"),
    ] {
        sudokit()
            .args([command, option, "0", "lo-shu"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(format!("'{option} <N>'")));
    }
    // Search bounds on commands that do not search were accepted and ignored; they
    // are usage errors now, as on any command that has no such option.
    for args in [
        ["canon", "--timeout", "1s"],
        ["shuffle", "--node-limit", "5"],
        ["transform", "--timeout", "1s"],
        ["dedupe", "--timeout", "1s"],
        ["explain", "--node-limit", "5"],
    ] {
        sudokit()
            .args(args)
            .arg("lo-shu")
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "unexpected argument '{}'",
                args[1]
            )));
    }
}

#[test]
fn interrupt_flushes_every_record_already_read() {
    let Some(lines) = data_lines("puzzles2_17_clue", 49_158) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("sudokit-int-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.txt");
    let mut text = String::new();
    for _ in 0..20 {
        for l in &lines {
            text.push_str(l);
            text.push('\n');
        }
    }
    std::fs::write(&path, &text).unwrap();
    let child = StdCommand::new(assert_cmd::cargo::cargo_bin("sudokit"))
        .args(["solve", "--threads", "2", path.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(400));
    let _ = StdCommand::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let out = child.wait_with_output().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let got = stdout_lines(&out);
    if got.len() == 20 * lines.len() {
        return; // the machine finished before the signal: nothing to check
    }
    assert_eq!(out.status.code(), Some(130));
    assert!(!got.is_empty());
    for (i, s) in got.iter().enumerate() {
        assert_solves(s, &lines[i % lines.len()]);
    }
}

#[test]
fn many_mixed_lines_in_parallel_keep_count_and_order() {
    const GOOD: &str =
        "816.....3357....8.4921.......3816......357......4921.......3816.2....3571.....492";
    const SOLUTION: &str =
        "816579243357624981492138765243816579981357624765492138579243816624981357138765492";
    let none = GOOD.replace("3571", "3577");
    let conflict = GOOD.replacen('.', "8", 1);
    let mut input = String::new();
    for i in 0..100_000 {
        input.push_str(match i % 7 {
            0 => "not a puzzle at all",
            1 => &none,
            2 => &conflict,
            3 => "12345",
            _ => GOOD,
        });
        input.push('\n');
    }
    let out = sudokit()
        .args(["solve", "--threads", "4", "-"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 100_000);
    for (i, line) in lines.iter().enumerate() {
        let ok = match i % 7 {
            0 | 3 => line.contains("# error:"),
            1 => line.ends_with("# no solution"),
            2 => line.contains("# error: r1c1 and r1c4 both hold 8"),
            _ => line == SOLUTION,
        };
        assert!(ok, "line {}: {line}", i + 1);
    }
}

/// Output that cannot be written (a full disk: Linux's `/dev/full`) is an error
/// (exit 2, the reason on stderr) for every command, not lost in a buffer at exit.
#[test]
fn a_full_disk_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    for args in [
        &["puzzles"][..],
        &["puzzles", "lo-shu"],
        &["render", "lo-shu"],
        &["export", "--cnf", "lo-shu"],
        &["solve", "lo-shu"],
        &["canon", "lo-shu"],
    ] {
        let out = StdCommand::new(assert_cmd::cargo::cargo_bin("sudokit"))
            .args(args)
            .stdout(full.try_clone().expect("a second handle"))
            .output()
            .expect("sudokit runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("No space left"), "{args:?}: {stderr}");
    }
}
