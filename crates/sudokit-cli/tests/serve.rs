//! `sudokit serve`: listens on 127.0.0.1 by default, prints its URL (a free port with
//! `--port 0`), answers the page and the API, and refuses a bad `--bind`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

use crate::util::sudokit;

/// Kills the server even when an assertion fails.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn serve_binds_localhost_on_a_free_port() {
    let program = sudokit().get_program().to_owned();
    let mut child = Child(
        Command::new(program)
            .args(["serve", "--port", "0", "--workers", "2"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("sudokit serve starts"),
    );
    let mut line = String::new();
    BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"));
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    assert!(host.starts_with("127.0.0.1:"), "{url}");
    assert_ne!(host, "127.0.0.1:0");
    let mut s = TcpStream::connect(host).unwrap();
    let body = r#"{"puzzle":"lo-shu","engine":"moler"}"#;
    write!(
        s,
        "POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // Moler, figure 14.12: 50 steps.
    assert!(answer.contains(r#""steps":50"#), "{answer}");
}

#[test]
fn serve_refuses_a_bad_bind_address() {
    sudokit()
        .args(["serve", "--bind", "localhost:80", "--port", "0"])
        .assert()
        .failure()
        .code(2);
}
