// Package jsondepth bounds how deeply a JSON text nests, before a
// decoder that recurses sees it.
//
// segmentio's encoding/json, which ghgate decodes GitHub's answers and
// checks MCP messages with, recurses once per level without a limit: 3 MB
// of '[' overflows the goroutine's stack and ends the process. The MCP SDK
// refuses messages nested past 1000 levels before decoding them for the
// same reason, and ghgate uses that bound everywhere.
package jsondepth

// Max is the deepest nesting of arrays and objects accepted: the MCP SDK's
// bound for a message (encoding/json allows 10000). GitHub's answers and
// MCP messages nest a dozen levels.
const Max = 1000

// Within reports whether data nests arrays and objects at most Max deep,
// scanning it once; brackets inside strings do not count. It does not
// check that data is JSON.
func Within(data []byte) bool {
	depth, inString, escaped := 0, false, false
	for _, b := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '[' || b == '{':
			if depth++; depth > Max {
				return false
			}
		case b == ']' || b == '}':
			depth--
		}
	}
	return true
}
