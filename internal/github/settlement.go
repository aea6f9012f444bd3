package github

// Settlement says what a write did on GitHub, as far as ghgate can know.
// The four values order what is known, from certainty that nothing was
// sent to certainty that GitHub applied it:
//
//   - NotStarted: the request never left this process. Our own validation
//     refused it, no credential was configured, the rate budget was known
//     to be spent, the connection could not be made (DNS, dial, TLS), or
//     the context ended before the request was written. Safe to repeat.
//   - NoRemoteSuccessKnown: the request was sent and GitHub answered with
//     an error status (4xx or 5xx). A 4xx says GitHub refused it; a 5xx
//     says it failed, though a proxy's 502/504 cannot prove the backend did
//     nothing, so check before repeating a non-idempotent write after one.
//   - RemoteSuccessKnown: GitHub answered 2xx. The write happened, even if
//     the response body then could not be read (that case is reported with
//     the malformed_response code and this settlement: a partial success).
//   - Indeterminate: the request was written to the connection and no
//     answer came back (connection closed or reset, timeout, cancellation
//     after sending), or a GraphQL mutation's 200 could not be read (GitHub
//     reports GraphQL failures inside a 200, so only a readable body
//     without errors proves success). GitHub may or may not have applied
//     it; look before repeating.
//
// "Sent" is decided by net/http/httptrace: once the transport reports the
// request headers written, the write may have reached GitHub.
type Settlement string

const (
	NotStarted           Settlement = "not_started"
	NoRemoteSuccessKnown Settlement = "no_remote_success_known"
	RemoteSuccessKnown   Settlement = "remote_success_known"
	Indeterminate        Settlement = "indeterminate"
)
