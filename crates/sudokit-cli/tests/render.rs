//! `sudokit render`: output is parsed back (SVG as XML, PDF with lopdf).

use crate::util::{data_lines, sudokit};

#[test]
fn svg_is_well_formed_and_shows_every_digit() {
    let out = sudokit()
        .args(["render", "--solution", "lo-shu"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("SVG parses as XML");
    let texts = doc.descendants().filter(|n| n.has_tag_name("text")).count();
    assert_eq!(texts, 81);
    // Several puzzles need a folder or a PDF.
    sudokit()
        .args(["render", "lo-shu", "diag4"])
        .assert()
        .code(2);
}

#[test]
fn pdf_booklet_has_puzzle_and_solution_pages() {
    let Some(lines) = data_lines("puzzles3_magictour_top1465", 10) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("sudokit-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pdf = dir.join("booklet.pdf");
    sudokit()
        .args([
            "render",
            "--pdf",
            pdf.to_str().unwrap(),
            "--per-page",
            "4",
            "-",
        ])
        .write_stdin(lines.join("\n"))
        .assert()
        .success();
    let doc = lopdf::Document::load(&pdf).expect("PDF parses");
    // 10 puzzles at 4 per page: 3 pages; solutions at 12 per page: 1 page.
    assert_eq!(doc.get_pages().len(), 4);
    std::fs::remove_dir_all(&dir).ok();
}
