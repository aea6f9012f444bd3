package bench

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The broker load: socket clients, calls each, and the latency the
// emulator adds to every request, as a GitHub round trip would.
const (
	brokerClients = 20
	brokerCalls   = 100
	brokerLatency = 5 * time.Millisecond
)

// Broker measures the credential broker in-process: brokerClients MCP
// sessions over its Unix socket, each making brokerCalls issue reads
// against an emulator with brokerLatency, and the memory the process
// peaked at meanwhile.
func Broker(ctx context.Context) ([]Figure, error) {
	s, err := startEmulator(emulator.Options{Latency: brokerLatency, CoreLimit: 1 << 30, GraphQLLimit: 1 << 30})
	if err != nil {
		return nil, err
	}
	defer func() { _ = s.Close() }()
	dir, err := os.MkdirTemp("", "ghgate-bench-broker-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cfg, err := benchBrokerConfig(s.Emu, s.URL, dir)
	if err != nil {
		return nil, err
	}
	b, err := broker.New(cfg, broker.Options{})
	if err != nil {
		return nil, err
	}
	defer func() { _ = b.Close() }()
	sock, err := broker.OpenSocket(cfg.Listen)
	if err != nil {
		return nil, err
	}
	serveCtx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- b.Serve(serveCtx, sock) }()
	defer func() { stop(); <-served }()

	resetPeakRSS()
	mem := startMemSampler()
	start := time.Now()
	done, err := brokerLoad(ctx, sock.Path())
	elapsed := time.Since(start)
	peakHeap := mem.stop()
	if err != nil {
		return nil, err
	}
	load := fmt.Sprintf("%d clients × %d calls over the socket, %v upstream latency", brokerClients, brokerCalls, brokerLatency)
	figs := []Figure{
		{Name: "broker: issue reads through the Unix socket", Value: float64(done) / elapsed.Seconds(), Unit: "calls/s", Note: load},
		{Name: "broker: peak Go heap in use during that load", Value: float64(peakHeap) / (1 << 20), Unit: "MiB",
			Note: "sampled every 20 ms; the emulator and the clients share the process"},
	}
	if hwm, ok := peakRSS(); ok {
		figs = append(figs, Figure{Name: "broker: peak resident memory of the process (VmHWM)", Value: float64(hwm) / (1 << 20),
			Unit: "MiB", Note: "broker, emulator and clients in one process"})
	}
	return figs, nil
}

// benchBrokerConfig gives the emulator a credential only this run knows and
// writes the secrets file and the config that route to it.
func benchBrokerConfig(emu *emulator.Emulator, url, dir string) (*broker.Config, error) {
	raw := make([]byte, 16)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	token := "bench_" + hex.EncodeToString(raw)
	st := emu.State()
	st.Lock()
	st.AddToken(&emulator.Token{Value: token, Login: "alice",
		Perms: map[string]emulator.Permission{"acme/widgets": emulator.PermRead}})
	st.Unlock()
	secrets := filepath.Join(dir, "secrets.toml")
	if err := os.WriteFile(secrets, []byte(fmt.Sprintf("reader = %q\n", token)), 0o600); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "broker.toml")
	body := fmt.Sprintf("[listen]\nsocket = %q\n[github]\nurl = %q\n[secrets]\nfile = %q\n"+
		"[[route]]\nowner = \"*\"\nread = \"reader\"\n[audit]\nfile = %q\n"+
		// The bench's clients share one uid and call as fast as they can:
		// the limits that pace one agent are lifted, to measure the broker.
		"[limits]\nmax_connections_per_client = 64\ncalls_per_second = 1000000\ncall_burst = 1000000\n",
		filepath.Join(dir, "b.sock"), url, secrets, filepath.Join(dir, "audit.jsonl"))
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		return nil, err
	}
	return broker.LoadConfig(path)
}

// brokerLoad runs the clients and returns the calls that succeeded; any
// failure is an error.
func brokerLoad(ctx context.Context, socket string) (int64, error) {
	var (
		wg       sync.WaitGroup
		ok, fail atomic.Int64
		once     sync.Once
		firstErr error
	)
	record := func(err error) {
		fail.Add(1)
		once.Do(func() { firstErr = err })
	}
	for c := 0; c < brokerClients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := net.Dial("unix", socket)
			if err != nil {
				record(err)
				return
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).
				Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
			if err != nil {
				_ = conn.Close()
				record(err)
				return
			}
			defer cs.Close()
			for i := 0; i < brokerCalls && ctx.Err() == nil; i++ {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "github_get_issue", Arguments: map[string]any{
					"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo, "issue_number": 1 + (c*brokerCalls+i)%40}})
				if err == nil && res.IsError {
					err = errors.New("github_get_issue returned an error result")
				}
				if err != nil {
					record(err)
					continue
				}
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return ok.Load(), fmt.Errorf("broker load: %w after %d calls", err, ok.Load())
	}
	if fail.Load() > 0 {
		return ok.Load(), fmt.Errorf("broker load: %d of %d calls failed: %w", fail.Load(), ok.Load()+fail.Load(), firstErr)
	}
	return ok.Load(), nil
}

// memSampler tracks the peak HeapInuse while a measurement runs.
type memSampler struct {
	stopc chan struct{}
	done  chan uint64
}

func startMemSampler() *memSampler {
	m := &memSampler{stopc: make(chan struct{}), done: make(chan uint64, 1)}
	go func() {
		var peak uint64
		var ms runtime.MemStats
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-m.stopc:
				m.done <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return m
}

func (m *memSampler) stop() uint64 {
	close(m.stopc)
	return <-m.done
}

// resetPeakRSS asks Linux to restart VmHWM from the current resident size,
// so the figure covers this measurement and not the ones before it. Where
// that is not possible the figure is the process's lifetime peak.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSS reads VmHWM from /proc/self/status, in bytes.
func peakRSS() (uint64, bool) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseUint(fields[0], 10, 64)
		return kb * 1024, err == nil
	}
	return 0, false
}
