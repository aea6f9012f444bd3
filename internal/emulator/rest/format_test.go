package rest_test

import "fmt"

// fmtStrPtr prints an optional JSON string as its value or null.
func fmtStrPtr(p *string) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *p)
}

// fmtBoolPtr prints an optional JSON boolean as its value or null.
func fmtBoolPtr(p *bool) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// fmtIntPtr prints an optional JSON number as its value or null.
func fmtIntPtr(p *int) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}
