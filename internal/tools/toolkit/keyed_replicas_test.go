package toolkit_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/testutil/redisserver"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// watched is a replica's store that says when a key is looked at.
type watched struct {
	store.Backend
	looks chan struct{}
}

func (w *watched) Reserve(ctx context.Context, scope store.IdempotencyScope, key, fp string) (store.Reservation, error) {
	r, err := w.Backend.Reserve(ctx, scope, key, fp)
	select {
	case w.looks <- struct{}{}:
	default:
	}
	return r, err
}

// made is what the keyed write returns.
type made struct {
	Number   int  `json:"number"`
	Replayed bool `json:"replayed,omitempty"`
}

// replicaService is one replica's Service on its handle of the shared store.
func replicaService(t *testing.T, st store.Backend) *toolkit.Service {
	t.Helper()
	t.Cleanup(func() { _ = st.Close() })
	return &toolkit.Service{Store: st, Credential: func(context.Context, string) string { return "shared-credential" }}
}

func openRedis(t *testing.T, url string, opts ...store.Option) store.Backend {
	t.Helper()
	st, err := store.OpenBackend(context.Background(), url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A keyed create still being written on one replica is not taken over by
// a replica whose clock runs 20 s ahead: that replica waits for the first
// result and returns it, and one issue is made.
func TestKeyedCreateNotTakenOverByASkewedReplica(t *testing.T) {
	t.Parallel()
	url := redisserver.Start(t).URL("keyed")
	a := replicaService(t, openRedis(t, url))
	skewed := &watched{Backend: openRedis(t, url, store.WithClock(func() time.Time { return time.Now().Add(20 * time.Second) })),
		looks: make(chan struct{}, 1)}
	b := replicaService(t, skewed)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var writes atomic.Int32
	writing, release := make(chan struct{}), make(chan struct{})
	request := map[string]string{"title": "once"}
	keyed := func(s *toolkit.Service, write func() (made, error)) (made, error) {
		k, err := s.OpenKey(ctx, &toolkit.KeyGuard{}, "acme", "widgets", toolkit.NameCreateIssue, "k-skew", request)
		if err != nil {
			return made{}, err
		}
		return toolkit.RunKeyed(ctx, k, toolkit.KeyedWrite[made]{
			Adopt:    func(time.Time) (made, bool, error) { return made{}, false, nil },
			Write:    write,
			Clear:    func(*made) {},
			Replayed: func(m *made) { m.Replayed = true },
		})
	}
	type outcome struct {
		out made
		err error
	}
	first, second := make(chan outcome, 1), make(chan outcome, 1)
	go func() {
		out, err := keyed(a, func() (made, error) {
			writes.Add(1)
			close(writing)
			<-release
			return made{Number: 1}, nil
		})
		first <- outcome{out, err}
	}()
	select {
	case <-writing:
	case <-ctx.Done():
		t.Fatal("the first replica never wrote")
	}
	secondWrote := make(chan struct{})
	go func() {
		out, err := keyed(b, func() (made, error) {
			writes.Add(1)
			close(secondWrote)
			return made{Number: 2}, nil
		})
		second <- outcome{out, err}
	}()
	// The skewed replica looks at the key, then either writes (it took the
	// key over) or looks again (it waits for the first result).
	for range 2 {
		select {
		case <-skewed.looks:
		case <-secondWrote:
		case <-ctx.Done():
			t.Fatal("the skewed replica neither waited nor wrote")
		}
	}
	close(release)
	var got [2]outcome
	for i, ch := range []chan outcome{first, second} {
		select {
		case got[i] = <-ch:
		case <-ctx.Done():
			t.Fatalf("replica %d did not finish", i+1)
		}
		if got[i].err != nil {
			t.Fatalf("replica %d: %v", i+1, got[i].err)
		}
	}
	if n := writes.Load(); n != 1 {
		t.Errorf("writes = %d, want 1", n)
	}
	if got[1].out.Number != 1 {
		t.Errorf("the skewed replica returned issue %d, want the first replica's 1", got[1].out.Number)
	}
	if !got[1].out.Replayed {
		t.Errorf("the skewed replica's result = %+v, want it replayed", got[1].out)
	}
}
