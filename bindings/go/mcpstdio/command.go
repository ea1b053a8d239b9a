package mcpstdio

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"syscall"
	"time"

	envelope "github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// defaultTerminateDuration is the SDK's: how long Close waits after closing
// stdin before SIGTERM, and after SIGTERM before SIGKILL.
const defaultTerminateDuration = 5 * time.Second

// A CommandTransport is an mcp.Transport that runs a command and
// communicates with it over stdin/stdout, using newline-delimited JSON, as
// the SDK's mcp.CommandTransport, reading the command's stdout as role
// client (see the package documentation).
type CommandTransport struct {
	Command *exec.Cmd
	// TerminateDuration controls how long Close waits after closing stdin
	// for the process to exit before sending SIGTERM.
	// If zero or negative, the default of 5s is used.
	TerminateDuration time.Duration

	// MaxLineLength bounds the bytes of one line of the command's stdout
	// (LF excluded), as StdioTransport's: 0 is the library's default for
	// the MCP profile (envelope.ProfileMCP.DefaultMaxLine()), negative
	// disables the cap. A longer line is
	// skipped, with a log record; when it is a response to a request
	// outstanding whose id its first bytes hold, its substitute reaches
	// the SDK in its place (SPEC §10.6 (d)). (The SDK's CommandTransport
	// has its default, fixed.)
	MaxLineLength int

	// Logger receives a record for each line that does not reach the
	// SDK; nil means slog.Default().
	Logger *slog.Logger
}

var _ mcp.Transport = (*CommandTransport)(nil)

// Connect starts the command, and connects to it over stdin/stdout.
func (t *CommandTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	stdout, err := t.Command.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdout = io.NopCloser(stdout) // close the connection by closing stdin, not stdout
	stdin, err := t.Command.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.Command.Start(); err != nil {
		return nil, err
	}
	td := t.TerminateDuration
	if td <= 0 {
		td = defaultTerminateDuration
	}
	p := &pipeRWC{t.Command, stdout, stdin, td}
	c, err := newConn(p, envelope.RoleClient, "stdout", t.MaxLineLength, t.Logger)
	if err != nil {
		p.Close()
		return nil, err
	}
	return c, nil
}

// A pipeRWC is an io.ReadWriteCloser that communicates with a subprocess
// over stdin/stdout pipes, as the SDK's.
type pipeRWC struct {
	cmd               *exec.Cmd
	stdout            io.ReadCloser
	stdin             io.WriteCloser
	terminateDuration time.Duration
}

func (s *pipeRWC) Read(p []byte) (n int, err error) {
	return s.stdout.Read(p)
}

func (s *pipeRWC) Write(p []byte) (n int, err error) {
	return s.stdin.Write(p)
}

// Close closes the input stream to the child process, and awaits normal
// termination of the command. If the command does not exit, it is
// signalled to terminate, and then eventually killed: the MCP spec's stdio
// shutdown, as the SDK does it.
func (s *pipeRWC) Close() error {
	if err := s.stdin.Close(); err != nil {
		return fmt.Errorf("closing stdin: %v", err)
	}
	resChan := make(chan error, 1)
	go func() {
		resChan <- s.cmd.Wait()
	}()
	wait := func() (error, bool) {
		select {
		case err := <-resChan:
			return err, true
		case <-time.After(s.terminateDuration):
		}
		return nil, false
	}
	if err, ok := wait(); ok {
		return err
	}
	// If sending SIGTERM fails, don't wait: move on to SIGKILL.
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err == nil {
		if err, ok := wait(); ok {
			return err
		}
	}
	if err := s.cmd.Process.Kill(); err != nil {
		return err
	}
	if err, ok := wait(); ok {
		return err
	}
	return fmt.Errorf("unresponsive subprocess")
}
