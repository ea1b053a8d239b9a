use std::fmt;

use crate::fallible::OutOfMemory;

/// Why a line is not one valid JSON text in UTF-8. Every variant names the
/// byte offset where the scanner stopped, so a person can find the fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("invalid UTF-8 at byte {0}")]
    InvalidUtf8(usize),
    #[error("unexpected end of the line at byte {0}")]
    End(usize),
    #[error("unexpected {} at byte {at}", Shown(*byte))]
    Unexpected { at: usize, byte: u8 },
    #[error("unescaped control character U+{byte:04X} in a string at byte {at}")]
    Control { at: usize, byte: u8 },
    #[error("bad escape at byte {0}")]
    BadEscape(usize),
    #[error("bad \\u escape at byte {0}")]
    BadUnicodeEscape(usize),
    #[error("bad number at byte {0}")]
    BadNumber(usize),
}

impl ParseError {
    /// The same error, its offset `by` bytes further on (for a line read
    /// after a byte order mark).
    pub(crate) fn shifted(self, by: usize) -> ParseError {
        match self {
            ParseError::InvalidUtf8(at) => ParseError::InvalidUtf8(at + by),
            ParseError::End(at) => ParseError::End(at + by),
            ParseError::Unexpected { at, byte } => ParseError::Unexpected { at: at + by, byte },
            ParseError::Control { at, byte } => ParseError::Control { at: at + by, byte },
            ParseError::BadEscape(at) => ParseError::BadEscape(at + by),
            ParseError::BadUnicodeEscape(at) => ParseError::BadUnicodeEscape(at + by),
            ParseError::BadNumber(at) => ParseError::BadNumber(at + by),
        }
    }
}

/// Why a scan did not finish: the line is not JSON, or the scanner could not
/// get memory for its nesting stack (only a line nested over a thousand
/// levels deep needs any).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ScanError {
    Parse(ParseError),
    OutOfMemory,
}

impl From<ParseError> for ScanError {
    fn from(error: ParseError) -> ScanError {
        ScanError::Parse(error)
    }
}

impl From<OutOfMemory> for ScanError {
    fn from(_: OutOfMemory) -> ScanError {
        ScanError::OutOfMemory
    }
}

/// A byte as a person reads it in a message.
struct Shown(u8);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            b if b.is_ascii_graphic() => write!(f, "character '{}'", b as char),
            b if b >= 0x80 => f.write_str("non-ASCII character"),
            b => write!(f, "byte 0x{b:02X}"),
        }
    }
}
