// Package contract holds what every tool's answers share on the wire,
// whichever tool an agent calls: the error envelope a failing tool answers
// with ([Error]), its stable codes ([Code], each described in [Catalog])
// and a write's settlement ([Settlement]); signed, expiring pagination
// cursors bound to a tool, repository and filters ([Cursors]); version
// tokens of an object's editable state ([Version]; an edit passes one
// back as expected_version); and the removal, counted in [Removed], of
// what can hide instructions in untrusted text ([Sanitize]).
package contract
