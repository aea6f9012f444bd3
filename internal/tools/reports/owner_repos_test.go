package reports

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/github"
)

// A listing whose Link header gives the next page but no last one is read
// page after page to its end; one that says its last page is read side by
// side; either way every page is taken, in order, and the listing is whole.
func TestOwnerReposFollowsTheLinks(t *testing.T) {
	t.Parallel()
	for _, withLast := range []bool{false, true} {
		t.Run(fmt.Sprintf("last=%v", withLast), func(t *testing.T) {
			t.Parallel()
			const pages = 3
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				page, _ := strconv.Atoi(r.URL.Query().Get("page"))
				page = max(page, 1)
				link := ""
				if page < pages {
					link = fmt.Sprintf(`<%s%s?page=%d&per_page=100>; rel="next"`, "http://"+r.Host, r.URL.Path, page+1)
					if withLast {
						link += fmt.Sprintf(`, <%s%s?page=%d&per_page=100>; rel="last"`, "http://"+r.Host, r.URL.Path, pages)
					}
				}
				if link != "" {
					w.Header().Set("Link", link)
				}
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `[{"name":"r%d-a"},{"name":"r%d-b"}]`, page, page)
			}))
			defer srv.Close()
			c, err := github.New(github.Options{BaseURL: srv.URL, Token: "t", MaxReadRetries: -1})
			if err != nil {
				t.Fatal(err)
			}
			run := fanout.New(context.Background(), fanout.Options{Client: c, MaxCalls: 10})
			g := run.Group()
			var got []string
			whole, err := ownerRepos(run, g, c, "o", func(page []*github.OwnerRepo) {
				for _, r := range page {
					got = append(got, r.GetName())
				}
			})
			if werr := g.Wait(); werr != nil {
				t.Fatalf("wait: %v", werr)
			}
			if err != nil {
				t.Fatalf("ownerRepos: %v", err)
			}
			want := []string{"r1-a", "r1-b", "r2-a", "r2-b", "r3-a", "r3-b"}
			if !whole {
				t.Errorf("whole = false, want true")
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("took %v, want %v", got, want)
			}
			if n := run.Calls(); n != pages {
				t.Errorf("calls = %d, want %d", n, pages)
			}
		})
	}
}

// A budget that runs out while the first page's work is under way still
// leaves the later pages their calls: Prepay set them aside, so the
// listing is whole and the stop is the budget's.
func TestOwnerReposPagesSurviveTheBudget(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		if page == 1 {
			w.Header().Set("Link", fmt.Sprintf(`<http://%s%s?page=2>; rel="next", <http://%s%s?page=2>; rel="last"`, r.Host, r.URL.Path, r.Host, r.URL.Path))
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `[{"name":"p%d"}]`, page)
	}))
	defer srv.Close()
	c, err := github.New(github.Options{BaseURL: srv.URL, Token: "t", MaxReadRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	run := fanout.New(context.Background(), fanout.Options{Client: c, MaxCalls: 2})
	g := run.Group()
	var pagesTaken int
	whole, err := ownerRepos(run, g, c, "o", func([]*github.OwnerRepo) {
		pagesTaken++
		// The first page's work spends the rest of the budget and more.
		for range 3 {
			_ = run.Call(context.Background(), func(ctx context.Context) (github.Meta, error) {
				_, m, err := c.GetRepo(ctx, "o", "x")
				return m, err
			})
		}
	})
	if werr := g.Wait(); werr != nil {
		t.Fatalf("wait: %v", werr)
	}
	if err != nil {
		t.Fatalf("ownerRepos: %v", err)
	}
	if !whole {
		t.Errorf("whole = false, want true")
	}
	if pagesTaken != 2 {
		t.Errorf("pages taken = %d, want 2", pagesTaken)
	}
	if got := run.Stopped(); got != fanout.MaxAPICalls {
		t.Errorf("stopped = %q, want %q", got, fanout.MaxAPICalls)
	}
}

// panicOnPage2 is a transport whose second listing page panics.
type panicOnPage2 struct{ next http.RoundTripper }

func (p panicOnPage2) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Query().Get("page") == "2" {
		panic("page 2")
	}
	return p.next.RoundTrip(r)
}

// A listing page whose read panics ends the listing with an error (the
// group's), not a wait for a page that will never come.
func TestOwnerReposPagePanicDoesNotHang(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") != "2" {
			w.Header().Set("Link", fmt.Sprintf(`<http://%s%s?page=2>; rel="next", <http://%s%s?page=2>; rel="last"`, r.Host, r.URL.Path, r.Host, r.URL.Path))
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[{"name":"a"}]`)
	}))
	defer srv.Close()
	c, err := github.New(github.Options{BaseURL: srv.URL, Token: "t", MaxReadRetries: -1,
		HTTPClient: &http.Client{Transport: panicOnPage2{http.DefaultTransport}}})
	if err != nil {
		t.Fatal(err)
	}
	run := fanout.New(context.Background(), fanout.Options{Client: c, MaxCalls: 10})
	g := run.Group()
	done := make(chan error, 1)
	go func() {
		_, err := ownerRepos(run, g, c, "o", func([]*github.OwnerRepo) {})
		if werr := g.Wait(); werr != nil {
			err = werr
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("listing error = nil, want one: a panicking page read ended the listing without an error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the listing still waits for the page whose read panicked")
	}
}
