package issues

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// bodyWindowChars is how many characters (runes) of one body a read
// returns. GitHub keeps bodies of up to 65,536 characters, and a pasted
// log that long, returned whole by every read, buries the conversation
// around it. 8,000 characters are a few screens: an ordinary comment
// comes whole, the longest body in nine windows.
const bodyWindowChars = 8000

// windowFilters binds a body cursor to its issue (the pager binds the
// repository), apart from the comments cursor of the same issue.
func windowFilters(number int) any {
	return struct {
		Number int
		Window bool
	}{number, true}
}

// bodySpot is a body cursor's position: whose body (a comment's id, 0 for
// the issue's own), the character its window starts at, and the body's
// fingerprint when the cursor was minted, so a body edited since is told
// apart rather than two versions spliced.
type bodySpot struct {
	Comment int64
	From    int
	Sum     string
}

func (p bodySpot) String() string { return fmt.Sprintf("%d:%d:%s", p.Comment, p.From, p.Sum) }

func parseSpot(pos string) (bodySpot, bool) {
	parts := strings.SplitN(pos, ":", 3)
	if len(parts) != 3 {
		return bodySpot{}, false
	}
	id, err1 := strconv.ParseInt(parts[0], 10, 64)
	from, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || id < 0 || from < 0 {
		return bodySpot{}, false
	}
	return bodySpot{Comment: id, From: from, Sum: parts[2]}, true
}

// bodySum fingerprints a body as shown (sanitized).
func bodySum(text string) string { return contract.Version(text) }

// window cuts text, the body of issue number's comment (0: of the issue)
// in scope ("owner/name"), to the window starting at character from. A
// body that fits one window from its start comes whole, with no window;
// otherwise the window says where the text was cut and, unless it
// reaches the end, carries the cursor of the next. Cuts fall between
// runes, never inside a UTF-8 sequence.
func (s *Tools) window(scope string, number int, comment int64, text string, from int) (string, *issueview.BodyWindow) {
	total := utf8.RuneCountInString(text)
	if from == 0 && total <= bodyWindowChars {
		return text, nil
	}
	from = min(from, total)
	to := min(from+bodyWindowChars, total)
	w := &issueview.BodyWindow{ShownFrom: from, ShownTo: to, Total: total}
	if to < total {
		w.Next = s.Cursors.Mint(toolkit.NameGetIssue, scope, windowFilters(number), bodySpot{comment, to, bodySum(text)}.String())
	}
	return text[runeOffset(text, from):runeOffset(text, to)], w
}

// runeOffset is the byte offset of text's n-th rune (len(text) past the
// end).
func runeOffset(text string, n int) int {
	for i := range text {
		if n == 0 {
			return i
		}
		n--
	}
	return len(text)
}

// windowAt is window at a body cursor's spot: a body whose fingerprint
// differs from the one the cursor was minted on changed in between, and
// is refused with a repair that reads it again from its start.
func (s *Tools) windowAt(in GetIssueIn, spot bodySpot, text string) (string, *issueview.BodyWindow, error) {
	if spot.From > 0 && bodySum(text) != spot.Sum {
		return "", nil, bodyChanged(in, spot.Comment)
	}
	shown, w := s.window(in.Owner+"/"+in.Repo, int(in.IssueNumber), spot.Comment, text, spot.From)
	return shown, w, nil
}

// bodyChanged refuses the next window of a body edited since the cursor
// was minted: the windows already read belong to the earlier version.
func bodyChanged(in GetIssueIn, comment int64) *contract.Error {
	whose := fmt.Sprintf("the body of %s/%s#%d", in.Owner, in.Repo, in.IssueNumber)
	if comment != 0 {
		whose = fmt.Sprintf("comment %d", comment)
	}
	again := in
	again.BodyCursor, again.CommentID, again.CommentsCursor = "", toolkit.CommentID(comment), ""
	e := contract.Errorf(contract.CodeConflict, "%s was edited since this window's cursor was made: windows of two versions are not joined", whose).
		WithField("body_cursor", "the body changed since")
	return e.WithRepair(contract.Repair{NextStep: "read the body again from its start; the windows read so far belong to the earlier version",
		Tool: toolkit.NameGetIssue, Arguments: again})
}

// openBodyCursor opens in.BodyCursor: whose body and where its window
// starts. Without one, the window starts at 0 of the body comment_id
// names (0: the issue's). A cursor of another comment than comment_id
// names is refused.
func (s *Tools) openBodyCursor(in GetIssueIn) (bodySpot, error) {
	if in.BodyCursor == "" {
		return bodySpot{Comment: int64(in.CommentID)}, nil
	}
	restart := in
	restart.BodyCursor = ""
	l := toolkit.Listing{Tool: toolkit.NameGetIssue, Scope: in.Owner + "/" + in.Repo, Filters: windowFilters(int(in.IssueNumber)),
		Field: "body_cursor", Cursor: in.BodyCursor, Restart: restart}
	pos, err := s.OpenCursor(l)
	if err != nil {
		return bodySpot{}, err
	}
	spot, ok := parseSpot(pos)
	if !ok {
		return bodySpot{}, contract.Errorf(contract.CodeCursorInvalid, "the body cursor does not open").WithField("body_cursor", "not a body cursor").
			WithRepair(contract.Repair{NextStep: "read the body from its start", Tool: toolkit.NameGetIssue, Arguments: restart})
	}
	if in.CommentID != 0 && int64(in.CommentID) != spot.Comment {
		return bodySpot{}, contract.Errorf(contract.CodeInvalidField, "the body cursor continues another body than comment_id names").
			WithField("body_cursor", "made for another body than comment_id's").
			WithRepair(contract.Repair{NextStep: "pass the body cursor without comment_id, or read comment_id's body from its start", Tool: toolkit.NameGetIssue, Arguments: restart})
	}
	return spot, nil
}

// windowComment cuts a comment's shown body to its window at spot; a
// withheld body has none.
func (s *Tools) windowComment(in GetIssueIn, spot bodySpot, cm *issueview.Comment) error {
	if cm.Withheld != nil {
		return nil
	}
	var err error
	cm.Body, cm.BodyWindow, err = s.windowAt(in, spot, cm.Body)
	return err
}

// windowIssue cuts an issue's shown body (full detail) to its window at
// spot; a withheld body has none.
func (s *Tools) windowIssue(in GetIssueIn, spot bodySpot, is *issueview.Issue) error {
	if w := is.WithheldUntrusted; w != nil && w.Body {
		return nil
	}
	var err error
	is.Body, is.BodyWindow, err = s.windowAt(in, spot, is.Body)
	return err
}
