package envelope

// The texts the library returns as owned strings (a reply, a log value, a
// refused line's decision, a session's or a relay's) are copied into a Go
// buffer and freed by a shim in the same call, or, when larger than the
// buffer, by a second call.

/*
#cgo noescape jre_invalid_reply
#cgo nocallback jre_invalid_reply
#cgo noescape jre_log_value
#cgo nocallback jre_log_value
#cgo noescape jre_session_refused
#cgo nocallback jre_session_refused
#cgo noescape jre_relay_refused
#cgo nocallback jre_relay_refused
#cgo noescape jre_string_finish
#cgo nocallback jre_string_finish

#include <stdint.h>
#include <string.h>

#include "jsonrpc_envelope.h"

// An owned string copied out (and a decision's action).
typedef struct {
	uint32_t status, action;
	uint8_t present, kept;
	size_t len;
} jre_text;

// Copies s to buf when it fits and frees it; else leaves it in *keep.
static void jre_take_string(JsonRpcString s, char *buf, size_t cap, jre_text *out, JsonRpcString *keep) {
	out->present = s.ptr != NULL;
	out->len = s.len;
	out->kept = 0;
	if (s.ptr != NULL && s.len > cap) {
		out->kept = 1;
		*keep = s;
		return;
	}
	if (s.ptr != NULL && s.len > 0) memcpy(buf, s.ptr, s.len);
	jsonrpc_string_free(&s);
}

static void jre_invalid_reply(const uint8_t *line, size_t len, uint32_t role, uint32_t profile, char *buf, size_t cap,
                              jre_text *out, JsonRpcString *keep) {
	JsonRpcReply reply = jsonrpc_invalid_reply(line, len, role, profile);
	jre_take_string(reply.text, buf, cap, out, keep);
	out->status = (uint32_t)reply.status;
}

static void jre_log_value(const uint8_t *data, size_t len, char *buf, size_t cap, jre_text *out, JsonRpcString *keep) {
	jre_take_string(jsonrpc_log_value(data, len), buf, cap, out, keep);
	out->status = JSONRPC_STATUS_OK;
}

// A decision copied out: its text as jre_take_string, its action and note.
static void jre_take_decision(JsonRpcStatus status, JsonRpcDecision d, char *buf, size_t cap, jre_text *out,
                              JsonRpcString *keep, const char **note) {
	jre_take_string(d.text, buf, cap, out, keep);
	out->status = (uint32_t)status;
	out->action = (uint32_t)d.action;
	*note = d.note;
}

static void jre_session_refused(JsonRpcSession *s, const uint8_t *line, size_t len, char *buf, size_t cap,
                                jre_text *out, JsonRpcString *keep, const char **note) {
	JsonRpcDecision d;
	JsonRpcStatus status = jsonrpc_session_refused(s, line, len, &d);
	jre_take_decision(status, d, buf, cap, out, keep, note);
}

static void jre_relay_refused(JsonRpcRelay *r, uint32_t direction, const uint8_t *line, size_t len, char *buf,
                              size_t cap, jre_text *out, JsonRpcString *keep, const char **note) {
	JsonRpcDecision d;
	JsonRpcStatus status = jsonrpc_relay_refused(r, direction, line, len, &d);
	jre_take_decision(status, d, buf, cap, out, keep, note);
}

static void jre_string_finish(JsonRpcString *keep, char *dst) {
	if (keep->len > 0) memcpy(dst, keep->ptr, keep->len);
	jsonrpc_string_free(keep);
}
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// textScratch is the stack buffer for a reply or a log text. A log text is
// at most 256 UTF-16 units (at most 768 bytes) and an ellipsis; a reply is
// about 100 bytes plus its id.
type textScratch [1024]byte

// InvalidReply returns the one reply owed for line by the endpoint in role
// (SPEC §4), by the profile p: a JSON-RPC error response without a line
// break (but for an MCP batch of requests, one per request, joined by LF:
// SPEC §10.6 (b)), and ok true; or nil and false when none is owed. It is
// the same text as p.Classify(line).Reply(role), for a host that wants
// only the reply.
//
// It panics if role is not RoleServer or RoleClient, if the library does
// not know p, or if the library reports a failure (out of memory, or an
// internal fault).
func (p Profile) InvalidReply(line []byte, role Role) (reply []byte, ok bool) {
	var out C.jre_text
	var keep C.JsonRpcString
	var scratch textScratch
	sp := (*C.char)(unsafe.Pointer(&scratch[0]))
	C.jre_invalid_reply(bytesPtr(line), C.size_t(len(line)), C.uint32_t(role), C.uint32_t(p), sp,
		C.size_t(len(scratch)), &out, &keep)
	runtime.KeepAlive(line)
	switch out.status {
	case C.JSONRPC_STATUS_OK:
	case C.JSONRPC_STATUS_UNKNOWN_ROLE:
		panic(fmt.Sprintf("envelope: InvalidReply with unknown role %v", role))
	case C.JSONRPC_STATUS_UNKNOWN_PROFILE:
		panic(fmt.Sprintf("envelope: InvalidReply with unknown profile %v", p))
	default:
		panic(fmt.Sprintf("envelope: jsonrpc_invalid_reply failed: %s", statusName(out.status)))
	}
	if out.present == 0 {
		return nil, false
	}
	return takeText(&out, &keep, scratch[:]), true
}

// InvalidReply returns the one reply owed for line by the endpoint in role
// by the JSON-RPC profile: ProfileJSONRPC.InvalidReply(line, role).
func InvalidReply(line []byte, role Role) (reply []byte, ok bool) {
	return ProfileJSONRPC.InvalidReply(line, role)
}

// takeText returns the text that jre_take_string described in out: from
// scratch, or from the string left in keep, which it frees.
func takeText(out *C.jre_text, keep *C.JsonRpcString, scratch []byte) []byte {
	n := int(out.len)
	if out.kept != 0 {
		b := make([]byte, n)
		C.jre_string_finish(keep, (*C.char)(unsafe.Pointer(&b[0])))
		return b
	}
	return append(make([]byte, 0, n), scratch[:n]...)
}

// LogValue renders a peer's bytes for one log line (SPEC §5): compact JSON
// when b is one JSON value, else UTF-8 with invalid sequences replaced;
// control, line-separator and bidi characters escaped as \uXXXX; at most 256
// UTF-16 units, then "…". Use it for every piece of peer text a log line
// shows, so that no peer can forge a log field or a second line.
//
// It returns "" only if the library fails (out of memory or an internal
// fault).
func LogValue(b []byte) string {
	var out C.jre_text
	var keep C.JsonRpcString
	var scratch textScratch
	sp := (*C.char)(unsafe.Pointer(&scratch[0]))
	C.jre_log_value(bytesPtr(b), C.size_t(len(b)), sp, C.size_t(len(scratch)), &out, &keep)
	runtime.KeepAlive(b)
	if out.present == 0 || out.len == 0 {
		return ""
	}
	if out.kept != 0 {
		return bytesString(takeText(&out, &keep, nil))
	}
	return string(scratch[:out.len])
}

// sessionRefused is Session.Refused on the library's session c: its
// decision for line (jsonrpc_session_refused), its action and text copied
// out as they are.
func sessionRefused(c *C.JsonRpcSession, line []byte) (Decision, error) {
	var r refusal
	C.jre_session_refused(c, bytesPtr(line), C.size_t(len(line)), r.buf(), C.size_t(len(r.scratch)), &r.out,
		&r.keep, &r.note)
	runtime.KeepAlive(line)
	return r.decision(statusError(r.out.status, "jsonrpc_session_refused"))
}

// relayRefused is Relay.Refused on the library's relay c: its decision for
// line refused in dir (jsonrpc_relay_refused), its action and text copied
// out as they are.
func relayRefused(c *C.JsonRpcRelay, dir Direction, line []byte) (Decision, error) {
	var r refusal
	C.jre_relay_refused(c, C.uint32_t(dir), bytesPtr(line), C.size_t(len(line)), r.buf(), C.size_t(len(r.scratch)),
		&r.out, &r.keep, &r.note)
	runtime.KeepAlive(line)
	return r.decision(relayError(r.out.status, "jsonrpc_relay_refused", dir))
}

// refusal is what jre_take_decision copies out of a library decision.
type refusal struct {
	out     C.jre_text
	keep    C.JsonRpcString
	note    *C.char
	scratch textScratch
}

func (r *refusal) buf() *C.char { return (*C.char)(unsafe.Pointer(&r.scratch[0])) }

// decision is the decision copied out, or, when the call failed with err,
// none.
func (r *refusal) decision(err error) (Decision, error) {
	var text []byte
	if r.out.present != 0 {
		text = takeText(&r.out, &r.keep, r.scratch[:])
	}
	if err != nil {
		return Decision{}, err
	}
	return Decision{Action: Action(r.out.action), Note: goName(r.note), Text: text}, nil
}
