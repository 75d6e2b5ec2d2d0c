//! `sudokit play` end to end: the real binary in a detached tmux session of a fixed
//! size, driven with `send-keys` and read back with `capture-pane`. Skips itself where
//! tmux is not installed (`.ci/run` installs it).
//!
//! What the screen must show comes from Moler's chapter (the Lo-Shu puzzle's givens,
//! and its completed grid in figure 14.3, whose first row is 816579243).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A tmux server of our own (its own socket file), killed and removed on drop.
struct Tmux {
    socket: PathBuf,
}

static SESSIONS: AtomicUsize = AtomicUsize::new(0);

impl Tmux {
    /// A server running `sudokit ARGS` in a `w` x `h` window; None without tmux.
    fn start(args: &[&str], w: u16, h: u16) -> Option<Tmux> {
        Tmux::start_env(&[], args, w, h)
    }

    /// [`Tmux::start`] with `NAME=VALUE` environment settings.
    fn start_env(env: &[&str], args: &[&str], w: u16, h: u16) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("tmux is not installed: skipping the end-to-end play test");
            return None;
        }
        let socket = std::env::temp_dir().join(format!(
            "sudokit-tmux-{}-{}",
            std::process::id(),
            SESSIONS.fetch_add(1, Ordering::Relaxed)
        ));
        let bin = assert_cmd::cargo::cargo_bin("sudokit");
        let mut command = String::from("env");
        for e in env {
            command.push(' ');
            command.push_str(&shell_quote(Path::new(e)));
        }
        command.push(' ');
        command.push_str(&shell_quote(&bin));
        for a in args {
            command.push(' ');
            command.push_str(&shell_quote(Path::new(a)));
        }
        let tmux = Tmux { socket };
        let out = tmux.run(&[
            "new-session",
            "-d",
            "-s",
            "play",
            "-x",
            &w.to_string(),
            "-y",
            &h.to_string(),
            &command,
        ]);
        assert!(
            out.status.success(),
            "tmux: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Some(tmux)
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(["-f", "/dev/null"])
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("tmux runs")
    }

    /// Sends keys (tmux key names: `Enter`, `Up`, or literal text).
    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "play"];
        args.extend_from_slice(keys);
        let out = self.run(&args);
        assert!(
            out.status.success(),
            "send-keys: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The visible screen as text.
    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "play"]).stdout).into()
    }

    /// The visible screen with its escape sequences (colours and attributes).
    fn screen_with_attributes(&self) -> String {
        let out = self.run(&["capture-pane", "-e", "-p", "-t", "play"]);
        String::from_utf8_lossy(&out.stdout).into()
    }

    /// Waits until the screen shows `text`; returns the screen.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                // The terminal may be caught mid-frame (busy machines): wait until two
                // captures agree.
                let mut last = screen;
                loop {
                    std::thread::sleep(Duration::from_millis(100));
                    let again = self.screen();
                    if again == last || start.elapsed() > Duration::from_secs(20) {
                        return again;
                    }
                    last = again;
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the screen never showed {text:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the program (and with it the session) has ended.
    fn wait_for_exit(&self) {
        let start = Instant::now();
        while self.run(&["has-session", "-t", "play"]).status.success() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "play did not quit"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
        let _ = std::fs::remove_file(&self.socket);
    }
}

fn shell_quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', r"'\''"))
}

/// The grid line of row `r` (1-based) in the 9x9 layout with lines between all cells.
fn row(screen: &str, r: usize) -> &str {
    screen.lines().nth(2 * r - 1).unwrap_or("")
}

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudokit-play-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn play_lo_shu_in_tmux() {
    let save = temp_file("lo-shu.txt");
    let _ = std::fs::remove_file(&save);
    let save_arg = save.to_str().unwrap();
    let Some(t) = Tmux::start(&["play", "lo-shu", "--save", save_arg], 100, 30) else {
        return;
    };
    let screen = t.wait_for("sudokit play: lo-shu");
    // Moler's figure 14.1: 816.....3 on the first row; 35 givens.
    assert!(
        row(&screen, 1).starts_with("┃ 8 │ 1 │ 6 ┃   │   │   ┃   │   │ 3 ┃"),
        "{screen}"
    );
    assert!(screen.contains("Filled 35/81"), "{screen}");

    // The cursor starts on r1c4, the first empty cell; figure 14.3 puts 5 there.
    t.keys(&["5"]);
    let screen = t.wait_for("Filled 36/81");
    assert!(row(&screen, 1).starts_with("┃ 8 │ 1 │ 6 ┃ 5 │"), "{screen}");

    // Move right twice with l and the arrow key, then place 9 (figure 14.3: r1c6).
    t.keys(&["l", "Right", "9"]);
    let screen = t.wait_for("Filled 37/81");
    assert!(
        row(&screen, 1).starts_with("┃ 8 │ 1 │ 6 ┃ 5 │   │ 9 ┃"),
        "{screen}"
    );

    // A hint: its sentence and its short line are shown; Enter applies it.
    t.keys(&["?"]);
    let screen = t.wait_for("Hint:");
    assert!(screen.contains("Enter applies it"), "{screen}");
    assert!(screen.contains("=>"), "the step's short line:\n{screen}");
    t.keys(&["Enter"]);
    let screen = t.wait_for("Filled 38/81");
    assert!(screen.contains("Applied:"), "{screen}");

    // Undo all three moves, redo one.
    t.keys(&["u", "u", "u"]);
    let screen = t.wait_for("Filled 35/81");
    assert!(
        row(&screen, 1).starts_with("┃ 8 │ 1 │ 6 ┃   │   │   ┃"),
        "{screen}"
    );
    t.keys(&["r"]);
    t.wait_for("Filled 36/81");

    // A conflict: 8 in r1c5 repeats r1c1.
    t.keys(&["h", "8"]);
    let screen = t.wait_for("Conflicts:");
    assert!(screen.contains("Conflicts: r1c1 r1c5"), "{screen}");
    t.keys(&["BSpace"]);
    t.wait_for("Filled 36/81");

    // Save, quit, and the file holds the game.
    t.keys(&["s"]);
    t.wait_for("Saved to");
    t.keys(&["q"]);
    t.wait_for_exit();
    let text = std::fs::read_to_string(&save).expect("saved");
    assert!(text.contains("\nentries ...5..."), "{text}");
    assert!(text.contains("\ndone r1c4=+|5+\n"), "{text}");
    drop(t);

    // Load it back: the 5 is there and undo still knows the history.
    let Some(t) = Tmux::start(&["play", "--load", save_arg], 100, 30) else {
        return;
    };
    let screen = t.wait_for("Filled 36/81");
    assert!(row(&screen, 1).starts_with("┃ 8 │ 1 │ 6 ┃ 5 │"), "{screen}");
    // The last move was the backspace: undo brings the conflicting 8 back.
    t.keys(&["u"]);
    let screen = t.wait_for("Filled 37/81");
    assert!(screen.contains("Conflicts: r1c1 r1c5"), "{screen}");
    t.keys(&["q"]);
    t.wait_for_exit();
    let _ = std::fs::remove_file(&save);
    let _ = std::fs::remove_dir(save.parent().unwrap());
}

#[test]
fn play_with_letters_in_tmux() {
    // Moler's exercise 14.13: letters for digits. Lo-Shu's 816 becomes HAF.
    let Some(t) = Tmux::start(&["play", "lo-shu", "--symbols", "ABCDEFGHI"], 100, 30) else {
        return;
    };
    let screen = t.wait_for("sudokit play: lo-shu");
    assert!(row(&screen, 1).starts_with("┃ H │ A │ F ┃"), "{screen}");
    assert!(screen.contains("A-I place"), "{screen}");
    t.keys(&["E"]);
    let screen = t.wait_for("Filled 36/81");
    assert!(row(&screen, 1).starts_with("┃ H │ A │ F ┃ E │"), "{screen}");
    t.keys(&["q"]);
    t.wait_for_exit();
}

#[test]
fn play_refuses_without_a_terminal() {
    crate::util::sudokit()
        .args(["play", "lo-shu"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("needs a terminal"));
}

#[test]
fn play_names_unreadable_puzzles() {
    crate::util::sudokit()
        .args(["play", "816x"])
        .assert()
        .code(2);
    crate::util::sudokit()
        .args(["play", "--load", "/nonexistent/game.txt"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot read"));
}

#[test]
fn play_respects_no_color_in_tmux() {
    // Givens are blue (SGR 38;5;4 as tmux re-encodes it) unless NO_COLOR is set; then
    // only attributes (bold, reverse) remain.
    let Some(t) = Tmux::start(&["play", "lo-shu"], 100, 30) else {
        return;
    };
    t.wait_for("sudokit play: lo-shu");
    let colored = t.screen_with_attributes();
    assert!(colored.contains("38;5;4m"), "{colored}");
    t.keys(&["q"]);
    t.wait_for_exit();
    drop(t);
    let Some(t) = Tmux::start_env(&["NO_COLOR=1"], &["play", "lo-shu"], 100, 30) else {
        return;
    };
    t.wait_for("sudokit play: lo-shu");
    t.keys(&["?"]);
    t.wait_for("Hint:");
    let plain = t.screen_with_attributes();
    assert!(
        !plain.contains("38;5;") && !plain.contains("48;5;"),
        "{plain}"
    );
    assert!(plain.contains("\x1b[1m"), "givens are bold:\n{plain}");
    t.keys(&["q"]);
    t.wait_for_exit();
}
