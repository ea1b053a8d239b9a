package mcpstdio

import (
	"bytes"
	"log/slog"
	"sync"
)

// What the package's own tests (package mcpstdio) and its external ones
// (package mcpstdio_test) share. Exported for the external ones; only a
// test build has it.

// SyncBuffer is a bytes.Buffer that a conn's goroutines (or a command's
// stderr) write and a test reads: what a conn writes, or log records.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Logger is a text logger into b whose records carry no time, so that they
// compare as text.
func (b *SyncBuffer) Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		},
	}))
}
