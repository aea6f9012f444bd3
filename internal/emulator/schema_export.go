package emulator

import "github.com/ghgate/ghgate/internal/emulator/schema"

// GraphQLSchemaSource names where a schema came from; see schema.Source.
type GraphQLSchemaSource = schema.Source

// Paths relative to the module root; see package schema.
const (
	GraphQLSchemaPackage = schema.PackagePath
	GraphQLOverlayPath   = schema.OverlayPath
	GraphQLPrunedPath    = schema.PrunedPath
)

// ReadGraphQLSources reads GitHub's published schema, its package version
// and the overlay from a checkout rooted at root.
func ReadGraphQLSources(root string) (published, overlay []byte, src GraphQLSchemaSource, err error) {
	return schema.ReadSources(root)
}

// PruneGraphQLSchema cuts GitHub's schema down to the fields the resolver
// registry serves (GraphQLFields) and returns the SDL to embed.
func PruneGraphQLSchema(published, overlay []byte, src GraphQLSchemaSource) ([]byte, error) {
	served, err := GraphQLFields()
	if err != nil {
		return nil, err
	}
	return schema.Prune(published, overlay, src, served)
}
