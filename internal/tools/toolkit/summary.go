package toolkit

// Served says whether a tool, by name, is served to the reader of a
// summary.
type Served func(name string) bool

// Summary is one toolset's part of the capability summary
// (ghgate://capabilities): the lines of what it does, each a "- " line,
// and the phrases of what ghgate then does not do, which the server joins
// into one line.
type Summary struct {
	Does    []string
	DoesNot []string
}
