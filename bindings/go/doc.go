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
// # Profiles
//
// Every classification is made by a Profile (SPEC §10): ProfileJSONRPC,
// JSON-RPC 2.0 alone, or ProfileMCP, JSON-RPC 2.0 as MCP narrows it (an id
// is a string or an integer, params and result are objects, ...), which
// also gives KindInvalidResponse and its Substitute. The profile is one
// explicit value: its methods (ProfileMCP.Classify, ProfileMCP.InvalidReply)
// and WithProfile for a Reader; Classify, InvalidReply and a Reader
// without WithProfile use ProfileJSONRPC.
//
// # Sessions
//
// A guard or an SDK transport does not decide what to do with a line: a
// Session does (SPEC §8 to §10). It reads one direction in one role and
// profile, is told of every line written the other way (Session.Sent),
// and gives each line it completes an Action (forward, answer, substitute,
// attribute, drop, divert) with the text to send or hand on and a note for
// the log:
//
//	s, _ := envelope.NewSession(envelope.RoleClient, envelope.ProfileMCP, 0)
//	defer s.Close()
//	s.Sent(request)        // every line written to the peer
//	lines, _ := s.Feed(chunk) // what was read from it
//	for _, ln := range lines {
//		switch ln.Action {
//		case envelope.ActionForward: // hand on ln.Bytes
//		case envelope.ActionAnswer: // write ln.ActionText back to the peer
//		case envelope.ActionSubstitute, envelope.ActionAttribute: // hand on ln.ActionText
//		default: // log ln.Action, ln.Note and envelope.LogValue(ln.Bytes)
//		}
//	}
//
// A Relay sees both directions of a session at once (DirectionToServer,
// DirectionToHost, each read in the role of its receiver: DirectionReadBy),
// and notes what each decision sends, so that only the lines that reach a
// peer not through it are told (Relay.Wrote). An action says where a
// line's text goes (Action.Goes): on in the direction read, back in the
// other, or nowhere but the log. The SDK transports (mcpstdio) use one:
//
//	r, _ := envelope.NewRelay(envelope.ProfileMCP, 0)
//	defer r.Close()
//	dir := envelope.DirectionReadBy(envelope.RoleServer) // what a server reads
//	r.Wrote(envelope.ActionAnswer.Goes(dir), own)      // the SDK's own line to the peer
//	lines, _ := r.Feed(dir, chunk)
//	for _, ln := range lines {
//		switch ln.Action.Goes(dir) {
//		case dir: // hand on ln.ActionText, or ln.Bytes when it has none
//		case 0: // only the log
//		default: // write ln.ActionText back to the peer
//		}
//	}
//	d, _ := r.Refused(dir, text) // the receiver refused a text handed on
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
// the garbage collector gets to it). A Session owns the library's session,
// and a Relay the library's relay, freed by Close (or, late, by a
// cleanup). A Session's lines' Bytes point into its buffer until its next
// Feed or End; a Relay's, into its buffer for their direction, until the
// next Feed or End of that direction.
//
// # Cost
//
// Classify makes one cgo call, in which the library allocates nothing for
// almost every line (jsonrpc_classify_into, with a 512-byte Go stack buffer
// as its scratch): the line's bytes are passed without a copy, and the
// result's texts are written straight into that buffer (a second call is
// made only for results whose texts exceed it). A Reader makes one cgo call
// per chunk it reads, whatever the number of lines in it, and a Session one
// per Feed: the library takes the chunk and describes the lines it
// completed in a batch, which Go reads and copies without another call.
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
