package fidelity

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
	"github.com/ghgate/ghgate/internal/emulator/seed"
)

// TestProjectsREST checks the Projects (v2) REST routes' rules on the demo
// seed, every answer validated against GitHub's description: who sees a
// board, the scope a classic token needs, fine-grained tokens and user
// boards, the item filter, an idempotent add and refused values.
func TestProjectsREST(t *testing.T) {
	srv := emulatortest.Start(t, emulator.Options{Seed: "demo", Now: seed.DemoNow})
	const roadmap = "/orgs/acme/projectsV2/1"
	status := func(method, path, token string, body any) *emulatortest.Response {
		t.Helper()
		return srv.Do(t, method, path, token, body)
	}
	for _, c := range []struct {
		path, token string
		want        int
	}{
		{roadmap, seed.DemoTokenAlice, 200},
		{roadmap, seed.DemoTokenCarol, 200},
		{roadmap, seed.DemoTokenDave, 404},                   // private to acme's members
		{"/orgs/acme/projectsV2/2", seed.DemoTokenDave, 200}, // public
		{roadmap, seed.DemoTokenAliceNoProject, 403},         // no read:project
		{roadmap, seed.DemoTokenAliceFineGrained, 200},
		{"/users/alice/projectsV2/1", seed.DemoTokenAlice, 200},
		{"/users/alice/projectsV2/1", seed.DemoTokenAliceFineGrained, 404}, // user boards are out of a fine-grained token's reach
		{"/users/acme/projectsV2/1", seed.DemoTokenAlice, 404},             // acme is an organization
	} {
		if res := status("GET", c.path, c.token, nil); res.Status != c.want {
			t.Errorf("GET %s as %s: %d, want %d: %s", c.path, c.token, res.Status, c.want, res.Body)
		} else if got := res.Header.Get("X-Accepted-OAuth-Scopes"); c.want == 403 && got != "read:project, project" {
			t.Errorf("GET %s as %s: 403 with X-Accepted-OAuth-Scopes %q, want %q", c.path, c.token, got, "read:project, project")
		}
	}
	var fields []struct {
		ID       int64  `json:"id"`
		Name     string `json:"name"`
		DataType string `json:"data_type"`
		Options  []struct {
			ID   string               `json:"id"`
			Name struct{ Raw string } `json:"name"`
		} `json:"options"`
	}
	status("GET", roadmap+"/fields", seed.DemoTokenAlice, nil).JSON(t, &fields)
	field := map[string]int64{}
	option := map[string]string{}
	for _, f := range fields {
		field[f.Name] = f.ID
		for _, o := range f.Options {
			option[f.Name+"/"+o.Name.Raw] = o.ID
		}
	}
	if len(fields) != 13 {
		t.Fatalf("roadmap fields: %d, want 13: %+v", len(fields), fields)
	}
	if fields[2].DataType != "single_select" {
		t.Fatalf("roadmap field %s data_type %q, want %q", fields[2].Name, fields[2].DataType, "single_select")
	}
	if option["Status/In progress"] == "" {
		t.Fatalf("roadmap Status field has no \"In progress\" option: %+v", fields)
	}

	type item struct {
		ID          int64   `json:"id"`
		ContentType string  `json:"content_type"`
		ArchivedAt  *string `json:"archived_at"`
		Content     *struct {
			Number int `json:"number"`
		} `json:"content"`
		Fields []struct {
			Name  string `json:"name"`
			Value any    `json:"value"`
		} `json:"fields"`
	}
	list := func(q string) []item {
		t.Helper()
		var out []item
		status("GET", roadmap+"/items?per_page=100&q="+url.QueryEscape(q)+fmt.Sprintf("&fields=%d", field["Status"]), seed.DemoTokenAlice, nil).JSON(t, &out)
		return out
	}
	inProgress := list(`status:"In progress"`)
	for _, it := range inProgress {
		if len(it.Fields) != 1 {
			t.Errorf("status:\"In progress\" listed an item with %d fields, want 1: %+v", len(it.Fields), it)
			continue
		}
		if v := fmt.Sprint(it.Fields[0].Value); v == "" || !strings.Contains(v, "In progress") {
			t.Errorf("status:\"In progress\" listed an item whose field value is %q, want one holding \"In progress\"", v)
		}
	}
	if len(inProgress) == 0 {
		t.Errorf("status:\"In progress\" lists no item, want some")
	}
	if n := len(list("is:archived")); n != 3 {
		t.Errorf("is:archived lists %d items, want 3", n)
	}
	if n := len(list("is:draft")); n != 2 {
		t.Errorf("is:draft lists %d items, want 2", n)
	}
	if res := status("GET", roadmap+"/items?q=sprint:@current", seed.DemoTokenAlice, nil); res.Status != 200 {
		t.Errorf("unknown filter field: status %d, want 200: %s", res.Status, res.Body)
	} else if string(res.Body) != "[]" {
		t.Errorf("unknown filter field: body %s, want []", res.Body)
	}
	// Without fields, an item carries its title alone.
	var one []item
	status("GET", roadmap+"/items?per_page=1", seed.DemoTokenAlice, nil).JSON(t, &one)
	if len(one) != 1 {
		t.Errorf("items?per_page=1: %d items, want 1", len(one))
	} else {
		var names []string
		for _, f := range one[0].Fields {
			names = append(names, f.Name)
		}
		if !slices.Equal(names, []string{"Title"}) {
			t.Errorf("default fields %q, want [\"Title\"]", names)
		}
	}

	// Adding widgets #100 twice gives one item.
	var a, b item
	body := map[string]any{"type": "Issue", "owner": "acme", "repo": "widgets", "number": 100}
	status("POST", roadmap+"/items", seed.DemoTokenBob, body).JSON(t, &a)
	status("POST", roadmap+"/items", seed.DemoTokenBob, body).JSON(t, &b)
	if a.ID == 0 {
		t.Errorf("add: item id 0, want one")
	}
	if a.ID != b.ID {
		t.Errorf("add twice: second item id %d, want the first's %d", b.ID, a.ID)
	}
	if a.ContentType != "Issue" {
		t.Errorf("add: content_type %q, want %q", a.ContentType, "Issue")
	}
	if a.Content == nil {
		t.Errorf("add: content null, want issue #100")
	} else if a.Content.Number != 100 {
		t.Errorf("add: content number %d, want 100", a.Content.Number)
	}
	if res := status("POST", roadmap+"/items", seed.DemoTokenCarol, body); res.Status != 403 {
		t.Errorf("carol adds: status %d, want 403: %s", res.Status, res.Body)
	}
	itemPath := fmt.Sprintf("%s/items/%d", roadmap, a.ID)
	for _, c := range []struct {
		name  string
		body  map[string]any
		want  int
		match string
	}{
		{"option of another field", map[string]any{"fields": []map[string]any{{"id": field["Status"], "value": option["Priority/P0"]}}},
			422, "The single select option Id does not belong to the field"},
		{"text for a number", map[string]any{"fields": []map[string]any{{"id": field["Estimate"], "value": "three"}}},
			422, "Did not receive a number value to update a field of type number"},
		{"bad date", map[string]any{"fields": []map[string]any{{"id": field["Target date"], "value": "next week"}}},
			422, "Date is not a valid date"},
		{"built-in field", map[string]any{"fields": []map[string]any{{"id": field["Title"], "value": "x"}}},
			422, "cannot be updated"},
		{"set", map[string]any{"fields": []map[string]any{{"id": field["Status"], "value": option["Status/Done"]},
			{"id": field["Estimate"], "value": 5}, {"id": field["Iteration"], "value": seed.DemoIterationIDs()[2]}}}, 200, `"Done"`},
		{"archive", map[string]any{"archived": true}, 200, `"archived_at":"`},
		{"set while archived", map[string]any{"fields": []map[string]any{{"id": field["Notes"], "value": "x"}}}, 422, "The item is archived and cannot be updated"},
	} {
		res := status("PATCH", itemPath, seed.DemoTokenBob, c.body)
		checkResponse(t, c.name, res, c.want, c.match)
	}
	var got item
	status("GET", itemPath+fmt.Sprintf("?fields=%d,%d", field["Status"], field["Estimate"]), seed.DemoTokenAlice, nil).JSON(t, &got)
	if got.ArchivedAt == nil {
		t.Errorf("after the updates: archived_at null, want a time")
	}
	if len(got.Fields) != 2 {
		t.Errorf("after the updates: %d fields, want 2: %+v", len(got.Fields), got.Fields)
	} else if v := fmt.Sprint(got.Fields[1].Value); v != "5" {
		t.Errorf("after the updates: Estimate %q, want \"5\"", v)
	}
	if res := status("DELETE", itemPath, seed.DemoTokenBob, nil); res.Status != 204 {
		t.Errorf("delete: status %d, want 204: %s", res.Status, res.Body)
	}
	if res := status("GET", itemPath, seed.DemoTokenAlice, nil); res.Status != 404 {
		t.Errorf("deleted item: status %d, want 404", res.Status)
	}
}
