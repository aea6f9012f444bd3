package broker

import (
	"context"
	"errors"
	"fmt"
	"github.com/ghgate/ghgate/internal/caller"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Socket is the broker's listening Unix socket.
type Socket struct {
	ln   *net.UnixListener
	path string
	// info identifies the file this broker created, so Close never removes
	// a socket someone else put at the path later.
	info os.FileInfo
	once sync.Once
}

// Path is where the socket is.
func (s *Socket) Path() string { return s.path }

// Close stops accepting and removes the socket file.
func (s *Socket) Close() error {
	var err error
	s.once.Do(func() {
		err = s.ln.Close()
		if cur, serr := os.Lstat(s.path); serr == nil && os.SameFile(cur, s.info) {
			if rerr := os.Remove(s.path); rerr != nil {
				err = errors.Join(err, rerr)
			}
		}
	})
	return err
}

// OpenSocket creates the socket l describes, owned by l.Group with l.Mode.
// A stale socket (left by a crash: nothing answers) is replaced; a live
// one is left alone and OpenSocket fails, so two brokers never fight over
// one path.
//
// The socket is bound inside a private 0700 directory, given its group and
// mode there, and only then linked to its path: at no moment can anyone
// outside the group connect, whatever the umask.
func OpenSocket(l Listen) (*Socket, error) {
	if err := CheckSocketDir(l.Socket); err != nil {
		return nil, err
	}
	path := l.Socket
	mode, err := SocketMode(l.Mode)
	if err != nil {
		return nil, err
	}
	gid := -1
	if l.Group != "" {
		g, err := user.LookupGroup(l.Group)
		if err != nil {
			return nil, fmt.Errorf("[listen] group %q: %w", l.Group, err)
		}
		if gid, err = strconv.Atoi(g.Gid); err != nil {
			return nil, fmt.Errorf("[listen] group %q: gid %q: %w", l.Group, g.Gid, err)
		}
	}
	if err := clearStale(path); err != nil {
		return nil, err
	}
	tmpDir, err := os.MkdirTemp(filepath.Dir(path), ".gg")
	if err != nil {
		return nil, fmt.Errorf("socket %s: %w", path, err)
	}
	defer os.RemoveAll(tmpDir)
	tmp := filepath.Join(tmpDir, "s")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: tmp, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("socket %s: %w", path, err)
	}
	// The listener's own path is the temporary one; the socket file at
	// path is removed by Socket.Close.
	ln.SetUnlinkOnClose(false)
	fail := func(err error) (*Socket, error) {
		_ = ln.Close()
		return nil, err
	}
	if gid >= 0 {
		if err := os.Lchown(tmp, -1, gid); err != nil {
			return fail(fmt.Errorf("socket %s: giving it to group %q (the broker's user must be a member): %w", path, l.Group, err))
		}
	}
	if err := os.Chmod(tmp, os.FileMode(mode)); err != nil {
		return fail(fmt.Errorf("socket %s: %w", path, err))
	}
	// link, unlike rename, fails when something appeared at path since the
	// stale check: a broker that started meanwhile keeps its socket.
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fail(fmt.Errorf("socket %s: another broker created it while this one started; not taking it over", path))
		}
		return fail(fmt.Errorf("socket %s: %w", path, err))
	}
	info, err := os.Lstat(path)
	if err != nil {
		return fail(fmt.Errorf("socket %s: %w", path, err))
	}
	return &Socket{ln: ln, path: path, info: info}, nil
}

// clearStale removes a socket file nobody answers on, and refuses to touch
// a live socket or anything that is not a socket.
func clearStale(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("socket %s: %w", path, err)
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("socket %s: the path exists and is not a socket (%s); not removing it", path, fi.Mode().Type())
	}
	conn, err := net.DialTimeout("unix", path, 2*time.Second)
	if err == nil {
		_ = conn.Close()
		return fmt.Errorf("socket %s: another broker is listening on it; stop it first, or configure another path", path)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("socket %s: cannot tell whether another broker is listening on it: %w", path, err)
	}
	// Nothing answers: the file is what a crashed broker left behind.
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("socket %s: removing the stale socket: %w", path, err)
	}
	return nil
}

// Run opens the configured socket and serves it until ctx ends.
func (b *Broker) Run(ctx context.Context) error {
	s, err := OpenSocket(b.cfg.Listen)
	if err != nil {
		return err
	}
	return b.Serve(ctx, s)
}

// Serve accepts clients on s, each its own MCP session, until ctx ends.
// Then it stops accepting, removes the socket file, lets the calls in
// flight finish (up to the shutdown grace), and ends every session.
func (b *Broker) Serve(ctx context.Context, s *Socket) error {
	stop := context.AfterFunc(ctx, func() { _ = s.Close() })
	defer stop()
	b.log.Info("broker listening", "socket", s.Path(), "tools", len(b.server.Tools()))
	var (
		wg        sync.WaitGroup
		acceptErr error
		backoff   time.Duration
	)
	for {
		conn, err := s.ln.AcceptUnix()
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			if errors.Is(err, net.ErrClosed) {
				acceptErr = err
				break
			}
			// Out of file descriptors and the like: wait and try again
			// rather than spin or give up on every client.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			b.log.Error("accepting a client", "error", err, "retry_in", backoff)
			select {
			case <-time.After(backoff):
			case <-ctx.Done():
			}
			continue
		}
		backoff = 0
		peer, err := peerOf(conn)
		if err != nil {
			// A connection the kernel cannot attribute is not served: every
			// call must be auditable to a uid.
			b.log.Error("refusing a client", "error", err)
			_ = conn.Close()
			continue
		}
		if err := b.slots.take(peer.UID); err != nil {
			b.log.Warn("refusing a connection over the limits", "client", peer.UID, "pid", peer.PID, "reason", err.Error())
			e := contract.Errorf(contract.CodeRateLimited, "%s", err.Error())
			e.Temporary = true
			// Tracked like a session, so Serve does not return while a
			// refusal is still being written (at most refuseConn's
			// write deadline).
			wg.Add(1)
			go func() {
				defer wg.Done()
				refuseConn(conn, e)
			}()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer b.slots.release(peer.UID)
			b.serveConn(conn, peer)
		}()
	}
	_ = s.Close()
	b.shutdown(&wg)
	if ctx.Err() != nil {
		return nil
	}
	return acceptErr
}

// serveConn runs one client's session until it hangs up, goes idle, or
// the broker shuts down.
func (b *Broker) serveConn(conn *net.UnixConn, peer Peer) {
	defer conn.Close()
	log := b.log.With("client", peer.UID, "pid", peer.PID)
	// The session context carries the peer to every call's audit line; it
	// is not cancelled with Serve's context, the shutdown ends sessions.
	ctx := WithPeer(context.Background(), peer)
	// Tasks and idempotency keys are kept apart per OS user.
	ctx = caller.With(ctx, caller.Identity{ID: fmt.Sprintf("uid:%d", peer.UID)})
	lim := b.cfg.Limits
	tr := &trackedTransport{p: &b.pending, limits: newSessionLimits(lim), refused: refusalLogger(log),
		held: func() int { return b.tasks.running(peer.UID) }}
	guarded := newGuardedConn(conn, lim, func() bool { return tr.conn.busy() })
	tr.next = &server.LineTransport{Reader: guarded, Writer: guarded, Log: log, MaxLineBytes: lim.MaxLineBytes, MaxBatch: lim.MaxBatch}
	ss, err := b.server.MCP.Connect(ctx, tr, nil)
	defer tr.conn.release()
	if err != nil {
		log.Error("starting a session", "error", err)
		return
	}
	if !b.track(conn, ss) {
		_ = ss.Close()
		return
	}
	log.Info("client connected")
	err = ss.Wait()
	b.untrack(conn)
	if errors.Is(err, errIdle) {
		log.Info("client disconnected: idle", "idle_timeout", lim.IdleTimeout)
		return
	}
	log.Info("client disconnected")
}

// refusalLogger logs a session's refused requests, at most once every
// ten seconds with the count since, so a flood cannot flood the log.
func refusalLogger(log *slog.Logger) func(string, *contract.Error) {
	var (
		mu      sync.Mutex
		last    time.Time
		skipped int
	)
	return func(method string, e *contract.Error) {
		mu.Lock()
		defer mu.Unlock()
		if time.Since(last) < 10*time.Second {
			skipped++
			return
		}
		log.Warn("request refused by a session limit", "method", method, "reason", e.Message, "refused_since_last", skipped)
		last, skipped = time.Now(), 0
	}
}

// track registers a live session; false once the shutdown began.
func (b *Broker) track(conn *net.UnixConn, ss *mcp.ServerSession) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sessions == nil {
		return false
	}
	b.sessions[conn] = ss
	return true
}

func (b *Broker) untrack(conn *net.UnixConn) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.sessions, conn)
}

// shutdown refuses new calls, lets the requests in flight be answered,
// then ends every session and waits for their goroutines, each step
// bounded by the grace period.
func (b *Broker) shutdown(conns *sync.WaitGroup) {
	b.draining.Store(true)
	timer := time.NewTimer(b.grace)
	defer timer.Stop()
	select {
	case <-b.pending.wait():
	case <-timer.C:
		b.log.Warn("shutdown: requests still unanswered after the grace period; ending their sessions", "grace", b.grace)
	}
	b.mu.Lock()
	sessions := b.sessions
	b.sessions = nil
	b.mu.Unlock()
	// The connections close first, so an answer a client is not reading
	// fails at once instead of holding its session's close up to the
	// write timeout; the sessions then close side by side.
	for conn := range sessions {
		_ = conn.Close()
	}
	var closing sync.WaitGroup
	for _, ss := range sessions {
		closing.Add(1)
		go func() {
			defer closing.Done()
			_ = ss.Close()
		}()
	}
	done := make(chan struct{})
	go func() { closing.Wait(); conns.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(b.grace):
		b.log.Error("shutdown: some client connections are still open")
	}
	// Tasks outlive their sessions: they are stopped last, and each cut
	// short is recorded as failed while the store is still open.
	tctx, cancel := context.WithTimeout(context.Background(), b.grace)
	defer cancel()
	b.server.StopTasks(tctx)
	b.log.Info("broker stopped")
}
