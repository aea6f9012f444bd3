// Package testutil holds small helpers shared by the test suites.
package testutil

import (
	"bytes"
	"sync"
	"time"
)

// SyncBuffer collects output (a child's stderr, a logger) that tests read
// while it is still being written.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Clock is a clock a test sets and advances; its Now is safe to call from
// the code under test while the test moves it.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock is a clock reading at.
func NewClock(at time.Time) *Clock { return &Clock{now: at} }

// Now reads the clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}
