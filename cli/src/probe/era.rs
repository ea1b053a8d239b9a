//! The two eras of MCP the probe speaks (SPEC §10.8, §11): how it opens a
//! session and writes a request of its own in each.

use std::fmt::Write;

/// The protocol revision the handshake era's `initialize` names.
pub const LEGACY_VERSION: &str = "2025-11-25";
/// The revision without `initialize` and `ping`.
pub const MODERN_VERSION: &str = "2026-07-28";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// `initialize`, `notifications/initialized`, then `ping`.
    Legacy,
    /// `server/discover`; every request carries the revision's `_meta`.
    Modern,
}

impl Era {
    pub fn name(self) -> &'static str {
        match self {
            Era::Legacy => "legacy",
            Era::Modern => "modern",
        }
    }

    /// A request of the probe's own: `id` is its JSON text, `params` the
    /// members of its params object (JSON text without braces, or empty).
    /// In the modern era the params carry the `_meta` every request of
    /// 2026-07-28 must carry, first (a pad the limit lines add comes after
    /// it, inside it).
    pub fn request(self, id: &str, method: &str, params: &str, meta_extra: &str) -> String {
        let mut line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}""#);
        match self {
            Era::Modern => {
                let _ = write!(
                    line,
                    r#","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"{MODERN_VERSION}","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/clientInfo":{}{}}}{}{}}}"#,
                    client_info(),
                    if meta_extra.is_empty() { String::new() } else { format!(",{meta_extra}") },
                    if params.is_empty() { "" } else { "," },
                    params
                );
            }
            Era::Legacy if params.is_empty() && meta_extra.is_empty() => {}
            Era::Legacy => {
                let meta = if meta_extra.is_empty() { String::new() } else { format!(r#""_meta":{{{meta_extra}}}"#) };
                let sep = if !meta.is_empty() && !params.is_empty() { "," } else { "" };
                let _ = write!(line, r#","params":{{{meta}{sep}{params}}}"#);
            }
        }
        line.push('}');
        line
    }

    /// The request that opens a session: `initialize`, or
    /// `server/discover`.
    pub fn opening(self, id: &str) -> String {
        match self {
            Era::Legacy => self.request(
                id,
                "initialize",
                &format!(r#""protocolVersion":"{LEGACY_VERSION}","capabilities":{{}},"clientInfo":{}"#, client_info()),
                "",
            ),
            Era::Modern => self.request(id, "server/discover", "", ""),
        }
    }

    /// What follows the opening's answer: `notifications/initialized`, or
    /// nothing.
    pub fn opened(self) -> Option<&'static str> {
        match self {
            Era::Legacy => Some(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Era::Modern => None,
        }
    }

    /// The cheap request sent after each line, when the server answers it.
    pub fn keepalive(self) -> &'static str {
        match self {
            Era::Legacy => "ping",
            Era::Modern => "server/discover",
        }
    }
}

fn client_info() -> String {
    format!(r#"{{"name":"jsonrpc-envelope probe","version":"{}"}}"#, jsonrpc_envelope::VERSION)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonrpc_envelope::{Kind, Profile};

    #[test]
    fn every_request_of_either_era_is_a_valid_mcp_request() {
        for era in [Era::Legacy, Era::Modern] {
            for line in [
                era.opening("\"o\""),
                era.request("\"k\"", era.keepalive(), "", ""),
                era.request("7", "tools/list", r#""cursor":"c""#, r#""dev.example/pad":"xx""#),
            ] {
                assert_eq!(Profile::Mcp.classify(line.as_bytes()).kind, Kind::Request, "{line}");
                let value: serde_json::Value = serde_json::from_str(&line).unwrap();
                let meta = &value["params"]["_meta"];
                if era == Era::Modern {
                    assert_eq!(meta["io.modelcontextprotocol/protocolVersion"], MODERN_VERSION, "{line}");
                    assert!(meta["io.modelcontextprotocol/clientCapabilities"].is_object());
                }
            }
        }
        let padded = Era::Legacy.request("1", "ping", "", r#""p":"x""#);
        assert_eq!(padded, r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"p":"x"}}}"#);
    }
}
