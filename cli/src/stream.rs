use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use jsonrpc_envelope::{Line, Profile, Reader};

/// Bytes asked of the input per read.
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

/// Calls `each` with every line of `input`, in order, as the library's
/// reader gives them, classified by `profile` (memory stays within
/// `max_line` plus one read).
pub fn for_each_line(
    mut input: impl Read,
    max_line: usize,
    profile: Profile,
    mut each: impl FnMut(Line<'_>) -> io::Result<()>,
) -> io::Result<()> {
    let mut reader = Reader::with_profile(max_line, profile);
    let mut chunk = vec![0; CHUNK];
    loop {
        let read = match input.read(&mut chunk) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => other?,
        };
        let batch = if read == 0 { reader.end() } else { reader.feed(&chunk[..read]) };
        for line in batch.map_err(io::Error::other)? {
            each(line)?;
        }
        if read == 0 {
            return Ok(());
        }
    }
}
