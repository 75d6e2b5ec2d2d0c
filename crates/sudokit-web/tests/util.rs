//! A server on a free port and a minimal HTTP/1.1 client over a raw socket, so tests
//! can also send what no well-behaved client would (broken JSON, huge bodies, garbage).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use serde_json::Value;
use sudokit_web::{Budget, Config, Server};

/// The default configuration on 127.0.0.1 and a free port.
pub fn config() -> Config {
    Config {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        ..Config::default()
    }
}

/// A server on 127.0.0.1 and a free port.
pub fn server(workers: usize, budget: Budget) -> Server {
    server_with(Config {
        workers,
        budget,
        ..config()
    })
}

/// A server with this configuration.
pub fn server_with(config: Config) -> Server {
    Server::start(config).expect("the server starts")
}

/// Sends raw bytes, returns the status code and the body (the server closes the
/// connection after answering because the request says `Connection: close`).
pub fn raw(addr: SocketAddr, request: &[u8]) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    // The server may answer (413) and close before reading a huge body.
    let _ = s.write_all(request);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let Some(end) = out.windows(4).position(|w| w == b"\r\n\r\n") else {
        return (status, Vec::new());
    };
    let head = text[..end].to_ascii_lowercase();
    let body = &out[end + 4..];
    if head.contains("transfer-encoding: chunked") {
        (status, dechunk(body))
    } else {
        (status, body.to_vec())
    }
}

/// Decodes a chunked body.
fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(i) = rest.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&rest[..i]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = i + 2;
        let end = (start + size).min(rest.len());
        body.extend_from_slice(&rest[start..end]);
        rest = &rest[(end + 2).min(rest.len())..];
    }
    body
}

/// A request with a body.
pub fn request(method: &str, path: &str, body: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    r.extend_from_slice(body);
    r
}

/// POSTs JSON, returns the status and the parsed answer.
pub fn post(addr: SocketAddr, path: &str, body: &str) -> (u16, Value) {
    let (status, body) = raw(addr, &request("POST", path, body.as_bytes()));
    let value = serde_json::from_slice(&body).unwrap_or_else(|e| {
        panic!(
            "answer is not JSON ({e}): {}",
            String::from_utf8_lossy(&body)
        )
    });
    (status, value)
}

/// GETs a path.
pub fn get(addr: SocketAddr, path: &str) -> (u16, Vec<u8>) {
    raw(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}
