package contract

import (
	"errors"
	"fmt"
	"sort"
)

// Code is a stable snake_case error code. Agents branch on codes, so a code
// once published keeps its meaning.
type Code string

// The codes every ghgate tool may return. Catalog describes each.
const (
	CodeInvalidField      Code = "invalid_field"
	CodeMissingCredential Code = "missing_credential"
	CodeInvalidCredential Code = "invalid_credential"
	CodeInsufficientScope Code = "insufficient_scope"
	CodeRepoNotFound      Code = "repo_not_found"
	CodeIssueNotFound     Code = "issue_not_found"
	CodeCommentNotFound   Code = "comment_not_found"
	// CodeNotFound is a 404 for an object no more precise code names.
	CodeNotFound               Code = "not_found"
	CodeGone                   Code = "gone"
	CodeValidationFailed       Code = "validation_failed"
	CodeConflict               Code = "conflict"
	CodeRateLimited            Code = "rate_limited"
	CodeUpstreamUnavailable    Code = "upstream_unavailable"
	CodeMalformedResponse      Code = "malformed_response"
	CodeBadRequest             Code = "bad_request"
	CodeCursorExpired          Code = "cursor_expired"
	CodeCursorInvalid          Code = "cursor_invalid"
	CodeLabelNotFound          Code = "label_not_found"
	CodeAssigneeNotFound       Code = "assignee_not_found"
	CodeMilestoneNotFound      Code = "milestone_not_found"
	CodeIssueTypeNotFound      Code = "issue_type_not_found"
	CodePartialSuccess         Code = "partial_success"
	CodeIssueCreatorNotAllowed Code = "issue_creator_not_allowed"
	CodeIdempotencyKeyReused   Code = "idempotency_key_reused"
	CodeSelfLink               Code = "self_link"
	// CodeRelatedIssuesUnsupported: the GitHub server has no related-issue
	// links (REST API version 2026-03-10; no GHES version has them yet).
	CodeRelatedIssuesUnsupported Code = "related_issues_unsupported"
	CodeIssueLocked              Code = "issue_locked"
	CodeReadOnly                 Code = "read_only"
	CodeToolNotAllowed           Code = "tool_not_allowed"
	CodeInternal                 Code = "internal_error"
	// The admin toolset's refusals.
	CodeLabelExists          Code = "label_exists"
	CodeMilestoneExists      Code = "milestone_exists"
	CodeConfirmationMismatch Code = "confirmation_mismatch"
	CodeIsPullRequest        Code = "is_pull_request"
	// The sync toolset's refusals.
	CodeSyncNotConfigured Code = "sync_not_configured"
	CodeSyncDirRefused    Code = "sync_dir_refused"
	CodeMirrorNotFound    Code = "mirror_not_found"
	// The projects toolset's refusals.
	CodeProjectNotFound       Code = "project_not_found"
	CodeProjectFieldNotFound  Code = "project_field_not_found"
	CodeProjectOptionNotFound Code = "project_option_not_found"
	// The pull_requests toolset's refusals.
	CodeNotAPullRequest Code = "not_a_pull_request"
	CodeThreadNotOnPull Code = "thread_not_on_pull"
	// The write policy's refusals (internal/policy): an operator's bounds
	// on what an agent may write, each naming its rule in details.rule.
	CodeQuotaExceeded           Code = "quota_exceeded"
	CodePolicyRefused           Code = "policy_refused"
	CodeSecretInContent         Code = "secret_in_content"
	CodeCrossVisibilityWrite    Code = "cross_visibility_write"
	CodeConfirmationDeclined    Code = "confirmation_declined"
	CodeConfirmationUnavailable Code = "confirmation_unavailable"
)

// CodeInfo is a catalog entry.
type CodeInfo struct {
	Code      Code   `json:"code"`
	Meaning   string `json:"meaning"`
	Temporary bool   `json:"temporary"`
	WhatToDo  string `json:"what_to_do"`
}

var catalog = map[Code]CodeInfo{
	CodeInvalidField:             {Meaning: "an argument is missing, of the wrong type, or out of range", WhatToDo: "fix the field named in details.field and call again"},
	CodeMissingCredential:        {Meaning: "no GitHub credential is configured for this target", WhatToDo: "ask the operator to configure a token; retrying will not help"},
	CodeInvalidCredential:        {Meaning: "GitHub rejected the credential (revoked, expired or wrong)", WhatToDo: "ask the operator to replace the token; retrying will not help"},
	CodeInsufficientScope:        {Meaning: "the credential lacks a permission this call needs", WhatToDo: "details.required_scopes names what is missing; use a read-only alternative or ask the operator"},
	CodeRepoNotFound:             {Meaning: "the repository does not exist or is not visible to this credential", WhatToDo: "check owner and repo; the repair searches for the repository"},
	CodeIssueNotFound:            {Meaning: "the issue does not exist in the repository or is not visible to this credential", WhatToDo: "check the number; the repair searches the repository"},
	CodeCommentNotFound:          {Meaning: "the comment does not exist on the issue, or was deleted", WhatToDo: "list the issue's comments to find the right id"},
	CodeNotFound:                 {Meaning: "an object that no more precise *_not_found code names does not exist or is not visible to this credential (a search's author that is no GitHub user)", WhatToDo: "check the names and numbers sent (details.field names which); search to find the right one"},
	CodeGone:                     {Meaning: "the object was deleted, or the feature it belongs to is off (a repository's issues)", WhatToDo: "do not retry: a deleted object will not come back, and only an admin can turn a feature back on"},
	CodeValidationFailed:         {Meaning: "GitHub refused the values sent", WhatToDo: "details.field and details.reason say which value; correct it and call again"},
	CodeConflict:                 {Meaning: "the issue changed since the version given in expected_version, or GitHub refused a write as conflicting with the current state (HTTP 409)", WhatToDo: "re-read the issue (the repair says how), reapply the change to the new state, and pass the new version"},
	CodeRateLimited:              {Meaning: "the GitHub rate budget is spent for now", Temporary: true, WhatToDo: "wait retry_after_ms, then call again"},
	CodeUpstreamUnavailable:      {Meaning: "GitHub did not answer or answered with a server error", Temporary: true, WhatToDo: "for reads, call again after retry_after_ms; for writes, check settlement first"},
	CodeMalformedResponse:        {Meaning: "GitHub's answer could not be read", Temporary: true, WhatToDo: "for writes, check settlement: the change may have been applied; re-read before repeating"},
	CodeBadRequest:               {Meaning: "GitHub could not parse the request", WhatToDo: "report it; this is a ghgate defect"},
	CodeCursorExpired:            {Meaning: "the cursor is older than 15 minutes", WhatToDo: "restart the listing without a cursor (the repair does that)"},
	CodeCursorInvalid:            {Meaning: "the cursor is not one this server minted for this tool, repository and filters", WhatToDo: "restart the listing without a cursor, with the same filters as the first page"},
	CodeLabelNotFound:            {Meaning: "a label named (to write, or as a search filter) does not exist in the repository, or in none of the owner's searched; nothing was written", WhatToDo: "use an existing label (details.value lists close matches; the repair searches with the closest) or, writing, set create_missing"},
	CodeAssigneeNotFound:         {Meaning: "a user named cannot be assigned in this repository, or (as a search filter) is no GitHub user; nothing was written", WhatToDo: "list assignees to pick a valid login (details.value lists close matches)"},
	CodeMilestoneNotFound:        {Meaning: "the milestone (to write, or as a search filter) does not exist in the repository; nothing was written", WhatToDo: "list milestones to pick a valid one (details.value lists close matches)"},
	CodeIssueTypeNotFound:        {Meaning: "the issue type (to write, or as a search filter) does not exist for the repository's owner; nothing was written", WhatToDo: "list issue types to pick a valid one (details.value lists close matches)"},
	CodePartialSuccess:           {Meaning: "part of a write was applied before a later step failed", WhatToDo: "details say what was applied; follow_up says how to finish"},
	CodeIssueCreatorNotAllowed:   {Meaning: "this deployment only allows issues opened by a configured user", WhatToDo: "work only on issues that user opened"},
	CodeIdempotencyKeyReused:     {Meaning: "the idempotency key was used within 10 minutes for a different request", WhatToDo: "use a new key for a new request"},
	CodeSelfLink:                 {Meaning: "an issue cannot be linked to itself", WhatToDo: "name a different target issue"},
	CodeRelatedIssuesUnsupported: {Meaning: "this GitHub server does not serve related-issue links (GitHub's REST API version 2026-03-10 does; GitHub Enterprise Server does not yet); nothing was written", WhatToDo: "do not retry here; use another relation only if it truly applies (sub_issue, blocked_by)"},
	CodeIssueLocked:              {Meaning: "the issue's conversation is locked", WhatToDo: "only collaborators with write access can comment; do not retry"},
	CodeReadOnly:                 {Meaning: "this server runs read-only", WhatToDo: "writes are not available here"},
	CodeQuotaExceeded:            {Meaning: "the operator's quota for this kind of write is spent for the current window", Temporary: true, WhatToDo: "wait retry_after_ms, or do fewer writes of this kind; details.rule names the quota"},
	CodePolicyRefused:            {Meaning: "the operator's write policy does not allow this write", WhatToDo: "details.rule names the rule; change the arguments as the repair says, or ask the operator"},
	CodeSecretInContent:          {Meaning: "text to be written holds a credential-shaped string; nothing was written", WhatToDo: "remove the secret from details.field at the byte offset given and call again"},
	CodeCrossVisibilityWrite:     {Meaning: "this session read a private repository and the write would put text in a public one", WhatToDo: "write to a private repository, or have a person confirm; the operator may allow the pair"},
	CodeConfirmationDeclined:     {Meaning: "a person was asked to confirm this write and did not accept; nothing was written", WhatToDo: "do not repeat the write unless the person asks for it"},
	CodeConfirmationUnavailable:  {Meaning: "this write needs a person's confirmation and the client cannot ask for one", WhatToDo: "use a client that supports elicitation, or ask the operator; retrying will not help"},
	CodeToolNotAllowed:           {Meaning: "the tool is not on this deployment's allowlist", WhatToDo: "use another tool; retrying will not help"},
	CodeInternal:                 {Meaning: "an unexpected error inside ghgate", Temporary: true, WhatToDo: "call again once; if it persists, report request_id"},
	CodeLabelExists:              {Meaning: "a label of that name (compared without case, as GitHub does) already exists with other values or another spelling; nothing was written", WhatToDo: "details.value is the existing label's name: use it, or update it (the repair)"},
	CodeMilestoneExists:          {Meaning: "a milestone of that title (compared without case) already exists with other values; nothing was written", WhatToDo: "details.value is the existing milestone's number and title: use it, or update it (the repair)"},
	CodeConfirmationMismatch:     {Meaning: "an irreversible write's confirmation does not repeat what it confirms; nothing was written", WhatToDo: "read the target to be sure it is the one meant, then call again with the confirmation repeating it exactly"},
	CodeIsPullRequest:            {Meaning: "the number names a pull request, which this tool does not act on; nothing was written", WhatToDo: "name an issue; pull requests are closed, not deleted"},
	CodeSyncNotConfigured:        {Meaning: "this deployment has no sync_root, or one that others than its own user can change, so it keeps no local mirror; nothing was written", WhatToDo: "the operator must set sync_root (config file key, or --sync-root) to a directory only the service user can write; retrying will not help"},
	CodeSyncDirRefused:           {Meaning: "the repository's mirror directory, sync_root/OWNER/REPO, is reached through a symbolic link, inside a .git directory, writable by others, or holds something ghgate will not overwrite; nothing was written", WhatToDo: "details.reason says which; the operator must move it away; retrying will not help"},
	CodeMirrorNotFound:           {Meaning: "the local mirror has no file for this issue (never synced, or closed and not mirrored)", WhatToDo: "sync the repository (the repair), or read the issue from GitHub without source"},
	CodeProjectNotFound:          {Meaning: "the owner has no project of that number visible to this credential", WhatToDo: "list the owner's projects (the repair) and use a number it returns"},
	CodeProjectFieldNotFound:     {Meaning: "a field named is not one of the project's fields; nothing was written", WhatToDo: "details.value lists the project's fields; use one of those names"},
	CodeProjectOptionNotFound:    {Meaning: "a value is not one of the field's options or iterations; nothing was written", WhatToDo: "details.value lists the field's options (or iterations, @current and @next); use one of those"},
	CodeNotAPullRequest:          {Meaning: "the number names an issue, and only pull requests have review threads; nothing was written", WhatToDo: "name a pull request's number, or read the issue's comments (the repair)"},
	CodeThreadNotOnPull:          {Meaning: "the review thread (or review comment) named is not on the pull request named, or does not exist; nothing was written", WhatToDo: "list the pull request's review_threads (the repair) and use a thread_id from its rows"},
}

// Catalog lists every code with its meaning, sorted by code.
func Catalog() []CodeInfo {
	out := make([]CodeInfo, 0, len(catalog))
	for code, info := range catalog {
		info.Code = code
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// IsNotFound reports whether a code says an object addressed by the call
// is not there (not a name inside the call's values, such as a label).
func IsNotFound(c Code) bool {
	switch c {
	case CodeNotFound, CodeRepoNotFound, CodeIssueNotFound, CodeCommentNotFound, CodeProjectNotFound:
		return true
	}
	return false
}

// Known reports whether a code is in the catalog.
func Known(c Code) bool { _, ok := catalog[c]; return ok }

// Settlement says what a write did on GitHub, as far as ghgate can know.
// It is one type for the access layer (internal/github, which decides it)
// and the envelope (which reports it). The four values order what is
// known, from certainty that nothing was sent to certainty that GitHub
// applied it:
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
type Settlement string

const (
	// NotStarted: the request never reached GitHub; nothing changed.
	NotStarted Settlement = "not_started"
	// NoRemoteSuccessKnown: GitHub answered with an error; as far as can be
	// known, nothing changed.
	NoRemoteSuccessKnown Settlement = "no_remote_success_known"
	// RemoteSuccessKnown: GitHub confirmed the change.
	RemoteSuccessKnown Settlement = "remote_success_known"
	// Indeterminate: the request was sent but no answer came back; the
	// change may or may not have been applied. Re-read before repeating.
	Indeterminate Settlement = "indeterminate"
)

// Details narrows an error down to one input.
type Details struct {
	Field  string `json:"field,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Value is only ever a server-minted value or an enum member, never an
	// echo of what the agent sent.
	Value          any      `json:"value,omitempty"`
	RequiredScopes []string `json:"required_scopes,omitempty"`
	Applied        []string `json:"applied,omitempty"`
	NotApplied     []string `json:"not_applied,omitempty"`
	// Rule names the operator's policy rule that refused a write
	// ("quotas.comment", "allowed_labels", ...).
	Rule string `json:"rule,omitempty"`
}

// Repair is a literal next call that moves the agent forward.
type Repair struct {
	NextStep    string `json:"next_step"`
	Tool        string `json:"tool,omitempty"`
	Arguments   any    `json:"arguments,omitempty"`
	Alternative string `json:"alternative,omitempty"`
}

// Error is the envelope every tool failure carries in structuredContent.
type Error struct {
	Code      Code     `json:"code"`
	Message   string   `json:"message"`
	Details   *Details `json:"details,omitempty"`
	Temporary bool     `json:"temporary"`
	// RetryAfterMS is always present in the JSON, null when there is no
	// reason to wait.
	RetryAfterMS *int64     `json:"retry_after_ms"`
	Repair       *Repair    `json:"repair,omitempty"`
	Settlement   Settlement `json:"settlement,omitempty"`
	FollowUp     *Repair    `json:"follow_up,omitempty"`
	RequestID    string     `json:"request_id,omitempty"`
	Fingerprint  string     `json:"fingerprint,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Errorf builds an envelope with the catalog's temporary flag.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Temporary: catalog[code].Temporary}
}

// WithField sets details.field and details.reason.
func (e *Error) WithField(field, reason string) *Error {
	if e.Details == nil {
		e.Details = &Details{}
	}
	e.Details.Field, e.Details.Reason = field, reason
	return e
}

// WithRepair sets the repair.
func (e *Error) WithRepair(r Repair) *Error { e.Repair = &r; return e }

// WithRetryAfter sets retry_after_ms.
func (e *Error) WithRetryAfter(ms int64) *Error {
	if ms < 0 {
		ms = 0
	}
	e.RetryAfterMS = &ms
	return e
}

// AsError finds an envelope in err's chain.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
