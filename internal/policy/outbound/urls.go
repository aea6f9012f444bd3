package outbound

import "strings"

// link is a web link in text: the URL's bounds, where what is kept when
// it is de-linked starts (past "https://" or "//"), and its host,
// lower-cased.
type link struct {
	from, to int
	keep     int
	host     string
}

// findLinks finds, in order, what GitHub makes a link to a web host:
// http:// and https:// URLs (bare, in <...> autolinks, in [text](url)
// and in HTML attributes), www. autolinks, and protocol-relative //host
// destinations of links and attributes, which a browser resolves to the
// page's own scheme. A URL ends where GFM's autolinks end, at a blank or
// '<', and also at quotes and backticks, and before another link starts
// inside it ("https://a.example/(https://b.example"), so that links do
// not nest; sentence punctuation and an unbalanced ')' at its end are
// not part of it.
func findLinks(s string) []link {
	var links []link
	for i := 0; i < len(s); i++ {
		keep, ok := linkStart(s, i)
		if !ok {
			continue
		}
		end := urlEnd(s, keep)
		host := hostOf(s[keep:end])
		if host == "" || keep == i && host == "www" || s[i] == '/' && !strings.Contains(host, ".") {
			continue // no host; "www." alone; "//x" that names no domain
		}
		links = append(links, link{from: i, to: end, keep: keep, host: host})
		i = end - 1
	}
	return links
}

// linkStart says whether a link starts at s[i], and where what is kept
// of it starts.
func linkStart(s string, i int) (int, bool) {
	switch {
	case hasPrefixFold(s[i:], "https://"):
		return i + len("https://"), true
	case hasPrefixFold(s[i:], "http://"):
		return i + len("http://"), true
	case hasPrefixFold(s[i:], "www.") && (i == 0 || strings.IndexByte(" \t\r\n*_~(", s[i-1]) >= 0):
		return i, true
	case strings.HasPrefix(s[i:], "//") && isDestinationStart(s, i):
		return i + 2, true
	}
	return 0, false
}

// isDestinationStart says whether s[i:] is where a link destination or
// an HTML attribute's value starts: after "](", "](<", `="`, "='" or "=".
func isDestinationStart(s string, i int) bool {
	before := s[:i]
	for _, p := range []string{"](", "](<", `="`, "='", "="} {
		if strings.HasSuffix(before, p) {
			return true
		}
	}
	return false
}

// urlEnd is where the URL whose host starts at s[i] ends.
func urlEnd(s string, i int) int {
	end := i
	for end < len(s) && s[end] > ' ' && strings.IndexByte("<>\"'`", s[end]) < 0 {
		if _, nested := linkStart(s, end); nested && end > i {
			break
		}
		end++
	}
	unbalanced := strings.Count(s[i:end], ")") - strings.Count(s[i:end], "(")
	for end > i {
		switch c := s[end-1]; {
		case strings.IndexByte("?!.,:;*_~", c) >= 0:
			end--
		case c == ')' && unbalanced > 0:
			end--
			unbalanced--
		default:
			return end
		}
	}
	return end
}

// hostOf is the host of a URL without its scheme: the authority up to
// '/', '?', '#' or '\\' (which browsers read as '/'), past any
// "user:password@", without a port, lower-cased, without a final dot.
func hostOf(rest string) string {
	auth := rest[:runLen(rest, func(c byte) bool { return strings.IndexByte("/?#\\", c) < 0 })]
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		auth = auth[at+1:]
	}
	if !strings.HasPrefix(auth, "[") {
		if colon := strings.IndexByte(auth, ':'); colon >= 0 {
			auth = auth[:colon]
		}
	}
	return strings.TrimSuffix(strings.ToLower(auth), ".")
}

// hostAllowed says whether host is one of domains or under one.
func hostAllowed(host string, domains []string) bool {
	for _, d := range domains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
