// Package coverage states what the emulator serves against what GitHub
// publishes: the REST routes of the route table against the operations of
// GitHub's OpenAPI description, per OpenAPI tag, and the GraphQL fields the
// resolvers serve against the fields of GitHub's published schema, per
// object type. The published side is embedded as totals (openapi.json,
// graphql.json), written by scripts/pruneopenapi and scripts/prunegraphql
// from the npm packages, so `ghgate emulator --coverage` works offline; the
// served side is read from the code.
package coverage
