package httpauth

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// MetadataPath is where the protected resource metadata (RFC 9728) is
// served, and what the 401's resource_metadata names.
const MetadataPath = "/.well-known/oauth-protected-resource"

// Mount serves h at path behind bearer-token checks, and the protected
// resource metadata at [MetadataPath] and at RFC 9728's path-suffixed form
// of the resource URL (/.well-known/oauth-protected-resource/mcp).
// wrap is applied around the checked handler (body limits, cross-origin
// protection), so a refused request is refused before any of it runs.
func (a *Authenticator) Mount(mux *http.ServeMux, path string, h http.Handler, wrap func(http.Handler) http.Handler) {
	var servers []string
	for _, is := range a.issuers {
		servers = append(servers, is.cfg.URL)
	}
	meta := auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:               a.resource,
		AuthorizationServers:   servers,
		ScopesSupported:        a.scopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "ghgate",
	})
	mux.Handle(MetadataPath, meta)
	if u, err := url.Parse(a.resource); err == nil && strings.Trim(u.Path, "/") != "" {
		mux.Handle(MetadataPath+"/"+strings.Trim(u.Path, "/"), meta)
	}
	require := auth.RequireBearerToken(a.Verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: a.metadataURL(),
		// Static keys carry no expiry; Verify requires one of every JWT.
		AllowMissingExpiration: true,
	})
	mux.Handle(path, wrap(require(h)))
}

// metadataURL is the metadata's absolute URL on the resource's origin.
func (a *Authenticator) metadataURL() string {
	u, err := url.Parse(a.resource)
	if err != nil {
		return MetadataPath
	}
	return u.Scheme + "://" + u.Host + MetadataPath
}
