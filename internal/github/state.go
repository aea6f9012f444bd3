package github

import (
	"context"

	"github.com/ghgate/ghgate/internal/store"
)

// Store is the part of ghgate's state store a Client uses: the name of
// its credential, the conditional-request cache and the shared rate
// picture. [store.Backend] (SQLite or Redis) holds it.
type Store interface {
	// CredentialKey names token in the store without revealing it.
	CredentialKey(token string) store.CredentialKey
	ResponseCache
	RateShare
}

// ResponseCache is the conditional-request cache: the validators and
// bodies of earlier GETs, so a repeat read is sent conditional and a 304
// answered from here costs no rate budget.
type ResponseCache interface {
	// PeekETag may leave the header and body out (Partial): the request
	// is made conditional on the validators, and GetETag reads the whole
	// entry only when GitHub answers 304.
	PeekETag(ctx context.Context, key store.ETagKey) (store.CachedResponse, bool, error)
	GetETag(ctx context.Context, key store.ETagKey) (store.CachedResponse, bool, error)
	PutETag(ctx context.Context, key store.ETagKey, r store.CachedResponse) error
}

// RateShare is the credential's rate picture shared by every process
// using the store (read only when Options.ShareRate is set).
type RateShare interface {
	Rate(ctx context.Context, cred store.CredentialKey) (store.RatePicture, error)
	ObserveRate(ctx context.Context, cred store.CredentialKey, obs store.RateObservation) error
}
