package envelope

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
	KindNone Kind = 0
	// KindEmpty: the line holds nothing but JSON whitespace, or nothing.
	KindEmpty Kind = 1
	// KindParseError: not one JSON value in UTF-8.
	KindParseError Kind = 2
	// KindBatch: the value is an array.
	KindBatch Kind = 3
	// KindNotObject: a number, a string, true, false or null.
	KindNotObject Kind = 4
	// KindInvalidRequest: a method member that is not a string, or a method
	// string beside an id that is an object, an array or a boolean.
	KindInvalidRequest Kind = 5
	// KindRequest: a method string and an id that is a string, a number or
	// null: "id": null makes a request, not a notification.
	KindRequest Kind = 6
	// KindNotification: a method string and no id member.
	KindNotification Kind = 7
	// KindResponse: an id and no method; or neither, with an error member
	// and a jsonrpc member of "2.0".
	KindResponse Kind = 8
	// KindNotJSONRPC: any other object, such as a peer's JSON log line.
	KindNotJSONRPC Kind = 9
	// KindTooLong: a Line of a Reader over its limit (Line.TooLong), never
	// held whole and carrying nothing else. Classify never gives it.
	KindTooLong Kind = 10
)

// String returns the kind's name as the library gives it, as the SPEC and
// the test vectors write it: "request", "parse_error", "too_long", …; a
// value the library names not (KindNone among them) prints as "Kind(0)".
func (k Kind) String() string {
	if name := kindName(k); name != "" {
		return name
	}
	return "Kind(" + strconv.FormatUint(uint64(k), 10) + ")"
}

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
	IDAbsent  IDKind = 0
	IDNull    IDKind = 1
	IDString  IDKind = 2
	IDNumber  IDKind = 3
	IDObject  IDKind = 4
	IDArray   IDKind = 5
	IDBoolean IDKind = 6
)

// String returns the id kind's name as the library gives it: "absent",
// "null", "string", "number", "object", "array", "boolean".
func (k IDKind) String() string {
	if name := idKindName(k); name != "" {
		return name
	}
	return "IDKind(" + strconv.FormatUint(uint64(k), 10) + ")"
}

// Role is which endpoint reads a line (SPEC §4), and so which reply it owes.
// The values are those of the C header's JsonRpcRole; the zero Role is not a
// role.
type Role uint32

const (
	// RoleServer reads its client's input (an MCP server's stdin): anything
	// unreadable is answered.
	RoleServer Role = 1
	// RoleClient reads a server's output (a host reading a server's
	// stdout): only a clearly broken request is answered.
	RoleClient Role = 2
)

// String returns the role's name as the library gives it: "server" or
// "client".
func (r Role) String() string {
	if name := roleName(r); name != "" {
		return name
	}
	return "Role(" + strconv.FormatUint(uint64(r), 10) + ")"
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

// Classification is what a line is and what it carries (SPEC §3). Every
// field is an ordinary Go value that the caller owns: nothing in it points
// into the line or into C memory. Its text fields share one allocation.
type Classification struct {
	Kind   Kind
	IDKind IDKind

	// ID is the id member's exact JSON text as it stood in the line, never
	// re-encoded or rounded (7, "a\u0062", 12345678901234567890, 1.50,
	// null); nil when there is no id member. Echo it as is in a response.
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
	// KindParseError, what is wrong and at which byte; for KindNone after a
	// failed call, why. It is "" otherwise.
	Reason string

	// The spans of the top-level members' values in the line, so that a
	// host can parse params (say) from its own buffer: see Span.In.
	IDSpan, MethodSpan, ParamsSpan, ResultSpan, ErrorSpan Span

	replyServer, replyClient []byte
}

// Reply returns the reply that the endpoint in role owes for the line
// (SPEC §4): a JSON-RPC error response, byte for byte, without a line break;
// or nil when none is owed. The library wrote it; send it followed by a LF.
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
