package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ScaleConfig is the replica benchmark: a read-heavy mix of tool calls
// through HAProxy (round robin) in front of N `ghgate serve --http`
// processes, on one emulator with added latency, with each replica's state
// in its own SQLite file or in one shared Redis.
type ScaleConfig struct {
	Ghgate   string // the ghgate binary the replicas run
	Replicas []int  // e.g. 1, 3
	Latency  time.Duration
	Calls    int // tool calls per configuration
	Clients  int // concurrent MCP clients
}

// ScaleRow is one configuration's figures.
type ScaleRow struct {
	Replicas     int
	State        string // "sqlite" (a file per replica) or "redis" (shared)
	Calls        int
	Errors       int
	Elapsed      time.Duration
	P50, P99     time.Duration
	BudgetSpent  int             // core requests GitHub charged
	ReplicaCPU   []time.Duration // user+system CPU of each replica
	BenchCPU     time.Duration   // this process (clients, emulator)
	HAProxyCPU   time.Duration
	Upstream304s int
}

// Scale runs every configuration and returns its rows.
func Scale(ctx context.Context, cfg ScaleConfig) ([]ScaleRow, error) {
	redisBin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, errors.New("bench --replicas needs redis-server (apt-get install redis-server)")
	}
	hapBin, err := exec.LookPath("haproxy")
	if err != nil {
		if _, e := os.Stat("/usr/sbin/haproxy"); e == nil {
			hapBin = "/usr/sbin/haproxy"
		} else {
			return nil, errors.New("bench --replicas needs haproxy (apt-get install haproxy)")
		}
	}
	dir, err := os.MkdirTemp("", "ghgate-bench-scale-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	redisPort, err := freePort()
	if err != nil {
		return nil, err
	}
	redis, err := startProc(ctx, redisBin, dir, "--port", fmt.Sprint(redisPort), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", dir)
	if err != nil {
		return nil, err
	}
	defer redis.stop()
	if err := waitTCP(ctx, fmt.Sprintf("127.0.0.1:%d", redisPort)); err != nil {
		return nil, fmt.Errorf("redis-server: %w", err)
	}
	var rows []ScaleRow
	for run, state := range []string{"sqlite", "redis"} {
		for _, n := range cfg.Replicas {
			// A fresh emulator per configuration: the budget and ETags start
			// equal for each.
			emu, err := startEmulator(emulator.Options{Latency: cfg.Latency})
			if err != nil {
				return rows, err
			}
			spec := func(i int) string {
				if state == "redis" {
					return fmt.Sprintf("redis://127.0.0.1:%d/0?namespace=bench%d-%d", redisPort, run, n)
				}
				return filepath.Join(dir, fmt.Sprintf("r%d-%d-%d.db", run, n, i))
			}
			row, err := scaleOnce(ctx, cfg, hapBin, dir, emu.URL, n, state, spec)
			_ = emu.Close()
			if err != nil {
				return rows, err
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

func scaleOnce(ctx context.Context, cfg ScaleConfig, hapBin, dir, ghURL string, n int, state string, spec func(int) string) (ScaleRow, error) {
	row := ScaleRow{Replicas: n, State: state}
	var replicas []*proc
	defer func() {
		for _, r := range replicas {
			r.stop()
		}
	}()
	var addrs []string
	for i := range n {
		port, err := freePort()
		if err != nil {
			return row, err
		}
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		r, err := startProc(ctx, cfg.Ghgate, dir, "serve", "--http", addr, "--github-url", ghURL, "--state", spec(i))
		if err != nil {
			return row, err
		}
		replicas = append(replicas, r)
		addrs = append(addrs, addr)
		if err := waitHTTPOK(ctx, "http://"+addr+"/healthz"); err != nil {
			return row, fmt.Errorf("replica %d: %w\n%s", i, err, r.log.String())
		}
	}
	hport, err := freePort()
	if err != nil {
		return row, err
	}
	listen := fmt.Sprintf("127.0.0.1:%d", hport)
	var b strings.Builder
	fmt.Fprintf(&b, "global\n    maxconn 512\ndefaults\n    mode http\n    timeout connect 2s\n    timeout client 60s\n    timeout server 60s\n    retries 3\n    option redispatch\n"+
		"frontend mcp\n    bind %s\n    default_backend ghgate\nbackend ghgate\n    balance roundrobin\n", listen)
	for i, a := range addrs {
		fmt.Fprintf(&b, "    server r%d %s\n", i+1, a)
	}
	cfgPath := filepath.Join(dir, fmt.Sprintf("haproxy-%s-%d.cfg", state, n))
	if err := os.WriteFile(cfgPath, []byte(b.String()), 0o600); err != nil {
		return row, err
	}
	hap, err := startProc(ctx, hapBin, dir, "-db", "-f", cfgPath)
	if err != nil {
		return row, err
	}
	if err := waitTCP(ctx, listen); err != nil {
		hap.stop()
		return row, fmt.Errorf("haproxy: %w\n%s", err, hap.log.String())
	}
	before := coreUsed(ghURL)
	benchBefore := selfCPU()
	lat, errs, elapsed := runMix(ctx, "http://"+listen+"/mcp", cfg.Calls, cfg.Clients)
	row.BenchCPU = selfCPU() - benchBefore
	row.BudgetSpent = coreUsed(ghURL) - before
	row.Calls, row.Errors, row.Elapsed = len(lat), errs, elapsed
	slices.Sort(lat)
	if len(lat) > 0 {
		row.P50, row.P99 = lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)]
	}
	row.HAProxyCPU = hap.stop()
	for _, r := range replicas {
		row.ReplicaCPU = append(row.ReplicaCPU, r.stop())
	}
	replicas = nil
	return row, nil
}

// runMix sends calls tool calls from clients concurrent MCP sessions: of
// every 20, 16 read an issue (of 10), 3 search, 1 lists labels, the shape
// of an agent that mostly reads what it already found.
func runMix(ctx context.Context, url string, calls, clients int) ([]time.Duration, int, time.Duration) {
	var (
		mu   sync.Mutex
		lat  []time.Duration
		errs int
		wg   sync.WaitGroup
		next int
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if next >= calls {
			return 0, false
		}
		next++
		return next - 1, true
	}
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench-scale", Version: "0"}, nil).
				Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
			if err != nil {
				mu.Lock()
				errs++
				mu.Unlock()
				return
			}
			defer cs.Close()
			for {
				i, ok := take()
				if !ok {
					return
				}
				name, args := "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1 + (i*7+c)%10}
				switch i % 20 {
				case 5, 11, 17:
					name, args = "github_search_issues", map[string]any{"owner": "acme", "repo": "widgets", "state": "all", "page_size": 10}
				case 19:
					name, args = "github_list_repo_metadata", map[string]any{"owner": "acme", "repo": "widgets", "kind": "labels"}
				}
				t0 := time.Now()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
				d := time.Since(t0)
				mu.Lock()
				if err != nil || res.IsError {
					errs++
				} else {
					lat = append(lat, d)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return lat, errs, time.Since(start)
}

// PrintScale writes the rows as a table.
func PrintScale(w io.Writer, cfg ScaleConfig, rows []ScaleRow) error {
	fmt.Fprintf(w, "ghgate bench --replicas: %d tool calls per row (16/20 get_issue, 3/20 search, 1/20 labels) from %d clients, through HAProxy (round robin), emulator latency %s\n",
		cfg.Calls, cfg.Clients, cfg.Latency)
	fmt.Fprintln(w, "this machine's cores are shared by every replica, HAProxy, the emulator and the clients: read calls/s beside the CPU each used")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "replicas\tstate\tcalls/s\tp50 ms\tp99 ms\terrors\tbudget spent\treplica CPU ms (each)\thaproxy CPU ms\tbench+emulator CPU ms\t")
	for _, r := range rows {
		var cpu []string
		for _, c := range r.ReplicaCPU {
			cpu = append(cpu, fmt.Sprint(c.Milliseconds()))
		}
		rate := 0.0
		if r.Elapsed > 0 {
			rate = float64(r.Calls) / r.Elapsed.Seconds()
		}
		fmt.Fprintf(tw, "%d\t%s\t%.1f\t%.1f\t%.1f\t%d\t%d\t%s\t%d\t%d\t\n", r.Replicas, r.State, rate, ms(r.P50), ms(r.P99), r.Errors,
			r.BudgetSpent, strings.Join(cpu, " / "), r.HAProxyCPU.Milliseconds(), r.BenchCPU.Milliseconds())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "budget spent: core requests GitHub charged for the mix; a 304 costs none. sqlite: each replica caches alone; redis: one cache for all.")
	return nil
}

// proc is a child process of the benchmark, ended by pid.
type proc struct {
	cmd  *exec.Cmd
	log  *syncBuf
	done chan struct{}
	once sync.Once
	cpu  time.Duration
}

func startProc(ctx context.Context, bin, dir string, args ...string) (*proc, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	p := &proc{cmd: cmd, log: &syncBuf{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.log, p.log
	cmd.Env = benchEnv(dir)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	return p, nil
}

// benchEnv gives the replicas the emulator's demo token and nothing of the
// operator's own.
func benchEnv(dir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GITHUB_TOKEN=") && !strings.HasPrefix(kv, "GH_TOKEN=") && !strings.HasPrefix(kv, "XDG_STATE_HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, "GITHUB_TOKEN="+emulator.DemoTokenAlice, "XDG_STATE_HOME="+dir)
}

// stop ends the process (SIGTERM, SIGKILL after 10 s) and returns the CPU
// time it used.
func (p *proc) stop() time.Duration {
	p.once.Do(func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.done
		}
		if ps := p.cmd.ProcessState; ps != nil {
			p.cpu = ps.UserTime() + ps.SystemTime()
		}
	})
	return p.cpu
}

type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.b.Len() < 1<<20 {
		s.b.Write(p)
	}
	return len(p), nil
}

func (s *syncBuf) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func waitTCP(ctx context.Context, addr string) error {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			_ = c.Close()
			return nil
		}
		time.Sleep(30 * time.Millisecond)
	}
	return fmt.Errorf("%s did not accept connections within 15s", addr)
}

func waitHTTPOK(ctx context.Context, url string) error {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(30 * time.Millisecond)
	}
	return fmt.Errorf("%s did not answer 200 within 15s", url)
}

// coreUsed is the demo token's core requests used, per the emulator's
// /rate_limit (which charges nothing).
func coreUsed(ghURL string) int {
	req, _ := http.NewRequest(http.MethodGet, ghURL+"/rate_limit", nil)
	req.Header.Set("Authorization", "Bearer "+emulator.DemoTokenAlice)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	var body struct {
		Resources struct {
			Core struct{ Used int } `json:"core"`
		} `json:"resources"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return body.Resources.Core.Used
}

// selfCPU is this process's user+system CPU time so far.
func selfCPU() time.Duration {
	f, err := os.Open("/proc/self/stat")
	if err != nil {
		return 0
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	// Fields after the command name in parentheses; utime and stime are
	// the 14th and 15th fields, in clock ticks (100 per second on Linux).
	_, rest, ok := strings.Cut(line, ") ")
	if !ok {
		return 0
	}
	fields := strings.Fields(rest)
	if len(fields) < 13 {
		return 0
	}
	var ut, st int64
	_, _ = fmt.Sscan(fields[11], &ut)
	_, _ = fmt.Sscan(fields[12], &st)
	return time.Duration(ut+st) * 10 * time.Millisecond
}
