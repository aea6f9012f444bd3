package caller

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
)

func TestReachWithoutOneRecordsNothing(t *testing.T) {
	r := ReachFrom(context.Background())
	r.Named("acme", "widgets")
	r.Read("acme", "widgets")
	if _, ok := r.Summary(AuditRepos); ok {
		t.Error("a nil Reach summed up something")
	}
}

func TestReachCountsEachRepositoryOnceWhateverItsCase(t *testing.T) {
	ctx, r := WithReach(context.Background())
	if ReachFrom(ctx) != r {
		t.Fatal("ReachFrom does not return the Reach WithReach attached")
	}
	r.Named("acme", "Widgets")
	r.Read("ACME", "widgets")
	r.Named("acme", "gadgets")
	r.Read("acme", "")
	s, ok := r.Summary(AuditRepos)
	if !ok {
		t.Fatal("Summary: nothing recorded")
	}
	if want := []string{"acme/gadgets", "acme/Widgets"}; !slices.Equal(s.Repos, want) {
		t.Errorf("Repos = %v, want %v", s.Repos, want)
	}
	if s.Read != 1 {
		t.Errorf("Read = %d, want 1", s.Read)
	}
	if s.More != 0 {
		t.Errorf("More = %d, want 0", s.More)
	}
}

func TestReachSummaryIsCappedAndCountsTheRest(t *testing.T) {
	_, r := WithReach(context.Background())
	var wg sync.WaitGroup
	for i := range 70 {
		wg.Go(func() {
			if i%2 == 0 {
				r.Read("fleet", fmt.Sprintf("r%02d", i))
			} else {
				r.Named("fleet", fmt.Sprintf("r%02d", i))
			}
		})
	}
	wg.Wait()
	s, _ := r.Summary(AuditRepos)
	if len(s.Repos) != AuditRepos {
		t.Fatalf("%d names, want %d", len(s.Repos), AuditRepos)
	}
	if s.Repos[0] != "fleet/r00" {
		t.Errorf("first name = %s, want fleet/r00", s.Repos[0])
	}
	if last := s.Repos[AuditRepos-1]; last != "fleet/r49" {
		t.Errorf("last name = %s, want fleet/r49", last)
	}
	if s.More != 20 {
		t.Errorf("More = %d, want 20", s.More)
	}
	if s.Read != 35 {
		t.Errorf("Read = %d, want 35", s.Read)
	}
}

// The repositories whose withheld text a call was shown are named, every
// one, beside the count of those read, past the cap on the names listed.
func TestReachNamesEveryUntrustedRepository(t *testing.T) {
	_, r := WithReach(context.Background())
	r.Untrusted("acme", "widgets")
	for i := range AuditRepos + 5 {
		r.Read("fleet", fmt.Sprintf("svc-%03d", i))
	}
	r.Untrusted("zeta", "last")
	r.Untrusted("ACME", "Widgets")
	r.Untrusted("acme", "")
	s, ok := r.Summary(AuditRepos)
	if !ok {
		t.Fatal("Summary: nothing recorded")
	}
	if want := []string{"acme/widgets", "zeta/last"}; !slices.Equal(s.Untrusted, want) {
		t.Errorf("Untrusted = %v, want %v", s.Untrusted, want)
	}
	if s.Read != AuditRepos+7 {
		t.Errorf("Read = %d, want %d: a repository whose text was shown was read", s.Read, AuditRepos+7)
	}
	var nilReach *Reach
	nilReach.Untrusted("acme", "widgets") // records nothing, and does not panic
}
