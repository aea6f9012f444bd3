package projects

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/google/jsonschema-go/jsonschema"
)

// FieldValue is one project field's value as agents write and read it: a
// string (an option's name, an iteration's title or @current/@next, a
// date YYYY-MM-DD, a text), a number, or null (none / clear).
type FieldValue struct {
	Null bool
	Str  *string
	Num  *float64
}

// Text and Number build values.
func Text(s string) FieldValue    { return FieldValue{Str: &s} }
func Number(n float64) FieldValue { return FieldValue{Num: &n} }

// UnmarshalJSON accepts a string, a number or null, and nothing else.
func (v *FieldValue) UnmarshalJSON(b []byte) error {
	*v = FieldValue{}
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		v.Null = true
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v.Str = &s
	default:
		var n float64
		if err := json.Unmarshal(b, &n); err != nil {
			return errors.New("a field value must be a string, a number or null")
		}
		v.Num = &n
	}
	return nil
}

// MarshalJSON writes the value back as it came.
func (v FieldValue) MarshalJSON() ([]byte, error) {
	switch {
	case v.Str != nil:
		return json.Marshal(*v.Str)
	case v.Num != nil:
		return json.Marshal(*v.Num)
	}
	return []byte("null"), nil
}

// JSONSchema implements tooldef.SelfDescribing.
func (FieldValue) JSONSchema() (*jsonschema.Schema, error) {
	return &jsonschema.Schema{Types: []string{"string", "number", "null"}}, nil
}

// Fields maps a field's name to its value.
type Fields map[string]FieldValue

// The field types ghgate writes, and their names as agents see them.
var writable = map[string]string{
	"SINGLE_SELECT": "single_select",
	"ITERATION":     "iteration",
	"DATE":          "date",
	"NUMBER":        "number",
	"TEXT":          "text",
}

// typeName is a field's type as agents see it.
func typeName(dataType string) string {
	if t, ok := writable[dataType]; ok {
		return t
	}
	return strings.ToLower(dataType)
}

// fieldNames lists a board's writable fields, for repairs.
func fieldNames(p *github.ProjectV2) []string {
	var out []string
	for _, f := range p.Fields {
		if _, ok := writable[f.DataType]; ok {
			out = append(out, f.Name)
		}
	}
	return out
}

// resolved is a write checked against the board: the field, and the
// value to send (nil: clear it).
type resolved struct {
	field *github.ProjectField
	set   *github.ProjectFieldSet
}

// resolveFields checks every value against its field's type and options
// before anything is written, in name order (so the writes and the
// changed_fields read the same way every time). arg is the argument the
// values came in, for the refusal; today is the date @current and @next
// are judged by.
func resolveFields(p *github.ProjectV2, fields Fields, arg string, today time.Time) ([]resolved, *contract.Error) {
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]resolved, 0, len(names))
	for _, name := range names {
		f := p.Field(name)
		if f == nil {
			return nil, fieldNotFound(p, arg+"."+name, name)
		}
		if _, ok := writable[f.DataType]; !ok {
			return nil, refuse(contract.CodeInvalidField, arg+"."+name, "not writable here",
				"field %q is GitHub's built-in %s field: change it on the issue itself; nothing was written", f.Name, typeName(f.DataType))
		}
		r, e := resolveValue(f, fields[name], arg+"."+name, today)
		if e != nil {
			return nil, e
		}
		out = append(out, r)
	}
	return out, nil
}

func resolveValue(f *github.ProjectField, v FieldValue, arg string, today time.Time) (resolved, *contract.Error) {
	r := resolved{field: f}
	if v.Null {
		return r, nil
	}
	set := &github.ProjectFieldSet{FieldID: f.ID}
	wrongType := func(want string) *contract.Error {
		return refuse(contract.CodeInvalidField, arg, "must be "+want, "field %q is a %s field: its value must be %s; nothing was written", f.Name, typeName(f.DataType), want)
	}
	switch f.DataType {
	case "NUMBER":
		n := v.Num
		if n == nil && v.Str != nil {
			// "3" is a number an agent quoted; anything else is not.
			if p, err := strconv.ParseFloat(strings.TrimSpace(*v.Str), 64); err == nil {
				n = &p
			}
		}
		if n == nil || math.IsNaN(*n) || math.IsInf(*n, 0) {
			return r, wrongType("a number")
		}
		set.Number = n
	case "TEXT":
		if v.Str == nil {
			return r, wrongType("a string")
		}
		set.Text = v.Str
	case "DATE":
		if v.Str == nil {
			return r, wrongType("a date as YYYY-MM-DD")
		}
		if _, err := time.Parse(time.DateOnly, *v.Str); err != nil {
			return r, wrongType("a date as YYYY-MM-DD")
		}
		set.Date = *v.Str
	case "SINGLE_SELECT":
		if v.Str == nil {
			return r, wrongType("one of its options, by name")
		}
		o := findOption(f.Options, *v.Str)
		if o == nil {
			return r, optionNotFound(f, arg)
		}
		set.Option = o.ID
	case "ITERATION":
		if v.Str == nil {
			return r, wrongType("an iteration's title, @current or @next")
		}
		it := findIterationOn(f, *v.Str, today.UTC().Format(time.DateOnly))
		if it == nil {
			return r, optionNotFound(f, arg)
		}
		set.IterID = it.ID
	}
	r.set = set
	return r, nil
}

func findOption(opts []github.ProjectOption, name string) *github.ProjectOption {
	name = strings.TrimSpace(name)
	for i := range opts {
		if opts[i].Name == name {
			return &opts[i]
		}
	}
	for i := range opts {
		if strings.EqualFold(opts[i].Name, name) {
			return &opts[i]
		}
	}
	return nil
}

// findIterationOn finds an iteration by title, or @current (the one day,
// YYYY-MM-DD, falls in) and @next (the first that starts after it).
func findIterationOn(f *github.ProjectField, title, day string) *github.ProjectIteration {
	title = strings.TrimSpace(title)
	switch strings.ToLower(title) {
	case "@current":
		for i, it := range f.Iterations {
			if start, err := time.Parse(time.DateOnly, it.StartDate); err == nil {
				end := start.AddDate(0, 0, it.Duration).Format(time.DateOnly)
				if it.StartDate <= day && day < end {
					return &f.Iterations[i]
				}
			}
		}
		return nil
	case "@next":
		for i, it := range f.Iterations {
			if it.StartDate > day {
				return &f.Iterations[i]
			}
		}
		return nil
	}
	all := append(append([]github.ProjectIteration{}, f.Iterations...), f.Completed...)
	for i := range all {
		if all[i].Title == title {
			return &all[i]
		}
	}
	for i := range all {
		if strings.EqualFold(all[i].Title, title) {
			return &all[i]
		}
	}
	return nil
}

// choices lists what a field takes, for its refusal.
func choices(f *github.ProjectField) []string {
	var out []string
	for _, o := range f.Options {
		out = append(out, o.Name)
	}
	if f.DataType == "ITERATION" {
		out = append(out, "@current", "@next")
		for _, it := range f.Iterations {
			out = append(out, it.Title)
		}
		for _, it := range f.Completed {
			out = append(out, it.Title)
		}
	}
	return out
}

// refuse builds a refusal made before anything was written.
func refuse(code contract.Code, field, reason, format string, args ...any) *contract.Error {
	e := contract.Errorf(code, format, args...)
	if field != "" {
		e.WithField(field, reason)
	}
	e.Settlement = contract.NotStarted
	return e
}

func fieldNotFound(p *github.ProjectV2, arg, name string) *contract.Error {
	names := fieldNames(p)
	e := refuse(contract.CodeProjectFieldNotFound, arg, "not a field of the project",
		"project #%d %q has no field of the name given; its fields are %s; nothing was written", p.Number, p.Title, strings.Join(quoted(names), ", "))
	e.Details.Value = names
	return e
}

func optionNotFound(f *github.ProjectField, arg string) *contract.Error {
	c := choices(f)
	e := refuse(contract.CodeProjectOptionNotFound, arg, "not one of the field's values",
		"field %q has no %s of the value given; it takes %s; nothing was written", f.Name, map[bool]string{true: "iteration", false: "option"}[f.DataType == "ITERATION"], strings.Join(quoted(c), ", "))
	e.Details.Value = c
	return e
}

func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// valueOf is an item's value as agents read it.
func valueOf(v github.ProjectValue) FieldValue {
	switch v.DataType {
	case "SINGLE_SELECT":
		return Text(v.Option)
	case "ITERATION":
		return Text(v.Iteration)
	case "DATE":
		return Text(v.Date)
	case "NUMBER":
		return Number(*v.Number)
	}
	return Text(v.Text)
}

// sameValue reports whether an item already holds what r would write.
func sameValue(it *github.ProjectItem, r resolved) bool {
	var have *github.ProjectValue
	for i := range it.Values {
		if it.Values[i].Field == r.field.Name {
			have = &it.Values[i]
		}
	}
	if r.set == nil {
		return have == nil
	}
	if have == nil {
		return false
	}
	s := r.set
	switch r.field.DataType {
	case "NUMBER":
		return have.Number != nil && *have.Number == *s.Number
	case "TEXT":
		return have.Text == *s.Text
	case "DATE":
		return have.Date == s.Date
	case "SINGLE_SELECT":
		o := findOption(r.field.Options, have.Option)
		return o != nil && o.ID == s.Option
	case "ITERATION":
		for _, it := range append(append([]github.ProjectIteration{}, r.field.Iterations...), r.field.Completed...) {
			if it.ID == s.IterID {
				return it.Title == have.Iteration
			}
		}
	}
	return false
}
