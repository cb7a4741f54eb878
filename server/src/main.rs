//! The `perch-server` command line: `serve` runs the interface and the app.

use clap::{Parser, Subcommand};
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "perch-server", version, about = "Perch's reference server for the social posting interface")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the interface under /api/v1 and, with --static, the web app.
    Serve {
        /// The SQLite database file (created with its folder when missing).
        #[arg(long, env = "PERCH_DB", default_value = "data/perch.db")]
        db: PathBuf,
        /// Where to listen.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: SocketAddr,
        /// A trunk build (`dist/`) to serve, with client routes falling back to its index.html.
        #[arg(long = "static")]
        static_dir: Option<PathBuf>,
        /// Fill an empty database with demo users and posts.
        #[arg(long)]
        demo: bool,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "perch_server=info,tower_http=warn".into()),
        )
        .init();
    match Cli::parse().command {
        Command::Serve { db, addr, static_dir, demo } => {
            let options = perch_server::ServeOptions { db, static_dir, demo };
            let listener = tokio::net::TcpListener::bind(addr).await?;
            let bound = listener.local_addr()?;
            let server = perch_server::start(listener, options).await?;
            println!("Perch is serving on http://{bound}");
            server.until_signal().await
        }
    }
}
