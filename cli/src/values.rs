//! The value parsers every command shares, from the library's names and
//! defaults.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use jsonrpc_envelope::{Profile, Role};

/// A `--profile` value: one of the library's profile names.
pub fn profile() -> impl TypedValueParser<Value = Profile> {
    PossibleValuesParser::new(Profile::ALL.map(Profile::name)).try_map(|name| name.parse::<Profile>())
}

/// A `--role` value: one of the library's role names.
pub fn role() -> impl TypedValueParser<Value = Role> {
    PossibleValuesParser::new([Role::Client, Role::Server].map(Role::name)).try_map(|name| name.parse::<Role>())
}

/// The help of a `--max-line` option that says `what` it does, with the
/// library's default for each profile.
pub fn max_line_help(what: &str) -> String {
    format!(
        "{what} [default: the profile's: {} for jsonrpc, {} for mcp (the longest line every official MCP SDK reads)]",
        Profile::JsonRpc.default_max_line(),
        Profile::Mcp.default_max_line(),
    )
}

/// A `--max-line` value: a positive number of bytes.
pub fn max_line(text: &str) -> Result<usize, String> {
    text.parse().ok().filter(|&n: &usize| n > 0).ok_or_else(|| "not a positive number of bytes".to_owned())
}
