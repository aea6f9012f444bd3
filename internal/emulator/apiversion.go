package emulator

import (
	"net/http"
	"slices"
	"strings"
)

// REST API versions, as GitHub's "API Versions" page describes them: a
// request names one in the X-GitHub-Api-Version header; a request without
// the header gets the default, and one naming a version GitHub does not
// support answers 400.
const (
	apiVersionHeader  = "X-GitHub-Api-Version"
	defaultAPIVersion = "2022-11-28"
)

// apiVersions are the supported versions, oldest first.
var apiVersions = []string{"2022-11-28", "2026-03-10"}

// ghesAPIVersions are those GitHub Enterprise Server supports (3.20 and
// older: "GitHub Enterprise Server does not yet support API version
// 2026-03-10"), served through /api/v3 when Options.GHESVersion is set.
var ghesAPIVersions = []string{"2022-11-28"}

// SupportedAPIVersion reports whether request headers name no REST API
// version or one GitHub supports; the emulator answers any other request
// 400.
func SupportedAPIVersion(h http.Header) bool { return supportedIn(h, apiVersions) }

func supportedIn(h http.Header, versions []string) bool {
	vs := h.Values(apiVersionHeader)
	switch {
	case len(vs) == 0 || (len(vs) == 1 && strings.TrimSpace(vs[0]) == ""):
		return true // no version named: the default
	case len(vs) == 1:
		return slices.Contains(versions, strings.TrimSpace(vs[0]))
	}
	return false // two versions name none
}

// requestedAPIVersion is the version a request names, as it named it.
func requestedAPIVersion(h http.Header) string { return strings.Join(h.Values(apiVersionHeader), ", ") }

// unsupportedVersionMessage is GitHub's message for a version it does not
// support, listing those it does, the most recent first.
func unsupportedVersionMessage(version string, apiVersions []string) string {
	var listed []string
	for i := len(apiVersions) - 1; i >= 0; i-- {
		v := `"` + apiVersions[i] + `"`
		if i == len(apiVersions)-1 {
			v += " (most recent)"
		}
		listed = append(listed, v)
	}
	return `The version you specified in the "X-GitHub-Api-Version" request header, "` + version +
		`", is not a supported version. The following versions are currently supported: ` + strings.Join(listed, ", ") + "."
}
