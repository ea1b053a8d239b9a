//! Where a server's failures come from: the stdio transports of the
//! official MCP SDKs whose failures the probe knows (measured by
//! `make test-probe` with each SDK's echo server on its own transport, the
//! versions pinned in peers/), each told by a few lines it fails in its own
//! way. A server whose failures hold every sign of one has them from that
//! transport, not from its own code.

use super::Outcome;

/// A known transport.
pub struct Transport {
    /// The SDK, as its users name it.
    pub sdk: &'static str,
    /// The version the signs were measured with.
    pub measured: &'static str,
    /// This project's transport for it: the one-line change.
    pub ours: &'static str,
    /// Lines it fails, and how: (group key, line name, verdict).
    signs: &'static [(&'static str, &'static str, &'static str)],
}

pub const KNOWN: [Transport; 3] = [
    Transport {
        sdk: "the official Python MCP SDK",
        measured: "mcp 2.3.0",
        ours: "run(server) from jsonrpc_envelope.mcpstdio for server.run(\"stdio\")",
        signs: &[
            ("limits", "a lone surrogate as the id", "missing"),
            ("limits", "a request nested 100,000 levels deep", "missing"),
            ("envelope_vectors", "batch of one request", "missing"),
        ],
    },
    Transport {
        sdk: "the official TypeScript MCP SDK",
        measured: "@modelcontextprotocol/sdk 1.32.2",
        ours: "StdioServerTransport from 'jsonrpc-envelope/mcpstdio/server'",
        signs: &[
            ("limits", "invalid UTF-8 in a request", "missing"),
            ("envelope_vectors", "member names are case-sensitive: Method is not method", "missing"),
            ("envelope_vectors", "batch of one request", "missing"),
        ],
    },
    Transport {
        sdk: "the official Go MCP SDK",
        measured: "github.com/modelcontextprotocol/go-sdk 1.8.0",
        ours: "&mcpstdio.StdioTransport{} for &mcp.StdioTransport{}",
        signs: &[("envelope_vectors", "bad escape", "died"), ("envelope_vectors", "NaN", "died")],
    },
];

/// The known transport whose every sign is among `outcomes`' failures.
pub fn matching(outcomes: &[Outcome]) -> Option<&'static Transport> {
    KNOWN.iter().find(|transport| {
        transport.signs.iter().all(|&(group, name, verdict)| {
            outcomes
                .iter()
                .any(|o| o.grade.is_some() && o.group.key() == group && o.name == name && o.verdict.name() == verdict)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::KNOWN;
    use crate::probe::lines;

    #[test]
    fn every_sign_names_a_line_the_probe_sends() {
        let all = lines::all(0, 0);
        for transport in &KNOWN {
            for &(group, name, _) in transport.signs {
                assert!(all.iter().any(|l| l.group.key() == group && l.name == name), "{group}: {name}");
            }
        }
    }
}
