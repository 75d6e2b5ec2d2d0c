//! `sudokit serve`: the local web page (see the `sudokit-web` crate for the endpoints
//! and the page). Binds 127.0.0.1 unless `--bind` names another address, so the
//! page is private to this machine by default.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use anyhow::{Result, anyhow};
use clap::Args;
use sudokit_web::{Budget, Config, DEFAULT_PORT, Server};

/// Arguments of `sudokit serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port; the URL is printed).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// Address to listen on. The default keeps the page private to this machine; give
    /// another address (e.g. 0.0.0.0) only on a network you trust.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: IpAddr,
    /// Open the page in a browser once the server listens.
    #[arg(long)]
    pub open: bool,
    /// API requests answered at once (default: one per core, at least 2); page
    /// loads and slow clients do not count.
    #[arg(long, value_name = "N")]
    pub workers: Option<usize>,
    /// Time limit of each request.
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = crate::cli::parse_duration)]
    pub time_limit: Duration,
}

/// Runs `sudokit serve` until Ctrl-C (exit code 0).
pub fn run(args: ServeArgs) -> Result<u8> {
    let workers = crate::threads(args.workers).max(2);
    let config = Config {
        addr: SocketAddr::new(args.bind, args.port),
        workers,
        budget: Budget::new(args.time_limit, workers),
        ..Config::default()
    };
    let server = Server::start(config).map_err(|e| anyhow!(e))?;
    let url = server.url();
    println!("sudokit: serving {url} (Ctrl-C stops)");
    if args.open {
        if let Err(e) = sudokit_web::open_browser(&url) {
            eprintln!("sudokit: {e}; open {url} yourself");
        }
    }
    // The first Ctrl-C only raises the shared flag (see `batch::handle_interrupts`);
    // for a server that is the normal way to stop, so it ends with 0.
    while !crate::batch::interrupted() {
        std::thread::sleep(Duration::from_millis(100));
    }
    server.stop();
    eprintln!("sudokit: stopped");
    Ok(0)
}
