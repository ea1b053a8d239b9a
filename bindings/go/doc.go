// Package envelope decides what a line of JSON-RPC 2.0 traffic is and what
// reply it is owed, with the rules of the jsonrpc-envelope library: the same
// library, through its C ABI, that C, C++, Python and Rust hosts use, so that
// hosts in different languages never disagree about a line. The rules are in
// docs/SPEC.md of the repository; this package decides none of them itself.
// It converts the library's answers into Go values and frees the library's
// memory before each call returns.
//
// # Use
//
// A server reading its client's input (an MCP server's stdin):
//
//	rd := envelope.NewReader(os.Stdin)
//	defer rd.Close()
//	for {
//		ln, err := rd.Next()
//		if err != nil {
//			break // io.EOF at the end
//		}
//		if reply := ln.Reply(envelope.RoleServer); reply != nil {
//			os.Stdout.Write(append(reply, '\n')) // the reply the line is owed
//			continue
//		}
//		if ln.Kind == envelope.KindRequest {
//			params := ln.ParamsSpan.In(ln.Bytes) // raw JSON, or nil
//			// ... answer with ln.ID, which is the id's exact text
//		}
//	}
//
// Classify does the same for one line; InvalidReply gives only the reply;
// LogValue renders peer text safely for a log line.
//
// # Results
//
// Every result is made of ordinary Go values owned by the caller: nothing
// points into C memory, so there is nothing to free. The texts of one
// Classification (ID, Method, Reason and the replies) share one allocation.
// Line.Bytes is the exception: it points into the Reader's buffer and is
// valid until the next call to Next.
//
// A Reader owns the library's stream reader, which it frees when the stream
// ends, when reading fails, or when Close is called; call Close when you
// stop before the end (a cleanup frees a dropped Reader's, but only when
// the garbage collector gets to it).
//
// # Cost
//
// Classify makes one cgo call, in which the library allocates nothing for
// almost every line (jsonrpc_classify_into, with a 512-byte Go stack buffer
// as its scratch): the line's bytes are passed without a copy, and the
// result's texts are written straight into that buffer (a second call is
// made only for results whose texts exceed it). A Reader makes one cgo call
// per chunk it reads, whatever the number of lines in it: the library's
// stream reader takes the chunk and hands back the lines it completed,
// copied into Go memory in the same call.
//
// # Linking
//
// The package links libjsonrpc_envelope.a statically, so programs need no
// shared library at run time. By default it finds the header in the
// repository's include/ and the library in target/release (run `cargo build
// --release` first); CGO_CFLAGS and CGO_LDFLAGS can point elsewhere, and the
// build tag jsonrpc_envelope_external hands the whole link line to
// CGO_LDFLAGS. See bindings/go/README.md.
//
// # Versions
//
// When it is initialised, the package compares the library's ABI version
// (ABIVersion) with the one it was written for, and panics on a mismatch.
// It needs Go 1.24 or newer and cgo.
package envelope
