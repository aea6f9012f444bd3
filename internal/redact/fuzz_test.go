package redact

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzClean embeds a registered secret, in each encoding and possibly
// broken across lines, in arbitrary text: no piece of minRun bytes of
// that encoding may be left, and at least one marker must be counted.
func FuzzClean(f *testing.F) {
	f.Add("before ", " after", uint8(0), uint16(0), uint8(0), false)
	f.Add("%4", "1\n", uint8(7), uint16(5), uint8(1), true)
	f.Add("Authorization: ", "\r\n", uint8(14), uint16(30), uint8(5), true)
	f.Add("ab\n  ", "==", uint8(20), uint16(9), uint8(3), true)
	r := registry()
	secrets := []string{canary, opaque, pat}
	encs := encodings()
	f.Fuzz(func(t *testing.T, before, after string, which uint8, at uint16, br uint8, split bool) {
		secret := secrets[int(which)%len(secrets)]
		e := encs[int(which)/len(secrets)%len(encs)]
		printed, shown := e.enc(secret), e.shown(secret)
		brk := ""
		if split {
			brk = breaks[int(br)%len(breaks)]
			i := strings.Index(printed, shown) + 1 + int(at)%(len(shown)-1)
			printed = printed[:i] + brk + printed[i:]
		}
		out, n := r.Clean(before + printed + after)
		if n < 1 {
			t.Errorf("count = %d, want at least 1 (out %q)", n, out)
		}
		if brk != "" {
			out = strings.ReplaceAll(out, brk, "")
		}
		if piece := leftover(out, shown, e.width); piece != "" {
			t.Errorf("%s: output %q keeps %q", e.name, out, piece)
		}
	})
}

// BenchmarkClean redacts a megabyte of job log: b.SetBytes makes the
// MB/s column the cost per megabyte. The registries hold one token (a
// server) and 8 route secrets with maxMinted installation tokens (a
// busy broker).
func BenchmarkClean(b *testing.B) {
	log := benchLog(1 << 20)
	one := NewRegistry(canary)
	many := NewRegistry(opaque, pat)
	for i := range 6 {
		many.Add(fmt.Sprintf("ghp_%x", randomBytes(18, uint64(200+i))))
	}
	for i := range maxMinted {
		many.AddMinted(fmt.Sprintf("ghs_%x", randomBytes(18, uint64(100+i))))
	}
	for _, c := range []struct {
		name string
		r    *Registry
	}{{"none", nil}, {"one", one}, {"broker", many}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(log)))
			for b.Loop() {
				if _, n := c.r.Clean(log); n != 0 {
					b.Fatalf("count = %d on a log without credentials", n)
				}
			}
		})
	}
}

// benchLog is n bytes of what a job prints: timestamped lines of build
// output, URLs with escapes, and base64 and hex blobs.
func benchLog(n int) string {
	noise := randomBytes(n, 9)
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "2026-01-02T15:04:%02d.%07dZ ", i%60, i)
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "ok  \tgithub.com/acme/widgets/internal/pkg%d\t0.%03ds\n", i, i%1000)
		case 1:
			fmt.Fprintf(&b, "GET https://api.github.com/repos/acme/widgets/issues?q=is%%3Aopen%%20label%%3Abug&page=%d\n", i)
		case 2:
			fmt.Fprintf(&b, "blob %x\n", noise[i%(n-64):i%(n-64)+48])
		case 3:
			b.WriteString("Authorization: Bearer ***   Downloading the action from the registry\n")
		default:
			fmt.Fprintf(&b, "    at Object.<anonymous> (/home/runner/work/widgets/src/index.js:%d:%d)\n", i%900, i%80)
		}
	}
	return b.String()
}
