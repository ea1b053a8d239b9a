package envelope

// The values of the types below are the C header's: each constant is the
// enum value of the same name, read through cgo, so none is restated here.

// #include "jsonrpc_envelope.h"
import "C"

import (
	"encoding/json"
	"strconv"
)

// Kind is what a line is (SPEC §2). Every line gets exactly one kind: the
// first that matches, in the order of the constants below (a Reader's line
// over its limit is KindTooLong, whatever it holds). The values are
// those of the C header's JsonRpcKind. Whether a line is answered, and with
// what, is the library's word: ask Classification.Reply.
type Kind uint32

const (
	// KindNone is not a classification: the zero Classification, or a call
	// that failed inside the library (out of memory, or a caught internal
	// fault; Reason says which). No input line is ever classified so.
	KindNone Kind = C.JSONRPC_KIND_NONE
	// KindEmpty: the line holds nothing but JSON whitespace, or nothing.
	KindEmpty Kind = C.JSONRPC_KIND_EMPTY
	// KindParseError: not one JSON value in UTF-8.
	KindParseError Kind = C.JSONRPC_KIND_PARSE_ERROR
	// KindBatch: the value is an array.
	KindBatch Kind = C.JSONRPC_KIND_BATCH
	// KindNotObject: a number, a string, true, false or null.
	KindNotObject Kind = C.JSONRPC_KIND_NOT_OBJECT
	// KindInvalidRequest: a method member that is not a string, or a method
	// string beside an id that is an object, an array or a boolean.
	KindInvalidRequest Kind = C.JSONRPC_KIND_INVALID_REQUEST
	// KindRequest: a method string and an id that is a string, a number or
	// null: "id": null makes a request, not a notification.
	KindRequest Kind = C.JSONRPC_KIND_REQUEST
	// KindNotification: a method string and no id member.
	KindNotification Kind = C.JSONRPC_KIND_NOTIFICATION
	// KindResponse: an id and no method; or neither, with an error member
	// and a jsonrpc member of "2.0".
	KindResponse Kind = C.JSONRPC_KIND_RESPONSE
	// KindNotJSONRPC: any other object, such as a peer's JSON log line.
	KindNotJSONRPC Kind = C.JSONRPC_KIND_NOT_JSONRPC
	// KindTooLong: a Line of a Reader over its limit (Line.TooLong), never
	// held whole. It carries nothing else but, in ProfileMCP, what its
	// first bytes hold of a damaged request or response (SPEC §10.6 (d)):
	// the readable ID, IDKind and IDSpan and, for a request, Method,
	// MethodSpan and the server's reply; for a response, the Substitute.
	// Classify never gives it.
	KindTooLong Kind = C.JSONRPC_KIND_TOO_LONG
	// KindInvalidResponse: a response the MCP profile refuses (SPEC §10.3),
	// never answered; when its id is an MCP id it carries a Substitute.
	// Only ProfileMCP gives it.
	KindInvalidResponse Kind = C.JSONRPC_KIND_INVALID_RESPONSE
)

// String returns the kind's name as the library gives it, as the SPEC and
// the test vectors write it: "request", "parse_error", "too_long", …; a
// value the library names not (KindNone among them) prints as "Kind(0)".
func (k Kind) String() string { return enumName(kindNames.of(uint32(k)), "Kind", uint32(k)) }

// IsMessage reports whether a line of this kind is a message a peer acts
// on (a request, a notification or a response): what a guard or an SDK
// transport hands on (SPEC §8, §9), as the library says.
func (k Kind) IsMessage() bool {
	return int(k) < len(kindIsMessage) && kindIsMessage[k]
}

// IDKind is what the id member holds (SPEC §3). The values are those of the
// C header's JsonRpcIdKind.
type IDKind uint32

const (
	// IDAbsent: no id member, or the line is not an object.
	IDAbsent  IDKind = C.JSONRPC_ID_ABSENT
	IDNull    IDKind = C.JSONRPC_ID_NULL
	IDString  IDKind = C.JSONRPC_ID_STRING
	IDNumber  IDKind = C.JSONRPC_ID_NUMBER
	IDObject  IDKind = C.JSONRPC_ID_OBJECT
	IDArray   IDKind = C.JSONRPC_ID_ARRAY
	IDBoolean IDKind = C.JSONRPC_ID_BOOLEAN
)

// String returns the id kind's name as the library gives it: "absent",
// "null", "string", "number", "object", "array", "boolean".
func (k IDKind) String() string { return enumName(idKindNames.of(uint32(k)), "IDKind", uint32(k)) }

// Role is which endpoint reads a line (SPEC §4), and so which reply it owes.
// The values are those of the C header's JsonRpcRole; the zero Role is not a
// role.
type Role uint32

const (
	// RoleServer reads its client's input (an MCP server's stdin): anything
	// unreadable is answered.
	RoleServer Role = C.JSONRPC_ROLE_SERVER
	// RoleClient reads a server's output (a host reading a server's
	// stdout): only a clearly broken request is answered.
	RoleClient Role = C.JSONRPC_ROLE_CLIENT
)

// String returns the role's name as the library gives it: "server" or
// "client".
func (r Role) String() string { return enumName(roleNames.of(uint32(r)), "Role", uint32(r)) }

// Profile is the rule set a line is read by (SPEC §10): JSON-RPC 2.0 alone
// (ProfileJSONRPC, SPEC sections 1 to 7), or MCP (ProfileMCP), which adds
// the rules of SPEC section 10 so that what it calls a message every
// official MCP SDK reads. It is one explicit value per call: the profile's
// methods (ProfileMCP.Classify, ProfileMCP.InvalidReply), WithProfile for a
// Reader, and NewSession's parameter. The package-level Classify,
// InvalidReply and a Reader made without WithProfile use ProfileJSONRPC.
// The values are those of the C header's JsonRpcProfile; any other is
// refused (see each function).
type Profile uint32

const (
	// ProfileJSONRPC: JSON-RPC 2.0 alone, the default.
	ProfileJSONRPC Profile = C.JSONRPC_PROFILE_JSONRPC
	// ProfileMCP: JSON-RPC 2.0 as MCP narrows it; what the SDK transports
	// use.
	ProfileMCP Profile = C.JSONRPC_PROFILE_MCP
)

// String returns the profile's name as the library gives it: "jsonrpc" or
// "mcp".
func (p Profile) String() string { return enumName(profileNames.of(uint32(p)), "Profile", uint32(p)) }

// known reports whether the library knows p.
func (p Profile) known() bool { return profileNames.of(uint32(p)) != "" }

// Action is what to do with a line, as a Session decides it (SPEC §8 to
// §10). The values are those of the C header's JsonRpcAction.
type Action uint32

const (
	// ActionNone: not decided, the action of a Reader's lines.
	ActionNone Action = C.JSONRPC_ACTION_NONE
	// ActionForward: hand the line's bytes on, unchanged, with a LF; or,
	// where the session gives an ActionText (its normal form, ProfileMCP,
	// SPEC 10.5), that text instead.
	ActionForward Action = C.JSONRPC_ACTION_FORWARD
	// ActionAnswer: write the line's ActionText back to its sender,
	// followed by a LF; nobody else sees the line. (For an MCP batch of
	// requests the text is several replies, joined by LF: SPEC 10.6 (b).)
	ActionAnswer Action = C.JSONRPC_ACTION_ANSWER
	// ActionSubstitute: hand on ActionText (the substitute of an
	// invalid_response, or of a damaged or too-long response: SPEC §10.3,
	// §10.6) in the line's place.
	ActionSubstitute Action = C.JSONRPC_ACTION_SUBSTITUTE
	// ActionAttribute: hand on ActionText (the error that named no
	// request, with the id of the one request outstanding put in) in the
	// line's place.
	ActionAttribute Action = C.JSONRPC_ACTION_ATTRIBUTE
	// ActionDrop: nobody sees the line; log its Note.
	ActionDrop Action = C.JSONRPC_ACTION_DROP
	// ActionDivert: nobody sees the line but the log: what a server wrote
	// to its stdout that is no message (read in RoleClient).
	ActionDivert Action = C.JSONRPC_ACTION_DIVERT
)

// String returns the action's name as the library gives it, the one word
// every log record and recording uses: "forwarded", "answered",
// "substituted", "attributed", "dropped", "diverted"; ActionNone prints
// as "Action(0)".
func (a Action) String() string { return enumName(actionNames.of(uint32(a)), "Action", uint32(a)) }

// Direction is which way a line travels between a host (the client) and a
// server, as a Relay reads it. The values are those of the C header's
// JsonRpcDirection; the zero Direction is not a direction.
type Direction uint32

const (
	// DirectionToServer: from the host to the server, read as a server
	// reads it (in RoleServer).
	DirectionToServer Direction = C.JSONRPC_DIRECTION_TO_SERVER
	// DirectionToHost: from the server to the host, read as a host reads
	// it (in RoleClient).
	DirectionToHost Direction = C.JSONRPC_DIRECTION_TO_HOST
)

// String returns the direction's name as the library gives it: "to_server"
// or "to_host".
func (d Direction) String() string {
	return enumName(directionNames.of(uint32(d)), "Direction", uint32(d))
}

// enumName is name, the library's name of the value v of the type typ,
// or, when the library names none, typ(v), as "Kind(0)".
func enumName(name, typ string, v uint32) string {
	if name != "" {
		return name
	}
	return typ + "(" + strconv.FormatUint(uint64(v), 10) + ")"
}

// Decision is what a Session or a Relay decided for one line outside a
// batch (Session.Refused, Relay.Refused).
type Decision struct {
	Action Action
	// Text is, for ActionAnswer, the reply to write back to the line's
	// sender; for ActionSubstitute, the line to hand on instead; nil
	// otherwise.
	Text []byte
	// Note says why, for a log record.
	Note string
}

// Span is where a member's value stands in the line: Offset and Len in
// bytes, counted from the line's first byte. A JSON value is never empty, so
// Len == 0 means the member is absent.
type Span struct {
	Offset, Len int
}

// Present reports whether the member is there.
func (s Span) Present() bool { return s.Len > 0 }

// In returns the member's raw JSON text: the bytes of line at s, the line
// that was classified. It returns nil when the member is absent or when s
// does not lie inside line (it was made for another line). The result
// shares line's memory and is capped at its own length, so appending to it
// never writes into line.
func (s Span) In(line []byte) json.RawMessage {
	if s.Len <= 0 || s.Offset < 0 || s.Offset > len(line) || s.Len > len(line)-s.Offset {
		return nil
	}
	end := s.Offset + s.Len
	return line[s.Offset:end:end]
}

// Classification is what a line is and what it carries (SPEC §3), by the
// profile it was read by. Every
// field is an ordinary Go value that the caller owns: nothing in it points
// into the line or into C memory. Its text fields share one allocation.
type Classification struct {
	Kind   Kind
	IDKind IDKind

	// ID is the id member's exact JSON text as it stood in the line, never
	// re-encoded or rounded (7, "a\u0062", 12345678901234567890, 1.50,
	// null); nil when there is no id member. Echo it as is in a response.
	// In ProfileMCP a KindParseError has one where it is a damaged request
	// or response (SPEC §10.6 (c)): the readable id, and for a request the
	// readable Method; every other field stays as for any parse error.
	ID json.RawMessage

	// Method is the decoded method (UTF-8; a lone surrogate escape becomes
	// U+FFFD) where the method member is a string, and HasMethod is true;
	// otherwise Method is "" and HasMethod is false. MethodSpan tells
	// whether a method member is there at all.
	Method    string
	HasMethod bool

	// JSONRPC20 reports whether a jsonrpc member is the string "2.0".
	JSONRPC20 bool
	// HasResult and HasError report whether those members are present.
	HasResult bool
	HasError  bool
	// NamesNoRequest marks a response that answers no request: it has an
	// error, jsonrpc is "2.0", and the id is null or absent. A host waiting
	// on its one request can fail at once with this error.
	NamesNoRequest bool

	// Reason is, for KindInvalidRequest, the reply's exact message; for
	// KindInvalidResponse, the first MCP rule the response breaks; for
	// KindParseError, what is wrong and at which byte; for KindNone after a
	// failed call, why. It is "" otherwise.
	Reason string

	// Substitute is, for a KindInvalidResponse whose id is an MCP id, or a
	// damaged response (SPEC §10.6 (c), (d)), the error response to hand
	// on in the line's place, so that the request it answers fails at once
	// (SPEC §10.3); nil otherwise. Like the replies, it shares its
	// allocation with the other texts.
	Substitute []byte

	// The spans of the top-level members' values in the line, so that a
	// host can parse params (say) from its own buffer: see Span.In.
	IDSpan, MethodSpan, ParamsSpan, ResultSpan, ErrorSpan Span

	replyServer, replyClient []byte
}

// Reply returns the reply that the endpoint in role owes for the line
// (SPEC §4): a JSON-RPC error response, byte for byte, without a line break
// (but for an MCP batch of requests, whose reply is one error response per
// request, joined by LF: SPEC §10.6 (b)); or nil when none is owed. The
// library wrote it; send it followed by a LF.
// The slice is the caller's, but shares its allocation with the
// classification's other texts: append to it freely, but copy it before
// changing its bytes in place if the classification is still in use.
//
// It panics if role is not RoleServer or RoleClient.
func (c *Classification) Reply(role Role) []byte {
	switch role {
	case RoleServer:
		return c.replyServer
	case RoleClient:
		return c.replyClient
	}
	panic("envelope: Reply with unknown role " + role.String())
}
