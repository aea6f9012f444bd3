package emulator

import (
	"bytes"
	"fmt"
	"github.com/ghgate/ghgate/internal/emulator/seed"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
)

// The emulator's state is shared by every request: concurrent writes and
// reads through REST and GraphQL must neither race (this test is run with
// -race) nor lose a write.
func TestConcurrentRequests(t *testing.T) {
	// A search budget this test cannot spend: every refusal is a failure.
	emu, err := New(Options{SearchLimit: 10000})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(srv.Close)
	client := srv.Client()

	st := emu.State()
	st.RLock()
	widgets := st.Repo(seed.DemoOrg, seed.DemoWidgetsRepo)
	issuesBefore := len(widgets.Issues)
	commentsBefore := len(widgets.Issue(3).Comments)
	st.RUnlock()

	const workers, rounds = 8, 10
	type req struct{ method, path, token, body string }
	repo := "/repos/" + seed.DemoOrg + "/" + seed.DemoWidgetsRepo
	script := func(w, i int) []req {
		return []req{
			{"POST", repo + "/issues", seed.DemoTokenBob, fmt.Sprintf(`{"title":"Worker %d round %d","labels":["bug"]}`, w, i)},
			{"POST", repo + "/issues/3/comments", seed.DemoTokenBob, fmt.Sprintf(`{"body":"note %d.%d"}`, w, i)},
			{"POST", repo + "/issues/3/labels", seed.DemoTokenAlice, `{"labels":["enhancement"]}`},
			{"DELETE", repo + "/issues/3/labels/enhancement", seed.DemoTokenAlice, ""},
			{"PATCH", repo + "/issues/4", seed.DemoTokenAlice, fmt.Sprintf(`{"title":"Renamed by %d"}`, w)},
			{"GET", repo + "/issues?per_page=50&labels=bug", seed.DemoTokenCarol, ""},
			{"GET", repo + "/issues/3/timeline", seed.DemoTokenCarol, ""},
			{"GET", "/search/issues?q=repo:acme/widgets+worker", seed.DemoTokenAlice, ""},
			{"POST", "/graphql", seed.DemoTokenCarol, `{"query":"{ repository(owner: \"acme\", name: \"widgets\") { issue(number: 3) { title labels(first: 5) { nodes { name } } } } }"}`},
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, workers*rounds*10)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				for _, r := range script(w, i) {
					var body io.Reader
					if r.body != "" {
						body = bytes.NewReader([]byte(r.body))
					}
					hr, _ := http.NewRequest(r.method, srv.URL+r.path, body)
					hr.Header.Set("Authorization", "token "+r.token)
					resp, err := client.Do(hr)
					if err != nil {
						errs <- fmt.Sprintf("%s %s: %v", r.method, r.path, err)
						continue
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
					// 404 is a fair answer to the label removal when another
					// worker removed it first; 5xx never is.
					if resp.StatusCode >= 500 || (resp.StatusCode >= 400 && resp.StatusCode != 404) {
						errs <- fmt.Sprintf("%s %s: %d", r.method, r.path, resp.StatusCode)
					}
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}

	st.RLock()
	defer st.RUnlock()
	if got, want := len(widgets.Issues), issuesBefore+workers*rounds; got != want {
		t.Errorf("issues: %d, want %d (a create was lost or doubled)", got, want)
	}
	if got, want := len(widgets.Issue(3).Comments), commentsBefore+workers*rounds; got != want {
		t.Errorf("comments on #3: %d, want %d", got, want)
	}
	numbers := map[int]bool{}
	for _, is := range widgets.Issues {
		if numbers[is.Number] {
			t.Fatalf("issue number %d handed out twice", is.Number)
		}
		numbers[is.Number] = true
	}
}

func TestUnauthenticatedResponsesCarryTheAnonymousBudget(t *testing.T) {
	emu, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	defer srv.Close()
	for i, auth := range []string{"", "token nope"} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/repos/acme/widgets", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("401 #%d: status %d, want %d", i+1, resp.StatusCode, http.StatusUnauthorized)
		}
		if got := resp.Header.Get("X-RateLimit-Limit"); got != "60" {
			t.Fatalf("401 #%d: X-RateLimit-Limit %q, want \"60\"", i+1, got)
		}
		if got, want := resp.Header.Get("X-RateLimit-Used"), strconv.Itoa(i+1); got != want {
			t.Fatalf("401 #%d: X-RateLimit-Used %q, want %q", i+1, got, want)
		}
	}
}
