package rest

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// pageParams reads per_page (default 30, at most 100) and page (from 1).
func pageParams(q url.Values) (perPage, page int) {
	perPage, page = 30, 1
	if v, err := strconv.Atoi(q.Get("per_page")); err == nil && v > 0 {
		perPage = min(v, 100)
	}
	if v, err := strconv.Atoi(q.Get("page")); err == nil && v > 0 {
		page = v
	}
	return perPage, page
}

// paginate cuts one page out of items and sets GitHub's Link header, which
// is left out when everything fits on one page.
func paginate[T any](c *call, items []T) []T {
	perPage, page := pageParams(c.Req.URL.Query())
	setLink(c, len(items), perPage, page)
	// Compare page numbers before multiplying: a page number near the
	// integer limit would overflow (page-1)*perPage into a negative index.
	if page-1 > len(items)/perPage {
		return []T{}
	}
	start := (page - 1) * perPage
	if start >= len(items) {
		return []T{}
	}
	return items[start:min(start+perPage, len(items))]
}

// setLink writes the Link header for total items seen per perPage.
func setLink(c *call, total, perPage, page int) {
	last := (total + perPage - 1) / perPage
	if last <= 1 && page <= 1 {
		return
	}
	at := func(p int) string {
		u := *c.Req.URL
		q := u.Query()
		q.Set("page", strconv.Itoa(p))
		if q.Get("per_page") != "" {
			q.Set("per_page", strconv.Itoa(perPage))
		}
		u.RawQuery = q.Encode()
		return fmt.Sprintf("<%s%s?%s>", c.Links.API, u.Path, u.RawQuery)
	}
	var parts []string
	if page > 1 {
		parts = append(parts, at(min(page-1, max(last, 1)))+`; rel="prev"`)
	}
	if page < last {
		parts = append(parts, at(page+1)+`; rel="next"`, at(last)+`; rel="last"`)
	}
	if page > 1 {
		parts = append(parts, at(1)+`; rel="first"`)
	}
	c.W.Header().Set("Link", strings.Join(parts, ", "))
}
