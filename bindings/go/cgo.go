package envelope

// This file is the only one that calls C. Every exported function makes
// one cgo call and copies what the library gave into Go memory before it
// returns; nothing the caller gets points into C memory.
//
// Batches (a Reader's or a Session's) need no C code of their own: the
// library's feed and end are called directly, and Go reads the batch they
// describe (JsonRpcLine items, the lines' bytes and their strings, all in
// the library's memory until its next call) and copies it. Classify keeps
// one small shim, jre_classify: it gives jsonrpc_classify_into a Go stack
// buffer as its scratch, so that for almost every line the library writes
// the strings straight into Go memory and allocates nothing; the shim then
// clears the pointers into that buffer (cgo's rules forbid C to leave a Go
// pointer in Go memory) and says which strings are there, back to back in
// the header's order. When the strings do not fit, the library gives the
// result its own allocation, which Go copies and frees in a second call.
// The texts the library returns as owned strings (a reply, a log value, a
// refused line's decision) are copied into a Go buffer and freed by a shim
// in the same call, or, when larger than the buffer, by a second call.
//
// The C objects that outlive a call are a Reader's library reader and a
// Session's library session (stream and Session below), freed at the end
// of a stream, on an error or by Close; a cleanup frees one only if it is
// dropped before any of those.
//
// The functions are marked noescape (they keep no Go pointer after the
// call) and nocallback (they never call Go), so the Go compiler can keep
// the caller's buffers on the stack and cgo skips its callback bookkeeping.

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#cgo noescape jre_classify
#cgo nocallback jre_classify
#cgo noescape jsonrpc_classification_free
#cgo nocallback jsonrpc_classification_free
#cgo noescape jsonrpc_reader_feed
#cgo nocallback jsonrpc_reader_feed
#cgo noescape jsonrpc_reader_end
#cgo nocallback jsonrpc_reader_end
#cgo noescape jsonrpc_session_feed
#cgo nocallback jsonrpc_session_feed
#cgo noescape jsonrpc_session_end
#cgo nocallback jsonrpc_session_end
#cgo noescape jsonrpc_session_sent
#cgo nocallback jsonrpc_session_sent
#cgo noescape jre_session_refused
#cgo nocallback jre_session_refused
#cgo noescape jre_invalid_reply
#cgo nocallback jre_invalid_reply
#cgo noescape jre_log_value
#cgo nocallback jre_log_value
#cgo noescape jre_string_finish
#cgo nocallback jre_string_finish

#include <stdint.h>
#include <string.h>

#include "jsonrpc_envelope.h"

// jsonrpc_classify_into with buf (cap bytes) as its scratch, into out, a
// buffer of words that holds a JsonRpcClassification (a pointer-free Go
// type, so that cgo has no pointers to check on each call). The strings
// the library wrote to buf stand there back to back, each
// followed by its NUL, in the header's order (id, method, reason,
// reply_server, reply_client, substitute); their pointers are cleared
// (no Go pointer may stay in Go memory), and bit i of the result says that
// string i is one of them. Any other string keeps its pointer into C
// memory: the result's own allocation (out->storage, freed by
// jsonrpc_classification_free) or a failed call's static reason.
static uint8_t jre_classify(const uint8_t *line, size_t len, uint32_t profile, uint64_t *out, char *buf,
                            size_t cap) {
	JsonRpcClassification c;
	jsonrpc_classify_into(line, len, profile, &c, (uint8_t *)buf, cap);
	JsonRpcStr *s[] = {&c.id, &c.method, &c.reason, &c.reply_server, &c.reply_client, &c.substitute};
	uint8_t in_buf = 0;
	for (unsigned i = 0; i < sizeof s / sizeof s[0]; i++) {
		uintptr_t p = (uintptr_t)s[i]->ptr;
		if (p != 0 && p >= (uintptr_t)buf && p < (uintptr_t)buf + cap) {
			in_buf |= (uint8_t)(1u << i);
			s[i]->ptr = NULL;
		}
	}
	memcpy(out, &c, sizeof c);
	return in_buf;
}

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

static void jre_session_refused(JsonRpcSession *s, const uint8_t *line, size_t len, char *buf, size_t cap,
                                jre_text *out, JsonRpcString *keep, const char **note) {
	JsonRpcDecision d;
	JsonRpcStatus status = jsonrpc_session_refused(s, line, len, &d);
	jre_take_string(d.text, buf, cap, out, keep);
	out->status = (uint32_t)status;
	out->action = (uint32_t)d.action;
	*note = d.note;
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
	"unsafe"
)

// abiVersion is the ABI this package was written for: the header's
// JSONRPC_ABI_VERSION when it was last updated.
const abiVersion = 3

// Compile-time check that the header is the one this package was written
// for; a build fails here when it changes under the package.
func _() {
	var x [1]struct{}
	_ = x[abiVersion-C.JSONRPC_ABI_VERSION]
	_ = x[C.JSONRPC_ABI_VERSION-abiVersion]
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
	for p := range profileNames {
		profileNames[p] = goName(C.jsonrpc_profile_name(C.uint32_t(p)))
	}
	for a := range actionNames {
		actionNames[a] = goName(C.jsonrpc_action_name(C.uint32_t(a)))
	}
}

// The library's names of the values this package declares, asked once at
// initialisation: "" where the library names none (KindNone, Role 0, ...).
var (
	kindNames     [KindInvalidResponse + 1]string
	kindIsMessage [KindInvalidResponse + 1]bool
	idKindNames   [IDBoolean + 1]string
	roleNames     [RoleClient + 1]string
	profileNames  [ProfileMCP + 1]string
	actionNames   [ActionDivert + 1]string
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

func profileName(p Profile) string {
	if int(p) < len(profileNames) {
		return profileNames[p]
	}
	return goName(C.jsonrpc_profile_name(C.uint32_t(p)))
}

func actionName(a Action) string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return goName(C.jsonrpc_action_name(C.uint32_t(a)))
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

// cBytes views n bytes of C memory at p.
func cBytes(p unsafe.Pointer, n int) []byte {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(p), n)
}

// numStrings is the number of strings a JsonRpcClassification has.
const numStrings = 6

// cStrings lists the strings of a classification in the header's order:
// id, method, reason, reply_server, reply_client, substitute.
func cStrings(r *C.JsonRpcClassification) [numStrings]C.JsonRpcStr {
	return [numStrings]C.JsonRpcStr{r.id, r.method, r.reason, r.reply_server, r.reply_client, r.substitute}
}

// classificationWords holds a JsonRpcClassification for jre_classify,
// as a type without pointers.
type classificationWords [(unsafe.Sizeof(C.JsonRpcClassification{}) + 7) / 8]uint64

// classifyScratch is the Go stack buffer that Classify hands the library as
// the scratch of jsonrpc_classify_into. The strings of a usual line take a
// few dozen bytes; 512 holds those of almost every invalid line too (a
// reason and two replies), and Go zeroes it on every call, so it is not
// made larger.
type classifyScratch [512]byte

// Classify returns what line is and what it carries (SPEC §2, §3), by the
// profile p. The line is one line of traffic without its LF (surrounding
// JSON whitespace, such as a CR, is allowed); its bytes are read during the
// call only and not copied.
//
// Everything in the result is owned by Go and stays valid after line
// changes. Its strings share one allocation. Classify is safe to call from
// any number of goroutines at once. For a p the library does not know, the
// result is KindNone, with the library's reason.
func (p Profile) Classify(line []byte) Classification {
	var words classificationWords
	var scratch classifyScratch
	in := uint8(C.jre_classify(bytesPtr(line), C.size_t(len(line)), C.uint32_t(p), (*C.uint64_t)(&words[0]),
		(*C.char)(unsafe.Pointer(&scratch[0])), C.size_t(len(scratch))))
	runtime.KeepAlive(line)
	// Read in place: its pointers are into C memory or NULL.
	r := (*C.JsonRpcClassification)(unsafe.Pointer(&words))
	s := cStrings(r)
	need := 0
	for i := range s {
		if in&(1<<i) != 0 || s[i].ptr != nil {
			need += int(s[i].len)
		}
	}
	var block []byte
	if need > 0 {
		block = make([]byte, need)
	}
	var texts [numStrings][]byte
	var present uint8
	at, from := 0, 0
	for i := range s {
		n := int(s[i].len)
		switch {
		case in&(1<<i) != 0: // in scratch, back to back, each with its NUL
			copy(block[at:], scratch[from:from+n])
			from += n + 1
		case s[i].ptr != nil: // in C memory
			copy(block[at:], cBytes(unsafe.Pointer(s[i].ptr), n))
		default:
			continue
		}
		texts[i] = block[at : at+n : at+n]
		present |= 1 << i
		at += n
	}
	var c Classification
	c.fill(r, &texts, present)
	if r.storage != nil {
		C.jsonrpc_classification_free(r) // which zeroes it
	}
	return c
}

// Classify returns what line is and what it carries by the JSON-RPC
// profile: ProfileJSONRPC.Classify(line).
func Classify(line []byte) Classification {
	return ProfileJSONRPC.Classify(line)
}

// fill sets c from the library's r, with its strings in texts (bit i of
// present says that texts[i] is there, even when empty).
func (c *Classification) fill(r *C.JsonRpcClassification, texts *[numStrings][]byte, present uint8) {
	c.Kind = Kind(r.kind)
	c.IDKind = IDKind(r.id_kind)
	c.JSONRPC20 = bool(r.jsonrpc_2_0)
	c.HasResult = bool(r.has_result)
	c.HasError = bool(r.has_error)
	c.NamesNoRequest = bool(r.names_no_request)
	c.IDSpan = Span{int(r.id_span.offset), int(r.id_span.len)}
	c.MethodSpan = Span{int(r.method_span.offset), int(r.method_span.len)}
	c.ParamsSpan = Span{int(r.params_span.offset), int(r.params_span.len)}
	c.ResultSpan = Span{int(r.result_span.offset), int(r.result_span.len)}
	c.ErrorSpan = Span{int(r.error_span.offset), int(r.error_span.len)}
	if present == 0 {
		return
	}
	c.ID = texts[0] // never empty: nil means absent
	c.HasMethod = present&(1<<1) != 0
	c.Method = bytesString(texts[1])
	c.Reason = bytesString(texts[2])
	c.replyServer = texts[3]
	c.replyClient = texts[4]
	c.Substitute = texts[5]
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
// (SPEC §4), by the profile p: a JSON-RPC error response without a line
// break, and ok true; or nil and false when none is owed. It is the same
// text as p.Classify(line).Reply(role), for a host that wants only the
// reply.
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

// ---- batches: the lines of a reader or a session --------------------------

// batchCopy is a library batch and the Go copy of its lines' bytes.
type batchCopy struct {
	batch C.JsonRpcBatch // what the library's last call described

	// The last batch's lines' bytes: buf, or an allocation of their own
	// when they did not fit, which is not kept. buf never grows.
	bytes, buf []byte
}

// copyOut appends the lines of the last batch to dst, copied out of the
// library's memory: their bytes into b.bytes (which Line.Bytes points
// into), their strings into one allocation of their own (the lines'
// classifications outlive the batch).
func (b *batchCopy) copyOut(dst []Line) []Line {
	count := int(b.batch.count)
	nbytes, ntexts := int(b.batch.bytes_len), int(b.batch.texts_len)
	if nbytes <= cap(b.buf) {
		b.bytes = b.buf[:nbytes]
	} else {
		b.bytes = make([]byte, nbytes)
	}
	copy(b.bytes, cBytes(unsafe.Pointer(b.batch.bytes), nbytes))
	if count == 0 {
		return dst
	}
	var block []byte
	if ntexts > 0 {
		block = make([]byte, ntexts)
		copy(block, cBytes(unsafe.Pointer(b.batch.texts), ntexts))
	}
	texts := batchTexts{base: uintptr(unsafe.Pointer(b.batch.texts)), block: block}
	items := unsafe.Slice(b.batch.items, count)
	for i := range items {
		it := &items[i]
		dst = append(dst, Line{})
		l := &dst[len(dst)-1]
		l.Number = uint64(it.number)
		l.Len = int(it.len)
		l.Action = Action(it.action)
		l.ActionText, _ = texts.str(it.action_text)
		if it.note != nil {
			l.Note = C.GoString(it.note)
		}
		var strs [numStrings][]byte
		var present uint8
		for j, s := range cStrings(&it.classification) {
			var ok bool
			if strs[j], ok = texts.str(s); ok {
				present |= 1 << j
			}
		}
		l.Classification.fill(&it.classification, &strs, present)
		if l.Kind == KindTooLong {
			l.TooLong = true
			continue
		}
		off := int(it.offset)
		l.Bytes = b.bytes[off : off+l.Len : off+l.Len]
	}
	return dst
}

// batchTexts is a batch's strings: block is the Go copy of the library's
// texts, which stood at base.
type batchTexts struct {
	base  uintptr
	block []byte
}

// str returns the Go copy of s, a string of the batch, and whether it is
// there: a slice of the block when it stood in the texts, else a copy of
// its own (a session's action text may stand outside them).
func (t *batchTexts) str(s C.JsonRpcStr) ([]byte, bool) {
	if s.ptr == nil {
		return nil, false
	}
	n := int(s.len)
	if p := uintptr(unsafe.Pointer(s.ptr)); p >= t.base && p-t.base <= uintptr(len(t.block)) &&
		uintptr(n) <= uintptr(len(t.block))-(p-t.base) {
		off := int(p - t.base)
		return t.block[off : off+n : off+n], true
	}
	own := make([]byte, n)
	copy(own, cBytes(unsafe.Pointer(s.ptr), n))
	return own, true
}

// ---- the stream reader ---------------------------------------------------

// stream is a library reader and the Go copies of its last batch.
type stream struct {
	c       *C.JsonRpcReader // nil once freed
	cleanup runtime.Cleanup
	batchCopy
	items []Line // the last batch's lines
}

// newStream makes a library reader with the line limit maxLine (0: the
// library's default) and the profile p, and buffers for batches of about
// readSize bytes. It fails when the library does not know p or is out of
// memory.
func newStream(maxLine, readSize int, p Profile) (*stream, error) {
	s := &stream{batchCopy: batchCopy{buf: make([]byte, 2*readSize)}}
	if !p.known() {
		return s, fmt.Errorf("envelope: NewReader with unknown profile %v", p)
	}
	s.c = C.jsonrpc_reader_new(C.size_t(maxLine), C.uint32_t(p))
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

// call makes one library call (feed or end) and copies its batch.
func (s *stream) call(data []byte, end bool) error {
	s.items = s.items[:0]
	if s.c == nil {
		return errors.New("envelope: the library reader is freed")
	}
	var status C.JsonRpcStatus
	what := "jsonrpc_reader_feed"
	if end {
		what = "jsonrpc_reader_end"
		status = C.jsonrpc_reader_end(s.c, &s.batch)
	} else {
		status = C.jsonrpc_reader_feed(s.c, bytesPtr(data), C.size_t(len(data)), &s.batch)
	}
	runtime.KeepAlive(data)
	if status != C.JSONRPC_STATUS_OK {
		s.bytes = s.buf[:0]
		return fmt.Errorf("envelope: %s failed: %s", what, statusName(C.uint32_t(status)))
	}
	s.items = s.copyOut(s.items)
	return nil
}

// ---- the session ---------------------------------------------------------

// ErrSessionClosed is what a Session's calls return after Close.
var ErrSessionClosed = errors.New("envelope: a closed Session")

// A Session is one endpoint's session (SPEC §8 to §10, jsonrpc_session_*):
// a stream reader that also decides what to do with each line it reads,
// in its role and profile, and keeps the ids of the requests written the
// other way that are still outstanding (for substitutes and the handshake
// rule). A guard or an SDK transport feeds it what it reads (Feed, End),
// tells it every line it writes to the same peer (Sent), and does what
// each line's Action says; every decision is the library's.
//
// A Session is not safe for concurrent use: a transport whose writes and
// reads run on different goroutines guards it with a mutex. Close frees
// the library's session; a cleanup frees a dropped Session's, but only when
// the garbage collector gets to it.
type Session struct {
	c       *C.JsonRpcSession // nil once freed
	cleanup runtime.Cleanup
	batchCopy
}

// NewSession returns a Session that reads one stream in role by profile,
// whose lines may be maxLine bytes long (LF excluded; maxLine <= 0 means
// DefaultMaxLine). In ProfileJSONRPC it decides as SPEC §8 says; in
// ProfileMCP it also substitutes and applies the handshake rule (SPEC §9,
// §10.4). It fails for a role or a profile the library does not know, or
// when the library is out of memory.
func NewSession(role Role, profile Profile, maxLine int) (*Session, error) {
	switch {
	case roleName(role) == "":
		return nil, fmt.Errorf("envelope: NewSession with unknown role %v", role)
	case !profile.known():
		return nil, fmt.Errorf("envelope: NewSession with unknown profile %v", profile)
	}
	s := &Session{batchCopy: batchCopy{buf: make([]byte, 2*DefaultReadSize)}}
	s.c = C.jsonrpc_session_new(C.uint32_t(role), C.uint32_t(profile), C.size_t(max(maxLine, 0)))
	if s.c == nil {
		return nil, errors.New("envelope: jsonrpc_session_new: out of memory")
	}
	s.cleanup = runtime.AddCleanup(s, freeSession, s.c)
	return s, nil
}

func freeSession(c *C.JsonRpcSession) { C.jsonrpc_session_free(c) }

// Feed hands the session the next bytes of its stream, as read, and
// returns the lines they complete (none when they end no line), each with
// its Action, ActionText and Note (see Line). The returned slice is the
// caller's; each line's Bytes point into the Session's buffer and are
// valid until its next Feed or End (Sent, Refused, Outstanding and Close
// leave them be); the rest of the line (its Classification, ActionText,
// Note) is the caller's too. On an error (the library out of memory, or
// failing after an internal fault) no line is returned.
func (s *Session) Feed(data []byte) ([]Line, error) {
	if s.c == nil {
		return nil, ErrSessionClosed
	}
	status := C.jsonrpc_session_feed(s.c, bytesPtr(data), C.size_t(len(data)), &s.batch)
	runtime.KeepAlive(data)
	return s.lines(status, "jsonrpc_session_feed")
}

// End ends the session's stream and returns its last line when it had no
// LF (or a too-long line being dropped), decided as Feed decides lines.
// The reader is then as new, for another stream; the outstanding requests
// are kept.
func (s *Session) End() ([]Line, error) {
	if s.c == nil {
		return nil, ErrSessionClosed
	}
	return s.lines(C.jsonrpc_session_end(s.c, &s.batch), "jsonrpc_session_end")
}

func (s *Session) lines(status C.JsonRpcStatus, what string) ([]Line, error) {
	if status != C.JSONRPC_STATUS_OK {
		s.bytes = s.buf[:0]
		return nil, fmt.Errorf("envelope: %s failed: %s", what, statusName(C.uint32_t(status)))
	}
	return s.copyOut(nil), nil
}

// Sent tells the session of a line written the other way, to the peer
// whose lines it reads: call it with every line written to that peer
// (LF excluded), before it leaves, so that its answer always finds it. In
// ProfileMCP a request's id is then outstanding until a response names it.
// It fails only when the library is out of memory (nothing changed) or the
// Session is closed.
func (s *Session) Sent(line []byte) error {
	if s.c == nil {
		return ErrSessionClosed
	}
	status := C.jsonrpc_session_sent(s.c, bytesPtr(line), C.size_t(len(line)))
	runtime.KeepAlive(line)
	if status != C.JSONRPC_STATUS_OK {
		return fmt.Errorf("envelope: jsonrpc_session_sent failed: %s", statusName(C.uint32_t(status)))
	}
	return nil
}

// Refused returns what to do instead when the receiving SDK's own decoder
// refused line, a line (or an action's text) the session handed on (SPEC
// §10.4; a fault of the profile, to be logged at error level): the
// library's decision (jsonrpc_session_refused), its action and text
// copied out as they are.
func (s *Session) Refused(line []byte) (Decision, error) {
	if s.c == nil {
		return Decision{}, ErrSessionClosed
	}
	var out C.jre_text
	var keep C.JsonRpcString
	var note *C.char
	var scratch textScratch
	C.jre_session_refused(s.c, bytesPtr(line), C.size_t(len(line)), (*C.char)(unsafe.Pointer(&scratch[0])),
		C.size_t(len(scratch)), &out, &keep, &note)
	runtime.KeepAlive(line)
	if out.status != C.JSONRPC_STATUS_OK {
		return Decision{}, fmt.Errorf("envelope: jsonrpc_session_refused failed: %s", statusName(out.status))
	}
	d := Decision{Action: Action(out.action), Note: goName(note)}
	if out.present != 0 {
		d.Text = takeText(&out, &keep, scratch[:])
	}
	return d, nil
}

// Outstanding returns how many requests written the other way (Sent) are
// still waiting for a response; 0 after Close.
func (s *Session) Outstanding() int {
	if s.c == nil {
		return 0
	}
	return int(C.jsonrpc_session_outstanding(s.c))
}

// Close frees the library's session; then every call returns
// ErrSessionClosed. It never fails, and may be called more than once.
func (s *Session) Close() error {
	if s.c != nil {
		s.cleanup.Stop()
		freeSession(s.c)
		s.c = nil
	}
	return nil
}

// statusName is the library's name of a status, or its number when it has
// none.
func statusName(status C.uint32_t) string {
	if name := goName(C.jsonrpc_status_name(status)); name != "" {
		return name
	}
	return fmt.Sprintf("status %d", uint32(status))
}
