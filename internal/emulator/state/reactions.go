package state

import "time"

// Reaction is one emoji reaction a user left on an issue, a pull request
// or a comment. GitHub keeps at most one reaction per user and content on
// a subject.
type Reaction struct {
	ID        int64
	NodeID    string
	User      *Account
	Content   string // REST's name: +1, -1, laugh, confused, heart, hooray, rocket, eyes
	CreatedAt time.Time
}

// reactionEnum maps REST's reaction contents to GraphQL's ReactionContent
// values, in the order REST's reaction rollup lists them.
var reactionEnum = []struct{ rest, graphql string }{
	{"+1", "THUMBS_UP"}, {"-1", "THUMBS_DOWN"}, {"laugh", "LAUGH"}, {"confused", "CONFUSED"},
	{"heart", "HEART"}, {"hooray", "HOORAY"}, {"rocket", "ROCKET"}, {"eyes", "EYES"},
}

// ValidReaction reports whether content is one of REST's reaction names.
func ValidReaction(content string) bool {
	for _, e := range reactionEnum {
		if e.rest == content {
			return true
		}
	}
	return false
}

// RestReaction is the REST name of a GraphQL ReactionContent value.
func RestReaction(graphql string) string {
	for _, e := range reactionEnum {
		if e.graphql == graphql {
			return e.rest
		}
	}
	return ""
}

// React adds user's reaction with content to the list, unless the user
// already reacted so: then it returns that reaction and false, as GitHub
// answers 200 with the existing reaction instead of 201.
func (s *State) React(list *[]*Reaction, user *Account, content string) (*Reaction, bool) {
	for _, r := range *list {
		if r.User == user && r.Content == content {
			return r, false
		}
	}
	id := s.nextID()
	r := &Reaction{ID: id, NodeID: NodeID("REA", id), User: user, Content: content, CreatedAt: s.Now()}
	*list = append(*list, r)
	s.nodes[r.NodeID] = r
	return r, true
}
