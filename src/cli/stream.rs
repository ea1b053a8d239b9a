use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use jsonrpc_envelope::{LineEvent, LineState, lines};

/// Bytes asked of the input at least per read.
const CHUNK: usize = 64 * 1024;

/// The capture: a file, or standard input for none or `-`. A file that
/// cannot be opened is an error that names it.
pub fn open(file: Option<&Path>) -> io::Result<Box<dyn Read>> {
    match file {
        None => Ok(Box::new(io::stdin().lock())),
        Some(path) if path.as_os_str() == "-" => Ok(Box::new(io::stdin().lock())),
        Some(path) => match File::open(path) {
            Ok(file) => Ok(Box::new(file)),
            Err(e) => Err(io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
        },
    }
}

/// Calls `each` with the 1-based line number and every line of `input`, in
/// order, through the library's many-lines splitter. Memory stays bounded
/// by about twice `max_line`: a longer line is dropped as it arrives.
pub fn for_each_line(
    mut input: impl Read,
    max_line: usize,
    mut each: impl FnMut(u64, LineEvent<'_>) -> io::Result<()>,
) -> io::Result<()> {
    let mut state = LineState::new(max_line);
    let mut buf = Vec::new();
    let mut number = 0;
    loop {
        // Reading at least as much as is held keeps the rescans of a long
        // partial line linear in its length.
        let held = buf.len();
        buf.resize(held + CHUNK.max(held), 0);
        let read = read_some(&mut input, &mut buf[held..])?;
        buf.truncate(held + read);
        let end_of_stream = read == 0;
        let mut found = lines(&buf, end_of_stream, &mut state);
        for event in found.by_ref() {
            number += 1;
            each(number, event)?;
        }
        let consumed = found.consumed();
        buf.drain(..consumed);
        if end_of_stream {
            return Ok(());
        }
    }
}

fn read_some(input: &mut impl Read, into: &mut [u8]) -> io::Result<usize> {
    loop {
        match input.read(into) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}
