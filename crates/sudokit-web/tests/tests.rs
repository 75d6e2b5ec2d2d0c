//! Integration tests of the web server: the endpoints over real HTTP and the page in a
//! headless browser (when Chromium and Node are there). The load test is a binary of its
//! own (`load.rs`), alone in its process while it measures the resident set.

mod browser;
mod corpus;
mod endpoints;
mod random;
mod util;
