package toolkit

import (
	"slices"
	"strings"
	"unicode"
)

// A NameMatch is one of the names on offer (a repository's labels, a
// board's fields or options) ranked against a name that is not there: the lower its score, the likelier it is the one meant.
type NameMatch struct {
	Name  string
	Score int
}

// WeakMatch is the score from which a match only shares a "family: "
// prefix (status: triage for status: blocked): worth listing, too far to
// put in a callable repair.
const WeakMatch = 10

// RankNames ranks the candidates that look like name, closest first:
// the same name in another case (0); one inside the other (1), as a
// renamed "area: ui" is inside "area: ui/ux"; the same family with one
// rest inside the other (2), as "status: triage" is in "status: needs
// triage"; a few typos apart (2 + the distance); the same family alone.
// The candidates are the repository's or board's own names, so they
// may be echoed.
func RankNames(name string, candidates []string) []NameMatch {
	n := strings.ToLower(strings.TrimSpace(name))
	var hits []NameMatch
	for _, c := range candidates {
		cn := strings.ToLower(strings.TrimSpace(c))
		d := editDistance(n, cn)
		nf, nrest := family(n)
		cf, crest := family(cn)
		switch {
		case cn == n:
			hits = append(hits, NameMatch{c, 0})
		case containsName(cn, n) || containsName(n, cn):
			hits = append(hits, NameMatch{c, 1})
		case nf != "" && nf == cf && (containsName(crest, nrest) || containsName(nrest, crest)):
			hits = append(hits, NameMatch{c, 2})
		case d <= max(2, len(n)/4):
			hits = append(hits, NameMatch{c, 2 + d})
		case nf != "" && nf == cf:
			hits = append(hits, NameMatch{c, WeakMatch + editDistance(nrest, crest)})
		}
	}
	slices.SortStableFunc(hits, func(a, b NameMatch) int { return a.Score - b.Score })
	return hits
}

// CloseMatches picks up to five candidates that look like name (see
// [RankNames]).
func CloseMatches(name string, candidates []string) []string {
	out := make([]string, 0, 5)
	for _, h := range RankNames(name, candidates) {
		if len(out) == 5 {
			break
		}
		out = append(out, h.Name)
	}
	return out
}

// family splits "family: rest" at its first colon; "" when there is none.
func family(s string) (string, string) {
	f, rest, ok := strings.Cut(s, ":")
	if !ok || f == "" {
		return "", s
	}
	return f, strings.TrimSpace(rest)
}

// containsName reports whether part is inside whole as more than a
// fragment: three characters or more, or a word of its own ("ui" is in
// "web ui" and "ui/ux", not in "build").
func containsName(whole, part string) bool {
	if part == "" || !strings.Contains(whole, part) {
		return false
	}
	if len([]rune(part)) >= 3 {
		return true
	}
	notWord := func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }
	return slices.Contains(strings.FieldsFunc(whole, notWord), part)
}

// editDistance is the Levenshtein distance over runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
