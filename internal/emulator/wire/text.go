package wire

import (
	"regexp"
	"strings"
)

// ContainsFold reports whether any of the texts contains the word, case-insensitively.
func ContainsFold(word string, texts ...string) bool {
	w := strings.ToLower(word)
	for _, t := range texts {
		if strings.Contains(strings.ToLower(t), w) {
			return true
		}
	}
	return false
}

// HexColor is a label colour as GitHub takes it: six hex digits, no "#".
var HexColor = regexp.MustCompile(`^[0-9a-fA-F]{6}$`)
