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
    // Givens that break the rules are reported where they clash and not printed (they
    // were drawn, exit 0); the other puzzles still are.
    let clash = format!("55{}", ".".repeat(79));
    let out = sudokit()
        .args(["render", "-", "lo-shu"])
        .write_stdin(format!("{clash}\n"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("<stdin>:1:2: r1c1 and r1c2 both hold 5"),
        "{stderr}"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    roxmltree::Document::parse(&text).expect("lo-shu still drawn");
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

#[test]
fn pdf_text_keeps_latin_letters_and_dashes() {
    // The base fonts are read in WinAnsi (Windows-1252): a title in German or French
    // keeps its letters (it printed `R?tsel f?r Anf?nger ? 1`).
    let dir = std::env::temp_dir().join(format!("sudokit-render-latin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pdf = dir.join("title.pdf");
    sudokit()
        .args(["render", "--pdf", pdf.to_str().unwrap(), "--title"])
        .arg("Rätsel für Anfänger – Œuvre Šárka Ž ‰")
        .arg("lo-shu")
        .assert()
        .success();
    let doc = lopdf::Document::load(&pdf).expect("PDF parses");
    let page = *doc.get_pages().values().next().unwrap();
    let content = doc.get_page_content(page);
    // Strings are written in hex: the title's WinAnsi bytes.
    let title: String = b"R\xe4tsel f\xfcr Anf\xe4nger \x96 \x8cuvre \x8a\xe1rka \x8e \x89"
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect();
    let content = String::from_utf8_lossy(&content);
    assert!(content.contains(&title), "{content}");
    let fonts = doc.get_page_fonts(page).unwrap();
    assert!(!fonts.is_empty());
    for font in fonts.values() {
        assert_eq!(
            font.get(b"Encoding").unwrap().as_name().unwrap(),
            b"WinAnsiEncoding"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
