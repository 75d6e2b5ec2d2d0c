//! The HTTP layer: `tiny_http` accepts connections and parses HTTP; a fixed pool of
//! worker threads takes requests from it, so at most `workers` requests are being
//! answered at once whatever the load (the others wait in the accept queue). Each
//! worker reads at most `body_limit` bytes of a body, hands it to [`crate::api`], and
//! writes the JSON answer; the page and its assets are compiled into the binary.

use std::io::Read as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;

use tiny_http::{Header, Method, Request, Response, StatusCode};

use crate::api::{self, Answer, Budget};

/// The page and its assets, compiled in: the page works with no network.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    ),
    (
        "/index.html",
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    ),
];

/// The port `sudokit serve` uses unless told otherwise.
pub const DEFAULT_PORT: u16 = 8765;
/// The request body limit unless told otherwise (a 25x25 puzzle with all its pencil
/// marks as JSON fits comfortably).
pub const DEFAULT_BODY_LIMIT: usize = 64 * 1024;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address and port to bind (port 0: any free port).
    pub addr: SocketAddr,
    /// Worker threads answering requests.
    pub workers: usize,
    /// Largest request body accepted, in bytes.
    pub body_limit: usize,
    /// Time and job limits of each request.
    pub budget: Budget,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)),
            workers: 4,
            body_limit: DEFAULT_BODY_LIMIT,
            budget: Budget::default(),
        }
    }
}

/// A running server.
pub struct Server {
    http: Arc<tiny_http::Server>,
    addr: SocketAddr,
    workers: Vec<JoinHandle<()>>,
}

impl Server {
    /// Binds and starts the workers.
    pub fn start(config: Config) -> Result<Server, String> {
        let http = tiny_http::Server::http(config.addr)
            .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
        let addr = http
            .server_addr()
            .to_ip()
            .ok_or_else(|| "the server is not on an IP address".to_string())?;
        let http = Arc::new(http);
        let config = Arc::new(config);
        let workers = (0..config.workers.max(1))
            .map(|i| {
                let http = Arc::clone(&http);
                let config = Arc::clone(&config);
                std::thread::Builder::new()
                    .name(format!("sudokit-web-{i}"))
                    .spawn(move || {
                        // `recv` fails only when the server is unblocked to stop.
                        while let Ok(request) = http.recv() {
                            handle(request, &config);
                        }
                    })
                    .map_err(|e| format!("cannot start a worker: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Server {
            http,
            addr,
            workers,
        })
    }

    /// The bound address (with the real port when port 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's URL.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Serves until the process ends.
    pub fn wait(self) {
        for w in self.workers {
            let _ = w.join();
        }
    }

    /// Stops accepting requests and waits for the workers to finish theirs.
    pub fn stop(self) {
        for _ in &self.workers {
            self.http.unblock();
        }
        for w in self.workers {
            let _ = w.join();
        }
    }
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("static headers are valid")
}

fn json_response(answer: &Answer) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_data(answer.body.as_bytes().to_vec())
        .with_status_code(StatusCode(answer.status))
        .with_header(header("Content-Type", "application/json"))
        .with_header(header("Cache-Control", "no-store"))
}

fn handle(mut request: Request, config: &Config) {
    let method = request.method().clone();
    let url = request.url().to_string();
    let path = url.split('?').next().unwrap_or("").to_string();
    if method == Method::Get && !path.starts_with("/api/") {
        let response = match ASSETS.iter().find(|a| a.0 == path) {
            Some((_, kind, text)) => Response::from_string(*text)
                .with_header(header("Content-Type", kind))
                .with_header(header("X-Content-Type-Options", "nosniff")),
            None => Response::from_string(format!("no such page: {path}\n"))
                .with_status_code(StatusCode(404))
                .with_header(header("Content-Type", "text/plain; charset=utf-8")),
        };
        let _ = request.respond(response);
        return;
    }
    let answer = match read_body(&mut request, config.body_limit) {
        Err(answer) => answer,
        Ok(body) => api::respond(method.as_str(), &path, &body, &config.budget),
    };
    // A client that went away cannot be answered; nothing else to do.
    let _ = request.respond(json_response(&answer));
}

/// The most of an oversize body read and thrown away before answering 413: a client
/// still sending when the connection closes gets a reset instead of the answer.
const DRAIN_LIMIT: u64 = 1 << 20;

/// The body, or 413 when it is longer than `limit` (decided from the declared length
/// when there is one, else by reading one byte past the limit).
fn read_body(request: &mut Request, limit: usize) -> Result<Vec<u8>, Answer> {
    let too_large = |request: &mut Request| {
        let _ = std::io::copy(
            &mut request.as_reader().take(DRAIN_LIMIT),
            &mut std::io::sink(),
        );
        Answer::error(413, format!("request body larger than {limit} bytes"))
    };
    if request.body_length().is_some_and(|n| n > limit) {
        return Err(too_large(request));
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(limit as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| Answer::error(400, format!("cannot read the request body: {e}")))?;
    if body.len() > limit {
        return Err(too_large(request));
    }
    Ok(body)
}
