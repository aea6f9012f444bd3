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

// commitMessages lists the commits' messages in order ("<nil>" for a
// missing one), for failure messages.
func commitMessages(cs []*GitCommit) []string {
	var out []string
	for _, c := range cs {
		if c == nil {
			out = append(out, "<nil>")
			continue
		}
		out = append(out, c.Message)
	}
	return out
}

// labelNames lists the labels' names in order, for failure messages.
func labelNames(ls []*Label) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Name)
	}
	return out
}
