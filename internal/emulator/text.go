package emulator

import (
	"regexp"
	"strings"
)

// containsFold reports whether any of the texts contains the word, case-insensitively.
func containsFold(word string, texts ...string) bool {
	w := strings.ToLower(word)
	for _, t := range texts {
		if strings.Contains(strings.ToLower(t), w) {
			return true
		}
	}
	return false
}

var hexColor = regexp.MustCompile(`^[0-9a-fA-F]{6}$`)
