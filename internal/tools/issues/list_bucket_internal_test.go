package issues

import "testing"

// A first read is a bucket that is a multiple of page_size and holds the
// page (with the headroom asked for) where one does, so consecutive pages
// read one upstream page each; else the smallest that holds it; else 100.
func TestListBucketKeepsPagesAlignedAndHoldsThem(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ pos, size, need, want int }{
		{1, 10, 10, 10},   // pages 1-10, 11-20, ... one read each
		{11, 10, 10, 10},  // the second page: upstream page 2
		{1, 10, 15, 20},   // headroom for pull requests
		{21, 10, 15, 20},  // page 3 of 10 is upstream page 2 of 20
		{1, 30, 30, 30},   // include_prs: no headroom
		{1, 30, 45, 50},   // no multiple of 30 holds 45: the smallest that does
		{34, 30, 45, 100}, // off the grid after pull requests skipped
		{1, 3, 3, 30},     // 30 is the first multiple of 3
		{1, 7, 7, 10},     // no multiple of 7: the smallest that holds 7
		{1, 1, 1, 10},
		{1, 100, 100, 100},
		{101, 30, 30, 50}, // a cursor of the 100-row reads: 30's page 4 (91-120) holds 20 from 101; 50's page 3 (101-150) holds 30
		{101, 100, 100, 100},
		{151, 100, 100, 100}, // cannot hold 100 from row 151: the largest
	} {
		got := listBucket(c.pos, c.size, c.need)
		if got != c.want {
			t.Errorf("listBucket(pos %d, size %d, need %d) = %d, want %d", c.pos, c.size, c.need, got, c.want)
		}
	}
}

// Dropping pull requests asks for half a page more, up to 100.
func TestListNeedHoldsHeadroomForPullRequests(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		size       int
		issuesOnly bool
		want       int
	}{{10, false, 10}, {10, true, 15}, {30, true, 45}, {1, true, 1}, {80, true, 100}, {100, true, 100}} {
		if got := listNeed(c.size, c.issuesOnly); got != c.want {
			t.Errorf("listNeed(%d, issues only %v) = %d, want %d", c.size, c.issuesOnly, got, c.want)
		}
	}
}
