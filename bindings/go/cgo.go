package envelope

// This file is the only one that talks to C. Each exported function makes
// one cgo call to a small C shim below, which calls the library, describes
// its result (kinds, flags, spans, string lengths) in a flat jre_item, gets
// its strings into a Go buffer (each followed by its NUL, in JRE_ order),
// and frees what the C result owns before it returns. Classify's shim gives
// jsonrpc_classify_into a Go stack buffer as its scratch, so for almost
// every line the library writes the strings straight into Go memory and
// allocates nothing. When they do not fit (long ids, long replies), the
// library gives the result its own allocation; the shim then leaves the
// live C result in the Go buffer and says so, and Go allocates the exact
// size and makes a second call that copies and frees.
//
// The one C object that outlives a call is a Reader's library reader
// (stream, below): each chunk read goes to it in one call that also copies
// the lines it completes into Go memory (a second call copies a batch too
// large for the buffers; the batch stays valid until the reader's next
// call). The Reader frees it at the end of its stream, on an error and in
// Close; a cleanup frees it only if a Reader is dropped before any of those.
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
#cgo noescape jre_reader_call
#cgo nocallback jre_reader_call
#cgo noescape jre_batch_copy
#cgo nocallback jre_batch_copy
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
};

// A classification (or a line of a reader's batch) without pointers:
// its present strings stand back to back in a Go buffer, in JRE_ order,
// each followed by a NUL (the layout jsonrpc_classify_into gives its
// scratch); bit i of `present` says whether string i is there, and
// str_len[i] is its length without the NUL (0 when absent).
typedef struct {
	uint64_t number;    // a line's number in its stream (lines only)
	size_t offset, len; // and its place in its batch's bytes
	JsonRpcSpan span[JRE_SPANS];
	size_t str_len[JRE_STRINGS];
	uint32_t kind, id_kind;
	uint8_t flags, present;
} jre_item;

// Describes c in *out; returns the bytes its strings need, NULs included.
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
			need += s[i].len + 1;
		} else {
			out->str_len[i] = 0;
		}
	}
	return need;
}

// Copies c's strings, each with the NUL the library puts after it, back to
// back to dst; returns the end.
static char *jre_copy(const JsonRpcClassification *c, char *dst) {
	const JsonRpcStr s[JRE_STRINGS] = {c->id, c->method, c->reason, c->reply_server, c->reply_client};
	for (int i = 0; i < JRE_STRINGS; i++) {
		if (s[i].ptr != NULL) {
			memcpy(dst, s[i].ptr, s[i].len + 1);
			dst += s[i].len + 1;
		}
	}
	return dst;
}

// jsonrpc_classify_into with buf (cap bytes, at least a
// JsonRpcClassification's size; see classifyScratch) as its scratch,
// described in *out; returns the bytes its strings need. When they fit,
// the library has written them to buf in the layout of jre_item (the
// header promises it) and the result owns nothing; when they did not, the
// live result, which then owns them, is stored in buf itself for
// jre_classification_finish, and *kept is set. A result the library could
// not build (kind none) carries a static reason, which is copied to buf.
static size_t jre_classify(const uint8_t *line, size_t len, jre_item *out, char *buf, size_t cap, uint8_t *kept) {
	JsonRpcClassification c;
	jsonrpc_classify_into(line, len, &c, (uint8_t *)buf, cap);
	size_t need = jre_describe(&c, out);
	*kept = c.storage != NULL;
	if (*kept) {
		memcpy(buf, &c, sizeof c);
	} else if (c.kind == JSONRPC_KIND_NONE && need > 0) {
		if (need > cap) {
			out->present = 0;
			return 0;
		}
		jre_copy(&c, buf);
	}
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

// What a reader call gave: its status, its batch's sizes, and whether the
// batch was copied (it fitted the Go buffers).
typedef struct {
	uint32_t status;
	uint8_t copied;
	size_t count, bytes_len, texts_len;
} jre_batch_out;

// Copies the batch b into Go buffers it fits: each item described, then the
// lines' bytes and the strings, one piece each (the strings stand in the
// texts in JRE_ order, item after item, as jre_item's lengths read them).
static void jre_batch_copy(const JsonRpcBatch *b, jre_item *items, uint8_t *bytes, char *texts) {
	for (size_t i = 0; i < b->count; i++) {
		const JsonRpcLine *line = &b->items[i];
		jre_describe(&line->classification, &items[i]);
		items[i].number = line->number;
		items[i].offset = line->offset;
		items[i].len = line->len;
	}
	if (b->bytes_len > 0) memcpy(bytes, b->bytes, b->bytes_len);
	if (b->texts_len > 0) memcpy(texts, b->texts, b->texts_len);
}

// jsonrpc_reader_feed with len bytes at data, or jsonrpc_reader_end when
// end is set. The batch is copied when it fits items (icap), bytes (bcap)
// and texts (tcap); otherwise *batch describes it, for jre_batch_copy,
// until the reader's next call.
static void jre_reader_call(JsonRpcReader *reader, const uint8_t *data, size_t len, bool end, JsonRpcBatch *batch,
                            jre_item *items, size_t icap, uint8_t *bytes, size_t bcap, char *texts, size_t tcap,
                            jre_batch_out *out) {
	JsonRpcStatus status = end ? jsonrpc_reader_end(reader, batch) : jsonrpc_reader_feed(reader, data, len, batch);
	out->status = (uint32_t)status;
	out->count = batch->count;
	out->bytes_len = batch->bytes_len;
	out->texts_len = batch->texts_len;
	out->copied = batch->count <= icap && batch->bytes_len <= bcap && batch->texts_len <= tcap;
	if (out->copied) jre_batch_copy(batch, items, bytes, texts);
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
	"math"
	"runtime"
	"slices"
	"unsafe"
)

// abiVersion is the ABI this package was written for: the header's
// JSONRPC_ABI_VERSION when it was last updated.
const abiVersion = 2

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
	_ = x[KindTooLong-C.JSONRPC_KIND_TOO_LONG]
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
	for k := range kindNames {
		kindNames[k] = goName(C.jsonrpc_kind_name(C.uint32_t(k)))
		kindIsMessage[k] = bool(C.jsonrpc_kind_is_message(C.uint32_t(k)))
	}
	for k := range idKindNames {
		idKindNames[k] = goName(C.jsonrpc_id_kind_name(C.uint32_t(k)))
	}
	for r := range roleNames {
		roleNames[r] = goName(C.jsonrpc_role_name(C.uint32_t(r)))
	}
}

// The library's names of the values this package declares, asked once at
// initialisation: "" where the library names none (KindNone, Role 0).
var (
	kindNames     [KindTooLong + 1]string
	kindIsMessage [KindTooLong + 1]bool
	idKindNames   [IDBoolean + 1]string
	roleNames     [RoleClient + 1]string
)

// goName is a static name of the library's, or "" for NULL.
func goName(name *C.char) string {
	if name == nil {
		return ""
	}
	return C.GoString(name)
}

// kindName is the library's name of k ("" for none); values this package
// does not declare are asked each time.
func kindName(k Kind) string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return goName(C.jsonrpc_kind_name(C.uint32_t(k)))
}

func idKindName(k IDKind) string {
	if int(k) < len(idKindNames) {
		return idKindNames[k]
	}
	return goName(C.jsonrpc_id_kind_name(C.uint32_t(k)))
}

func roleName(r Role) string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return goName(C.jsonrpc_role_name(C.uint32_t(r)))
}

// defaultMaxLine is the library's default line limit.
func defaultMaxLine() int {
	return int(min(uint64(C.jsonrpc_default_max_line()), math.MaxInt))
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

// classifyScratch is the Go stack buffer that Classify hands the library as
// the scratch of jsonrpc_classify_into: 512 bytes, in words so that it is
// aligned for a JsonRpcClassification, which it must also hold (see
// jre_classify). The strings of a usual line take a few dozen bytes; 512
// holds those of almost every invalid line too (a reason and two replies),
// and Go zeroes it on every call, so it is not made larger.
type classifyScratch [64]uint64

// The scratch holds a JsonRpcClassification (a build fails here otherwise).
var _ [unsafe.Sizeof(classifyScratch{}) - unsafe.Sizeof(C.JsonRpcClassification{})]struct{}

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
	var kept C.uint8_t
	sp := (*C.char)(unsafe.Pointer(&scratch[0]))
	need := int(C.jre_classify(bytesPtr(line), C.size_t(len(line)), &it, sp, C.size_t(unsafe.Sizeof(scratch)), &kept))
	runtime.KeepAlive(line)
	var strs []byte
	if kept != 0 {
		// The strings did not fit: the live result was left in scratch.
		strs = make([]byte, need)
		C.jre_classification_finish(sp, (*C.char)(unsafe.Pointer(&strs[0])))
	} else if need > 0 {
		strs = make([]byte, need)
		copy(strs, unsafe.Slice((*byte)(unsafe.Pointer(&scratch[0])), need))
	}
	var c Classification
	c.set(&it, strs)
	return c
}

// set fills c from it, whose strings (each followed by a NUL) are the first
// bytes of strs; it returns the number of bytes of strs they took.
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
		off += n + 1
	}
	if present&(1<<C.JRE_METHOD) != 0 {
		n := int(it.str_len[C.JRE_METHOD])
		c.Method = bytesString(strs[off : off+n])
		c.HasMethod = true
		off += n + 1
	}
	if present&(1<<C.JRE_REASON) != 0 {
		n := int(it.str_len[C.JRE_REASON])
		c.Reason = bytesString(strs[off : off+n])
		off += n + 1
	}
	if present&(1<<C.JRE_REPLY_SERVER) != 0 {
		n := int(it.str_len[C.JRE_REPLY_SERVER])
		c.replyServer = strs[off : off+n : off+n]
		off += n + 1
	}
	if present&(1<<C.JRE_REPLY_CLIENT) != 0 {
		n := int(it.str_len[C.JRE_REPLY_CLIENT])
		c.replyClient = strs[off : off+n : off+n]
		off += n + 1
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
		panic(fmt.Sprintf("envelope: jsonrpc_invalid_reply failed: %s", statusName(out.status)))
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

// ---- the stream reader ---------------------------------------------------

// lineItem is one line of a batch, described without pointers.
type lineItem = C.jre_item

// stream is a library reader and the Go copies of its last batch.
type stream struct {
	c       *C.JsonRpcReader // nil once freed
	cleanup runtime.Cleanup
	batch   C.JsonRpcBatch // the last batch, while a second call copies it

	// The last batch: its items, its lines' bytes (in buf, or in their own
	// allocation when they did not fit), and its strings, in an allocation
	// of their own since classifications outlive the batch.
	items []lineItem
	bytes []byte
	strs  []byte

	// What a batch is copied into when it fits; texts only on its way to
	// strs. Neither grows: a batch too large gets allocations of its own,
	// which are not kept.
	buf, texts []byte
}

// newStream makes a library reader with the line limit maxLine (0: the
// library's default), and buffers for batches of about readSize bytes. It
// fails only when the library is out of memory.
func newStream(maxLine, readSize int) (*stream, error) {
	s := &stream{buf: make([]byte, 2*readSize), texts: make([]byte, readSize)}
	s.c = C.jsonrpc_reader_new(C.size_t(maxLine))
	if s.c == nil {
		return s, errors.New("envelope: jsonrpc_reader_new: out of memory")
	}
	s.cleanup = runtime.AddCleanup(s, freeReader, s.c)
	return s, nil
}

func freeReader(c *C.JsonRpcReader) { C.jsonrpc_reader_free(c) }

// free frees the library reader (once); the last batch's copies stay.
func (s *stream) free() {
	if s.c != nil {
		s.cleanup.Stop()
		freeReader(s.c)
		s.c = nil
	}
}

// feed hands the library the next bytes of the stream, and makes the lines
// they complete the last batch.
func (s *stream) feed(data []byte) error {
	return s.call(data, false)
}

// end ends the stream, and makes its last line (if it had no LF) the last
// batch.
func (s *stream) end() error {
	return s.call(nil, true)
}

// Go buffers for C: the data pointer (NULL when there is no array) and the
// capacity.
func itemsFor(b []lineItem) (*lineItem, C.size_t) {
	return unsafe.SliceData(b), C.size_t(cap(b))
}

func bufFor(b []byte) (*C.uint8_t, C.size_t) {
	return (*C.uint8_t)(unsafe.SliceData(b)), C.size_t(cap(b))
}

func textsFor(b []byte) (*C.char, C.size_t) {
	return (*C.char)(unsafe.Pointer(unsafe.SliceData(b))), C.size_t(cap(b))
}

// call makes one library call (feed or end) and copies its batch.
func (s *stream) call(data []byte, end bool) error {
	s.items, s.bytes, s.strs = s.items[:0], s.buf[:0], nil
	if s.c == nil {
		return errors.New("envelope: the library reader is freed")
	}
	var out C.jre_batch_out
	items, icap := itemsFor(s.items)
	bytes, bcap := bufFor(s.bytes)
	texts, tcap := textsFor(s.texts)
	C.jre_reader_call(s.c, bytesPtr(data), C.size_t(len(data)), C.bool(end), &s.batch,
		items, icap, bytes, bcap, texts, tcap, &out)
	runtime.KeepAlive(data)
	runtime.KeepAlive(s)
	if out.status != C.JSONRPC_STATUS_OK {
		what := "jsonrpc_reader_feed"
		if end {
			what = "jsonrpc_reader_end"
		}
		return fmt.Errorf("envelope: %s failed: %s", what, statusName(out.status))
	}
	count, nbytes, ntexts := int(out.count), int(out.bytes_len), int(out.texts_len)
	if out.copied == 0 {
		// Too large for the buffers: copy into ones that fit, the texts
		// straight into the strings' own allocation.
		s.items = slices.Grow(s.items, count)
		if nbytes > cap(s.bytes) {
			s.bytes = make([]byte, 0, nbytes)
		}
		s.strs = make([]byte, ntexts)
		items, _ := itemsFor(s.items)
		bytes, _ := bufFor(s.bytes)
		texts, _ := textsFor(s.strs)
		C.jre_batch_copy(&s.batch, items, bytes, texts)
		runtime.KeepAlive(s)
	} else if ntexts > 0 {
		s.strs = append([]byte(nil), s.texts[:ntexts]...)
	}
	s.items, s.bytes = s.items[:count], s.bytes[:nbytes]
	return nil
}

// set fills l from it, with the line's bytes taken from bytes (at the
// offset the library gave) and its strings from the front of strs; it
// returns the number of bytes of strs they took.
func (l *Line) set(it *lineItem, bytes []byte, strs []byte) int {
	n := l.Classification.set(it, strs)
	l.Number = uint64(it.number)
	l.Len = int(it.len)
	if l.Kind == KindTooLong {
		l.TooLong = true
		return n
	}
	off := int(it.offset)
	l.Bytes = bytes[off : off+l.Len : off+l.Len]
	return n
}

// statusName is the library's name of a status, or its number when it has
// none.
func statusName(status C.uint32_t) string {
	if name := goName(C.jsonrpc_status_name(status)); name != "" {
		return name
	}
	return fmt.Sprintf("status %d", uint32(status))
}
