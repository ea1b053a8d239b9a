//! The server's own line limit (SPEC §11): the longest request line it
//! answers, found by halving between 1 MiB and the library's limit for the
//! profile, to the byte. Each try is a keep-alive request padded inside
//! `params._meta` to the length tried (its LF counted), followed by a plain
//! keep-alive, so that a server that drops a long line in silence costs no
//! timeout.

use std::time::Duration;

use jsonrpc_envelope::{IdKey, Profile, classify};
use serde_json::{Value, json};

use super::driver::{Driver, Waited};

/// Where the halving starts.
const FLOOR: usize = 1 << 20;
/// After the plain keep-alive's answer, how long a long line's answer may
/// still take (a server that serves requests concurrently).
const AFTER: Duration = Duration::from_millis(150);

/// What the halving found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The longest line the library reads in the profile, counted with its
    /// LF (its limit, `Profile::default_max_line`, is without it).
    pub library: usize,
    /// The longest line answered, if any was.
    pub longest_answered: Option<usize>,
    /// The shortest line not answered, if any was tried.
    pub shortest_unanswered: Option<usize>,
    /// How many lines were tried.
    pub tries: usize,
}

impl Found {
    pub fn to_json(&self) -> Value {
        json!({
            "library": self.library,
            "longest_answered": self.longest_answered,
            "shortest_unanswered": self.shortest_unanswered,
            "tries": self.tries,
        })
    }

    /// One line for the text report.
    pub fn words(&self) -> String {
        let library = self.library;
        match (self.longest_answered, self.shortest_unanswered) {
            (Some(n), None) => {
                format!("answers lines of {n} bytes, the library's limit ({library}), and so all it reads")
            }
            (Some(n), Some(_)) => {
                format!(
                    "answers lines up to {n} bytes (with the LF), not one byte more; the library's limit: {library}"
                )
            }
            (None, Some(n)) => format!("answered no line of {n} bytes (with the LF); the library reads {library}"),
            (None, None) => "not found (the server could not be started again)".to_owned(),
        }
    }
}

pub fn find(driver: &mut Driver<'_>, profile: Profile) -> Found {
    // The longest line the library reads, counted as the tries are: with
    // its LF.
    let library = profile.default_max_line() + 1;
    let mut found = Found { library, longest_answered: None, shortest_unanswered: None, tries: 0 };
    // `None`: the server could not be started again; the search stops.
    let answered = |driver: &mut Driver<'_>, found: &mut Found, length: usize| -> Option<bool> {
        found.tries += 1;
        let yes = tries(driver, length)?;
        if yes {
            found.longest_answered = Some(length);
        } else {
            found.shortest_unanswered = Some(length);
        }
        Some(yes)
    };
    let stopped = |mut found: Found| {
        found.longest_answered = None;
        found.shortest_unanswered = None;
        found
    };
    match answered(driver, &mut found, library) {
        Some(true) => return found,
        Some(false) => {}
        None => return stopped(found),
    }
    let floor = FLOOR.min(library);
    match answered(driver, &mut found, floor) {
        Some(true) => {}
        Some(false) => return found,
        None => return stopped(found),
    }
    let (mut lo, mut hi) = (floor, library);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        match answered(driver, &mut found, mid) {
            Some(true) => lo = mid,
            Some(false) => hi = mid,
            None => return stopped(found),
        }
    }
    found.longest_answered = Some(lo);
    found.shortest_unanswered = Some(hi);
    found
}

/// Whether the server answers a request line of `length` bytes (its LF
/// counted); `None` when it had ended and could not be started again. A
/// server that died or hung is stopped (and started again for the next
/// try).
fn tries(driver: &mut Driver<'_>, length: usize) -> Option<bool> {
    if !driver.is_running() && driver.restart().is_err() {
        return None;
    }
    let id = driver.fresh_id();
    let keepalive = driver.era.keepalive();
    let bare = driver.era.request(&id, keepalive, "", r#""dev.jsonrpc-envelope/pad":"""#);
    // The answer's key, from the request before it is padded.
    let key = IdKey::of(&classify(bare.as_bytes()));
    // The line and its LF, padded to `length`.
    let pad = length.saturating_sub(bare.len() + 1);
    let line = bare.replacen(
        r#""dev.jsonrpc-envelope/pad":"""#,
        &format!(r#""dev.jsonrpc-envelope/pad":"{}""#, "a".repeat(pad)),
        1,
    );
    driver.send(line.into_bytes());
    let (plain, plain_id) = driver.keepalive_request();
    let mut got = Vec::new();
    let answered_long = |got: &[Vec<u8>]| got.iter().any(|g| answers(g, key.as_ref()));
    Some(match driver.request(plain, &plain_id, &mut got) {
        Waited::Answered(_) => {
            if !answered_long(&got) {
                let (wait, wait_id) = driver.keepalive_request();
                std::thread::sleep(AFTER);
                let _ = driver.request(wait, &wait_id, &mut got);
            }
            answered_long(&got)
        }
        Waited::Died(_) | Waited::Hung => {
            let yes = answered_long(&got);
            driver.stop();
            yes
        }
    })
}

/// Whether `line` is a result by the request's id (`key`): the request was
/// read and served (an error, such as "the line is longer than this peer
/// reads", is no proof the line was read).
fn answers(line: &[u8], key: Option<&IdKey>) -> bool {
    let c = classify(line);
    key.is_some() && IdKey::of(&c).as_ref() == key && c.method.is_none() && c.has_result && !c.has_error
}
