//! A line as the C ABI hands it out: `JsonRpcLine`, its `JsonRpcAction`,
//! and the `JsonRpcBatch` of lines one call completed.

use std::ffi::c_char;

use super::classification::JsonRpcClassification;
use super::packing::TextAt;
use super::text::JsonRpcStr;
use crate::reply::Role;
use crate::session::{Action, Verdict};

/// What to do with a line (SPEC §8 to §10), as a `JsonRpcSession` decides
/// it. Values are fixed and never reused. `jsonrpc_action_name` gives the
/// word records use for each.
#[repr(u32)]
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonRpcAction {
    /// Not decided: a line of a plain `JsonRpcReader`.
    JSONRPC_ACTION_NONE = 0,
    /// Hand the line on, with an LF after it: its bytes, unchanged, when
    /// `action_text` is absent; otherwise `action_text` in their place (in
    /// the MCP profile, the line's normal form, where not every SDK's
    /// reader takes its bytes as they stand: SPEC 10.5).
    JSONRPC_ACTION_FORWARD = 1,
    /// Write the action's text back to the line's sender; nobody else sees
    /// the line.
    JSONRPC_ACTION_ANSWER = 2,
    /// Hand on the action's text (the `invalid_response`'s substitute) in
    /// the line's place.
    JSONRPC_ACTION_SUBSTITUTE = 3,
    /// Hand on the action's text (the error that named no request, with the
    /// id of the one request outstanding put in) in the line's place.
    JSONRPC_ACTION_ATTRIBUTE = 4,
    /// Nobody sees the line; log the note.
    JSONRPC_ACTION_DROP = 5,
    /// Nobody sees the line but the log: what a server wrote to its stdout
    /// that is no message (read in role `client`).
    JSONRPC_ACTION_DIVERT = 6,
}

/// The C value of an action.
pub(super) fn action(action: Action) -> JsonRpcAction {
    match action {
        Action::Forward => JsonRpcAction::JSONRPC_ACTION_FORWARD,
        Action::Answer => JsonRpcAction::JSONRPC_ACTION_ANSWER,
        Action::Substitute => JsonRpcAction::JSONRPC_ACTION_SUBSTITUTE,
        Action::Attribute => JsonRpcAction::JSONRPC_ACTION_ATTRIBUTE,
        Action::Drop => JsonRpcAction::JSONRPC_ACTION_DROP,
        Action::Divert => JsonRpcAction::JSONRPC_ACTION_DIVERT,
    }
}

/// The action of a C value, if it is one (`JSONRPC_ACTION_NONE` is none).
pub(super) fn action_of(value: u32) -> Option<Action> {
    Action::ALL.into_iter().find(|&a| action(a) as u32 == value)
}

/// One line read by a `JsonRpcReader`.
///
/// `number` counts the stream's lines from 1 (too-long lines included).
/// `len` is the line's length in bytes, LF excluded (a CR before the LF
/// stays in the line, as JSON whitespace). A line within the limit stands
/// at `offset` in its batch's `bytes`, and `classification` is what
/// `jsonrpc_classify` gives for it, its spans counted from the line's
/// first byte and its strings in the batch's `texts` (its `storage` is
/// NULL: it owns nothing). A line over the limit has the kind
/// `JSONRPC_KIND_TOO_LONG` and an `offset` of 0; in the MCP profile, where
/// its first bytes (as many as the limit) hold a damaged request or
/// response (SPEC §10.6 (d)), its classification also has the readable
/// `id`, `id_kind` and `id_span` (a position in the line, whose bytes are
/// not held) and, for a request, `method` and `method_span` and the
/// `reply_server` that says the line is too long; for a response, the
/// `substitute`. Otherwise it has nothing else.
///
/// A line read by a `JsonRpcSession` also carries what to do with it
/// (SPEC §8 to §10): `action`, with `action_text` (for
/// `JSONRPC_ACTION_ANSWER` the reply to write back to the line's sender;
/// for `JSONRPC_ACTION_SUBSTITUTE` and `JSONRPC_ACTION_ATTRIBUTE` the line
/// to hand on in this one's place; for `JSONRPC_ACTION_FORWARD`, in the MCP
/// profile, the line to hand on instead of its bytes when not every SDK's
/// reader takes them as they stand (a raw CR, whitespace around the value,
/// a member given twice: SPEC 10.5), and absent when the bytes go as they
/// are; absent otherwise) and `note` (why, for
/// every action but `JSONRPC_ACTION_FORWARD`: a static NUL-terminated text
/// for a log record; NULL otherwise). `action_text` lives as long as the
/// batch. A plain reader's lines have `JSONRPC_ACTION_NONE`, no text, no
/// note.
#[repr(C)]
#[derive(Debug)]
pub struct JsonRpcLine {
    pub number: u64,
    pub offset: usize,
    pub len: usize,
    pub classification: JsonRpcClassification,
    pub action: JsonRpcAction,
    pub action_text: JsonRpcStr,
    pub note: *const c_char,
}

/// The lines one call of a reader completed, in order: `count` items at
/// `items`. Their bytes stand in `bytes` (`bytes_len` bytes), each line
/// where its item's `offset` says; when no item is too long, `bytes` is
/// exactly the items' lines one after another, each followed by its LF (but
/// the last line of a stream that had none). Every string of their
/// classifications stands in `texts` (`texts_len` bytes: the strings of
/// the first item, then of the next, each followed by its NUL, in the order
/// `id`, `method`, `reason`, `reply_server`, `reply_client`,
/// `substitute`). So a binding can copy a batch in three pieces and find
/// each line and each string by the lengths alone. (A session's
/// `action_text` is one of those strings, or, for a message's normal form,
/// an attributed line and a substitute made for a request that named no
/// id, a string of the session's own, outside `texts`.)
///
/// Borrowed: everything a batch points to belongs to the reader and stays
/// valid until the reader's next call (feed, end or free). Pointers of an
/// empty part may be NULL.
#[repr(C)]
#[derive(Debug)]
pub struct JsonRpcBatch {
    pub items: *const JsonRpcLine,
    pub count: usize,
    pub bytes: *const u8,
    pub bytes_len: usize,
    pub texts: *const c_char,
    pub texts_len: usize,
}

impl JsonRpcBatch {
    pub(super) const EMPTY: JsonRpcBatch = JsonRpcBatch {
        items: std::ptr::null(),
        count: 0,
        bytes: std::ptr::null(),
        bytes_len: 0,
        texts: std::ptr::null(),
        texts_len: 0,
    };
}

impl JsonRpcLine {
    /// A line's item, with what a session decided (`None`: no session).
    /// Its `action_text` is absent until the batch's strings are in place
    /// (`place_action_text`).
    pub(super) fn decided(
        number: u64,
        offset: usize,
        len: usize,
        classification: JsonRpcClassification,
        verdict: Option<&Verdict>,
    ) -> JsonRpcLine {
        let (action, note) = match verdict {
            None => (JsonRpcAction::JSONRPC_ACTION_NONE, std::ptr::null()),
            Some(v) => (action(v.action), v.note.map_or(std::ptr::null(), |n| n.as_ptr())),
        };
        JsonRpcLine { number, offset, len, classification, action, action_text: JsonRpcStr::ABSENT, note }
    }

    /// Points `action_text` where `at` says, once the classification's
    /// strings are in place and the session's own texts stand at `own`.
    pub(super) fn place_action_text(&mut self, at: TextAt, own: *const c_char) {
        let c = &self.classification;
        self.action_text = match at {
            TextAt::None => JsonRpcStr::ABSENT,
            TextAt::Reply(Role::Server) => c.reply_server,
            TextAt::Reply(Role::Client) => c.reply_client,
            TextAt::Substitute => c.substitute,
            TextAt::Own(text) => text.at(own),
        };
    }
}
