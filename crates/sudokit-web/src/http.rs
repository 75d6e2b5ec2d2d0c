//! Reading one HTTP/1.1 request off a byte stream: the head (parsed by `httparse`) and a
//! body framed by `Content-Length` or chunked transfer coding, within a size limit.
//! Generic over [`Read`], so the server gives it a socket with a deadline and the fuzz
//! target gives it bytes. Every way a request can be wrong is a [`Fail`], never a panic.

use std::io::{ErrorKind, Read};

/// The longest request head (request line and headers) accepted.
pub const HEAD_LIMIT: usize = 16 * 1024;
/// The most headers a request may have.
const MAX_HEADERS: usize = 64;

/// Why a request could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fail {
    /// The client closed the connection or the socket failed: there is no one to answer.
    Closed,
    /// The request is refused with this status and message.
    Refuse(u16, String),
}

impl Fail {
    fn refuse(status: u16, message: impl Into<String>) -> Fail {
        Fail::Refuse(status, message.into())
    }
}

/// How the body of a request is delimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// No body.
    Empty,
    /// `Content-Length` bytes.
    Length(u64),
    /// Chunked transfer coding.
    Chunked,
}

/// A request's line and the headers the server acts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    /// The method, as sent (`GET`, `POST`, ...).
    pub method: String,
    /// The request target without its query.
    pub path: String,
    /// How the body is delimited.
    pub framing: Framing,
    /// The client sent `Expect: 100-continue` and waits before sending the body.
    pub expects_continue: bool,
}

/// A request being read: the source and the bytes read from it but not yet used.
pub struct Incoming<R> {
    source: R,
    buf: Vec<u8>,
    pos: usize,
}

impl<R: Read> Incoming<R> {
    /// Starts reading a request from `source`.
    pub fn new(source: R) -> Incoming<R> {
        Incoming {
            source,
            buf: Vec::with_capacity(4096),
            pos: 0,
        }
    }

    /// Bytes received and not yet used.
    pub fn buffered(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// Reads more bytes; false at the end of the stream. A read that times out refuses
    /// the request with 408.
    fn fill(&mut self) -> Result<bool, Fail> {
        if self.pos > 0 && self.pos == self.buf.len() {
            self.buf.clear();
            self.pos = 0;
        }
        let start = self.buf.len();
        self.buf.resize(start + 8192, 0);
        let read = loop {
            match self.source.read(&mut self.buf[start..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    self.buf.truncate(start);
                    return Err(Fail::refuse(408, "the request was not received in time"));
                }
                Err(_) => {
                    self.buf.truncate(start);
                    return Err(Fail::Closed);
                }
            }
        };
        self.buf.truncate(start + read);
        Ok(read > 0)
    }

    /// Reads and parses the request head.
    pub fn head(&mut self) -> Result<Head, Fail> {
        loop {
            let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
            let mut request = httparse::Request::new(&mut headers);
            match request.parse(&self.buf[self.pos..]) {
                Ok(httparse::Status::Complete(len)) => {
                    let head = head_of(&request)?;
                    self.pos += len;
                    return Ok(head);
                }
                Ok(httparse::Status::Partial) => {}
                Err(httparse::Error::TooManyHeaders) => {
                    return Err(Fail::refuse(431, "too many request headers"));
                }
                Err(e) => return Err(Fail::refuse(400, format!("bad HTTP request: {e}"))),
            }
            if self.buf.len() - self.pos >= HEAD_LIMIT {
                return Err(Fail::refuse(
                    431,
                    format!("request head longer than {HEAD_LIMIT} bytes"),
                ));
            }
            if !self.fill()? {
                return Err(Fail::Closed);
            }
        }
    }

    /// Reads the body `head` announces; 413 as soon as it is known to be longer than
    /// `limit` (from the declared length before reading any of it).
    pub fn body(&mut self, head: &Head, limit: usize) -> Result<Vec<u8>, Fail> {
        let too_large = || Fail::refuse(413, format!("request body larger than {limit} bytes"));
        match head.framing {
            Framing::Empty => Ok(Vec::new()),
            Framing::Length(n) => {
                let n = usize::try_from(n)
                    .ok()
                    .filter(|&n| n <= limit)
                    .ok_or_else(too_large)?;
                self.take(n)
            }
            Framing::Chunked => {
                let mut body = Vec::new();
                loop {
                    let size = self.chunk_size()?;
                    if size == 0 {
                        self.trailers()?;
                        return Ok(body);
                    }
                    let size = usize::try_from(size)
                        .ok()
                        .filter(|&s| s <= limit - body.len())
                        .ok_or_else(too_large)?;
                    body.extend_from_slice(&self.take(size)?);
                    if self.take(2)? != b"\r\n" {
                        return Err(Fail::refuse(400, "a chunk does not end with CRLF"));
                    }
                }
            }
        }
    }

    /// The next `n` bytes.
    fn take(&mut self, n: usize) -> Result<Vec<u8>, Fail> {
        while self.buf.len() - self.pos < n {
            if !self.fill()? {
                return Err(Fail::refuse(400, "the request body ended early"));
            }
        }
        let bytes = self.buf[self.pos..self.pos + n].to_vec();
        self.pos += n;
        Ok(bytes)
    }

    /// Reads a chunk-size line.
    fn chunk_size(&mut self) -> Result<u64, Fail> {
        loop {
            match httparse::parse_chunk_size(&self.buf[self.pos..]) {
                Ok(httparse::Status::Complete((len, size))) => {
                    self.pos += len;
                    return Ok(size);
                }
                Ok(httparse::Status::Partial) => {}
                Err(_) => return Err(Fail::refuse(400, "bad chunk size")),
            }
            if self.buf.len() - self.pos >= HEAD_LIMIT {
                return Err(Fail::refuse(400, "bad chunk size"));
            }
            if !self.fill()? {
                return Err(Fail::refuse(400, "the request body ended early"));
            }
        }
    }

    /// Skips the trailer section after the last chunk, up to its empty line.
    fn trailers(&mut self) -> Result<(), Fail> {
        let mut skipped = 0;
        loop {
            let rest = &self.buf[self.pos..];
            if let Some(end) = rest.windows(2).position(|w| w == b"\r\n") {
                self.pos += end + 2;
                skipped += end + 2;
                if end == 0 {
                    return Ok(());
                }
                continue;
            }
            if skipped + rest.len() >= HEAD_LIMIT {
                return Err(Fail::refuse(431, "request trailers too long"));
            }
            if !self.fill()? {
                return Err(Fail::refuse(400, "the request body ended early"));
            }
        }
    }
}

/// The parts of a parsed head the server needs, checked.
fn head_of(request: &httparse::Request) -> Result<Head, Fail> {
    let method = request.method.unwrap_or_default().to_string();
    let target = request.path.unwrap_or_default();
    // An absolute-form target (`http://host/path`) names the path after its authority.
    let target = match target.split_once("://") {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("http") => {
            rest.find('/').map_or("/", |i| &rest[i..])
        }
        _ => target,
    };
    let path = target.split('?').next().unwrap_or_default().to_string();
    let mut length: Option<u64> = None;
    let mut chunked = false;
    let mut expects_continue = false;
    for h in request.headers.iter() {
        let value = std::str::from_utf8(h.value).unwrap_or("").trim();
        if h.name.eq_ignore_ascii_case("content-length") {
            // Digits only: `parse` would also take a sign.
            let n = Some(value)
                .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or_else(|| Fail::refuse(400, format!("bad Content-Length {value:?}")))?;
            if length.is_some_and(|m| m != n) {
                return Err(Fail::refuse(400, "conflicting Content-Length headers"));
            }
            length = Some(n);
        } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
            // Chunked is the one coding decoded here: any other (gzip, chunked) would
            // reach the endpoints still encoded.
            if !value.eq_ignore_ascii_case("chunked") {
                return Err(Fail::refuse(
                    501,
                    format!("transfer coding {value:?} is not supported"),
                ));
            }
            chunked = true;
        } else if h.name.eq_ignore_ascii_case("expect") {
            if !value.eq_ignore_ascii_case("100-continue") {
                return Err(Fail::refuse(417, format!("cannot meet Expect: {value}")));
            }
            expects_continue = true;
        }
    }
    // A chunked body's length is in its chunks; Content-Length beside it is ignored
    // (RFC 9112, 6.3).
    let framing = match (chunked, length) {
        (true, _) => Framing::Chunked,
        (false, Some(0) | None) => Framing::Empty,
        (false, Some(n)) => Framing::Length(n),
    };
    Ok(Head {
        method,
        path,
        framing,
        expects_continue,
    })
}

/// The reason phrase of a status code the server sends.
pub fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Content Too Large",
        417 => "Expectation Failed",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8], limit: usize) -> Result<(Head, Vec<u8>), Fail> {
        let mut incoming = Incoming::new(bytes);
        let head = incoming.head()?;
        let body = incoming.body(&head, limit)?;
        Ok((head, body))
    }

    #[test]
    fn a_request_with_a_length() {
        let (head, body) = read(
            b"POST /api/solve?x=1 HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcdef",
            10,
        )
        .unwrap();
        assert_eq!(head.method, "POST");
        assert_eq!(head.path, "/api/solve");
        assert_eq!(head.framing, Framing::Length(3));
        assert_eq!(body, b"abc");
        let (head, _) = read(b"GET http://localhost:8765/app.js?v=1 HTTP/1.1\r\n\r\n", 10).unwrap();
        assert_eq!(head.path, "/app.js");
        let (head, _) = read(b"GET http://localhost HTTP/1.1\r\n\r\n", 10).unwrap();
        assert_eq!(head.path, "/");
    }

    #[test]
    fn a_chunked_request_with_trailers() {
        let bytes = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\nT: 1\r\n\r\n";
        let (head, body) = read(bytes, 10).unwrap();
        assert_eq!(head.framing, Framing::Chunked);
        assert_eq!(body, b"abcde");
    }

    #[test]
    fn limits_hold_before_the_body_is_read() {
        let declared = b"POST / HTTP/1.1\r\nContent-Length: 100000000000000000\r\n\r\nab";
        assert!(matches!(read(declared, 10), Err(Fail::Refuse(413, _))));
        let overflow = b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n";
        assert!(matches!(read(overflow, 10), Err(Fail::Refuse(400, _))));
        let chunked = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\nffffffffffff\r\n";
        assert!(matches!(read(chunked, 10), Err(Fail::Refuse(413, _))));
        let long = [b"GET / HTTP/1.1\r\nX: ".as_slice(), &[b'a'; HEAD_LIMIT]].concat();
        assert!(matches!(read(&long, 10), Err(Fail::Refuse(431, _))));
    }

    #[test]
    fn broken_requests_are_refused_or_closed() {
        assert_eq!(read(b"", 10).unwrap_err(), Fail::Closed);
        assert_eq!(read(b"GET / HTTP/1.1\r\nHo", 10).unwrap_err(), Fail::Closed);
        for bytes in [
            b"\x00\x01garbage\r\n\r\n".as_slice(),
            b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab",
            b"POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc",
            b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n0\r\n\r\n",
        ] {
            assert!(
                matches!(read(bytes, 10), Err(Fail::Refuse(400, _))),
                "{}",
                String::from_utf8_lossy(bytes)
            );
        }
        for coding in ["gzip", "gzip, chunked", "chunked, gzip"] {
            let bytes = format!("POST / HTTP/1.1\r\nTransfer-Encoding: {coding}\r\n\r\n");
            assert!(matches!(
                read(bytes.as_bytes(), 10),
                Err(Fail::Refuse(501, _))
            ));
        }
        let signed = b"POST / HTTP/1.1\r\nContent-Length: +2\r\n\r\nab";
        assert!(matches!(read(signed, 10), Err(Fail::Refuse(400, _))));
    }
}
