package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// agentSudo: the agent must not gain root without a password. With sudo
// installed, `sudo -l -n -U NAME` (as root) answers; otherwise, or when
// that fails, the sudoers files are read for rules naming the agent, one
// of its groups, or ALL.
func (c *checker) agentSudo() {
	const name = "agent without passwordless sudo"
	if c.agent == nil {
		c.add(name, Fail, "not checked: %s", c.missing())
		return
	}
	var note string
	if c.env.SudoList != nil {
		out, err := c.env.SudoList(c.agent.Name)
		if err == nil || strings.Contains(out, "is not allowed to run sudo") {
			v, reason := judgeSudoList(out)
			c.add(name, v, "sudo -l -n -U %s: %s", c.agent.Name, reason)
			return
		}
		note = fmt.Sprintf("sudo -l -n -U %s failed (%v); ", c.agent.Name, err)
	} else {
		note = "sudo is not installed; "
	}
	v, reason := c.scanSudoers()
	c.add(name, v, "%s%s", note, reason)
}

// judgeSudoList reads `sudo -l` output: any NOPASSWD command line, or
// !authenticate in the matching Defaults, is passwordless.
func judgeSudoList(out string) (Verdict, string) {
	if strings.Contains(out, "is not allowed to run sudo") {
		return Pass, "not allowed to run sudo"
	}
	var rules, nopasswd []string
	noAuth := false
	inRules := false
	for _, line := range strings.Split(out, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.Contains(line, "may run the following commands"):
			inRules = true
		case strings.HasPrefix(line, "Matching Defaults entries"):
			inRules = false
		case !inRules && strings.Contains(t, "!authenticate"):
			noAuth = true
		case inRules && t != "":
			rules = append(rules, t)
			if strings.Contains(t, "NOPASSWD") {
				nopasswd = append(nopasswd, t)
			}
		}
	}
	switch {
	case len(nopasswd) > 0:
		return Fail, "passwordless rules: " + strings.Join(nopasswd, "; ")
	case noAuth && len(rules) > 0:
		return Fail, "Defaults !authenticate applies to its rules: " + strings.Join(rules, "; ")
	case len(rules) > 0:
		return Pass, "sudo with a password only: " + strings.Join(rules, "; ")
	default:
		return Pass, "no sudo rules"
	}
}

// scanSudoers reads /etc/sudoers and /etc/sudoers.d for NOPASSWD rules that
// apply to the agent. It resolves User_Alias, %group, %#gid, #uid and ALL;
// host and runas parts are not narrowed (any host counts).
func (c *checker) scanSudoers() (Verdict, string) {
	files := []string{c.env.SudoersFile}
	if matches, err := c.env.Glob(filepath.Join(c.env.SudoersDir, "*")); err == nil {
		for _, m := range matches {
			// sudo skips names with a dot or ending in ~ in an includedir.
			base := filepath.Base(m)
			if strings.Contains(base, ".") || strings.HasSuffix(base, "~") {
				continue
			}
			files = append(files, m)
		}
	}
	var lines []sudoLine
	var read []string
	for _, f := range files {
		data, err := c.env.ReadFile(f)
		switch {
		case isNotExist(err):
			continue
		case errors.Is(err, fs.ErrPermission):
			return Warn, fmt.Sprintf("cannot read %s as this user: run doctor as root", f)
		case err != nil:
			return Warn, fmt.Sprintf("reading %s: %v", f, err)
		}
		read = append(read, f)
		lines = append(lines, sudoersLines(f, string(data))...)
	}
	if len(read) == 0 {
		return Pass, fmt.Sprintf("no sudoers files (%s, %s)", c.env.SudoersFile, c.env.SudoersDir)
	}
	groups := map[string]bool{}
	for _, gid := range append([]uint32{c.agent.GID}, c.agent.Groups...) {
		groups["%#"+fmt.Sprint(gid)] = true
		if g, err := c.env.Accounts.GroupByID(gid); err == nil {
			groups["%"+g.Name] = true
		}
	}
	aliases := map[string][]string{}
	noAuth := false
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l.text, "User_Alias"); ok {
			for _, def := range strings.Split(rest, ":") {
				if k, v, ok := strings.Cut(def, "="); ok {
					aliases[strings.TrimSpace(k)] = splitList(v)
				}
			}
		}
		if strings.HasPrefix(l.text, "Defaults") && strings.Contains(l.text, "!authenticate") {
			noAuth = true
		}
	}
	var matches func(item string, depth int) bool
	matches = func(item string, depth int) bool {
		switch {
		case item == "ALL", item == c.agent.Name, item == "#"+fmt.Sprint(c.agent.UID), groups[item]:
			return true
		case depth < 8 && aliases[item] != nil:
			return slices.ContainsFunc(aliases[item], func(s string) bool { return matches(s, depth+1) })
		}
		return false
	}
	var bad []string
	for _, l := range lines {
		users, ok := ruleUsers(l.text)
		if !ok || !slices.ContainsFunc(users, func(s string) bool { return matches(s, 0) }) {
			continue
		}
		if strings.Contains(l.text, "NOPASSWD") || noAuth {
			bad = append(bad, fmt.Sprintf("%s:%d", l.file, l.line))
		}
	}
	checked := fmt.Sprintf("read %s", strings.Join(read, ", "))
	if len(bad) > 0 {
		return Fail, fmt.Sprintf("%s: passwordless rules apply to %s at %s", checked, c.agent.Name, strings.Join(bad, ", "))
	}
	return Pass, fmt.Sprintf("%s: no NOPASSWD rule names %s, its groups (%s) or ALL", checked, c.agent.Name, c.groupNames(c.agent))
}

type sudoLine struct {
	file string
	line int
	text string
}

// sudoersLines joins continuations and drops comments (#include and
// #includedir are directives, kept but not followed).
func sudoersLines(file, body string) []sudoLine {
	var out []sudoLine
	var cur strings.Builder
	start := 0
	for i, raw := range strings.Split(body, "\n") {
		if cur.Len() == 0 {
			start = i + 1
		}
		line := stripComment(raw)
		if strings.HasSuffix(line, "\\") {
			cur.WriteString(strings.TrimSuffix(line, "\\"))
			cur.WriteByte(' ')
			continue
		}
		cur.WriteString(line)
		if t := strings.TrimSpace(cur.String()); t != "" {
			out = append(out, sudoLine{file: file, line: start, text: t})
		}
		cur.Reset()
	}
	return out
}

// stripComment drops a # comment. "#include" and "#includedir" are
// directives and "#1001" is a uid, so those are not comments.
func stripComment(line string) string {
	for i := 0; i < len(line); i++ {
		if line[i] != '#' || (i > 0 && line[i-1] != ' ' && line[i-1] != '\t' && line[i-1] != ',') {
			continue
		}
		rest := line[i+1:]
		if strings.HasPrefix(rest, "include") || (rest != "" && rest[0] >= '0' && rest[0] <= '9') {
			continue
		}
		return line[:i]
	}
	return line
}

// ruleUsers returns a user specification's user list ("alice, %wheel ALL =
// ..." gives [alice %wheel]); ok is false for lines that are not rules.
func ruleUsers(text string) ([]string, bool) {
	for _, kw := range []string{"Defaults", "User_Alias", "Runas_Alias", "Host_Alias", "Cmnd_Alias", "Cmd_Alias", "#include", "@include"} {
		if strings.HasPrefix(text, kw) {
			return nil, false
		}
	}
	left, _, ok := strings.Cut(text, "=")
	if !ok {
		return nil, false
	}
	// Commas may be followed by spaces; after closing them up, the first
	// field is the user list and the rest the host list.
	left = strings.Join(strings.Fields(strings.ReplaceAll(left, ",", ", ")), " ")
	left = strings.ReplaceAll(left, ", ", ",")
	fields := strings.Fields(left)
	if len(fields) < 2 {
		return nil, false
	}
	return splitList(fields[0]), true
}

// splitList splits a comma list; a negated item ("!bob") never matches.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item != "" && !strings.HasPrefix(item, "!") {
			out = append(out, item)
		}
	}
	return out
}
