//! The README's examples are real: every `$ sudokit ...` command shown in a code block
//! is run (through `sh`, with this build's `sudokit` first on the `PATH`, from the
//! repository root) and every output line shown under it must appear in what it
//! prints. Lines that are elided (`...`) or that report times are not compared, and
//! commands that serve, play, write files, time themselves or need tools CI may lack
//! are left out.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root (the README's commands run from there).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `(command, shown output lines)` for every shell example of the README.
fn examples(readme: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut in_block = false;
    let mut current: Option<(String, Vec<String>)> = None;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
            out.extend(current.take());
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            out.extend(current.take());
            current = Some((cmd.to_string(), Vec::new()));
        } else if let Some((_, shown)) = current.as_mut() {
            shown.push(line.to_string());
        }
    }
    out
}

/// Whether a command is left out (see the module comment).
fn skipped(cmd: &str) -> bool {
    const LEFT_OUT: &[&str] = &[
        "serve",
        " play",
        "--pdf",
        "bench",
        ">",
        "time ",
        "jq",
        "taskset",
        "cargo",
        "curl",
        "tmux",
        "--timeout",
    ];
    // Bare `sudokit solve` shows the built-in example on a terminal only.
    cmd == "sudokit solve"
        || !cmd.starts_with("sudokit")
        || LEFT_OUT.iter().any(|w| cmd.contains(w))
}

/// Whether a shown line depends on the machine (times, rates) or is elided.
fn compared(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty()
        && t != "..."
        && !["seconds", "puzzles/s", " ms", " s ", "/s"]
            .iter()
            .any(|w| line.contains(w))
        && !t.ends_with(" s")
}

#[test]
fn readme_examples_print_what_the_readme_shows() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_sudokit"));
    let dir = bin.parent().unwrap_or(Path::new("."));
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut run = 0;
    let mut faults = Vec::new();
    for (cmd, shown) in examples(&readme) {
        if skipped(&cmd) {
            continue;
        }
        // Examples on the shared data need it beside the repository.
        if cmd.contains("../shared") && !root().join("../shared").exists() {
            continue;
        }
        let output = Command::new("sh")
            .arg("-c")
            .arg(&cmd)
            .current_dir(root())
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .stdin(std::process::Stdio::null())
            .output()
            .expect("sh runs");
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let lines: Vec<&str> = printed.lines().collect();
        for line in shown.iter().filter(|l| compared(l)) {
            if !lines.contains(&line.as_str()) {
                faults.push(format!("$ {cmd}\n  shown:   {line}"));
            }
        }
        run += 1;
    }
    assert!(run >= 30, "only {run} examples found");
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}
