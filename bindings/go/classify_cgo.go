package envelope

// Classify keeps one small shim, jre_classify: it gives
// jsonrpc_classify_into a Go stack buffer as its scratch, so that for
// almost every line the library writes the strings straight into Go memory
// and allocates nothing; the shim then clears the pointers into that
// buffer (cgo's rules forbid C to leave a Go pointer in Go memory) and says
// which strings are there, back to back in the header's order. When the
// strings do not fit, the library gives the result its own allocation,
// which Go copies and frees in a second call.

/*
#cgo noescape jre_classify
#cgo nocallback jre_classify
#cgo noescape jsonrpc_classification_free
#cgo nocallback jsonrpc_classification_free

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
*/
import "C"

import (
	"runtime"
	"unsafe"
)

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
