package upstream

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// childBaseEnv are the only variables of the broker's environment a child
// inherits: enough to find programs, a home and a locale. Everything else
// (other secrets, CREDENTIALS_DIRECTORY, the broker's own settings) stays
// out of the child.
var childBaseEnv = []string{"PATH", "HOME", "LANG"}

// defaultPath is the child's PATH when the broker has none.
const defaultPath = "/usr/local/bin:/usr/bin:/bin"

// terminateAfter is how long a closing child has to exit after its stdin
// closes before it is signalled.
const terminateAfter = 3 * time.Second

// childEnv builds the child's whole environment.
func childEnv(lookup func(string) (string, bool), tokenEnv, token string) []string {
	env := make([]string, 0, len(childBaseEnv)+1)
	for _, k := range childBaseEnv {
		v, ok := lookup(k)
		if !ok && k == "PATH" {
			v, ok = defaultPath, true
		}
		if ok {
			env = append(env, k+"="+v)
		}
	}
	return append(env, tokenEnv+"="+token)
}

// childTransport prepares (but does not start) a child for mode with
// token in its environment, as the mode's configured user if there is
// one. Its stderr goes to the broker's log, line by line, redacted.
func (p *Proxy) childTransport(mode tooldef.Mode, token string) (*childCommand, error) {
	cmd := exec.Command(p.cfg.Command[0], p.cfg.Command[1:]...)
	if cmd.Err != nil {
		return nil, &dialError{name: p.cfg.Name, msg: p.red.clean(cmd.Err.Error())}
	}
	lookup := os.LookupEnv
	if name := p.cfg.userFor(mode); name != "" {
		u, err := resolveChildUser(name, p.cfg.SecretsFile)
		if err != nil {
			return nil, &dialError{name: p.cfg.Name, msg: p.red.clean(err.Error())}
		}
		cmd.SysProcAttr = u.sysProcAttr()
		// The broker's HOME is the broker's; the child gets one it can use.
		lookup = func(k string) (string, bool) {
			if k == "HOME" {
				return u.home, true
			}
			return os.LookupEnv(k)
		}
	}
	cmd.Env = childEnv(lookup, p.cfg.TokenEnv, token)
	cmd.Stderr = &lineLog{log: p.log.With("mode", string(mode)), red: p.red}
	// A grandchild that keeps stderr open must not hold up reaping.
	cmd.WaitDelay = terminateAfter
	return &childCommand{&mcp.CommandTransport{Command: cmd, TerminateDuration: terminateAfter}}, nil
}

// childCommand starts a child that inherits no capability from the
// broker, whatever user it runs as.
type childCommand struct{ *mcp.CommandTransport }

// Connect starts the child on a thread whose inheritable and ambient
// capabilities are cleared first (capabilities are per thread, and the
// child is forked from the calling one).
func (c *childCommand) Connect(ctx context.Context) (mcp.Connection, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := dropInheritedCaps(); err != nil {
		return nil, err
	}
	return c.CommandTransport.Connect(ctx)
}

// maxLogLine bounds one logged stderr line; longer lines are cut.
const maxLogLine = 4096

// lineLog writes a child's stderr to the log, one record per line.
type lineLog struct {
	mu  sync.Mutex
	log *slog.Logger
	red *redactor
	buf []byte
}

func (w *lineLog) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(b)
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			room := maxLogLine - len(w.buf)
			if len(b) > room {
				// An endless line is logged in pieces rather than buffered.
				w.buf = append(w.buf, b[:room]...)
				w.flush()
				b = b[room:]
				continue
			}
			w.buf = append(w.buf, b...)
			break
		}
		w.buf = append(w.buf, b[:i]...)
		if len(w.buf) > maxLogLine {
			w.buf = w.buf[:maxLogLine]
		}
		w.flush()
		b = b[i+1:]
	}
	return n, nil
}

func (w *lineLog) flush() {
	line := bytes.TrimRight(w.buf, "\r")
	if len(line) > 0 {
		w.log.Info("upstream stderr", "line", w.red.clean(string(line)))
	}
	w.buf = w.buf[:0]
}
