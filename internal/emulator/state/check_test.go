package state

// issueTitles lists the issues' titles in order, for failure messages.
func issueTitles(is []*Issue) []string {
	var out []string
	for _, i := range is {
		out = append(out, i.Title)
	}
	return out
}

// issueName is an optional issue's title, or "<nil>".
func issueName(i *Issue) string {
	if i == nil {
		return "<nil>"
	}
	return i.Title
}
