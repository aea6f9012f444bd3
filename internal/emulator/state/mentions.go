package state

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Cross-references. When an issue or pull request mentions another one in
// its body or in a comment, GitHub records a "cross-referenced" event on the
// timeline of the issue mentioned, whose source is the mentioning issue. The
// forms GitHub links (its "Autolinked references and URLs" documentation):
//
//	#26                                  an issue in the same repository
//	GH-26                                the same
//	owner/repo#26                        an issue in another repository
//	https://github.com/owner/repo/issues/26 (or /pull/26)
//
// Text inside code (inline spans, fenced and indented blocks) and inside
// HTML comments is not rendered as a link, so it references nothing. A
// source records at most one event per issue it mentions, whatever text
// repeats the mention later; an issue mentioning itself records nothing,
// and neither does a mention of an issue that does not exist (or did not
// yet exist when the text was written) or that the author cannot see.

// issueMention is one reference found in Markdown text. owner and repo are
// empty for a reference within the same repository.
type issueMention struct {
	owner, repo string
	number      int
}

var (
	// The patterns here and elsewhere in the package are compiled on first
	// use: every ghgate process links the emulator (for the demo and the
	// bench), and compiling them in its initializers cost each start, every
	// stdio session's server among them, about 2 ms.
	// A bare #N or GH-N, not glued to a preceding word, path or entity
	// ("abc#1", "a/b#1" as a path, "&#123;") and not followed by more word
	// characters ("#5f6368").
	bareRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[^\w/&#])(?:#|GH-)(\d+)\b`) })
	// owner/repo#N, not inside a longer path or URL. The owner is a
	// login's shape (ownerPattern).
	repoRef = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[^\w/.\-])(` + ownerPattern + `)/([A-Za-z0-9._-]+)#(\d+)\b`)
	})
	// An issue or pull request URL; the host is checked separately.
	urlRef = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`https?://([^/\s]+)/(` + ownerPattern + `)/([A-Za-z0-9._-]+)/(?:issues|pull)/(\d+)\b`)
	})
)

// ownerPattern is a login: letters, digits and hyphens, and a managed
// user's '_' and enterprise short code (mona_octo).
const ownerPattern = `[A-Za-z0-9][A-Za-z0-9-]*(?:_[A-Za-z0-9]+)?`

// githubHosts are the web hosts whose issue URLs always count.
var githubHosts = []string{"github.com", "www.github.com"}

// parseMentions lists the issue references in text, in order, duplicates
// included. hosts are web hosts besides github.com whose issue URLs count
// (the emulator's own, whose html_url values point there).
func parseMentions(text string, hosts ...string) []issueMention {
	text = StripUnlinked(text)
	type hit struct {
		at int
		m  issueMention
	}
	var hits []hit
	// Each pattern needs a literal most text lacks ("://", '#', "GH-");
	// looking for it first spares the regexps, which backtrack, a body
	// that cannot match.
	hasURL := strings.Contains(text, "://")
	hasHash := strings.Contains(text, "#")
	if !hasURL && !hasHash && !strings.Contains(text, "GH-") {
		return make([]issueMention, 0)
	}
	if hasURL {
		for _, loc := range urlRef().FindAllStringSubmatchIndex(text, -1) {
			host := text[loc[2]:loc[3]]
			if !knownHost(host, hosts) {
				continue
			}
			if n, ok := refNumber(text[loc[8]:loc[9]]); ok {
				hits = append(hits, hit{loc[0], issueMention{text[loc[4]:loc[5]], text[loc[6]:loc[7]], n}})
			}
		}
		// URLs are blanked before the short forms are looked for, so a
		// URL's fragment or path does not read as a second reference.
		text = urlRef().ReplaceAllStringFunc(text, func(s string) string { return strings.Repeat(" ", len(s)) })
	}
	if hasHash {
		for _, loc := range repoRef().FindAllStringSubmatchIndex(text, -1) {
			if n, ok := refNumber(text[loc[6]:loc[7]]); ok {
				hits = append(hits, hit{loc[2], issueMention{text[loc[2]:loc[3]], text[loc[4]:loc[5]], n}})
			}
		}
	}
	for _, loc := range bareRef().FindAllStringSubmatchIndex(text, -1) {
		if n, ok := refNumber(text[loc[2]:loc[3]]); ok {
			hits = append(hits, hit{loc[2], issueMention{number: n}})
		}
	}
	// Back into text order.
	for i := 1; i < len(hits); i++ {
		for j := i; j > 0 && hits[j].at < hits[j-1].at; j-- {
			hits[j], hits[j-1] = hits[j-1], hits[j]
		}
	}
	out := make([]issueMention, len(hits))
	for i, h := range hits {
		out[i] = h.m
	}
	return out
}

func knownHost(host string, extra []string) bool {
	for _, h := range githubHosts {
		if strings.EqualFold(host, h) {
			return true
		}
	}
	for _, h := range extra {
		if h != "" && strings.EqualFold(host, h) {
			return true
		}
	}
	return false
}

// refNumber reads an issue number: positive and of a sane size.
func refNumber(s string) (int, bool) {
	if len(s) > 9 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0
}

// StripUnlinked blanks the parts of Markdown GitHub renders without links:
// fenced and indented code blocks, inline code spans and HTML comments.
// Blanked text becomes spaces (newlines kept), so what remains keeps its
// word boundaries.
func StripUnlinked(text string) string {
	b := []byte(text)
	blank := func(from, to int) {
		for i := from; i < to; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	blankBlocks(text, blank)
	text = string(b)

	// HTML comments, then inline code spans in what is left.
	for i := 0; ; {
		j := strings.Index(text[i:], "<!--")
		if j < 0 {
			break
		}
		start := i + j
		end := strings.Index(text[start+4:], "-->")
		if end < 0 {
			blank(start, len(b))
			break
		}
		stop := start + 4 + end + 3
		blank(start, stop)
		i = stop
	}
	text = string(b)
	blankCodeSpans(text, blank)
	return string(b)
}

// blankBlocks finds fenced and indented code blocks line by line.
func blankBlocks(text string, blank func(from, to int)) {
	var (
		fence     string // the open fence's marker run, "" outside a fence
		prevBlank = true
		inCode    bool // inside an indented code block
		inList    bool // the last paragraph line began a list item
	)
	for pos := 0; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		line := text[pos:end]
		next := end + 1
		trimmed := strings.TrimLeft(line, " \t>")
		switch {
		case fence != "":
			blank(pos, end)
			if t := strings.TrimSpace(trimmed); strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
		case fenceMarker(trimmed) != "":
			fence = fenceMarker(trimmed)
			blank(pos, end)
		case strings.TrimSpace(line) == "":
			prevBlank = true
			pos = next
			continue
		case indented(line) && !inList && (prevBlank || inCode):
			inCode = true
			blank(pos, end)
		default:
			inCode = false
			if !indented(line) {
				inList = listItem(strings.TrimLeft(line, " "))
			}
		}
		prevBlank = false
		pos = next
	}
}

// fenceMarker is the backtick or tilde run opening a fenced code block, or
// "" when the line opens none.
func fenceMarker(line string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(line) && line[n] == c {
			n++
		}
		if n >= 3 && (c == '~' || !strings.ContainsRune(line[n:], '`')) {
			return line[:n]
		}
	}
	return ""
}

func indented(line string) bool {
	return strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")
}

// listItem reports whether a line begins a list item ("- ", "* ", "+ ",
// "1. ", "1) ").
func listItem(line string) bool {
	if len(line) >= 2 && strings.ContainsRune("-*+", rune(line[0])) && line[1] == ' ' {
		return true
	}
	i := 0
	for i < len(line) && i < 9 && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(line) && (line[i] == '.' || line[i] == ')') && line[i+1] == ' '
}

// blankCodeSpans blanks inline code: a backtick run up to the next run of
// the same length. A run with no match is literal text.
func blankCodeSpans(text string, blank func(from, to int)) {
	for i := 0; i < len(text); {
		if text[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(text) && text[i+n] == '`' {
			n++
		}
		closeAt := -1
		for j := i + n; j < len(text); {
			if text[j] != '`' {
				j++
				continue
			}
			m := 0
			for j+m < len(text) && text[j+m] == '`' {
				m++
			}
			if m == n {
				closeAt = j + m
				break
			}
			j += m
		}
		if closeAt < 0 {
			i += n
			continue
		}
		blank(i, closeAt)
		i = closeAt
	}
}

// canRead reports whether an account can see a repository: it is public,
// or the account owns it, collaborates on it or holds a token that reads it.
func (s *State) canRead(a *Account, r *Repo) bool {
	if !r.Private {
		return true
	}
	if a == nil {
		return false
	}
	if strings.EqualFold(r.Owner.Login, a.Login) || r.IsCollaborator(a.Login) {
		return true
	}
	for _, t := range s.tokens {
		if strings.EqualFold(t.Login, a.Login) && t.Permission(r) >= PermRead {
			return true
		}
	}
	return false
}

// CrossReference records a "cross-referenced" event on every issue text
// mentions, text being what actor wrote at `at` in src's body or in a
// comment on src. hosts are web hosts besides github.com whose issue URLs
// count. A target that already has an event from src gets no second one.
func (s *State) CrossReference(src *Issue, actor *Account, text string, at time.Time, hosts ...string) {
	if src == nil || src.Deleted || text == "" {
		return
	}
	for _, m := range parseMentions(text, hosts...) {
		r := src.Repo
		if m.owner != "" {
			if r = s.Repo(m.owner, m.repo); r == nil || (r != src.Repo && !s.canRead(actor, r)) {
				continue
			}
		}
		target := r.Issue(m.number)
		if target == nil || target.Deleted || target == src || target.CreatedAt.After(at) || crossReferenced(target, src) {
			continue
		}
		s.addEvent(target, &Event{Event: "cross-referenced", Actor: actor, CreatedAt: at, Source: src})
	}
}

// crossReferenced reports whether target has an event whose source is src.
func crossReferenced(target, src *Issue) bool {
	for _, e := range target.Events {
		if e.Event == "cross-referenced" && e.Source == src {
			return true
		}
	}
	return false
}

// loginChar is a character a login may contain: @alice-b mentions
// alice-b, not alice, and @mona_octo (a managed user's login, its
// enterprise's short code after the '_') mentions mona_octo, not mona.
var loginChar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]`) })

// MentionsUser reports whether an issue's body or one of its comments
// @mentions login, outside code and HTML comments, which GitHub renders
// without mentions.
func MentionsUser(is *Issue, login string) bool {
	texts := make([]string, 0, 1+len(is.Comments))
	if is.Body != nil {
		texts = append(texts, *is.Body)
	}
	for _, c := range is.Comments {
		texts = append(texts, c.Body)
	}
	at := "@" + strings.ToLower(login)
	for _, text := range texts {
		rest := strings.ToLower(StripUnlinked(text))
		for {
			i := strings.Index(rest, at)
			if i < 0 {
				break
			}
			before := i == 0 || !loginChar().MatchString(rest[i-1:]) // a@b is an email address
			rest = rest[i+len(at):]
			if before && !loginChar().MatchString(rest) {
				return true
			}
		}
	}
	return false
}
