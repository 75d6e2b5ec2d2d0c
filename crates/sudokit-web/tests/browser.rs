//! The page in a real browser: headless Chromium driven by Playwright
//! (`tests/browser/page.mjs`). Runs where `node`, Chromium (`/usr/bin/chromium` or
//! `$CHROMIUM`) and `playwright-core` (`npm install` in `tests/browser`) are present;
//! `.ci/run` installs them. Elsewhere it says why it skips.

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use sudokit_web::Budget;

use crate::util::server;

fn skip_reason(dir: &Path) -> Option<String> {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    if !Path::new(&chromium).exists() {
        return Some(format!("no Chromium at {chromium}"));
    }
    if Command::new("node").arg("--version").output().is_err() {
        return Some("no node".into());
    }
    if !dir.join("node_modules/playwright-core").exists() {
        return Some(format!(
            "no playwright-core (npm install --prefix {})",
            dir.display()
        ));
    }
    None
}

/// The jigsaw the page generates: the top band's three regions zig-zag.
const JIGSAW: &str =
    "AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII";

/// The extra houses the page generates with, two maps that cross: the main diagonal
/// and the boxes' centres (the centre dot's house), which share three cells; in the
/// order a variant keeps its maps, so the field reads the same once refilled.
const EXTRA: &str = concat!(
    "1.........1.........1.........1.........1.........1.........1.........1.........1",
    ",",
    "..........1..1..1....................1..1..1....................1..1..1..........",
);

#[test]
fn page_replays_moler_on_lo_shu_and_gives_a_hint() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    if let Some(why) = skip_reason(&dir) {
        eprintln!("skipping the browser test: {why}");
        return;
    }
    let s = server(2, Budget::default());
    let shot = std::env::temp_dir().join(format!("sudokit-page-{}.png", std::process::id()));
    let output = Command::new("node")
        .env("JIGSAW", JIGSAW)
        .env("EXTRA", EXTRA)
        .arg(dir.join("page.mjs"))
        .arg(s.url())
        .arg(&shot)
        .output()
        .expect("node runs");
    s.stop();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let out: Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "driver output is not JSON ({e}):\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert_eq!(out["errors"], serde_json::json!([]), "{out}");
    // Figure 14.12: 50 steps, counted one by one on the page.
    assert!(out["stats"].as_str().unwrap().contains("steps 50"), "{out}");
    let counts: Vec<u64> = out["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert!(counts.windows(2).all(|w| w[1] >= w[0]), "{counts:?}");
    assert_eq!(counts.last(), Some(&50));
    // At step 50 the board is the solution, clues in their colour.
    let lo_shu = sudokit::puzzles::builtin("lo-shu").unwrap().grid();
    let board = sudokit::format::parse_grid(out["board"].as_str().unwrap()).unwrap();
    assert!(board.solves(&lo_shu), "{out}");
    let kinds = out["kinds"].as_str().unwrap();
    for (c, k) in kinds.chars().enumerate() {
        assert_eq!(k == 'g', lo_shu.get(c) != 0, "cell {c}: {kinds}");
    }
    assert!(
        kinds.contains('s') && kinds.contains('t'),
        "singletons and tentative values: {kinds}"
    );
    // A screenshot with some colour in it (a blank page has one or two).
    assert!(out["colours"].as_u64().unwrap() > 20, "{out}");
    let png = std::fs::read(&shot).expect("the screenshot is written");
    assert!(png.starts_with(b"\x89PNG"));
    // Kept for people to look at: SUDOKIT_SCREENSHOT names where.
    if let Ok(keep) = std::env::var("SUDOKIT_SCREENSHOT") {
        std::fs::copy(&shot, keep).expect("screenshot copied");
    }
    let _ = std::fs::remove_file(&shot);
    assert!(out["after_back"].as_u64().unwrap() < 50);
    // The hint: a sentence, highlighted cells, and one more cell filled once applied.
    assert!(!out["hint"].as_str().unwrap().is_empty());
    assert!(out["highlighted"].as_u64().unwrap() >= 1);
    let filled = |k: &str| -> u64 {
        out[k]
            .as_str()
            .unwrap()
            .split(" / ")
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert_eq!(filled("filled_after"), filled("filled_before") + 1, "{out}");
    // X-sudoku: the 17 cells of the two diagonals shaded, the box lines as in sudoku
    // (two per row), and a hint.
    assert_eq!(out["x_shaded"], 17, "{out}");
    assert_eq!(out["x_box_right"], 18, "{out}");
    let x_hint = out["x_hint"].as_str().unwrap();
    assert!(!x_hint.is_empty() && !x_hint.contains("No step"), "{out}");
    // The jigsaw: a heavy line right of a cell exactly where the map's label changes,
    // X's diagonals shaded on it, and the controls showing both once refilled
    // (windoku's box off on a jigsaw: it needs boxes).
    let labels: Vec<char> = JIGSAW.chars().collect();
    let expected: String = (0..81)
        .map(|c| {
            if c % 9 < 8 && labels[c] != labels[c + 1] {
                '|'
            } else {
                '.'
            }
        })
        .collect();
    assert_eq!(out["jigsaw_box_right"], expected, "{out}");
    assert_eq!(out["jigsaw_shaded"], 17, "{out}");
    assert_eq!(out["jigsaw_windoku_disabled"], true, "{out}");
    let controls = |kind: &str, rules: &[&str], field: &str| serde_json::json!({ "kind": kind, "rules": rules, "field": field });
    assert_eq!(
        out["jigsaw_controls"],
        controls("jigsaw", &["x"], ""),
        "{out}"
    );
    // The extra houses: their 15 cells shaded (9 + 9, three shared), and both maps
    // still in the field once the board the server sent back is shown. With X's
    // diagonals too: their 17 cells and the four boxes' centres on neither diagonal,
    // 21 (the main diagonal, both a map and a rule, is one house).
    assert_eq!(out["extra_shaded"], 15, "{out}");
    assert_eq!(out["extra_controls"], controls("", &[], EXTRA), "{out}");
    assert_eq!(out["x_extra_shaded"], 21, "{out}");
    assert_eq!(
        out["x_extra_controls"],
        controls("", &["x"], EXTRA),
        "{out}"
    );
}
