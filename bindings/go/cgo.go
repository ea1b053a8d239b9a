package envelope

// This file is the only one that talks to C. Each exported function makes
// one cgo call to a small C shim below, which calls the library, copies the
// strings of its result back to back into a Go buffer, describes the rest
// (kinds, flags, spans, string lengths) in a flat jre_item, and frees what
// the C result owns before it returns. Classify's shim uses
// jsonrpc_classify_into with the result and a 1 KiB scratch for its strings
// on the C stack, so that the library allocates nothing for almost every
// line. When the Go buffer is too small (a result whose strings exceed the
// scratch, and so own an allocation: long ids, long replies), the shim
// leaves the C result in the buffer's place and says so; Go then allocates
// the exact size and makes a second call that copies and frees. Nothing the
// library allocated outlives the Go function that caused it, so no
// finalizers are needed.
//
// The shims are marked noescape (they keep no Go pointer after the call) and
// nocallback (they never call Go), so the Go compiler can keep the caller's
// buffers on the stack and cgo skips its callback bookkeeping.

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#cgo noescape jre_classify
#cgo nocallback jre_classify
#cgo noescape jre_classification_finish
#cgo nocallback jre_classification_finish
#cgo noescape jre_classify_lines
#cgo nocallback jre_classify_lines
#cgo noescape jre_lines_finish
#cgo nocallback jre_lines_finish
#cgo noescape jre_invalid_reply
#cgo nocallback jre_invalid_reply
#cgo noescape jre_log_value
#cgo nocallback jre_log_value
#cgo noescape jre_string_finish
#cgo nocallback jre_string_finish

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "jsonrpc_envelope.h"

// The strings a classification carries, in the order they are copied.
enum { JRE_ID, JRE_METHOD, JRE_REASON, JRE_REPLY_SERVER, JRE_REPLY_CLIENT, JRE_STRINGS };

// The spans, in the order of jre_item.span.
enum { JRE_SPAN_ID, JRE_SPAN_METHOD, JRE_SPAN_PARAMS, JRE_SPAN_RESULT, JRE_SPAN_ERROR, JRE_SPANS };

// Bits of jre_item.flags.
enum {
	JRE_JSONRPC_2_0 = 1,
	JRE_HAS_RESULT = 2,
	JRE_HAS_ERROR = 4,
	JRE_NAMES_NO_REQUEST = 8,
	JRE_TOO_LONG = 16,
};

// A classification (or a line of jsonrpc_classify_lines) without pointers:
// its present strings are copied back to back, in JRE_ order, into a Go
// buffer; bit i of `present` says whether string i is there, and
// str_len[i] is its length (0 when absent).
typedef struct {
	size_t offset, len; // a line's place in its buffer (lines only)
	JsonRpcSpan span[JRE_SPANS];
	size_t str_len[JRE_STRINGS];
	uint32_t kind, id_kind;
	uint8_t flags, present;
} jre_item;

// Describes c in *out; returns the bytes its strings need.
static size_t jre_describe(const JsonRpcClassification *c, jre_item *out) {
	const JsonRpcStr s[JRE_STRINGS] = {c->id, c->method, c->reason, c->reply_server, c->reply_client};
	size_t need = 0;
	out->span[JRE_SPAN_ID] = c->id_span;
	out->span[JRE_SPAN_METHOD] = c->method_span;
	out->span[JRE_SPAN_PARAMS] = c->params_span;
	out->span[JRE_SPAN_RESULT] = c->result_span;
	out->span[JRE_SPAN_ERROR] = c->error_span;
	out->kind = (uint32_t)c->kind;
	out->id_kind = (uint32_t)c->id_kind;
	out->flags = (uint8_t)((c->jsonrpc_2_0 ? JRE_JSONRPC_2_0 : 0) | (c->has_result ? JRE_HAS_RESULT : 0) |
	                       (c->has_error ? JRE_HAS_ERROR : 0) | (c->names_no_request ? JRE_NAMES_NO_REQUEST : 0));
	out->present = 0;
	for (int i = 0; i < JRE_STRINGS; i++) {
		if (s[i].ptr != NULL) {
			out->present |= (uint8_t)(1u << i);
			out->str_len[i] = s[i].len;
			need += s[i].len;
		} else {
			out->str_len[i] = 0;
		}
	}
	return need;
}

// The bytes c's strings need, without describing it.
static size_t jre_need(const JsonRpcClassification *c) {
	size_t need = 0;
	if (c->id.ptr != NULL) need += c->id.len;
	if (c->method.ptr != NULL) need += c->method.len;
	if (c->reason.ptr != NULL) need += c->reason.len;
	if (c->reply_server.ptr != NULL) need += c->reply_server.len;
	if (c->reply_client.ptr != NULL) need += c->reply_client.len;
	return need;
}

// Copies c's strings back to back to dst; returns the end.
static char *jre_copy(const JsonRpcClassification *c, char *dst) {
	const JsonRpcStr s[JRE_STRINGS] = {c->id, c->method, c->reason, c->reply_server, c->reply_client};
	for (int i = 0; i < JRE_STRINGS; i++) {
		if (s[i].ptr != NULL && s[i].len > 0) {
			memcpy(dst, s[i].ptr, s[i].len);
			dst += s[i].len;
		}
	}
	return dst;
}

// The scratch that jre_classify gives jsonrpc_classify_into for a result's
// strings, on the C stack: the header says 1 KiB holds the strings of
// almost every line. The Go buffer given to jre_classify is at least as
// large (see classifyScratch), so strings that fit the scratch fit it too.
enum { JRE_SCRATCH = 1024 };

// jsonrpc_classify_into, with the result and its strings on this stack (so
// the library allocates nothing when they fit its scratch), described in
// *out. Returns the bytes its strings need. When they fit in buf (cap
// bytes) they are copied there, and the result is freed if it owns memory.
// Otherwise the result is stored live in buf itself (cap is at least its
// size) for jre_classification_finish: that is only ever a result that owns
// its strings, since strings in the scratch take less than JRE_SCRATCH
// bytes, and cap is at least that (a Go build fails otherwise).
static size_t jre_classify(const uint8_t *line, size_t len, jre_item *out, char *buf, size_t cap) {
	uint8_t scratch[JRE_SCRATCH];
	JsonRpcClassification c;
	jsonrpc_classify_into(line, len, &c, scratch, sizeof scratch);
	size_t need = jre_describe(&c, out);
	if (need > cap) {
		memcpy(buf, &c, sizeof c);
		return need;
	}
	jre_copy(&c, buf);
	if (c.storage != NULL) jsonrpc_classification_free(&c);
	return need;
}

// Copies the strings of a result that jre_classify left in kept to dst,
// then frees it.
static void jre_classification_finish(char *kept, char *dst) {
	JsonRpcClassification c;
	memcpy(&c, kept, sizeof c);
	jre_copy(&c, dst);
	jsonrpc_classification_free(&c);
}

typedef struct {
	uint32_t status;
	uint8_t kept;
	size_t count, consumed, need;
} jre_lines_out;

static void jre_lines_copy(const JsonRpcLines *lines, jre_item *items, char *arena) {
	for (size_t i = 0; i < lines->count; i++) {
		const JsonRpcLine *line = &lines->items[i];
		jre_describe(&line->classification, &items[i]);
		items[i].offset = line->offset;
		items[i].len = line->len;
		if (line->too_long) items[i].flags |= JRE_TOO_LONG;
		arena = jre_copy(&line->classification, arena);
	}
}

// jsonrpc_classify_lines. When the items fit in items (icap) and their
// strings in arena (acap), they are described and copied there and the
// result is freed; otherwise the live result is left in *keep (out->kept)
// for jre_lines_finish.
static void jre_classify_lines(const uint8_t *buf, size_t len, bool end_of_stream, JsonRpcLineState *state,
                               jre_item *items, size_t icap, char *arena, size_t acap, jre_lines_out *out,
                               JsonRpcLines *keep) {
	JsonRpcLines lines = jsonrpc_classify_lines(buf, len, end_of_stream, state);
	size_t need = 0;
	for (size_t i = 0; i < lines.count; i++) {
		need += jre_need(&lines.items[i].classification);
	}
	out->status = (uint32_t)lines.status;
	out->count = lines.count;
	out->consumed = lines.consumed;
	out->need = need;
	if (lines.count > icap || need > acap) {
		out->kept = 1;
		*keep = lines;
		return;
	}
	out->kept = 0;
	jre_lines_copy(&lines, items, arena);
	jsonrpc_lines_free(&lines);
}

static void jre_lines_finish(JsonRpcLines *keep, jre_item *items, char *arena) {
	jre_lines_copy(keep, items, arena);
	jsonrpc_lines_free(keep);
}

typedef struct {
	uint32_t status;
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

static void jre_invalid_reply(const uint8_t *line, size_t len, uint32_t role, char *buf, size_t cap, jre_text *out,
                              JsonRpcString *keep) {
	JsonRpcReply reply = jsonrpc_invalid_reply(line, len, role);
	jre_take_string(reply.text, buf, cap, out, keep);
	out->status = (uint32_t)reply.status;
}

static void jre_log_value(const uint8_t *data, size_t len, char *buf, size_t cap, jre_text *out, JsonRpcString *keep) {
	jre_take_string(jsonrpc_log_value(data, len), buf, cap, out, keep);
	out->status = JSONRPC_STATUS_OK;
}

static void jre_string_finish(JsonRpcString *keep, char *dst) {
	if (keep->len > 0) memcpy(dst, keep->ptr, keep->len);
	jsonrpc_string_free(keep);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"
)

// abiVersion is the ABI this package was written for: the header's
// JSONRPC_ABI_VERSION when it was last updated.
const abiVersion = 1

// Compile-time checks that the Go constants equal the header's; a build
// fails here when the header changes under this package.
func _() {
	var x [1]struct{}
	_ = x[abiVersion-C.JSONRPC_ABI_VERSION]
	_ = x[C.JSONRPC_ABI_VERSION-abiVersion]
	_ = x[KindNone-C.JSONRPC_KIND_NONE]
	_ = x[KindEmpty-C.JSONRPC_KIND_EMPTY]
	_ = x[KindParseError-C.JSONRPC_KIND_PARSE_ERROR]
	_ = x[KindBatch-C.JSONRPC_KIND_BATCH]
	_ = x[KindNotObject-C.JSONRPC_KIND_NOT_OBJECT]
	_ = x[KindInvalidRequest-C.JSONRPC_KIND_INVALID_REQUEST]
	_ = x[KindRequest-C.JSONRPC_KIND_REQUEST]
	_ = x[KindNotification-C.JSONRPC_KIND_NOTIFICATION]
	_ = x[KindResponse-C.JSONRPC_KIND_RESPONSE]
	_ = x[KindNotJSONRPC-C.JSONRPC_KIND_NOT_JSONRPC]
	_ = x[IDAbsent-C.JSONRPC_ID_ABSENT]
	_ = x[IDNull-C.JSONRPC_ID_NULL]
	_ = x[IDString-C.JSONRPC_ID_STRING]
	_ = x[IDNumber-C.JSONRPC_ID_NUMBER]
	_ = x[IDObject-C.JSONRPC_ID_OBJECT]
	_ = x[IDArray-C.JSONRPC_ID_ARRAY]
	_ = x[IDBoolean-C.JSONRPC_ID_BOOLEAN]
	_ = x[RoleServer-C.JSONRPC_ROLE_SERVER]
	_ = x[RoleClient-C.JSONRPC_ROLE_CLIENT]
}

func init() {
	if got := ABIVersion(); got != abiVersion {
		panic(fmt.Sprintf("envelope: the linked libjsonrpc_envelope (version %s) has ABI version %d, "+
			"but this Go package was written for ABI version %d: link a matching library "+
			"(see bindings/go/README.md) or update the package", Version(), got, abiVersion))
	}
}

// ABIVersion returns the ABI version of the linked library
// (jsonrpc_abi_version). The package checks it when it is initialised and
// panics if it is not the version the package was written for.
func ABIVersion() uint32 {
	return uint32(C.jsonrpc_abi_version())
}

// Version returns the linked library's version, such as "0.1.0".
func Version() string {
	return C.GoString(C.jsonrpc_version())
}

// bytesPtr is the data pointer of b for C: NULL for an empty slice, so that
// C sees (NULL, 0) as the empty input.
func bytesPtr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(b)))
}

// scratchWords is the size of the stack buffer, in 8-byte words, that
// Classify gives the C shim for the strings of a result: 128 words (1 KiB),
// as large as the shim's own scratch for jsonrpc_classify_into (JRE_SCRATCH),
// so that strings that fit one fit the other; it must also hold a
// JsonRpcClassification (see jre_classify).
const scratchWords = 128

// classifyScratch is an aligned byte buffer for C.
type classifyScratch [scratchWords]uint64

func init() {
	if unsafe.Sizeof(C.JsonRpcClassification{}) > unsafe.Sizeof(classifyScratch{}) {
		panic("envelope: internal error: scratch buffer smaller than JsonRpcClassification")
	}
}

// The Go buffer is not smaller than the shim's scratch (a build fails here
// otherwise).
var _ [unsafe.Sizeof(classifyScratch{}) - C.JRE_SCRATCH]struct{}

// Classify returns what line is and what it carries (SPEC §2, §3). The line
// is one line of traffic without its LF (surrounding JSON whitespace, such as
// a CR, is allowed); its bytes are read during the call only and not copied.
//
// Everything in the result is owned by Go and stays valid after line
// changes. Its strings share one allocation. Classify is safe to call from
// any number of goroutines at once.
func Classify(line []byte) Classification {
	var it C.jre_item
	var scratch classifyScratch
	sp := (*C.char)(unsafe.Pointer(&scratch[0]))
	need := int(C.jre_classify(bytesPtr(line), C.size_t(len(line)), &it, sp, C.size_t(unsafe.Sizeof(scratch))))
	runtime.KeepAlive(line)
	var strs []byte
	if need > int(unsafe.Sizeof(scratch)) {
		// The result did not fit: it was left in scratch, live.
		strs = make([]byte, need)
		C.jre_classification_finish(sp, (*C.char)(unsafe.Pointer(&strs[0])))
	} else if need > 0 {
		// One allocation for all the strings, not zeroed first.
		strs = append([]byte(nil), unsafe.Slice((*byte)(unsafe.Pointer(&scratch[0])), need)...)
	}
	var c Classification
	c.set(&it, strs)
	return c
}

// set fills c from it, whose strings are the first bytes of strs; it returns
// the number of bytes of strs they took.
func (c *Classification) set(it *C.jre_item, strs []byte) int {
	c.Kind = Kind(it.kind)
	c.IDKind = IDKind(it.id_kind)
	f := it.flags
	c.JSONRPC20 = f&C.JRE_JSONRPC_2_0 != 0
	c.HasResult = f&C.JRE_HAS_RESULT != 0
	c.HasError = f&C.JRE_HAS_ERROR != 0
	c.NamesNoRequest = f&C.JRE_NAMES_NO_REQUEST != 0
	c.IDSpan = Span{int(it.span[C.JRE_SPAN_ID].offset), int(it.span[C.JRE_SPAN_ID].len)}
	c.MethodSpan = Span{int(it.span[C.JRE_SPAN_METHOD].offset), int(it.span[C.JRE_SPAN_METHOD].len)}
	c.ParamsSpan = Span{int(it.span[C.JRE_SPAN_PARAMS].offset), int(it.span[C.JRE_SPAN_PARAMS].len)}
	c.ResultSpan = Span{int(it.span[C.JRE_SPAN_RESULT].offset), int(it.span[C.JRE_SPAN_RESULT].len)}
	c.ErrorSpan = Span{int(it.span[C.JRE_SPAN_ERROR].offset), int(it.span[C.JRE_SPAN_ERROR].len)}
	present := it.present
	if present == 0 {
		return 0
	}
	off := 0
	if present&(1<<C.JRE_ID) != 0 {
		n := int(it.str_len[C.JRE_ID])
		c.ID = strs[off : off+n : off+n]
		off += n
	}
	if present&(1<<C.JRE_METHOD) != 0 {
		n := int(it.str_len[C.JRE_METHOD])
		c.Method = bytesString(strs[off : off+n])
		c.HasMethod = true
		off += n
	}
	if present&(1<<C.JRE_REASON) != 0 {
		n := int(it.str_len[C.JRE_REASON])
		c.Reason = bytesString(strs[off : off+n])
		off += n
	}
	if present&(1<<C.JRE_REPLY_SERVER) != 0 {
		n := int(it.str_len[C.JRE_REPLY_SERVER])
		c.replyServer = strs[off : off+n : off+n]
		off += n
	}
	if present&(1<<C.JRE_REPLY_CLIENT) != 0 {
		n := int(it.str_len[C.JRE_REPLY_CLIENT])
		c.replyClient = strs[off : off+n : off+n]
		off += n
	}
	return off
}

// bytesString views b as a string. b is part of a result's own string
// block, which nothing writes after the result is made: the block's other
// parts are handed out as slices capped at their own length.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// textScratch is the stack buffer for a reply or a log text. A log text is
// at most 256 UTF-16 units (at most 768 bytes) and an ellipsis; a reply is
// about 100 bytes plus its id.
type textScratch [1024]byte

// InvalidReply returns the one reply owed for line by the endpoint in role
// (SPEC §4): a JSON-RPC error response without a line break, and ok true;
// or nil and false when none is owed. It is the same text as
// Classify(line).Reply(role), for a host that wants only the reply.
//
// It panics if role is not RoleServer or RoleClient, or if the library
// reports a failure (out of memory, or an internal fault).
func InvalidReply(line []byte, role Role) (reply []byte, ok bool) {
	var out C.jre_text
	var keep C.JsonRpcString
	var scratch textScratch
	sp := (*C.char)(unsafe.Pointer(&scratch[0]))
	C.jre_invalid_reply(bytesPtr(line), C.size_t(len(line)), C.uint32_t(role), sp, C.size_t(len(scratch)), &out, &keep)
	runtime.KeepAlive(line)
	switch out.status {
	case C.JSONRPC_STATUS_OK:
	case C.JSONRPC_STATUS_UNKNOWN_ROLE:
		panic(fmt.Sprintf("envelope: InvalidReply with unknown role %v", role))
	default:
		panic(fmt.Sprintf("envelope: jsonrpc_invalid_reply failed with status %d", uint32(out.status)))
	}
	if out.present == 0 {
		return nil, false
	}
	return takeText(&out, &keep, scratch[:]), true
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

// ---- the many-lines call --------------------------------------------------

// lineState is what jsonrpc_classify_lines keeps between buffers.
type lineState = C.JsonRpcLineState

// lineItem is one line of a buffer, described without pointers.
type lineItem = C.jre_item

func newLineState(maxLine int) lineState {
	return lineState{max_line: C.size_t(maxLine)}
}

// errLines is the error of a failed jsonrpc_classify_lines call.
var errLines = errors.New("envelope: jsonrpc_classify_lines failed")

// linesScratch holds the buffers that jsonrpc_classify_lines results are
// copied through; they grow to the largest result seen and are reused.
type linesScratch struct {
	items []lineItem
	arena []byte
}

// classifyLines makes one call of jsonrpc_classify_lines over buf and
// returns its items (in s.items, valid until the next call), one new
// allocation holding all their strings, and the bytes consumed.
func classifyLines(buf []byte, endOfStream bool, state *lineState, s *linesScratch) (items []lineItem, strs []byte, consumed int, err error) {
	if len(s.items) == 0 {
		s.items = make([]lineItem, 64)
	}
	if len(s.arena) == 0 {
		s.arena = make([]byte, 4096)
	}
	var out C.jre_lines_out
	var keep C.JsonRpcLines
	C.jre_classify_lines(bytesPtr(buf), C.size_t(len(buf)), C.bool(endOfStream), state,
		&s.items[0], C.size_t(len(s.items)), (*C.char)(unsafe.Pointer(&s.arena[0])), C.size_t(len(s.arena)),
		&out, &keep)
	runtime.KeepAlive(buf)
	if out.status != C.JSONRPC_STATUS_OK {
		return nil, nil, 0, fmt.Errorf("%w: status %d", errLines, uint32(out.status))
	}
	count, need := int(out.count), int(out.need)
	if out.kept != 0 {
		// Grow the scratch to fit, with room to spare, and copy.
		if count > len(s.items) {
			s.items = make([]lineItem, max(count, 2*len(s.items)))
		}
		if need > len(s.arena) {
			s.arena = make([]byte, max(need, 2*len(s.arena)))
		}
		C.jre_lines_finish(&keep, &s.items[0], (*C.char)(unsafe.Pointer(&s.arena[0])))
	}
	if need > 0 {
		strs = append([]byte(nil), s.arena[:need]...)
	}
	return s.items[:count], strs, int(out.consumed), nil
}

// setLine fills l from it, with the line's bytes taken from buf (at the
// offset the library gave) and its strings from the front of strs; it
// returns the number of bytes of strs they took.
func (l *Line) set(it *lineItem, buf []byte, strs []byte) int {
	off, n := int(it.offset), int(it.len)
	if it.flags&C.JRE_TOO_LONG != 0 {
		l.TooLong = true
		l.Len = n
		return l.Classification.set(it, strs)
	}
	l.Bytes = buf[off : off+n : off+n]
	l.Len = n
	return l.Classification.set(it, strs)
}
