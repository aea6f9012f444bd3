package bench

import (
	"context"
	"fmt"
	"slices"

	"github.com/ghgate/ghgate/internal/emulator"
)

// peerTask is one maintainer task scripted twice, once with ghgate's tools
// and once with GitHub's MCP server's, each the way its tool list invites
// an agent to do it. Writes act on different but equivalent issues, so both
// servers meet the same starting state.
type peerTask struct {
	name   string
	ghgate func(ctx context.Context, s *stdioServer, f peerFixtures) error
	peer   func(ctx context.Context, s *stdioServer, f peerFixtures) error
}

// peerFixtures are the seed issues the tasks work on; each writing task has
// one issue per server.
type peerFixtures struct {
	owner, repo       string
	withComments      int    // an issue with comments to read
	epic              int    // an issue with sub-issues
	duplicateOf       int    // the issue others are closed as duplicates of
	milestone         int    // an open milestone's number
	addLabel          string // a label the label-adding issues lack
	labelOn, closeOne [2]int // [0] for ghgate, [1] for the peer
}

// pickPeerFixtures finds open issues in the demo seed that are neither pull
// requests nor locked and lack addLabel: two to label, two to close.
func pickPeerFixtures(emu *emulator.Emulator) (peerFixtures, error) {
	f := peerFixtures{owner: emulator.DemoOrg, repo: emulator.DemoWidgetsRepo,
		withComments: emulator.DemoManyCommentsIssue, epic: emulator.DemoParentIssue,
		duplicateOf: emulator.DemoManyCommentsIssue, milestone: 1, addLabel: "priority: high"}
	st := emu.State()
	st.Lock()
	defer st.Unlock()
	repo := st.Repo(f.owner, f.repo)
	if repo == nil {
		return f, fmt.Errorf("no %s/%s in the seed", f.owner, f.repo)
	}
	var found []int
	for _, is := range repo.Issues {
		if is.IsPull || is.Deleted || is.Locked || is.State != "open" || is.Number == f.duplicateOf {
			continue
		}
		if slices.ContainsFunc(is.Labels, func(l *emulator.Label) bool { return l.Name == f.addLabel }) {
			continue
		}
		found = append(found, is.Number)
		if len(found) == 4 {
			break
		}
	}
	if len(found) < 4 {
		return f, fmt.Errorf("the seed has %d open unlocked issues without %q, want 4", len(found), f.addLabel)
	}
	f.labelOn = [2]int{found[0], found[1]}
	f.closeOne = [2]int{found[2], found[3]}
	return f, nil
}

type args map[string]any

func (f peerFixtures) in(extra args) args {
	a := args{"owner": f.owner, "repo": f.repo}
	for k, v := range extra {
		a[k] = v
	}
	return a
}

// peerTasks is the script. Each ghgate step uses the default toolset; each
// peer step a tool of GitHub's MCP server v1.9.0 (issues and labels
// toolsets), with the arguments its schema documents.
func peerTasks() []peerTask {
	return []peerTask{
		{name: "list open bugs (30)",
			ghgate: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				_, err := s.call(ctx, "github_search_issues", f.in(args{"labels": []string{"bug"}, "state": "open", "page_size": 30}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				_, err := s.call(ctx, "list_issues", f.in(args{"labels": []string{"bug"}, "state": "OPEN", "perPage": 30}))
				return err
			}},
		{name: "search issue text",
			ghgate: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				_, err := s.call(ctx, "github_search_issues", f.in(args{"query": "dashboard", "state": "all"}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				_, err := s.call(ctx, "search_issues", f.in(args{"query": "dashboard"}))
				return err
			}},
		{name: "read an issue and its comments",
			ghgate: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				_, err := s.call(ctx, "github_get_issue", f.in(args{"issue_number": f.withComments}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				if _, err := s.call(ctx, "issue_read", f.in(args{"method": "get", "issue_number": f.withComments})); err != nil {
					return err
				}
				_, err := s.call(ctx, "issue_read", f.in(args{"method": "get_comments", "issue_number": f.withComments}))
				return err
			}},
		{name: "list an epic's sub-issues",
			ghgate: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				_, err := s.call(ctx, "github_list_issue_items", f.in(args{"issue_number": f.epic, "collection": "sub_issues"}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				_, err := s.call(ctx, "issue_read", f.in(args{"method": "get_sub_issues", "issue_number": f.epic}))
				return err
			}},
		{name: "list the repository's labels",
			ghgate: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				_, err := s.call(ctx, "github_list_repo_metadata", f.in(args{"kind": "labels"}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				_, err := s.call(ctx, "list_label", f.in(nil))
				return err
			}},
		{name: "create an issue with labels and a milestone",
			ghgate: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				_, err := s.call(ctx, "github_create_issue", f.in(args{"title": "Chart legend overlaps the axis on narrow screens",
					"body": "Seen at 360px.", "labels": []string{"bug"}, "milestone": f.milestone}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				_, err := s.call(ctx, "issue_write", f.in(args{"method": "create", "title": "Chart legend overlaps the axis on narrow screens",
					"body": "Seen at 360px.", "labels": []string{"bug"}, "milestone": f.milestone}))
				return err
			}},
		// GitHub's server sets an issue's labels as a whole, so keeping the
		// others means reading them first.
		{name: "add a label, keeping the others",
			ghgate: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				_, err := s.call(ctx, "github_update_issue", f.in(args{"issue_number": f.labelOn[0], "labels": args{"add": []string{f.addLabel}}}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				text, err := s.call(ctx, "issue_read", f.in(args{"method": "get", "issue_number": f.labelOn[1]}))
				if err != nil {
					return err
				}
				// issue_read get answers labels as a list of names.
				var got struct {
					Labels []string `json:"labels"`
				}
				if err := jsonField(text, &got); err != nil {
					return err
				}
				names := append(got.Labels, f.addLabel)
				_, err = s.call(ctx, "issue_write", f.in(args{"method": "update", "issue_number": f.labelOn[1], "labels": names}))
				return err
			}},
		{name: "close as a duplicate, with a comment",
			ghgate: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				if _, err := s.call(ctx, "github_update_issue", f.in(args{"issue_number": f.closeOne[0], "state": "closed", "state_reason": "duplicate", "duplicate_of": f.duplicateOf})); err != nil {
					return err
				}
				_, err := s.call(ctx, "github_add_comment", f.in(args{"issue_number": f.closeOne[0], "body": fmt.Sprintf("Duplicate of #%d", f.duplicateOf)}))
				return err
			},
			peer: func(ctx context.Context, s *stdioServer, f peerFixtures) error {
				if _, err := s.call(ctx, "issue_write", f.in(args{"method": "update", "issue_number": f.closeOne[1], "state": "closed",
					"state_reason": "duplicate", "duplicate_of": f.duplicateOf})); err != nil {
					return err
				}
				_, err := s.call(ctx, "add_issue_comment", f.in(args{"issue_number": f.closeOne[1], "body": fmt.Sprintf("Duplicate of #%d", f.duplicateOf)}))
				return err
			}},
	}
}
