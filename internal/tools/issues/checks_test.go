package issues_test

import "fmt"

// ptr prints what p points to, or nil.
func ptr[T any](p *T) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}
