//! sudokit-web: the local web page of `sudokit serve`.
//!
//! * [`api`]: the JSON endpoints as pure functions (route and body in, status and JSON
//!   out) over the `sudokit` library: solve with an engine's step-by-step trace, count,
//!   check, explain, hint, rate, generate.
//! * [`server`]: the HTTP layer (connection threads over `std::net`, requests framed
//!   by `httparse`, a bounded number of API requests answered at once), with the page
//!   and its script compiled in.
//!
//! The page (`assets/`) replays an engine's trace with the colours of Moler's figures
//! and lets people solve by hand with hints; all the Sudoku work happens here, in the
//! library, so the page knows no rules beyond "a digit appears once in a house".

#![deny(missing_docs)]

pub mod api;
pub mod http;
pub mod server;

pub use api::{Answer, Budget};
pub use server::{Config, DEFAULT_PORT, Server};

/// Asks the desktop to open `url` in a browser (`xdg-open`, `open` or `start`); the
/// error says why it could not.
pub fn open_browser(url: &str) -> Result<(), String> {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
        .map_err(|e| format!("cannot open a browser: {e}"))
}
