//! Integration tests of the web server, one test binary: the endpoints over real HTTP,
//! a load test, and the page in a headless browser (when Chromium and Node are there).

mod browser;
mod corpus;
mod endpoints;
mod load;
mod random;
mod util;
