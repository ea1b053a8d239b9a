//! The texts of a session's decisions: where each comes from ([`Text`]),
//! decided once, here, and the texts the session writes itself
//! ([`Pieces`]), as pieces of bytes and their size. The Rust API joins a
//! text into a `String`; the C ABI places the same bytes in its buffers,
//! or points at the classification's own string where the text is one of
//! those.

use std::fmt;

use super::{Action, Session, Verdict};
use crate::reply::{Owed, Role};
use crate::rules::Classification;

/// Where the text of a decision comes from.
#[derive(Debug)]
pub(crate) enum Text<'a> {
    /// The action has no text: the line goes on as it stands, or nowhere.
    None,
    /// The line's reply in the session's role
    /// ([`Classification::reply`]): in the C ABI, the classification's
    /// `reply_server` or `reply_client`.
    Reply(&'a Classification<'a>, Role),
    /// The line's own substitute ([`Classification::substitute`]): in the
    /// C ABI, the classification's `substitute`.
    Substitute(&'a Classification<'a>),
    /// A text the session writes itself.
    Written(Pieces<'a>),
}

impl Text<'_> {
    /// The text, as the Rust API hands it out.
    pub(crate) fn into_string(self) -> Option<String> {
        match self {
            Text::None => None,
            Text::Reply(c, role) => c.reply(role),
            Text::Substitute(c) => c.substitute(),
            Text::Written(pieces) => Some(pieces.joined()),
        }
    }
}

/// A text a session writes itself, in pieces of bytes to be joined.
#[derive(Debug)]
pub(crate) enum Pieces<'a> {
    /// A message's normal form (SPEC 10.5): the line classified so, and its
    /// bytes.
    Normalized(&'a Classification<'a>, &'a [u8]),
    /// A reply or a substitute whose message is fixed: the substitute for a
    /// request that is not the line's own, the reply to a refused request,
    /// the substitute for a refused response.
    Owed(Owed<'a>),
    /// An error that named no request, with the id put in (SPEC §9).
    Attributed([&'a str; 5]),
}

impl Pieces<'_> {
    /// Hands each piece, in order, to `piece`.
    pub(crate) fn each(&self, mut piece: impl FnMut(&[u8])) {
        match self {
            Pieces::Normalized(c, line) => normalized(c, line).into_iter().flatten().for_each(piece),
            Pieces::Owed(owed) => {
                let _ = owed.write(owed.message.fixed().unwrap_or_default(), &mut Each(&mut piece));
            }
            Pieces::Attributed(parts) => parts.iter().for_each(|part| piece(part.as_bytes())),
        }
    }

    /// The text's size in bytes.
    pub(crate) fn size(&self) -> usize {
        let mut size = 0;
        self.each(|piece| size += piece.len());
        size
    }

    /// The text, joined.
    pub(crate) fn joined(&self) -> String {
        let mut text = String::with_capacity(self.size());
        self.each(|piece| text.push_str(&String::from_utf8_lossy(piece)));
        text
    }

    /// Whether the text is exactly `bytes`.
    pub(crate) fn is(&self, bytes: &[u8]) -> bool {
        let mut rest = Some(bytes);
        self.each(|piece| rest = rest.and_then(|rest| rest.strip_prefix(piece)));
        rest.is_some_and(<[u8]>::is_empty)
    }
}

/// Hands what is written to it on, piece by piece.
struct Each<F>(F);

impl<F: FnMut(&[u8])> fmt::Write for Each<F> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        (self.0)(text.as_bytes());
        Ok(())
    }
}

impl Session {
    /// Where the text of `verdict` comes from, for the line `line`
    /// classified `c`: the reply or the substitute the classification
    /// carries, a text the session writes (the normal form, a substitute
    /// for another id, an attributed error), or none. For a line over the
    /// limit `line` is empty (its bytes are not held) and `c` is what its
    /// first bytes hold, if anything.
    pub(crate) fn text<'a>(&self, verdict: &'a Verdict, c: Option<&'a Classification<'a>>, line: &'a [u8]) -> Text<'a> {
        let Some(c) = c else { return Text::None };
        match (verdict.action, verdict.id.as_deref()) {
            (Action::Forward, _) if c.normal.is_some() => Text::Written(Pieces::Normalized(c, line)),
            (Action::Answer, _) => Text::Reply(c, self.role),
            (Action::Substitute, None) => Text::Substitute(c),
            (Action::Substitute, Some(id)) => Text::Written(Pieces::Owed(Owed::substitute(id))),
            (Action::Attribute, Some(id)) => match attributed(c, line, id) {
                Some(parts) => Text::Written(Pieces::Attributed(parts)),
                None => Text::None,
            },
            _ => Text::None,
        }
    }
}

/// An MCP message that not every SDK's reader takes as it stands (a raw
/// CR, which Python's reader splits lines at; whitespace around the value,
/// which Go's refuses; a member given twice, whose first value a typed
/// decoder may refuse), in pieces to be joined: its members, each with its
/// last value, whitespace outside strings removed, ids and every other
/// value's text kept exactly (SPEC 10.5). `None` for a line handed on as
/// it stands.
fn normalized<'a>(c: &Classification<'_>, line: &'a [u8]) -> Option<impl Iterator<Item = &'a [u8]>> {
    let spans = c.spans;
    let named = [
        ("jsonrpc", Some(c.normal?)),
        ("id", spans.id),
        ("method", spans.method),
        ("params", spans.params),
        ("result", spans.result),
        ("error", spans.error),
    ];
    let mut first = true;
    let members = named.into_iter().filter_map(|(name, value)| Some((name, value?))).flat_map(move |(name, value)| {
        let lead: &'static [u8] = if std::mem::take(&mut first) { b"{\"" } else { b",\"" };
        [lead, name.as_bytes(), b"\":"].into_iter().chain(crate::log_text::compact_pieces(value.of(line)))
    });
    Some(members.chain([&b"}"[..]]))
}

/// The error response `line`, which names no request, with `id` put in
/// place of its null or missing id (SPEC §9's handshake rule), without the
/// whitespace around it, in pieces to be joined. `None` only for a line
/// that is no such response.
fn attributed<'a>(c: &Classification<'_>, line: &'a [u8], id: &'a str) -> Option<[&'a str; 5]> {
    let line = std::str::from_utf8(line).ok()?;
    let end = line.trim_end_matches([' ', '\t', '\r', '\n']).len();
    let start = line.len() - line.trim_start_matches([' ', '\t', '\r', '\n']).len();
    Some(match c.spans.id {
        Some(span) => [line.get(start..span.offset)?, id, line.get(span.offset + span.len..end)?, "", ""],
        // The object has members (an error and jsonrpc): put the id first.
        None => [line.get(start..start + 1)?, "\"id\":", id, ",", line.get(start + 1..end)?],
    })
}
