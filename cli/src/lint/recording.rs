//! `lint --recording`: a guard's recording (SPEC §8, `--record`) reviewed
//! direction by direction, each with the role the guard read it as: what
//! the host sent as a server reads its input, what the server wrote as its
//! host reads it. Findings come in the session's order.

use std::io::{self, Read, Write};

use jsonrpc_envelope::{Line, classify};
use serde_json::Value;

use super::Review;
use crate::guard::record;
use crate::guard::table::Direction;

/// Lints the recording `input`, whose lines were at most `max_line` bytes.
/// Returns whether any line would trouble a peer.
pub fn run(input: impl Read, max_line: usize, out: impl Write) -> io::Result<bool> {
    let mut out = io::BufWriter::new(out);
    let mut reviews = Direction::BOTH
        .map(|dir| (dir, Review::new(dir.role(), dir.name(), "over the guard's line limit; dropped".to_owned())));
    // A record escapes each byte of its line into at most six.
    let record_limit = max_line.saturating_mul(6).saturating_add(1024);
    let mut records = 0u64;
    super::super::stream::for_each_line(input, record_limit, |entry| {
        records += 1;
        let Line::Complete { bytes, .. } = entry else {
            return Err(bad(records, format!("over {record_limit} bytes (lint --max-line sets the line limit)")));
        };
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        let value: Value = serde_json::from_slice(bytes).map_err(|e| bad(records, e.to_string()))?;
        let dir = value.get(record::DIR).and_then(Value::as_str).and_then(Direction::from_name);
        let number = value.get(record::N).and_then(Value::as_u64);
        let kind = value.get(record::KIND).and_then(Value::as_str);
        let (Some(dir), Some(number), Some(kind)) = (dir, number, kind) else {
            return Err(bad(records, format!("needs {}, {} and {}", record::DIR, record::N, record::KIND)));
        };
        let review = &mut reviews.iter_mut().find(|(d, _)| *d == dir).expect("both directions").1;
        match record::line_of(&value).map_err(|e| bad(records, e))? {
            None => {
                let len = value.get(record::LENGTH).and_then(Value::as_u64).unwrap_or(0);
                review.line(&mut out, &Line::TooLong { number, len: usize::try_from(len).unwrap_or(usize::MAX) })
            }
            Some(line) => {
                let classification = classify(&line);
                let line = Line::Complete { number, bytes: &line, classification };
                if line.kind_name() == kind {
                    review.line(&mut out, &line)
                } else {
                    let finding = format!("recorded as {kind}; the library now says {}", line.kind_name());
                    review.finding(&mut out, &line, Some(finding))
                }
            }
        }
    })?;
    let mut troubled = false;
    for (_, review) in &reviews {
        review.summary(&mut out)?;
        troubled |= review.troubled > 0;
    }
    out.flush()?;
    Ok(troubled)
}

fn bad(record: u64, why: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("recording line {record}: not a guard record: {why}"))
}
