package bench

import (
	"context"
	"crypto/rand"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
)

// The overhead comparison: single operations repeated many times on both
// servers, the two servers' samples interleaved (ghgate then the peer, then
// the peer then ghgate, and so on) so that a slow moment of the machine
// falls on both. A sample's overhead is the time the client waited for the
// operation minus the time its upstream requests spent at the counting
// proxy: the time inside the server.

// Bounds on the number of samples per operation and server.
const (
	DefaultPeerSamples = 100
	MaxPeerSamples     = 500
)

// peerOp is one operation scripted for each server. i is the sample's
// index (from 0, warm-up calls included) for operations that need a fresh
// target or a fresh text each time.
type peerOp struct {
	name   string
	ghgate func(ctx context.Context, s *stdioServer, f benchFixtures, i int) error
	peer   func(ctx context.Context, s *stdioServer, f benchFixtures, i int) error
}

// benchFixtures are the targets of the overhead operations: acme/widgets
// (160 issues and pull requests, 96 of them open issues) for the listings,
// the reads and the search, and a repository the bench adds to the
// emulator, with an issue per fresh read, for the fresh reads and the
// writes.
type benchFixtures struct {
	owner, repo  string // acme/widgets
	readAgain    int    // an issue read over and over
	withComments int    // an issue with 16 comments
	searchText   string // text that matches more than 30 issues
	benchRepo    string // the bench's repository, in owner
	freshFrom    int    // the first issue of the bench's repository no sample has read
	commentOn    int    // the bench repository's issue the comments go to
	// httpToken acts as alice, shaped as a classic personal access token:
	// GitHub's server in HTTP mode takes the token from each request and
	// refuses one without a GitHub prefix. Made afresh for each run, for
	// this emulator only.
	httpToken string
}

func (f benchFixtures) in(extra args) args {
	a := args{"owner": f.owner, "repo": f.repo}
	for k, v := range extra {
		a[k] = v
	}
	return a
}

func (f benchFixtures) inBench(extra args) args {
	a := args{"owner": f.owner, "repo": f.benchRepo}
	for k, v := range extra {
		a[k] = v
	}
	return a
}

// addBenchRepo adds acme/peer-bench to the emulator with fresh issues
// (one per sample and warm-up call) and one issue to comment on, alice its
// admin as on the demo repositories.
func addBenchRepo(emu *emulator.Emulator, fresh int) (benchFixtures, error) {
	f := benchFixtures{owner: emulator.DemoOrg, repo: emulator.DemoWidgetsRepo, readAgain: 1,
		withComments: emulator.DemoManyCommentsIssue, searchText: "widget", benchRepo: "peer-bench"}
	st := emu.State()
	st.Lock()
	defer st.Unlock()
	org := st.Account(f.owner)
	alice := st.Account("alice")
	tok := st.Token(emulator.DemoTokenAlice)
	if org == nil || alice == nil || tok == nil {
		return f, fmt.Errorf("the seed lacks %s, alice or alice's token", f.owner)
	}
	now := st.Now()
	r := st.AddRepo(org, f.benchRepo, "Issues for the peer bench's fresh reads and writes", false, now)
	r.Collaborators = []string{"alice"}
	tok.Perms[strings.ToLower(r.FullName())] = emulator.PermAdmin
	f.freshFrom = 1
	for i := range fresh {
		body := fmt.Sprintf("Seen on build %d: the export stops at 10,000 rows and says nothing.\n\nSteps: export a table with more rows.", 4000+i)
		st.AddIssue(r, alice, fmt.Sprintf("Export stops at 10,000 rows (build %d)", 4000+i), &body, false, now)
	}
	f.httpToken = "ghp_" + rand.Text()[:16] + rand.Text()[:20]
	st.AddToken(&emulator.Token{Value: f.httpToken, Login: "alice", Scopes: tok.Scopes, Perms: tok.Perms})
	body := "Comments from the bench go here."
	f.commentOn = st.AddIssue(r, alice, "Bench comment thread", &body, false, now).Number
	return f, nil
}

// peerOps is the script, each peer step a tool of GitHub's MCP server
// v1.9.0 with the arguments its schema documents.
func peerOps() []peerOp {
	return []peerOp{
		{name: "list 30 open issues, one repository",
			ghgate: func(ctx context.Context, s *stdioServer, f benchFixtures, _ int) error {
				_, err := s.call(ctx, "github_search_issues", f.in(args{"state": "open", "page_size": 30}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f benchFixtures, _ int) error {
				_, err := s.call(ctx, "list_issues", f.in(args{"state": "OPEN", "perPage": 30}))
				return err
			}},
		{name: "list 10 open issues (160-issue repository)",
			ghgate: func(ctx context.Context, s *stdioServer, f benchFixtures, _ int) error {
				_, err := s.call(ctx, "github_search_issues", f.in(args{"state": "open", "page_size": 10}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f benchFixtures, _ int) error {
				_, err := s.call(ctx, "list_issues", f.in(args{"state": "OPEN", "perPage": 10}))
				return err
			}},
		// The warm-up call reads it first: every sample is a repeat, which
		// a server that keeps ETags asks of GitHub conditionally (304).
		{name: "get an issue already read",
			ghgate: func(ctx context.Context, s *stdioServer, f benchFixtures, _ int) error {
				_, err := s.call(ctx, "github_get_issue", f.in(args{"issue_number": f.readAgain}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f benchFixtures, _ int) error {
				_, err := s.call(ctx, "issue_read", f.in(args{"method": "get", "issue_number": f.readAgain}))
				return err
			}},
		{name: "get an issue not read before",
			ghgate: func(ctx context.Context, s *stdioServer, f benchFixtures, i int) error {
				_, err := s.call(ctx, "github_get_issue", f.inBench(args{"issue_number": f.freshFrom + i}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f benchFixtures, i int) error {
				_, err := s.call(ctx, "issue_read", f.inBench(args{"method": "get", "issue_number": f.freshFrom + i}))
				return err
			}},
		// ghgate's read carries the first 30 comments; GitHub's server
		// reads them with a second call.
		{name: "get an issue and its 16 comments",
			ghgate: func(ctx context.Context, s *stdioServer, f benchFixtures, _ int) error {
				_, err := s.call(ctx, "github_get_issue", f.in(args{"issue_number": f.withComments}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f benchFixtures, _ int) error {
				if _, err := s.call(ctx, "issue_read", f.in(args{"method": "get", "issue_number": f.withComments})); err != nil {
					return err
				}
				_, err := s.call(ctx, "issue_read", f.in(args{"method": "get_comments", "issue_number": f.withComments}))
				return err
			}},
		{name: "search text, 30 results",
			ghgate: func(ctx context.Context, s *stdioServer, f benchFixtures, _ int) error {
				_, err := s.call(ctx, "github_search_issues", f.in(args{"query": f.searchText, "state": "all", "page_size": 30}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f benchFixtures, _ int) error {
				_, err := s.call(ctx, "search_issues", f.in(args{"query": f.searchText, "perPage": 30}))
				return err
			}},
		// Titles and bodies differ per sample and server, so no create or
		// comment is a repeat of another.
		{name: "create an issue",
			ghgate: func(ctx context.Context, s *stdioServer, f benchFixtures, i int) error {
				_, err := s.call(ctx, "github_create_issue", f.inBench(args{"title": fmt.Sprintf("Legend overlaps the axis (ghgate %d)", i),
					"body": "Seen at 360px."}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f benchFixtures, i int) error {
				_, err := s.call(ctx, "issue_write", f.inBench(args{"method": "create", "title": fmt.Sprintf("Legend overlaps the axis (peer %d)", i),
					"body": "Seen at 360px."}))
				return err
			}},
		{name: "add a comment",
			ghgate: func(ctx context.Context, s *stdioServer, f benchFixtures, i int) error {
				_, err := s.call(ctx, "github_add_comment", f.inBench(args{"issue_number": f.commentOn, "body": fmt.Sprintf("Still seen (ghgate %d).", i)}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f benchFixtures, i int) error {
				_, err := s.call(ctx, "add_issue_comment", f.inBench(args{"issue_number": f.commentOn, "body": fmt.Sprintf("Still seen (peer %d).", i)}))
				return err
			}},
	}
}

// OpSide is one server's samples of one operation.
type OpSide struct {
	Overhead []time.Duration // per sample, sorted
	Bytes    []int64         // bytes sent to the client per sample, sorted
	Upstream int             // requests that reached the emulator, all samples
	NotMod   int             // of which answered 304
	Err      error           // the first failing call; sampling stops there
	Retried  int             // samples taken again after an error
	RetryErr error           // the first of those errors
}

// maxRetries is how many samples of one operation a server may have taken
// again after an error before the operation fails.
const maxRetries = 3

// OpRow is one operation on both servers.
type OpRow struct {
	Op           string
	Ghgate, Peer OpSide
}

// opWarmups is how many calls of each operation each server makes before
// its samples, uncounted: the first call of a tool pays for one-time work
// (the repository's metadata, a cache's first fill) that is not overhead.
const opWarmups = 1

// runOverhead takes samples of every operation on both servers.
func runOverhead(ctx context.Context, gg, peer *stdioServer, proxy *countingProxy, f benchFixtures, samples int) []OpRow {
	var rows []OpRow
	for _, op := range peerOps() {
		row := OpRow{Op: op.name}
		sides := []struct {
			s    *stdioServer
			run  func(context.Context, *stdioServer, benchFixtures, int) error
			side *OpSide
		}{{gg, op.ghgate, &row.Ghgate}, {peer, op.peer, &row.Peer}}
		for i := range opWarmups + samples {
			if ctx.Err() != nil {
				row.Ghgate.Err = ctx.Err()
				break
			}
			for k := range sides {
				// Alternate which server goes first.
				sd := sides[(k+i)%2]
				if sd.side.Err != nil {
					continue
				}
				run := func(ctx context.Context) error { return sd.run(ctx, sd.s, f, i) }
				o, b, t, err := sample(ctx, sd.s, proxy, run)
				if err != nil && sd.side.Retried < maxRetries && ctx.Err() == nil {
					// A rare transport error (an answer cut short on
					// loopback) is taken again, and shown beside the table.
					sd.side.Retried++
					if sd.side.RetryErr == nil {
						sd.side.RetryErr = err
					}
					o, b, t, err = sample(ctx, sd.s, proxy, run)
				}
				if err != nil {
					sd.side.Err = err
					continue
				}
				if i >= opWarmups {
					sd.side.Overhead = append(sd.side.Overhead, o)
					sd.side.Bytes = append(sd.side.Bytes, b)
					sd.side.Upstream += t.Requests
					sd.side.NotMod += t.NotModified
				}
			}
			if row.Ghgate.Err != nil && row.Peer.Err != nil {
				break
			}
		}
		slices.Sort(row.Ghgate.Overhead)
		slices.Sort(row.Peer.Overhead)
		slices.Sort(row.Ghgate.Bytes)
		slices.Sort(row.Peer.Bytes)
		rows = append(rows, row)
	}
	return rows
}

// sample runs one operation and returns its overhead, the bytes the
// server sent and what reached GitHub.
func sample(ctx context.Context, s *stdioServer, proxy *countingProxy, op func(context.Context) error) (time.Duration, int64, upstreamTally, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	proxy.tally()
	before := s.read.Load()
	start := time.Now()
	err := op(ctx)
	elapsed := time.Since(start)
	t := proxy.tally()
	return overhead(elapsed, t.Busy), s.read.Load() - before, t, err
}

// overhead is a call's time less its upstream wait, never below zero (the
// two clocks are read at different places).
func overhead(call, upstream time.Duration) time.Duration { return max(call-upstream, 0) }

// median is the middle of sorted values (the upper one of two), 0 for none.
func median(sorted []int64) int64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[len(sorted)/2]
}
