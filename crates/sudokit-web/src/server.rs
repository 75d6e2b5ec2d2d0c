//! The HTTP layer: a fixed pool of `connections` threads takes connections from one
//! listening socket (more wait in the accept queue); each reads one request
//! ([`crate::http`]) within `io_timeout`, with a body of at most `body_limit` bytes,
//! writes the answer and closes the connection. Answering an API request takes one of
//! `workers` slots, so at most that many are computed at once whatever the load; the
//! page and its assets, compiled into the binary, need none. A client that stalls, lies
//! about its body's length or never reads its answer holds its own connection thread
//! for `io_timeout` at most and never a slot, and nothing is allocated from a length
//! the client declares.

use std::io::{Read as _, Write as _};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::api::{self, Answer, Budget};
use crate::http::{self, Fail, Framing, Head, Incoming};

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
    /// API requests answered at once (the others wait for a slot).
    pub workers: usize,
    /// Connections read and written at once (the others wait to be accepted).
    pub connections: usize,
    /// Largest request body accepted, in bytes.
    pub body_limit: usize,
    /// Time to receive a whole request, and to write each part of an answer.
    pub io_timeout: Duration,
    /// Time and job limits of each request.
    pub budget: Budget,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)),
            workers: 4,
            connections: 16,
            body_limit: DEFAULT_BODY_LIMIT,
            io_timeout: Duration::from_secs(10),
            budget: Budget::default(),
        }
    }
}

/// A counting semaphore: at most so many holders at once.
struct Slots {
    free: Mutex<usize>,
    freed: Condvar,
}

/// One slot held; given back when dropped.
struct Slot<'a>(&'a Slots);

impl Slots {
    fn new(n: usize) -> Slots {
        Slots {
            free: Mutex::new(n.max(1)),
            freed: Condvar::new(),
        }
    }

    /// Waits for a free slot and takes it until the guard is dropped.
    fn take(&self) -> Slot<'_> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
        Slot(self)
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.0.freed.notify_one();
    }
}

/// What the connection threads share.
struct Shared {
    config: Config,
    stopping: AtomicBool,
    workers: Slots,
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

impl Server {
    /// Binds and starts the connection threads.
    pub fn start(config: Config) -> Result<Server, String> {
        let listener = TcpListener::bind(config.addr)
            .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
        let listener = Arc::new(listener);
        let shared = Arc::new(Shared {
            workers: Slots::new(config.workers),
            stopping: AtomicBool::new(false),
            config,
        });
        let threads = (0..shared.config.connections.max(1))
            .map(|i| {
                let listener = Arc::clone(&listener);
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("sudokit-web-{i}"))
                    .spawn(move || work(&listener, &shared))
                    .map_err(|e| format!("cannot start the server: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Server {
            addr,
            shared,
            threads,
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
        for t in self.threads {
            let _ = t.join();
        }
    }

    /// Stops accepting connections and waits for those open to be answered.
    pub fn stop(self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        // Each thread is blocked in `accept` or will be after its connection: one
        // connection each wakes it to see the flag and leave.
        let mut wake = self.addr;
        if wake.ip().is_unspecified() {
            wake.set_ip(match wake {
                SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
                SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
            });
        }
        for _ in &self.threads {
            let _ = TcpStream::connect_timeout(&wake, Duration::from_secs(1));
        }
        for t in self.threads {
            let _ = t.join();
        }
    }
}

/// A connection thread: answers one connection after another until the server stops.
fn work(listener: &TcpListener, shared: &Shared) {
    loop {
        let accepted = listener.accept();
        if shared.stopping.load(Ordering::SeqCst) {
            return;
        }
        match accepted {
            Ok((stream, _)) => {
                // A bug in answering one request must not take a thread away.
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    serve(&stream, shared)
                }));
            }
            // Out of file descriptors, or the client left before the accept: wait a
            // little rather than spin.
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// A socket read through a deadline: each read may wait only for the time left.
struct Deadline<'a> {
    stream: &'a TcpStream,
    until: Instant,
}

impl std::io::Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        (&mut self.stream).read(buf)
    }
}

/// What one connection gets back.
struct Reply {
    status: u16,
    content_type: &'static str,
    extra: Option<(&'static str, &'static str)>,
    body: Vec<u8>,
}

impl Reply {
    fn json(answer: Answer) -> Reply {
        Reply {
            status: answer.status,
            content_type: "application/json",
            extra: Some(("Cache-Control", "no-store")),
            body: answer.body.into_bytes(),
        }
    }
}

/// Reads one request from the connection, answers it and closes the connection.
fn serve(stream: &TcpStream, shared: &Shared) {
    let config = &shared.config;
    let _ = stream.set_write_timeout(Some(config.io_timeout));
    let mut incoming = Incoming::new(Deadline {
        stream,
        until: Instant::now() + config.io_timeout,
    });
    let refused = |status, message| Reply::json(Answer::error(status, message));
    // The reply, whether to leave out its body (HEAD), and how much of the request is
    // left unread.
    let (reply, head_only, unread) = match incoming.head() {
        Err(Fail::Closed) => return,
        Err(Fail::Refuse(status, message)) => (refused(status, message), false, DRAIN_LIMIT),
        Ok(head) if !head.path.starts_with("/api/") => (
            page(&head.method, &head.path),
            head.method == "HEAD",
            unread_body(&head, incoming.buffered()),
        ),
        // No answer to HEAD has a body, an error's included.
        // (Every endpoint refuses HEAD: 405, or 404 for no such endpoint.)
        Ok(head) if head.method == "HEAD" => (
            Reply::json(api::respond("HEAD", &head.path, b"", &config.budget)),
            true,
            unread_body(&head, incoming.buffered()),
        ),
        Ok(head) => {
            let fits = matches!(head.framing, Framing::Length(n) if n <= config.body_limit as u64);
            if head.expects_continue && fits {
                let _ = send(stream, b"HTTP/1.1 100 Continue\r\n\r\n");
            }
            match incoming.body(&head, config.body_limit) {
                Err(Fail::Closed) => return,
                // Timed out or ended early: nothing more is coming.
                Err(Fail::Refuse(status @ (400 | 408), message)) => {
                    (refused(status, message), false, 0)
                }
                // A client waiting for 100 Continue sends no body when it is refused.
                Err(Fail::Refuse(status, message)) => {
                    let unread = if head.expects_continue && !fits {
                        0
                    } else {
                        unread_body(&head, incoming.buffered())
                    };
                    (refused(status, message), false, unread)
                }
                Ok(body) => {
                    let _slot = shared.workers.take();
                    let answer = api::respond(&head.method, &head.path, &body, &config.budget);
                    (Reply::json(answer), false, 0)
                }
            }
        }
    };
    let _ = write_reply(stream, &reply, head_only);
    let _ = stream.shutdown(Shutdown::Write);
    if unread > 0 {
        // Closing a socket with unread input resets the connection, and the client may
        // lose the answer while it is still sending: read what it sends first (a
        // bounded amount, for a bounded time).
        let drain = Deadline {
            stream,
            until: Instant::now() + DRAIN_TIME,
        };
        let _ = std::io::copy(&mut drain.take(unread), &mut std::io::sink());
    }
}

/// How much of a body not read is still to come (at most [`DRAIN_LIMIT`]).
fn unread_body(head: &Head, buffered: usize) -> u64 {
    match head.framing {
        Framing::Empty => 0,
        Framing::Length(n) => n.saturating_sub(buffered as u64).min(DRAIN_LIMIT),
        Framing::Chunked => DRAIN_LIMIT,
    }
}

/// A page or asset, or why not.
fn page(method: &str, path: &str) -> Reply {
    let text = |status, body: String| Reply {
        status,
        content_type: "text/plain; charset=utf-8",
        extra: None,
        body: body.into_bytes(),
    };
    match ASSETS.iter().find(|a| a.0 == path) {
        Some((_, kind, body)) if method == "GET" || method == "HEAD" => Reply {
            status: 200,
            content_type: kind,
            extra: Some(("X-Content-Type-Options", "nosniff")),
            body: body.as_bytes().to_vec(),
        },
        Some(_) => Reply {
            extra: Some(("Allow", "GET, HEAD")),
            ..text(405, format!("{path} takes GET, not {method}\n"))
        },
        None => text(404, format!("no such page: {path}\n")),
    }
}

fn write_reply(stream: &TcpStream, reply: &Reply, head_only: bool) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        reply.status,
        http::reason(reply.status),
        reply.content_type,
        reply.body.len()
    );
    if let Some((name, value)) = reply.extra {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut out = head.into_bytes();
    if !head_only {
        out.extend_from_slice(&reply.body);
    }
    send(stream, &out)
}

fn send(mut stream: &TcpStream, bytes: &[u8]) -> std::io::Result<()> {
    stream.write_all(bytes)?;
    stream.flush()
}

/// The most of an unread body read and thrown away before closing: a client still
/// sending when the connection closes gets a reset instead of the answer.
const DRAIN_LIMIT: u64 = 1 << 20;
/// The longest time spent reading an unread body before closing.
const DRAIN_TIME: Duration = Duration::from_secs(1);
