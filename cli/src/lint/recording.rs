//! `lint --recording`: a guard's recording (SPEC §8, `--record`) replayed
//! through the library's relay as the guard ran it: what the host sent read
//! as a server reads its input, what the server wrote as its host reads it,
//! each direction's requests handed on outstanding for the other. The
//! findings come in the recording's order.

use std::io::{self, Read, Write};

use jsonrpc_envelope::{Direction, Line, Profile, Relay};
use serde_json::Value;

use super::Review;
use crate::guard::recording;

/// Lints the recording `input`, whose lines were at most `max_line` bytes,
/// read by `profile`. Returns whether any line would trouble a peer.
pub fn run(input: impl Read, profile: Profile, max_line: usize, out: impl Write) -> io::Result<bool> {
    let mut out = io::BufWriter::new(out);
    let mut reviews = Direction::BOTH.map(|dir| Review::new(dir.role(), dir.name()));
    let mut relay = Relay::new(profile, max_line);
    let index = |dir: Direction| Direction::BOTH.iter().position(|&d| d == dir).expect("both directions");
    // An entry escapes each byte of its line into at most six.
    let entry_limit = max_line.saturating_mul(6).saturating_add(1024);
    let mut entries = 0u64;
    crate::stream::for_each_line(input, entry_limit, Profile::default(), |entry| {
        entries += 1;
        let Line::Complete { bytes, .. } = entry else {
            return Err(bad(entries, format!("over {entry_limit} bytes (lint --max-line sets the line limit)")));
        };
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        let value: Value = serde_json::from_slice(bytes).map_err(|e| bad(entries, e.to_string()))?;
        let dir = value.get(recording::DIR).and_then(Value::as_str).and_then(Direction::from_name);
        let number = value.get(recording::N).and_then(Value::as_u64);
        let kind = value.get(recording::KIND).and_then(Value::as_str);
        let (Some(dir), Some(number), Some(kind)) = (dir, number, kind) else {
            return Err(bad(entries, format!("needs {}, {} and {}", recording::DIR, recording::N, recording::KIND)));
        };
        let bytes = recording::line_of(&value).map_err(|e| bad(entries, e))?;
        let line = match &bytes {
            None => {
                let len = value.get(recording::LENGTH).and_then(Value::as_u64).unwrap_or(0);
                Line::TooLong { number, len: usize::try_from(len).unwrap_or(usize::MAX), head: None }
            }
            Some(bytes) => Line::Complete { number, bytes, classification: profile.classify(bytes) },
        };
        let decision = relay.decide(dir, &line);
        let instead = (line.kind_name() != kind).then(|| {
            let (now, profile) = (line.kind_name(), profile.name());
            format!("recorded as {kind}; the library now says {now} (by the {profile} profile)")
        });
        reviews[index(dir)].line(&mut out, &line, &decision, instead)
    })?;
    let mut troubled = false;
    for review in &reviews {
        review.summary(&mut out)?;
        troubled |= review.troubled > 0;
    }
    out.flush()?;
    Ok(troubled)
}

fn bad(entry: u64, why: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("recording line {entry}: not a guard recording entry: {why}"))
}
