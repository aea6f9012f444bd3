package outbound

import (
	"strings"
	"testing"
)

// BenchmarkApply runs every rule over 64 KiB (GitHub's limit on a body)
// of an issue body, and of texts built to make a careless scanner take
// quadratic time: b.SetBytes makes the MB/s column the cost per byte.
func BenchmarkApply(b *testing.B) {
	const size = 64 << 10
	fill := func(unit string) string { return strings.Repeat(unit, size/len(unit)+1)[:size] }
	for _, c := range []struct{ name, text string }{
		{"issue", fill("## Steps\n\nRun `npm i @types/node`, then see https://github.com/o/r/issues/1 and ask @alice.\n\n```\n@Override\n```\n")},
		{"links in links", fill("[![a](https://e.example/i)](https://e.example/l)")},
		{"open parentheses", fill("[x](https://e.example/(")},
		{"JWT headers", fill("eyJhbGciOiJ") + ".a.b"},
		{"mentions", fill("@a@b ")},
		{"keys", fill("token=")},
		{"backticks", fill("a `\n")},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.text)))
			for b.Loop() {
				allOn.Apply("body", c.text)
			}
		})
	}
}
