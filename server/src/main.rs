//! The `perch-server` command line: `serve`, `user add`, `token`.

use clap::{Parser, Subcommand};
use perch_model::Scope;
use perch_server::sign_in::Cidr;
use perch_server::{accounts, db, ServeOptions};
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "perch-server", version, about = "Perch's reference server for the social posting interface")]
struct Cli {
    /// The SQLite database file (created with its folder when missing).
    #[arg(long, global = true, env = "PERCH_DB", default_value = "data/perch.db")]
    db: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the interface under /api/v1 and, with --static, the web app.
    Serve {
        /// Where to listen.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: SocketAddr,
        /// A trunk build (`dist/`) to serve, with client routes falling back to its index.html.
        #[arg(long = "static")]
        static_dir: Option<PathBuf>,
        /// Fill an empty database with demo people and posts.
        #[arg(long)]
        demo: bool,
        /// With --demo: demo people reply to mira, like, follow and post on
        /// a timer (bounded; stops with the server).
        #[arg(long, requires = "demo")]
        live: bool,
        /// The live demo's pace, in seconds between two acts.
        #[arg(long, default_value_t = 20, requires = "live")]
        live_every: u64,
        /// An origin allowed to call the API from a browser (CORS); repeat for more.
        #[arg(long = "allow-origin", env = "PERCH_ALLOW_ORIGINS", value_delimiter = ',')]
        allow_origins: Vec<String>,
        /// An address people reach this server by (e.g. https://perch.example);
        /// its /oauth/callback is accepted for sign-in. Repeat for more.
        #[arg(long = "public-url", env = "PERCH_PUBLIC_URLS", value_delimiter = ',')]
        public_urls: Vec<String>,
        /// Requests one token may make in a minute before 429.
        #[arg(long, default_value_t = ServeOptions::default().token_requests_per_minute)]
        token_requests_per_minute: u32,
        /// Failed sign-ins for one username from one address in five minutes before 429.
        #[arg(long, default_value_t = ServeOptions::default().sign_in_failures)]
        sign_in_failures: u32,
        /// A reverse proxy (address or block, e.g. 10.0.0.0/8) whose
        /// X-Forwarded-For names the client; repeat for more. Without one,
        /// the header is ignored.
        #[arg(long = "trusted-proxy", env = "PERCH_TRUSTED_PROXIES", value_delimiter = ',')]
        trusted_proxies: Vec<Cidr>,
        /// The most memory, in MB, that answers kept for repeated reads may take.
        #[arg(long, default_value_t = ServeOptions::default().read_cache_bytes / (1024 * 1024))]
        read_cache_mb: usize,
        /// Append one line per accepted API call to FILE: the caller's uuid,
        /// the method and the path (for tests; it names who called what).
        #[arg(long = "request-log")]
        request_log: Option<PathBuf>,
    },
    /// Manage users.
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
    /// Print the Content-Security-Policy header for a built index.html, for
    /// hosting the app on another web server.
    Csp {
        /// The built app's index.html.
        #[arg(default_value = "dist/index.html")]
        index: PathBuf,
        /// The API's origin when it is not the app's own, e.g. https://api.example.org.
        #[arg(long = "connect")]
        connect_to: Vec<String>,
    },
    /// Print a new access token for USERNAME as the last line.
    Token {
        username: String,
        /// Comma-separated scopes (default: all fifteen).
        #[arg(long)]
        scopes: Option<String>,
        /// Days until it expires.
        #[arg(long, default_value_t = 7)]
        days: i64,
    },
}

#[derive(Subcommand)]
enum UserCommand {
    /// Create a user.
    Add {
        username: String,
        #[arg(long)]
        display_name: Option<String>,
        #[arg(long)]
        email: Option<String>,
        /// Without one, the user can only use tokens made with `token`.
        #[arg(long)]
        password: Option<String>,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "perch_server=info,tower_http=warn".into()),
        )
        .init();
    let cli = Cli::parse();
    match cli.command {
        Command::Serve {
            addr,
            static_dir,
            demo,
            live,
            live_every,
            allow_origins,
            public_urls,
            token_requests_per_minute,
            sign_in_failures,
            trusted_proxies,
            read_cache_mb,
            request_log,
        } => {
            let options = ServeOptions {
                db: cli.db,
                static_dir,
                demo,
                live: live.then(|| std::time::Duration::from_secs(live_every.max(1))),
                allow_origins,
                public_urls,
                token_requests_per_minute,
                sign_in_failures,
                trusted_proxies,
                read_cache_bytes: read_cache_mb.saturating_mul(1024 * 1024),
                request_log,
                ..ServeOptions::default()
            };
            // Listen for SIGINT/SIGTERM before anything can answer a request.
            let signals = perch_server::ShutdownSignals::listen()?;
            let listener = tokio::net::TcpListener::bind(addr).await?;
            let bound = listener.local_addr()?;
            let server = perch_server::start(listener, options).await?;
            println!("Perch is serving on http://{bound}");
            server.until(signals).await
        }
        Command::User { command: UserCommand::Add { username, display_name, email, password } } => {
            let pool = db::open(&cli.db).await?;
            let new =
                accounts::NewUser { username: username.clone(), display_name, email, password, ..Default::default() };
            let (_, uuid) = accounts::add_user(&pool, new).await?;
            println!("Created @{username} ({uuid}).");
            Ok(())
        }
        Command::Csp { index, connect_to } => {
            let html = std::fs::read_to_string(&index).map_err(|e| anyhow::anyhow!("{}: {e}", index.display()))?;
            println!(
                "Content-Security-Policy: {}",
                perch_server::static_app::content_security_policy(&html, &connect_to)
            );
            Ok(())
        }
        Command::Token { username, scopes, days } => {
            let scopes = match scopes {
                Some(list) => Scope::parse_list(&list)?,
                None => Scope::ALL.to_vec(),
            };
            anyhow::ensure!(!scopes.is_empty(), "name at least one scope");
            let pool = db::open(&cli.db).await?;
            let token = accounts::cli_token(&pool, &username, &scopes, days * 24 * 3600 * 1000).await?;
            println!("Access token for @{} with {}:", username.trim_start_matches('@'), Scope::join(&scopes));
            println!("{token}");
            Ok(())
        }
    }
}
