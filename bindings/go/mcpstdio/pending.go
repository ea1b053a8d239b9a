package mcpstdio

import (
	"encoding/json"
	"sync"

	envelope "github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// outstanding is the handshake rule of SPEC section 9, on the client side:
// the ids of the requests written and not yet answered, so that an error
// that names no request can be made the answer of the one request waiting.
// Ids are compared as the SDK compares them (jsonrpc.ID values).
type outstanding struct {
	mu  sync.Mutex
	ids map[jsonrpc.ID]struct{}
}

func newOutstanding() *outstanding {
	return &outstanding{ids: make(map[jsonrpc.ID]struct{})}
}

// written records a call the client is sending.
func (o *outstanding) written(msg jsonrpc.Message) {
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		o.mu.Lock()
		o.ids[req.ID] = struct{}{}
		o.mu.Unlock()
	}
}

// answered forgets the call a response answers.
func (o *outstanding) answered(msg jsonrpc.Message) {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		o.mu.Lock()
		delete(o.ids, resp.ID)
		o.mu.Unlock()
	}
}

// attribute returns, for a line that names no request, the same error as
// the response of the one call outstanding (its id in place of the null or
// missing one, the error the line's own member as the library delimits
// it), or nil when none or several are outstanding; and how many are.
func (o *outstanding) attribute(line *envelope.Line) ([]byte, int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.ids) != 1 {
		return nil, len(o.ids)
	}
	var id jsonrpc.ID
	for id = range o.ids {
	}
	idText, err := json.Marshal(id.Raw()) // an int64 or a string: never fails
	if err != nil {
		return nil, 1
	}
	out := append([]byte(`{"jsonrpc":"2.0","id":`), idText...)
	out = append(append(out, `,"error":`...), line.ErrorSpan.In(line.Bytes)...)
	return append(out, '}'), 1
}
