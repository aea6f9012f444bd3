// Package search is GitHub's issue search language as the emulator reads
// it: the query's words, quotes, parentheses, OR and negation, and the
// qualifiers (is:, label:, author:, created:, sort: and the rest) compiled
// to a matcher over state.Issue. GET /search/issues and GraphQL's search
// share it; Terms, [IntRange] and [DateRange] serve the other searches' simpler
// qualifiers.
package search
