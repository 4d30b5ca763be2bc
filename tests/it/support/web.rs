//! The web site served over HTTP for the browser tests: a server on 127.0.0.1 that
//! Chromium reaches as its proxy, serving the files of a site's folder for
//! `http://yinsh.test/...` (with a `Content-Security-Policy` header on its pages when
//! asked) and refusing every other request. It keeps each request's first line and
//! its status, so a test sees what a page fetched (a picture, an icon) and what was
//! not found.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The address the site is served at.
pub const SITE: &str = "http://yinsh.test/";

/// A request the server answered: its first line and its status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub line: String,
    pub status: u16,
}

/// A site's folder served as [`SITE`] on a port of 127.0.0.1.
pub struct WebSite {
    pub port: u16,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl WebSite {
    /// Serves `root`; its HTML pages with the header `Content-Security-Policy: csp`
    /// when `csp` is given.
    pub fn serve(root: PathBuf, csp: Option<String>) -> WebSite {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&requests);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (root, kept, csp) = (root.clone(), Arc::clone(&kept), csp.clone());
                std::thread::spawn(move || answer(stream, &root, csp.as_deref(), &kept));
            }
        });
        WebSite { port, requests }
    }

    /// The requests answered so far.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// The requests answered so far whose path (under [`SITE`]) `wanted` accepts.
    pub fn asked(&self, wanted: impl Fn(&str) -> bool) -> Vec<Request> {
        self.requests()
            .into_iter()
            .filter(|r| path_of(&r.line).is_some_and(&wanted))
            .collect()
    }
}

/// The path under [`SITE`] a request's first line asks for, without its query.
pub fn path_of(line: &str) -> Option<&str> {
    let target = line.split_whitespace().nth(1)?;
    let path = target.strip_prefix(SITE)?;
    path.split(['?', '#']).next()
}

/// The content type of a file by its name.
fn kind(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript",
        Some("css") => "text/css",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("ico") => "image/x-icon",
        _ => "application/octet-stream",
    }
}

/// Answers one request of Chromium's (a proxy's: the whole address in its first line).
fn answer(mut stream: TcpStream, root: &Path, csp: Option<&str>, kept: &Mutex<Vec<Request>>) {
    let mut head = Vec::new();
    let mut buf = [0u8; 2048];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 65_536 {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    let head = String::from_utf8_lossy(&head);
    let line = head.lines().next().unwrap_or("").to_string();
    let file = path_of(&line)
        .filter(|p| !p.split('/').any(|part| part == ".."))
        .and_then(|p| {
            let p = if p.is_empty() || p.ends_with('/') {
                format!("{p}index.html")
            } else {
                p.to_string()
            };
            std::fs::read(root.join(&p)).ok().map(|bytes| (p, bytes))
        });
    let (status, response) = match file {
        Some((path, bytes)) => {
            let policy = match csp {
                Some(csp) if path.ends_with(".html") => {
                    format!("Content-Security-Policy: {csp}\r\n")
                }
                _ => String::new(),
            };
            let mut r = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {}\r\n{policy}Content-Length: {}\r\nConnection: close\r\n\r\n",
                kind(&path),
                bytes.len()
            )
            .into_bytes();
            r.extend_from_slice(&bytes);
            (200, r)
        }
        None => (
            404,
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(),
        ),
    };
    if let Ok(mut k) = kept.lock() {
        k.push(Request { line, status });
    }
    let _ = stream.write_all(&response);
}
