package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioServer is an MCP server run as a child process over stdio, as an
// agent's host runs it, with the bytes it writes to the client counted.
type stdioServer struct {
	name    string
	cmd     *exec.Cmd
	session *mcp.ClientSession
	read    *atomic.Int64 // bytes the server has sent the client
	calls   int           // tool calls made
}

// countingReader counts what passes through it.
type countingReader struct {
	io.ReadCloser
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// startStdioServer runs bin with args and exactly the environment given
// (plus PATH and HOME), and connects an MCP client to it.
func startStdioServer(ctx context.Context, name, bin string, args, env []string) (*stdioServer, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	var stderr strings.Builder
	cmd.Stderr = &limitedWriter{w: &stderr, left: 8 << 10}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	read := &atomic.Int64{}
	transport := &mcp.IOTransport{Reader: countingReader{ReadCloser: stdout, n: read}, Writer: stdin}
	client := mcp.NewClient(&mcp.Implementation{Name: "ghgate-bench", Version: "0"}, nil)
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	session, err := client.Connect(cctx, transport, nil)
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("%s: connect: %w (stderr: %s)", name, err, strings.TrimSpace(stderr.String()))
	}
	return &stdioServer{name: name, cmd: cmd, session: session, read: read}, nil
}

// call runs one tool and returns its text; a tool error is an error that
// quotes the server's message.
func (s *stdioServer) call(ctx context.Context, tool string, args any) (string, error) {
	s.calls++
	res, err := s.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", s.name, tool, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text.WriteString(t.Text)
		}
	}
	if res.IsError {
		msg := text.String()
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		return "", fmt.Errorf("%s %s: %s", s.name, tool, msg)
	}
	return text.String(), nil
}

// toolsListBytes is the size of the server's whole tools/list answer as the
// client received it (every page), and the number of tools.
func (s *stdioServer) toolsListBytes(ctx context.Context) (int64, int, error) {
	before := s.read.Load()
	n := 0
	for _, err := range s.session.Tools(ctx, nil) {
		if err != nil {
			return 0, 0, err
		}
		n++
	}
	return s.read.Load() - before, n, nil
}

func (s *stdioServer) close() {
	_ = s.session.Close()
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
}

// limitedWriter keeps the first bytes of a child's stderr for error messages.
type limitedWriter struct {
	w    io.Writer
	left int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.left > 0 {
		k := min(len(p), l.left)
		_, _ = l.w.Write(p[:k])
		l.left -= k
	}
	return len(p), nil
}

// jsonField decodes text (a tool's JSON answer) into v.
func jsonField(text string, v any) error {
	if err := json.Unmarshal([]byte(text), v); err != nil {
		return fmt.Errorf("decoding %q: %w", truncate(text, 200), err)
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
