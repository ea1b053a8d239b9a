//! An MCP server on rmcp, the official Rust SDK, with one tool, `echo`,
//! served over stdio by `jsonrpc_envelope_rmcp::stdio()` in place of rmcp's
//! own `rmcp::transport::stdio()`: that one line is the only change.
//!
//!     examples/rust/sdk_server.sh [--sdk-transport]
//!
//! `--sdk-transport` serves the same server on rmcp's own transport, for
//! comparison (the tests' control). Log records go to stderr
//! (`RUST_LOG` names the level: error, warn, info, debug or trace; warn by default).

use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct EchoRequest {
    /// The text to echo.
    text: String,
}

#[derive(Debug, Clone)]
struct Echo {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Echo {
    fn new() -> Self {
        Echo { tool_router: Self::tool_router() }
    }

    #[tool(description = "Returns the text it is given.")]
    fn echo(&self, Parameters(EchoRequest { text }): Parameters<EchoRequest>) -> String {
        text
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Echo {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // RUST_LOG names one level (error, warn, info, debug, trace); warn when unset.
    let level = std::env::var("RUST_LOG").ok().and_then(|l| l.parse().ok()).unwrap_or(tracing::Level::WARN);
    tracing_subscriber::fmt().with_max_level(level).with_writer(std::io::stderr).with_ansi(false).init();
    let service = if std::env::args().skip(1).any(|a| a == "--sdk-transport") {
        Echo::new().serve(rmcp::transport::stdio()).await? // rmcp's own transport
    } else {
        Echo::new().serve(jsonrpc_envelope_rmcp::stdio()).await?
    };
    service.waiting().await?;
    Ok(())
}
