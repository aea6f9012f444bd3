package state

import (
	"fmt"
	"strings"
	"time"
)

// Issue fields are an organization's custom fields on its issues, of four
// kinds (GitHub's IssueFieldDataType): TEXT, NUMBER, DATE (a YYYY-MM-DD
// string) and SINGLE_SELECT (one of the field's options). An issue holds
// at most one value per field. The demo seed defines none; the state
// operations below are what a test or a later seed uses.

// IssueField is one organization issue field.
type IssueField struct {
	ID          int64
	NodeID      string
	Name        string
	Description *string
	DataType    string // TEXT | NUMBER | DATE | SINGLE_SELECT
	Visibility  string // ALL | ORG_ONLY
	Options     []*IssueFieldOption
	CreatedAt   time.Time
}

// IssueFieldOption is one choice of a SINGLE_SELECT field.
type IssueFieldOption struct {
	ID          int64
	NodeID      string
	Name        string
	Description *string
	Color       string // IssueFieldSingleSelectOptionColor
	Priority    *int
}

// IssueFieldValue is an issue's value for one field: Text for TEXT and
// DATE, Number for NUMBER, Option for SINGLE_SELECT.
type IssueFieldValue struct {
	ID     int64
	NodeID string
	Field  *IssueField
	Text   string
	Number float64
	Option *IssueFieldOption
}

// AddIssueField defines an issue field for an organization; options are
// the names of a SINGLE_SELECT field's choices, all GRAY.
func (s *State) AddIssueField(org *Account, name, dataType string, description *string, options ...string) *IssueField {
	id := s.nextID()
	f := &IssueField{ID: id, NodeID: NodeID("IFT", id), Name: name, Description: description, DataType: dataType,
		Visibility: "ALL", CreatedAt: s.Now()}
	for _, o := range options {
		oid := s.nextID()
		opt := &IssueFieldOption{ID: oid, NodeID: NodeID("IFSO", oid), Name: o, Color: "GRAY"}
		f.Options = append(f.Options, opt)
		s.nodes[opt.NodeID] = opt
	}
	if s.issueFields == nil {
		s.issueFields = map[string][]*IssueField{}
	}
	key := strings.ToLower(org.Login)
	s.issueFields[key] = append(s.issueFields[key], f)
	s.nodes[f.NodeID] = f
	return f
}

// IssueFields lists an organization's issue fields in creation order; a
// user has none.
func (s *State) IssueFields(owner string) []*IssueField { return s.issueFields[strings.ToLower(owner)] }

// SetIssueFieldValue gives an issue its value for a field, replacing any
// earlier one. value is the text, the date, the number's decimal form or
// the option's name, as the field's kind wants.
func (s *State) SetIssueFieldValue(is *Issue, f *IssueField, value string) error {
	v := &IssueFieldValue{Field: f}
	switch f.DataType {
	case "TEXT":
		v.Text = value
	case "DATE":
		if _, err := time.Parse(time.DateOnly, value); err != nil {
			return fmt.Errorf("%s: %q is not a date (YYYY-MM-DD)", f.Name, value)
		}
		v.Text = value
	case "NUMBER":
		if _, err := fmt.Sscanf(value, "%g", &v.Number); err != nil {
			return fmt.Errorf("%s: %q is not a number", f.Name, value)
		}
	case "SINGLE_SELECT":
		for _, o := range f.Options {
			if strings.EqualFold(o.Name, value) {
				v.Option = o
			}
		}
		if v.Option == nil {
			return fmt.Errorf("%s has no option %q", f.Name, value)
		}
	}
	v.ID = s.nextID()
	v.NodeID = NodeID("IFV", v.ID)
	for i, old := range is.FieldValues {
		if old.Field == f {
			delete(s.nodes, old.NodeID)
			is.FieldValues[i] = v
			s.nodes[v.NodeID] = v
			return nil
		}
	}
	is.FieldValues = append(is.FieldValues, v)
	s.nodes[v.NodeID] = v
	return nil
}
