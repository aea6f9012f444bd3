package github

import (
	"context"
	"errors"
	"fmt"

	"github.com/ghgate/ghgate/internal/store"
)

// BenchRepeatedRead reads one issue twice through a fresh client with an
// in-memory store and reports the rate budget the second, identical read
// spent, by GitHub's own x-ratelimit-used. With conditional requests it is
// 0. It is what `ghgate bench` prints; it needs an issue the token can
// read.
func BenchRepeatedRead(ctx context.Context, baseURL, token, owner, repo string, number int) (spent int, err error) {
	st, err := store.Open(ctx, "")
	if err != nil {
		return 0, err
	}
	defer func() { err = errors.Join(err, st.Close()) }()
	c, err := New(Options{BaseURL: baseURL, Token: token, Store: st})
	if err != nil {
		return 0, err
	}
	if _, _, err := c.GetIssue(ctx, owner, repo, number); err != nil {
		return 0, fmt.Errorf("first read: %w", err)
	}
	before := c.RateBudget("core")
	_, m, err := c.GetIssue(ctx, owner, repo, number)
	if err != nil {
		return 0, fmt.Errorf("second read: %w", err)
	}
	after := c.RateBudget("core")
	if !before.Known || !after.Known {
		return 0, errors.New("GitHub sent no rate-limit headers; the budget cannot be measured")
	}
	if after.Reset.After(before.Reset) {
		return 0, errors.New("the rate-limit window reset between the reads; run again")
	}
	spent = after.Used - before.Used
	if !m.Cached && spent == 0 {
		return 0, errors.New("the second read was not conditional yet cost nothing; the figure is not trustworthy")
	}
	return spent, nil
}
