package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
)

// PeerConfig names the two servers compared by Peer.
type PeerConfig struct {
	Ghgate string // the ghgate binary
	Peer   string // GitHub's MCP server (github-mcp-server) binary
	// Samples is how many times each server runs each overhead operation
	// (DefaultPeerSamples if 0, at most MaxPeerSamples).
	Samples int
	// Sessions is how many HTTP sessions the memory burst opens at once
	// on each server (DefaultPeerSessions if 0, at most MaxPeerSessions).
	Sessions int
}

// PeerMeasure is what one server spent on one task.
type PeerMeasure struct {
	Calls    int           // tool calls
	Bytes    int64         // bytes the server sent the client during the task
	Upstream int           // requests that reached the emulator
	Wall     time.Duration // from the first call sent to the last answer
	Err      error         // the first failing call, if any
}

// PeerRow is one task measured on both servers.
type PeerRow struct {
	Task         string
	Ghgate, Peer PeerMeasure
}

// PeerReport is the side-by-side comparison.
type PeerReport struct {
	// tools/list as each client receives it: ghgate's default toolset,
	// GitHub's server's default toolsets and its issues and labels ones
	// (what the tasks use).
	GhgateToolsBytes, PeerDefaultToolsBytes, PeerTaskToolsBytes int64
	GhgateTools, PeerDefaultTools, PeerTaskTools                int
	Rows                                                        []PeerRow

	// Samples per server of each operation in Ops.
	Samples int
	Ops     []OpRow
	// Sessions is the size of the HTTP burst.
	Sessions int
	// Memory is ghgate's ([0]) and GitHub's server's ([1]).
	Memory [2]MemoryFigures
}

// peerHost is the GitHub Enterprise host name GitHub's MCP server is given.
// Nothing resolves it: the server's requests go to the counting proxy
// through HTTP_PROXY, which hands them to the emulator. (.example is
// reserved for such use by RFC 2606.)
const peerHost = "http://github.example"

// Peer runs the scripted tasks through ghgate and through GitHub's MCP
// server, both as stdio children over one emulator, behind one counting
// proxy, and reports what each spent.
func Peer(ctx context.Context, cfg PeerConfig) (*PeerReport, error) {
	cfg.Samples = bounded(cfg.Samples, DefaultPeerSamples, MaxPeerSamples)
	cfg.Sessions = bounded(cfg.Sessions, DefaultPeerSessions, MaxPeerSessions)
	// The HTTP servers run in a directory of their own: a binary named by
	// a relative path is found from here.
	for _, bin := range []*string{&cfg.Ghgate, &cfg.Peer} {
		abs, err := filepath.Abs(*bin)
		if err != nil {
			return nil, err
		}
		*bin = abs
	}
	emu, err := startEmulator(emulator.Options{CoreLimit: 1_000_000, SearchLimit: 1_000_000})
	if err != nil {
		return nil, err
	}
	defer func() { _ = emu.Close() }()
	proxy, err := startCountingProxy(emu.URL)
	if err != nil {
		return nil, err
	}
	defer func() { _ = proxy.close() }()
	fix, err := pickPeerFixtures(emu.Emu)
	if err != nil {
		return nil, err
	}
	bfix, err := addBenchRepo(emu.Emu, opWarmups+cfg.Samples)
	if err != nil {
		return nil, err
	}
	stateDir, err := os.MkdirTemp("", "ghgate-bench-peer-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(stateDir) }()

	ghgateEnv := []string{"GITHUB_TOKEN=" + emulator.DemoTokenAlice}
	ghgateArgs := []string{"serve", "--github-url", proxy.url, "--state", filepath.Join(stateDir, "state.db")}
	peerEnv := []string{"GITHUB_PERSONAL_ACCESS_TOKEN=" + emulator.DemoTokenAlice, "GITHUB_HOST=" + peerHost,
		"HTTP_PROXY=" + proxy.url, "http_proxy=" + proxy.url}
	peerArgs := func(toolsets string) []string {
		return []string{"stdio", "--toolsets", toolsets, "--log-file", filepath.Join(stateDir, "peer-"+toolsets+".log")}
	}

	rep := &PeerReport{Samples: cfg.Samples, Sessions: cfg.Sessions}
	// The default surfaces first, each on a server of its own.
	peerDefault, err := startStdioServer(ctx, "github-mcp-server", cfg.Peer, peerArgs("default"), peerEnv)
	if err != nil {
		return nil, err
	}
	rep.PeerDefaultToolsBytes, rep.PeerDefaultTools, err = peerDefault.toolsListBytes(ctx)
	peerDefault.close()
	if err != nil {
		return nil, err
	}

	gg, err := startStdioServer(ctx, "ghgate", cfg.Ghgate, ghgateArgs, ghgateEnv)
	if err != nil {
		return nil, err
	}
	defer gg.close()
	peer, err := startStdioServer(ctx, "github-mcp-server", cfg.Peer, peerArgs("issues,labels"), peerEnv)
	if err != nil {
		return nil, err
	}
	defer peer.close()
	if rep.GhgateToolsBytes, rep.GhgateTools, err = gg.toolsListBytes(ctx); err != nil {
		return nil, err
	}
	if rep.PeerTaskToolsBytes, rep.PeerTaskTools, err = peer.toolsListBytes(ctx); err != nil {
		return nil, err
	}
	// Each child now holds one initialized session that has listed its
	// tools and made no call.
	time.Sleep(time.Second)
	for i, s := range []*stdioServer{gg, peer} {
		if rep.Memory[i].StdioIdle, err = vmRSS(s.cmd.Process.Pid); err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
	}
	// What either server asked of GitHub while starting is not a task's.
	proxy.take()

	for _, t := range peerTasks() {
		row := PeerRow{Task: t.name}
		row.Ghgate = measure(ctx, gg, proxy, func(ctx context.Context) error { return t.ghgate(ctx, gg, fix) })
		row.Peer = measure(ctx, peer, proxy, func(ctx context.Context) error { return t.peer(ctx, peer, fix) })
		rep.Rows = append(rep.Rows, row)
	}
	rep.Ops = runOverhead(ctx, gg, peer, proxy, bfix, cfg.Samples)

	// The HTTP burst, one server at a time, the stdio children idle.
	for i, hs := range []httpServer{ghgateHTTP(cfg.Ghgate, proxy.url, stateDir), peerHTTP(cfg.Peer, proxy.url, stateDir)} {
		idle := rep.Memory[i].StdioIdle
		rep.Memory[i], err = burst(ctx, hs, stateDir, bfix, cfg.Sessions)
		rep.Memory[i].StdioIdle = idle
		rep.Memory[i].Err = err
	}
	return rep, nil
}

// bounded is n, or def when n is 0 or less, and at most limit.
func bounded(n, def, limit int) int {
	if n <= 0 {
		n = def
	}
	return min(n, limit)
}

// measure runs one server's script of a task and takes its counts.
func measure(ctx context.Context, s *stdioServer, proxy *countingProxy, script func(context.Context) error) PeerMeasure {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	calls, bytes := s.calls, s.read.Load()
	proxy.take()
	start := time.Now()
	err := script(ctx)
	m := PeerMeasure{Wall: time.Since(start), Calls: s.calls - calls, Bytes: s.read.Load() - bytes, Err: err}
	m.Upstream, _ = proxy.take()
	return m
}

// Failed says whether any task or operation failed on either server, or
// ghgate's HTTP burst did (GitHub's server's burst failing leaves its
// column empty: its HTTP mode is not ghgate's to answer for).
func (r *PeerReport) Failed() error {
	var errs []error
	for _, row := range r.Rows {
		if row.Ghgate.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", row.Task, row.Ghgate.Err))
		}
		if row.Peer.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", row.Task, row.Peer.Err))
		}
	}
	for _, row := range r.Ops {
		if row.Ghgate.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", row.Op, row.Ghgate.Err))
		}
		if row.Peer.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", row.Op, row.Peer.Err))
		}
	}
	if err := r.Memory[0].Err; err != nil {
		errs = append(errs, fmt.Errorf("ghgate's HTTP burst: %w", err))
	}
	return errors.Join(errs...)
}

// Print writes the report as a table: per task, each server's figures and
// the ratio ghgate / GitHub's server. A task that failed on a server shows
// "failed" and its error below the table.
func (r *PeerReport) Print(w io.Writer) error {
	fmt.Fprintf(w, "tools/list bytes: ghgate default %d (%d tools); GitHub's MCP server default %d (%d tools), issues+labels %d (%d tools); ratio %.2f of default, %.2f of issues+labels\n\n",
		r.GhgateToolsBytes, r.GhgateTools, r.PeerDefaultToolsBytes, r.PeerDefaultTools, r.PeerTaskToolsBytes, r.PeerTaskTools,
		ratio(float64(r.GhgateToolsBytes), float64(r.PeerDefaultToolsBytes)), ratio(float64(r.GhgateToolsBytes), float64(r.PeerTaskToolsBytes)))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "task\tcalls g/p\tbytes ghgate\tbytes peer\tratio\tupstream g/p\tratio\tms ghgate\tms peer\tratio\t")
	var sum [2]PeerMeasure
	for _, row := range r.Rows {
		fmt.Fprintf(tw, "%s\t%d/%d\t%s\t%s\t%s\t%d/%d\t%s\t%s\t%s\t%s\t\n", row.Task,
			row.Ghgate.Calls, row.Peer.Calls,
			figure(row.Ghgate, float64(row.Ghgate.Bytes)), figure(row.Peer, float64(row.Peer.Bytes)),
			ratioCell(row, float64(row.Ghgate.Bytes), float64(row.Peer.Bytes)),
			row.Ghgate.Upstream, row.Peer.Upstream, ratioCell(row, float64(row.Ghgate.Upstream), float64(row.Peer.Upstream)),
			figure(row.Ghgate, ms(row.Ghgate.Wall)), figure(row.Peer, ms(row.Peer.Wall)),
			ratioCell(row, ms(row.Ghgate.Wall), ms(row.Peer.Wall)))
		if row.Ghgate.Err == nil && row.Peer.Err == nil {
			for i, m := range []PeerMeasure{row.Ghgate, row.Peer} {
				sum[i].Calls += m.Calls
				sum[i].Bytes += m.Bytes
				sum[i].Upstream += m.Upstream
				sum[i].Wall += m.Wall
			}
		}
	}
	all := PeerRow{Task: "all tasks that ran on both", Ghgate: sum[0], Peer: sum[1]}
	fmt.Fprintf(tw, "%s\t%d/%d\t%d\t%d\t%s\t%d/%d\t%s\t%.0f\t%.0f\t%s\t\n", all.Task, sum[0].Calls, sum[1].Calls,
		sum[0].Bytes, sum[1].Bytes, ratioCell(all, float64(sum[0].Bytes), float64(sum[1].Bytes)),
		sum[0].Upstream, sum[1].Upstream, ratioCell(all, float64(sum[0].Upstream), float64(sum[1].Upstream)),
		ms(sum[0].Wall), ms(sum[1].Wall), ratioCell(all, ms(sum[0].Wall), ms(sum[1].Wall)))
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, row := range r.Rows {
		for _, side := range []struct {
			name string
			m    PeerMeasure
		}{{"ghgate", row.Ghgate}, {"GitHub's MCP server", row.Peer}} {
			if side.m.Err != nil {
				fmt.Fprintf(w, "failed on %s: %s: %v\n", side.name, row.Task, side.m.Err)
			}
		}
	}
	if err := r.printOps(w); err != nil {
		return err
	}
	return r.printMemory(w)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func figure(m PeerMeasure, v float64) string {
	if m.Err != nil {
		return "failed"
	}
	return fmt.Sprintf("%.0f", v)
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func ratioCell(row PeerRow, a, b float64) string {
	if row.Ghgate.Err != nil || row.Peer.Err != nil || b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", a/b)
}
