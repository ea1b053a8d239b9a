//! Packing texts into a result's memory: a classification's strings
//! (`Texts`), sized before any is written and placed one after another, and
//! a session's action texts (`ActionTexts`), placed as the session's core
//! says (`crate::session::text`). Nothing here decides what a text says.

use std::ffi::c_char;

use super::input::InputError;
use super::status::Failure;
use super::text::{Counter, Cursor, Formatted, JsonRpcStr, Place};
use crate::fallible::OutOfMemory;
use crate::reply::{Owed, Role};
use crate::rules::Classification;
use crate::session::text::Text;

/// The failure of a text that outgrew the room for formatting it, which
/// none of the library's texts does.
const OUTGREW: Failure = Failure::Internal(c"internal error: a text outgrew its room");

/// The strings a classification hands out, sized before any is written. A
/// method with escapes is decoded straight into its place. Kept small (the
/// texts that need formatting stand apart, in `Unusual`), since every line
/// builds one.
pub(super) struct Texts<'c> {
    id: Option<&'c str>,
    method: Option<Method<'c>>,
    unusual: Option<&'c Unusual<'c>>,
}

struct Method<'c> {
    /// As it stands in the line, between its quotes.
    raw: &'c str,
    escaped: bool,
    len: usize,
}

/// The texts only lines that are not a message have: a reason and the
/// replies, formatted once, on the stack.
pub(super) struct Unusual<'c> {
    reason: Option<Formatted>,
    replies: Option<Replies<'c>>,
    /// An `invalid_response`'s substitute, and its length.
    substitute: Option<(Owed<'c>, usize)>,
    /// An MCP batch whose requests are owed a reply each in role server,
    /// and the length of those replies (SPEC §10.6 (b)).
    batch: Option<(&'c str, usize)>,
}

/// The replies a line is owed, and their one message.
struct Replies<'c> {
    /// The message, where it is not the reason's text.
    message: Option<Formatted>,
    server: Option<(Owed<'c>, usize)>,
    client: Option<(Owed<'c>, usize)>,
}

impl<'c> Texts<'c> {
    /// `c`'s strings; `input_error` is the reason of bytes that are not a
    /// line. The texts of a line that is not a message are formatted into
    /// `unusual`, which the caller keeps (`None` costs nothing).
    #[inline(always)]
    pub(super) fn of(
        c: &'c Classification<'c>,
        input_error: Option<InputError>,
        unusual: &'c mut Option<Unusual<'c>>,
    ) -> Result<Texts<'c>, Failure> {
        let unusual = match Unusual::needed(c, input_error) {
            true => Some(&*unusual.insert(Unusual::of(c, input_error).ok_or(OUTGREW)?)),
            false => None,
        };
        let method = c.method.as_deref().map(|raw| Method {
            raw,
            escaped: c.method_escaped,
            len: if c.method_escaped { crate::scan::decoded_len(raw) } else { raw.len() },
        });
        Ok(Texts { id: c.id, method, unusual })
    }

    /// Bytes needed to store them, a NUL after each.
    #[inline(always)]
    pub(super) fn size(&self) -> usize {
        let len = |len: Option<usize>| len.map_or(0, |len| len + 1);
        len(self.id.map(str::len)) + len(self.method.as_ref().map(|m| m.len)) + self.unusual.map_or(0, Unusual::size)
    }

    /// Places each string, in the order of the result's fields (which is
    /// also the order the scratch layout promises).
    #[inline(always)]
    pub(super) fn place(&self, place: &mut impl Place) -> [JsonRpcStr; 6] {
        let id = self.id.map_or(JsonRpcStr::ABSENT, |id| place.place_text(id.as_bytes()));
        let method = self.method.as_ref().map_or(JsonRpcStr::ABSENT, |m| {
            if !m.escaped {
                return place.place_text(m.raw.as_bytes());
            }
            place.place(m.len, |to| crate::scan::decode(m.raw, |piece| copy(to, piece)))
        });
        let [reason, server, client, substitute] = match self.unusual {
            None => [JsonRpcStr::ABSENT; 4],
            Some(unusual) => unusual.place(place),
        };
        [id, method, reason, server, client, substitute]
    }
}

impl<'c> Unusual<'c> {
    /// Whether `c` (with `input_error`, the reason of bytes that are not a
    /// line) may have a reason, a reply or a substitute.
    #[inline(always)]
    fn needed(c: &Classification<'_>, input_error: Option<InputError>) -> bool {
        input_error.is_some() || c.kind.may_have_texts()
    }

    /// The reason and the replies. `None` only if a text outgrew the room
    /// for formatting it.
    #[cold]
    fn of(c: &'c Classification<'c>, input_error: Option<InputError>) -> Option<Unusual<'c>> {
        let reason = match (input_error, c.reason) {
            (Some(error), _) => Some(Formatted::of(&error)?),
            (None, Some(reason)) => Some(Formatted::of(&reason)?),
            (None, None) => None,
        };
        let substitute = c.substituted().and_then(|owed| {
            let mut counter = Counter::default();
            owed.write(owed.message.fixed()?, &mut counter).ok().map(|()| (owed, counter.0))
        });
        let batch = match c.batch_owed() {
            Some(text) => {
                let mut counter = Counter::default();
                crate::reply::write_batch_reply(text, &mut counter).ok()?;
                Some((text, counter.0))
            }
            None => None,
        };
        let mut unusual = Unusual { reason, replies: None, substitute, batch };
        let (server, client) = (c.owed(Role::Server), c.owed(Role::Client));
        let Some(any) = server.or(client) else {
            return Some(unusual);
        };
        let message = match (any.message, &unusual.reason) {
            (message, Some(_)) if message.is_reason() => None,
            (message, _) => Some(Formatted::of(&message)?),
        };
        let mut replies = Replies { message, server: None, client: None };
        let text = replies.message.as_ref().or(unusual.reason.as_ref())?.as_str();
        let sized = |owed: Owed<'c>| {
            let mut counter = Counter::default();
            owed.write(text, &mut counter).ok().map(|()| (owed, counter.0))
        };
        replies.server = server.and_then(sized);
        replies.client = client.and_then(sized);
        unusual.replies = Some(replies);
        Some(unusual)
    }

    #[cold]
    fn size(&self) -> usize {
        let len = |len: Option<usize>| len.map_or(0, |len| len + 1);
        let replies = self.replies.as_ref();
        len(self.reason.as_ref().map(|r| r.as_str().len()))
            + len(replies.and_then(|r| r.server.as_ref()).map(|s| s.1))
            + len(replies.and_then(|r| r.client.as_ref()).map(|c| c.1))
            + len(self.substitute.as_ref().map(|s| s.1))
            + len(self.batch.map(|b| b.1))
    }

    #[cold]
    fn place(&self, place: &mut impl Place) -> [JsonRpcStr; 4] {
        let reason = self.reason.as_ref().map_or(JsonRpcStr::ABSENT, |r| {
            let text = r.as_str();
            place.place(text.len(), |to| copy(to, text))
        });
        if let Some((batch, len)) = self.batch {
            let server = place.place(len, |to| {
                let _ = crate::reply::write_batch_reply(batch, to);
            });
            return [reason, server, JsonRpcStr::ABSENT, JsonRpcStr::ABSENT];
        }
        let Some(replies) = &self.replies else {
            let substitute = self.substitute.as_ref().map_or(JsonRpcStr::ABSENT, |(owed, len)| {
                place.place(*len, |to| {
                    let _ = owed.write(owed.message.fixed().unwrap_or_default(), to);
                })
            });
            return [reason, JsonRpcStr::ABSENT, JsonRpcStr::ABSENT, substitute];
        };
        let message = replies.message.as_ref().or(self.reason.as_ref()).map_or("", Formatted::as_str);
        let mut reply = |owed: &Option<(Owed<'_>, usize)>| {
            owed.as_ref().map_or(JsonRpcStr::ABSENT, |(owed, len)| {
                place.place(*len, |to| {
                    let _ = owed.write(message, to);
                })
            })
        };
        // A line owed a reply is no response, so it has no substitute.
        [reason, reply(&replies.server), reply(&replies.client), JsonRpcStr::ABSENT]
    }
}

fn copy(to: &mut Cursor<'_>, text: &str) {
    let _ = to.write_bytes(text.as_bytes());
}

/// Where a decided line's `action_text` stands until the batch's strings
/// are in place: the session's `Text`, placed.
#[derive(Clone, Copy)]
pub(super) enum TextAt {
    None,
    /// The classification's reply in this role.
    Reply(Role),
    /// The classification's substitute.
    Substitute,
    /// At this offset-form string in the session's own texts.
    Own(JsonRpcStr),
}

/// A session's part of a batch: the texts it writes itself (the normal
/// form, attributed lines, substitutes for another id), and where each
/// line's action text stands. Kept between calls, so that a stream of
/// lines allocates nothing once they are big enough.
#[derive(Default)]
pub(super) struct ActionTexts {
    own: Vec<u8>,
    at: Vec<TextAt>,
}

impl ActionTexts {
    /// Empties them for a batch of `lines` lines.
    pub(super) fn start(&mut self, lines: usize) -> Result<(), OutOfMemory> {
        self.own.clear();
        self.at.clear();
        Ok(self.at.try_reserve(lines)?)
    }

    /// Places the text of the next line, as `text` says where it comes
    /// from.
    pub(super) fn push(&mut self, text: Text<'_>) -> Result<(), OutOfMemory> {
        let at = match text {
            Text::None => TextAt::None,
            Text::Reply(_, role) => TextAt::Reply(role),
            Text::Substitute(_) => TextAt::Substitute,
            Text::Written(pieces) => {
                let size = pieces.size();
                self.own.try_reserve(size + 1)?;
                TextAt::Own(self.own.place(size, |to| {
                    pieces.each(|piece| {
                        let _ = to.write_bytes(piece);
                    })
                }))
            }
        };
        self.at.try_reserve(1)?;
        self.at.push(at);
        Ok(())
    }

    /// Where each line's text stands, in order, and where the session's
    /// own texts now stand (they grow no more).
    pub(super) fn placed(&self) -> (&[TextAt], *const c_char) {
        (&self.at, self.own.as_ptr().cast::<c_char>())
    }
}
