package bench

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// printOps writes the overhead table: per operation, each server's p50
// and p99 overhead, the bytes it returned (median per sample), and the
// ratios ghgate / GitHub's server. An operation that failed on a server
// shows "failed" and its error below the table.
func (r *PeerReport) printOps(w io.Writer) error {
	if len(r.Ops) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nserver overhead per operation: the client's time for it minus the time its upstream requests took at the proxy (ms);\n"+
		"%d samples per server after %d warm-up, ghgate and GitHub's MCP server alternating; bytes: what the server sent the client (median)\n",
		r.Samples, opWarmups)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "operation\tghgate p50\tp99\tpeer p50\tp99\tratio p50\tbytes ghgate\tbytes peer\tratio\tupstream/op g/p\t304s g/p\t")
	for _, row := range r.Ops {
		g, p := row.Ghgate, row.Peer
		both := g.Err == nil && p.Err == nil
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s/%s\t%d/%d\t\n", row.Op,
			opMs(g, percentile(g.Overhead, 50)), opMs(g, percentile(g.Overhead, 99)),
			opMs(p, percentile(p.Overhead, 50)), opMs(p, percentile(p.Overhead, 99)),
			ratioText(both, ms(percentile(g.Overhead, 50)), ms(percentile(p.Overhead, 50))),
			opBytes(g), opBytes(p), ratioText(both, float64(median(g.Bytes)), float64(median(p.Bytes))),
			perOp(g), perOp(p), g.NotMod, p.NotMod)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, row := range r.Ops {
		for _, side := range []struct {
			name string
			s    OpSide
		}{{"ghgate", row.Ghgate}, {"GitHub's MCP server", row.Peer}} {
			if side.s.Retried > 0 {
				fmt.Fprintf(w, "retried on %s: %s: %d sample(s) taken again after an error, the first: %v\n", side.name, row.Op, side.s.Retried, side.s.RetryErr)
			}
		}
		if row.Ghgate.Err != nil {
			fmt.Fprintf(w, "failed on ghgate: %s: %v\n", row.Op, row.Ghgate.Err)
		}
		if row.Peer.Err != nil {
			fmt.Fprintf(w, "failed on GitHub's MCP server: %s: %v\n", row.Op, row.Peer.Err)
		}
	}
	return nil
}

// printMemory writes the RSS table: the whole resident set and the
// process's own (anonymous) part of it, each with its ratio.
func (r *PeerReport) printMemory(w io.Writer) error {
	g, p := r.Memory[0], r.Memory[1]
	if g.StdioIdle.Total == 0 && p.StdioIdle.Total == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nmemory: resident set size of the server process (VmRSS), and of it the process's own memory (RssAnon; the rest is mostly pages of the executable, shared and reclaimable), MB\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tghgate\tpeer\tratio\tanon ghgate\tanon peer\tratio\t")
	lines := []struct {
		name string
		g, p RSS
	}{
		{"one idle stdio session", g.StdioIdle, p.StdioIdle},
		{"HTTP server idle (one session made and closed)", g.HTTPIdle, p.HTTPIdle},
		{fmt.Sprintf("%d HTTP sessions open at once (opened %d at a time)", r.Sessions, burstOpeners), g.HTTPOpen, p.HTTPOpen},
		{fmt.Sprintf("after they close (%s settle)", burstSettle), g.HTTPClosed, p.HTTPClosed},
	}
	for _, l := range lines {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", l.name,
			mb(l.g.Total), mb(l.p.Total), ratioText(l.g.Total > 0 && l.p.Total > 0, float64(l.g.Total), float64(l.p.Total)),
			mb(l.g.Anon), mb(l.p.Anon), ratioText(l.g.Anon > 0 && l.p.Anon > 0, float64(l.g.Anon), float64(l.p.Anon)))
	}
	fmt.Fprintf(tw, "after close / HTTP idle\t%s\t%s\t\t%s\t%s\t\t\n",
		ratioText(g.HTTPIdle.Total > 0, float64(g.HTTPClosed.Total), float64(g.HTTPIdle.Total)),
		ratioText(p.HTTPIdle.Total > 0, float64(p.HTTPClosed.Total), float64(p.HTTPIdle.Total)),
		ratioText(g.HTTPIdle.Anon > 0, float64(g.HTTPClosed.Anon), float64(g.HTTPIdle.Anon)),
		ratioText(p.HTTPIdle.Anon > 0, float64(p.HTTPClosed.Anon), float64(p.HTTPIdle.Anon)))
	if err := tw.Flush(); err != nil {
		return err
	}
	// A peer without an HTTP mode (or one this bench cannot drive) leaves
	// its column empty; ghgate's own burst failing fails the bench.
	if g.Err != nil {
		fmt.Fprintf(w, "failed on ghgate: HTTP burst: %v\n", g.Err)
	}
	if p.Err != nil {
		fmt.Fprintf(w, "GitHub's MCP server: HTTP figures not measured: %v\n", p.Err)
	}
	return nil
}

// ratioText is a / b with two decimals, or "-" when the figures are not
// both there.
func ratioText(ok bool, a, b float64) string {
	if !ok || b <= 0 || a < 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", a/b)
}

func opMs(s OpSide, d time.Duration) string {
	if s.Err != nil {
		return "failed"
	}
	return fmt.Sprintf("%.2f", ms(d))
}

func opBytes(s OpSide) string {
	if s.Err != nil {
		return "failed"
	}
	return fmt.Sprint(median(s.Bytes))
}

// perOp is the upstream requests per sample, one decimal.
func perOp(s OpSide) string {
	if len(s.Overhead) == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", float64(s.Upstream)/float64(len(s.Overhead)))
}

// mb is bytes in MB with one decimal, "-" for none.
func mb(b int64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", float64(b)/(1<<20))
}
