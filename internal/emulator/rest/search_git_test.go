package rest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

type commitHitT struct {
	SHA    string
	Commit struct {
		Message string
		Author  struct{ Date string }
	}
	Author     *struct{ Login string }
	Repository struct {
		FullName string `json:"full_name"`
	}
}

func TestRESTSearchCommits(t *testing.T) {
	api := serveDemo(t)
	tok := emulator.DemoTokenDave
	var res struct {
		TotalCount int `json:"total_count"`
		Items      []commitHitT
	}
	getJSON(t, api+"/search/commits?q=repo:acme/widgets+fix&sort=author-date&order=asc", tok, &res)
	if res.TotalCount == 0 {
		t.Fatalf("commits of acme/widgets mentioning fix: total_count 0, want some")
	}
	if len(res.Items) == 0 {
		t.Fatalf("commits of acme/widgets mentioning fix: total_count %d but no items, want some", res.TotalCount)
	}
	for i, it := range res.Items {
		if !strings.Contains(strings.ToLower(it.Commit.Message), "fix") {
			t.Errorf("hit %s: message %q, want one saying fix", it.SHA, it.Commit.Message)
		}
		if it.Repository.FullName != "acme/widgets" {
			t.Errorf("hit %s: repository %q, want %q", it.SHA, it.Repository.FullName, "acme/widgets")
		}
		if i > 0 && it.Commit.Author.Date < res.Items[i-1].Commit.Author.Date {
			t.Errorf("author-date asc: %s after %s", it.Commit.Author.Date, res.Items[i-1].Commit.Author.Date)
		}
	}
	// hash: names one commit; author: keeps the commits its account wrote.
	first := res.Items[0]
	var one struct {
		TotalCount int `json:"total_count"`
		Items      []commitHitT
	}
	getJSON(t, api+"/search/commits?q=repo:acme/widgets+hash:"+first.SHA[:10], tok, &one)
	if one.TotalCount != 1 {
		t.Errorf("hash:%s: total_count %d, want 1", first.SHA[:10], one.TotalCount)
	}
	if len(one.Items) == 0 {
		t.Errorf("hash:%s found no items, want %s", first.SHA[:10], first.SHA)
	} else if one.Items[0].SHA != first.SHA {
		t.Errorf("hash:%s found %s, want %s", first.SHA[:10], one.Items[0].SHA, first.SHA)
	}
	if first.Author != nil {
		var by struct{ Items []commitHitT }
		getJSON(t, api+"/search/commits?q=repo:acme/widgets+author:"+first.Author.Login, tok, &by)
		if len(by.Items) == 0 {
			t.Errorf("author:%s found nothing", first.Author.Login)
		}
		for _, it := range by.Items {
			if it.Author == nil {
				t.Errorf("author:%s found %s with no author, want %s", first.Author.Login, it.SHA, first.Author.Login)
			} else if it.Author.Login != first.Author.Login {
				t.Errorf("author:%s found %s by %s, want %s", first.Author.Login, it.SHA, it.Author.Login, first.Author.Login)
			}
		}
	}
	if r := get(t, api+"/search/commits?q=repo:acme/nothing+fix", tok); r.status != http.StatusUnprocessableEntity {
		t.Errorf("unknown repo: status %d, want %d", r.status, http.StatusUnprocessableEntity)
	}
	if r := get(t, api+"/search/commits?q=repo:acme/widgets+author-date:soon", tok); r.status != http.StatusUnprocessableEntity {
		t.Errorf("unreadable date: status %d, want %d", r.status, http.StatusUnprocessableEntity)
	}
}

func TestRESTSearchCode(t *testing.T) {
	api := serveDemo(t)
	tok := emulator.DemoTokenDave
	var res struct {
		TotalCount int `json:"total_count"`
		Items      []struct {
			Name, Path, SHA string
			Repository      struct {
				FullName string `json:"full_name"`
			}
			TextMatches []any `json:"text_matches"`
		}
	}
	getJSON(t, api+"/search/code?q=widget+repo:acme/widgets+in:file", tok, &res)
	if res.TotalCount == 0 {
		t.Fatal("files of acme/widgets saying widget: total_count 0, want some")
	}
	for _, it := range res.Items {
		var f struct{ Content string }
		getJSON(t, api+"/repos/acme/widgets/contents/"+it.Path, tok, &f)
		if it.Repository.FullName != "acme/widgets" {
			t.Errorf("hit %s: repository %q, want %q", it.Path, it.Repository.FullName, "acme/widgets")
		}
		if it.TextMatches != nil {
			t.Errorf("hit %s: text_matches %v, want none without the text-match media type", it.Path, it.TextMatches)
		}
		if !strings.HasSuffix(it.Path, it.Name) {
			t.Errorf("hit %s: name %q, want the path's last part", it.Path, it.Name)
		}
		if f.Content == "" {
			t.Errorf("%s: not on the default branch", it.Path)
		}
	}
	var md struct {
		Items []struct{ Path string }
	}
	getJSON(t, api+"/search/code?q=widget+repo:acme/widgets+extension:md", tok, &md)
	for _, it := range md.Items {
		if !strings.HasSuffix(it.Path, ".md") {
			t.Errorf("extension:md found %s", it.Path)
		}
	}
	// Qualifiers alone are no search: GitHub asks for a term.
	if r := get(t, api+"/search/code?q=repo:acme/widgets+language:go", tok); r.status != http.StatusUnprocessableEntity {
		t.Errorf("qualifiers only: status %d, want %d", r.status, http.StatusUnprocessableEntity)
	}
	if r := get(t, api+"/search/code?q=widget", ""); r.status != http.StatusUnauthorized {
		t.Errorf("anonymous: status %d, want %d", r.status, http.StatusUnauthorized)
	}
}

// With the text-match media type, each hit says where the words are.
func TestRESTSearchCodeTextMatches(t *testing.T) {
	api := serveDemo(t)
	req, err := http.NewRequest(http.MethodGet, api+"/search/code?q=widget+repo:acme/widgets+in:file", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+emulator.DemoTokenDave)
	req.Header.Set("Accept", "application/vnd.github.text-match+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var res struct {
		Items []struct {
			Path        string
			TextMatches []struct {
				Property string
				Fragment string
				Matches  []struct {
					Text    string
					Indices []int
				}
			} `json:"text_matches"`
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		t.Fatal(err)
	}
	if len(res.Items) == 0 {
		t.Fatal("no hits")
	}
	for _, it := range res.Items {
		if len(it.TextMatches) != 1 {
			t.Errorf("%s: %d text_matches, want 1: %+v", it.Path, len(it.TextMatches), it.TextMatches)
			continue
		}
		if p := it.TextMatches[0].Property; p != "content" {
			t.Errorf("%s: text_matches property %q, want %q", it.Path, p, "content")
			continue
		}
		m := it.TextMatches[0]
		for _, x := range m.Matches {
			if len(x.Indices) != 2 {
				t.Errorf("%s: match %q indices %v, want two", it.Path, x.Text, x.Indices)
				continue
			}
			if got := m.Fragment[x.Indices[0]:x.Indices[1]]; got != x.Text {
				t.Errorf("%s: fragment%v = %q, want the match's text %q (fragment %q)", it.Path, x.Indices, got, x.Text, m.Fragment)
			}
			if !strings.EqualFold(x.Text, "widget") {
				t.Errorf("%s: match text %q, want \"widget\" in any case", it.Path, x.Text)
			}
		}
	}
}
