//! The guard's recording (SPEC §8, `--record FILE`): one entry, a JSON
//! object, per line seen, written here and read back by `lint --recording`.

use std::io::{self, Write};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

use jsonrpc_envelope::Action;

use jsonrpc_envelope::Direction;

/// An entry's fields, in the order they are written.
pub const T: &str = "t";
pub const DIR: &str = "dir";
pub const N: &str = "n";
pub const KIND: &str = "kind";
pub const ACTION: &str = "action";
pub const REPLY: &str = "reply";
/// One of the last three holds the line.
pub const LINE: &str = "line";
pub const LINE_BASE64: &str = "line_base64";
pub const LENGTH: &str = "length";

/// A line, and what the guard did with it.
#[derive(Clone, Copy)]
pub struct Event<'a> {
    pub dir: Direction,
    pub number: u64,
    pub kind: &'static str,
    /// The session's decision (its name is the entry's `action`), or
    /// [`Action::Drop`] for a line that could not be delivered.
    pub action: Action,
    /// The session's note on the action.
    pub note: Option<&'static str>,
    /// The text the guard sent for the line: its answer, or what went on in
    /// the line's place.
    pub reply: Option<&'a str>,
    pub line: Seen<'a>,
}

/// A line's bytes, or only its length when it was over the limit.
#[derive(Clone, Copy)]
pub enum Seen<'a> {
    Bytes(&'a [u8]),
    TooLong(usize),
}

/// Writes the entry of `event`, seen `seconds` after the start, as one JSON
/// line. The line's text is escaped or encoded straight into `out`, never
/// copied whole.
pub fn write_entry(out: &mut impl Write, seconds: f64, event: &Event<'_>) -> io::Result<()> {
    write!(
        out,
        r#"{{"{T}":{:.6},"{DIR}":"{}","{N}":{},"{KIND}":"{}","{ACTION}":"{}","{REPLY}":"#,
        seconds,
        event.dir.name(),
        event.number,
        event.kind,
        event.action.name(),
    )?;
    match event.reply {
        Some(reply) => serde_json::to_writer(&mut *out, reply)?,
        None => out.write_all(b"null")?,
    }
    match event.line {
        Seen::TooLong(len) => write!(out, r#","{LENGTH}":{len}"#)?,
        Seen::Bytes(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => {
                write!(out, r#","{LINE}":"#)?;
                serde_json::to_writer(&mut *out, text)?;
            }
            Err(_) => {
                write!(out, r#","{LINE_BASE64}":""#)?;
                {
                    let mut encoder = base64::write::EncoderWriter::new(&mut *out, &BASE64);
                    encoder.write_all(bytes)?;
                    encoder.finish()?;
                }
                out.write_all(b"\"")?;
            }
        },
    }
    out.write_all(b"}\n")
}

/// A line's bytes from its entry: `line` or `line_base64`; `Ok(None)` for a
/// line whose entry holds its length alone.
pub fn line_of(entry: &serde_json::Value) -> Result<Option<Vec<u8>>, String> {
    if let Some(text) = entry.get(LINE).and_then(|v| v.as_str()) {
        return Ok(Some(text.as_bytes().to_vec()));
    }
    if let Some(encoded) = entry.get(LINE_BASE64).and_then(|v| v.as_str()) {
        return BASE64.decode(encoded).map(Some).map_err(|e| format!("{LINE_BASE64}: {e}"));
    }
    if entry.get(LENGTH).and_then(|v| v.as_u64()).is_some() {
        return Ok(None);
    }
    Err(format!("no {LINE}, {LINE_BASE64} or {LENGTH}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(line: Seen<'_>, reply: Option<&str>) -> String {
        let event = Event {
            dir: Direction::ToServer,
            number: 3,
            kind: "batch",
            action: Action::Answer,
            note: None,
            reply,
            line,
        };
        let mut out = Vec::new();
        write_entry(&mut out, 1.5, &event).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn an_entry_has_the_fields_spec_names_in_order() {
        assert_eq!(
            written(Seen::Bytes(b"[1]\r"), Some("{\"x\":1}")),
            "{\"t\":1.500000,\"dir\":\"to_server\",\"n\":3,\"kind\":\"batch\",\"action\":\"answered\",\
             \"reply\":\"{\\\"x\\\":1}\",\"line\":\"[1]\\r\"}\n"
        );
        assert!(written(Seen::TooLong(99), None).ends_with(",\"reply\":null,\"length\":99}\n"));
    }

    #[test]
    fn a_line_that_is_not_utf8_is_base64_and_reads_back() {
        let bytes = b"p\xffng\n\x00";
        let text = written(Seen::Bytes(bytes), None);
        assert!(text.contains(",\"line_base64\":\"cP9uZwoA\"}"), "{text}");
        let entry: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(line_of(&entry).unwrap().unwrap(), bytes);
    }
}
