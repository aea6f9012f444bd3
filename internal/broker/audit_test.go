package broker

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// keepFile writes a file the audit log must never touch, and returns a
// check that its content and mode are still what they were.
func keepFile(t *testing.T, path string) func() {
	t.Helper()
	const body = "not the audit log\n"
	if err := os.WriteFile(path, []byte(body), 0o666); err != nil {
		t.Fatal(err)
	}
	// Wider than the audit mode, so a Chmod through the link would show.
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	return func() {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("reading %s: %v", path, err)
		} else if string(data) != body {
			t.Errorf("%s holds %q, want it untouched: %q", path, data, body)
		}
		if fi, err := os.Stat(path); err != nil {
			t.Errorf("stat %s: %v", path, err)
		} else if fi.Mode().Perm() != 0o666 {
			t.Errorf("%s mode = %v, want it untouched: 0666", path, fi.Mode().Perm())
		}
	}
}

func TestAuditRefusesASymlinkAtItsPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	check := keepFile(t, filepath.Join(dir, "other.db"))
	path := filepath.Join(dir, "audit.jsonl")
	if err := os.Symlink("other.db", path); err != nil {
		t.Fatal(err)
	}
	a, err := OpenAuditLog(path, nil)
	if err == nil {
		a.Close()
		t.Fatal("a symlink at the audit path was opened")
	}
	for _, want := range []string{"symbolic link", path} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error = %q, want one saying %q", err, want)
		}
	}
	check()
}

func TestAuditReopenRefusesASymlinkAndKeepsTheOldFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	check := keepFile(t, filepath.Join(dir, "other.db"))
	path := filepath.Join(dir, "audit.jsonl")
	a, err := OpenAuditLog(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	// A rotation moves the file away; a link takes its place.
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("other.db", path); err != nil {
		t.Fatal(err)
	}
	if err := a.Reopen(); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("Reopen through a symlink: error = %v, want one saying symbolic link", err)
	}
	if err := a.Write(AuditLine{Tool: "t", Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(path + ".1"); err != nil {
		t.Errorf("reading the file still open: %v", err)
	} else if !strings.Contains(string(data), `"tool":"t"`) {
		t.Errorf("the file still open holds %q, want the line with \"tool\":\"t\"", data)
	}
	check()
}

func TestAuditRefusesADirectoryOthersCanWrite(t *testing.T) {
	t.Parallel()
	for _, mode := range []os.FileMode{0o777, 0o770, 0o757, 0o777 | os.ModeSticky} {
		dir := t.TempDir()
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		a, err := OpenAuditLog(filepath.Join(dir, "audit.jsonl"), nil)
		if err == nil {
			a.Close()
			t.Errorf("mode %04o: the audit log opened in a directory others can write", mode)
			continue
		}
		if !strings.Contains(err.Error(), dir) {
			t.Errorf("mode %04o: err %q does not name the directory", mode, err)
		}
		if _, err := os.Lstat(filepath.Join(dir, "audit.jsonl")); !os.IsNotExist(err) {
			t.Errorf("mode %04o: the file was created: %v", mode, err)
		}
	}
}

func TestAuditRefusesADirectoryOwnedByAnother(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("giving a directory to another user needs root")
	}
	dir := t.TempDir()
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if a, err := OpenAuditLog(filepath.Join(dir, "audit.jsonl"), nil); err == nil {
		a.Close()
		t.Fatal("the audit log opened in a directory another user owns")
	}
}

func TestAuditRefusesASymlinkedDirectory(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	real := filepath.Join(base, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	a, err := OpenAuditLog(filepath.Join(link, "audit.jsonl"), nil)
	if err == nil {
		a.Close()
		t.Fatal("the audit log opened through a symlinked directory")
	}
	if !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("err %q does not say symbolic link", err)
	}
}

func TestAuditRefusesWhatIsNotARegularFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// A reader, so that an open for writing would not block.
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	sub := filepath.Join(dir, "sub.jsonl")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, sub} {
		a, err := OpenAuditLog(path, nil)
		if err == nil {
			a.Close()
			t.Errorf("%s: opened as the audit log", path)
			continue
		}
		if !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: err %q does not say it is not a regular file", path, err)
		}
	}
}

func TestAuditRefusesAFileOwnedByAnotherAndLeavesItsMode(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	check := keepFile(t, path)
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	a, err := OpenAuditLog(path, nil)
	if err == nil {
		a.Close()
		t.Fatal("an audit file owned by another user was opened")
	}
	if !strings.Contains(err.Error(), "owned by") {
		t.Errorf("err %q does not name the owner", err)
	}
	check()
}

func decodeLine(t *testing.T, b []byte) AuditLine {
	t.Helper()
	var l AuditLine
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatalf("line %q: %v", b, err)
	}
	return l
}

func TestAuditLineIsCapped(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	a, err := OpenAuditLog("", &buf)
	if err != nil {
		t.Fatal(err)
	}
	owner := strings.Repeat("o", 8<<20)
	if err := a.Write(AuditLine{Tool: "list_issues", Owner: owner, Repo: "widgets", Mode: "read", Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > maxAuditLine {
		t.Fatalf("line of %d bytes, want at most %d", buf.Len(), maxAuditLine)
	}
	l := decodeLine(t, buf.Bytes())
	if len(l.Owner) != maxAuditField {
		t.Errorf("owner kept %d bytes, want %d", len(l.Owner), maxAuditField)
	} else if l.Owner != owner[:maxAuditField] {
		t.Errorf("owner kept %q, want the first %d bytes of the owner", l.Owner, maxAuditField)
	}
	if want := int64(len(owner) - maxAuditField); l.TruncatedBytes != want {
		t.Errorf("truncated_bytes %d, want %d", l.TruncatedBytes, want)
	}
	if diff := cmp.Diff([3]string{"list_issues", "widgets", "ok"}, [3]string{l.Tool, l.Repo, l.Outcome}); diff != "" {
		t.Errorf("short fields [tool repo outcome] changed (-want +got):\n%s", diff)
	}
	if n := a.Truncated(); n != 1 {
		t.Errorf("Truncated() = %d, want 1", n)
	}

	// A line within the caps is written as it is, without the field.
	buf.Reset()
	if err := a.Write(AuditLine{Tool: "t", Owner: "acme", Mode: "read", Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "truncated_bytes") {
		t.Errorf("an uncut line = %q, want no truncated_bytes", buf.String())
	}
	if got := a.Truncated(); got != 1 {
		t.Errorf("after an uncut line, Truncated() = %d, want 1", got)
	}
}

// Repositories that do not fit the line are counted, not written.
func TestAuditLineReposGiveWayToTheCap(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	a, _ := OpenAuditLog("", &buf)
	repos := make([]string, 50)
	for i := range repos {
		repos[i] = fmt.Sprintf("%s/%s-%02d", strings.Repeat("o", 39), strings.Repeat("r", 97), i)
	}
	read := 60
	if err := a.Write(AuditLine{Tool: "github_report_unlabeled", Mode: "read", Outcome: "ok", Repos: repos, NamesOmitted: 10, ReposRead: &read}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > maxAuditLine {
		t.Fatalf("line of %d bytes, want at most %d", buf.Len(), maxAuditLine)
	}
	l := decodeLine(t, buf.Bytes())
	if len(l.Repos) == 0 {
		t.Fatal("no repository was written")
	}
	if !slices.Equal(l.Repos, repos[:len(l.Repos)]) {
		t.Errorf("repos = %v, want the first %d of those given", l.Repos, len(l.Repos))
	}
	if got, want := l.NamesOmitted, 10+50-len(l.Repos); got != want {
		t.Errorf("names_omitted = %d, want %d", got, want)
	}
	if l.ReposRead == nil {
		t.Errorf("repos_read = null, want 60")
	} else if *l.ReposRead != 60 {
		t.Errorf("repos_read = %d, want 60", *l.ReposRead)
	}
}

func TestAuditFieldIsCutAtARuneBoundary(t *testing.T) {
	t.Parallel()
	s := strings.Repeat("€", 100) // 3 bytes each
	got, cut := capAuditField(s)
	if !utf8.ValidString(got) {
		t.Errorf("kept %q, want valid UTF-8", got)
	}
	if len(got) != 255 {
		t.Errorf("kept %d bytes, want 255", len(got))
	}
	if want := int64(len(s) - 255); cut != want {
		t.Errorf("cut = %d, want %d", cut, want)
	}
}

// Every field at its worst (characters JSON escapes six-fold, invalid
// UTF-8, the largest numbers, fifty repositories named at length) still
// makes a line within the cap.
func TestAuditLineWorstCaseFitsTheCap(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	a, _ := OpenAuditLog("", &buf)
	for _, fill := range []string{"<", "\x01", "\xff", "\u2028", `"`} {
		buf.Reset()
		big := strings.Repeat(fill, 1<<16)
		uid := uint32(math.MaxUint32)
		read := math.MinInt
		many := slices.Repeat([]string{big}, 1000)
		line := AuditLine{Time: "2006-01-02T15:04:05.999999999Z", Client: &uid, ClientPID: math.MinInt32,
			Tool: big, Owner: big, Repo: big, Mode: big, Credential: big, Route: big, Outcome: big, Code: big, Settlement: big,
			Owners: many, Repos: many, IncludeUntrusted: many, NamesOmitted: math.MaxInt, Upstream: math.MinInt64, DurationMS: math.MinInt64, ReposRead: &read}
		if err := a.Write(line); err != nil {
			t.Fatal(err)
		}
		if buf.Len() > maxAuditLine {
			t.Errorf("fill %q: line of %d bytes, want at most %d", fill, buf.Len(), maxAuditLine)
		}
		decodeLine(t, buf.Bytes())
	}
}

// The owners and repos a call names are kept in order up to their share
// of the line; the rest are counted, and the caller's lists stay as they
// were.
func TestAuditNamesAreCappedAndCounted(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	a, _ := OpenAuditLog("", &buf)
	repos := make([]string, 100)
	for i := range repos {
		repos[i] = fmt.Sprintf("acme/repository-%03d", i)
	}
	sent := slices.Clone(repos)
	if err := a.Write(AuditLine{Tool: "t", Mode: "read", Outcome: "ok", Owners: []string{"acme"}, Repos: repos}); err != nil {
		t.Fatal(err)
	}
	l := decodeLine(t, buf.Bytes())
	kept := len(l.Owners) + len(l.Repos)
	if got := kept + l.NamesOmitted; got != 101 {
		t.Errorf("names kept + omitted = %d, want 101", got)
	}
	if l.NamesOmitted == 0 {
		t.Errorf("names_omitted = 0, want the names past %d bytes counted", maxAuditNames)
	}
	if !slices.Equal(l.Repos, repos[:len(l.Repos)]) {
		t.Errorf("repos kept %q, want a prefix of those named", l.Repos)
	}
	if !slices.Equal(repos, sent) {
		t.Error("the caller's list was changed")
	}
	if n := a.Truncated(); n != 1 {
		t.Errorf("Truncated() = %d, want 1", n)
	}
}

// The repositories whose withheld text a call was shown take the line's
// share for names before the other repositories named: they are what an
// operator audits include_untrusted by.
func TestAuditIncludeUntrustedComesBeforeRepos(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	a, _ := OpenAuditLog("", &buf)
	repos := make([]string, 100)
	for i := range repos {
		repos[i] = fmt.Sprintf("acme/repository-%03d", i)
	}
	shown := []string{"acme/repository-098", "acme/repository-099"}
	if err := a.Write(AuditLine{Tool: "github_search_issues", Mode: "read", Outcome: "ok", Repos: repos, IncludeUntrusted: shown}); err != nil {
		t.Fatal(err)
	}
	l := decodeLine(t, buf.Bytes())
	if !slices.Equal(l.IncludeUntrusted, shown) {
		t.Errorf("include_untrusted = %v, want %v", l.IncludeUntrusted, shown)
	}
	if l.NamesOmitted == 0 {
		t.Errorf("names_omitted = 0, want some of the %d repos omitted", len(repos))
	}
	if got := len(l.Repos) + l.NamesOmitted; got != len(repos) {
		t.Errorf("repos kept %d + omitted %d = %d, want %d", len(l.Repos), l.NamesOmitted, got, len(repos))
	}
}
