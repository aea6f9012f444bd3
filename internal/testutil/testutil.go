// Package testutil holds small helpers shared by the test suites.
package testutil

import (
	"bytes"
	"sync"
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
