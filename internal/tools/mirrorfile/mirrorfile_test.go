package mirrorfile

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/tools/issueview"
)

func TestSlug(t *testing.T) {
	cases := []struct{ title, want string }{
		{"Crash on start-up!", "crash-on-start-up"},
		{"  --  ", "issue"},
		{"", "issue"},
		{"Ünïcode Straße 42", "ünïcode-straße-42"},
		{"a/../b", "a-b"},
	}
	for _, c := range cases {
		if got := Slug(c.title); got != c.want {
			t.Errorf("Slug(%q) = %q, want %q", c.title, got, c.want)
		}
	}
	long := Slug(strings.Repeat("word ", 40))
	if n := utf8.RuneCountInString(long); n > maxSlug {
		t.Errorf("Slug of a 200-character title has %d characters, want at most %d", n, maxSlug)
	}
	if strings.HasSuffix(long, "-") {
		t.Errorf("Slug of a long title = %q, want no trailing dash", long)
	}
	wide := Slug(strings.Repeat("𝔘", 100))
	if len(wide) > maxSlugBytes {
		t.Errorf("Slug of four-byte letters = %d bytes, want at most %d", len(wide), maxSlugBytes)
	}
	if !utf8.ValidString(wide) {
		t.Errorf("Slug of four-byte letters = %q, want valid UTF-8", wide)
	}
}

func TestFileNameAndNumber(t *testing.T) {
	name := FileName(42, "Fix the thing")
	if name != "42-fix-the-thing.json" {
		t.Fatalf("FileName = %q, want %q", name, "42-fix-the-thing.json")
	}
	if n, ok := Number(name); !ok {
		t.Errorf("Number(%q) ok = false, want true", name)
	} else if n != 42 {
		t.Errorf("Number(%q) = %d, want 42", name, n)
	}
	for _, bad := range []string{"0-x.json", "42.json", "42-x.txt", "x-42.json", "42-a/b.json", StateFile, "12345678901-x.json"} {
		if n, ok := Number(bad); ok {
			t.Errorf("Number(%q) = %d, true; want false", bad, n)
		}
	}
}

func TestParse(t *testing.T) {
	f := File{Schema: Schema, Repo: "acme/widgets", Issue: issueview.Issue{Number: 7, Title: "Seven", State: "open"},
		Comments: []issueview.Comment{{ID: 1, Author: "alice", Body: "hi", CreatedAt: "2026-01-02T03:04:05Z"}}, SyncedAt: "2026-01-02T03:04:05Z"}
	b, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(b), "}\n") {
		t.Errorf("Encode = %q, want JSON ending in a newline", b)
	}
	if !strings.Contains(string(b), "\n  \"repo\": \"acme/widgets\"") {
		t.Errorf("Encode = %q, want indented JSON", b)
	}
	got, err := Parse("7-seven.json", b, "ACME/Widgets")
	if err != nil {
		t.Fatalf("Parse of an encoded file: %v", err)
	}
	if got.Issue.Number != 7 {
		t.Errorf("Parse: issue number = %d, want 7", got.Issue.Number)
	}
	if len(got.Comments) != 1 {
		t.Errorf("Parse: %d comments, want 1: %+v", len(got.Comments), got.Comments)
	} else if got.Comments[0].Body != "hi" {
		t.Errorf("Parse: comment body = %q, want hi", got.Comments[0].Body)
	}
	refused := []struct {
		name, body, repo, why string
	}{
		{"seven.json", string(b), "acme/widgets", "NUMBER-SLUG"},
		{"7-seven.json", "{", "acme/widgets", "not valid JSON"},
		{"7-seven.json", `{"schema":2}`, "acme/widgets", "unknown schema version"},
		{"7-seven.json", `{"repo":"acme/widgets"}`, "acme/widgets", "unknown schema version"},
		{"7-seven.json", `{"schema":1,"extra":true}`, "acme/widgets", "not a schema 1 mirror file"},
		{"7-seven.json", string(b), "acme/gadgets", "holds an issue of acme/widgets, not acme/gadgets"},
		{"8-seven.json", string(b), "acme/widgets", "name says issue 8, the file holds issue 7"},
	}
	for _, r := range refused {
		_, err := Parse(r.name, []byte(r.body), r.repo)
		if err == nil || !strings.Contains(err.Error(), r.why) {
			t.Errorf("Parse(%q, %.30q, %q) error = %v, want one saying %q", r.name, r.body, r.repo, err, r.why)
		}
	}
}
