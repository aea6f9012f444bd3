package emulator

import (
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/faults"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// admin serves /_emulator/: faults and rate-limit exhaustion for tests and
// operators on the same loopback port. It needs no token: the emulator only
// ever listens where its user can reach it.
func (e *Emulator) admin(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/_emulator/faults" && r.Method == http.MethodPost:
		var f faults.Fault
		if err := json.NewDecoder(r.Body).Decode(&f); err != nil {
			wire.WriteJSON(w, http.StatusBadRequest, wire.ErrorBody{Message: "Problems parsing JSON: " + err.Error()})
			return
		}
		if err := e.faults.Add(f); err != nil {
			wire.WriteJSON(w, http.StatusUnprocessableEntity, wire.ErrorBody{Message: err.Error()})
			return
		}
		wire.WriteJSON(w, http.StatusCreated, f)
	case r.URL.Path == "/_emulator/faults" && r.Method == http.MethodDelete:
		e.faults.Clear()
		w.WriteHeader(http.StatusNoContent)
	case r.URL.Path == "/_emulator/rate_limit/exhaust" && r.Method == http.MethodPost:
		var body struct {
			Token    string `json:"token"`
			Resource string `json:"resource"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Token == "" {
			wire.WriteJSON(w, http.StatusBadRequest, wire.ErrorBody{Message: `want {"token": "...", "resource": "core|search|graphql"}`})
			return
		}
		if body.Resource == "" {
			body.Resource = "core"
		}
		e.limits.Exhaust(body.Token, body.Resource)
		w.WriteHeader(http.StatusNoContent)
	case strings.HasPrefix(r.URL.Path, "/_emulator/logs/jobs/") && r.Method == http.MethodGet:
		e.jobLog(w, r)
	case strings.HasPrefix(r.URL.Path, "/_emulator/assets/") && r.Method == http.MethodGet:
		e.assetFile(w, r)
	case strings.HasPrefix(r.URL.Path, "/_emulator/logs/runs/") && r.Method == http.MethodGet:
		e.runLogs(w, r)
	default:
		wire.WriteJSON(w, http.StatusNotFound, wire.ErrorBody{Message: "Not Found"})
	}
}

// jobLog serves a job's log at the signed URL GET .../actions/jobs/{id}/logs
// redirects to: plain text and no token, as from GitHub's log storage, and
// 403 once the signature is wrong or the minute has passed.
func (e *Emulator) jobLog(w http.ResponseWriter, r *http.Request) {
	e.signedLog(w, r, "/_emulator/logs/jobs/", "text/plain; charset=utf-8", func(id int64, expires, sig string) ([]byte, bool) {
		log, ok := e.state.SignedJobLog(id, expires, sig)
		return []byte(log), ok
	})
}

// runLogs serves a run's logs archive at the signed URL GET
// .../actions/runs/{id}/logs redirects to, as jobLog serves a job's log.
func (e *Emulator) runLogs(w http.ResponseWriter, r *http.Request) {
	e.signedLog(w, r, "/_emulator/logs/runs/", "application/zip", e.state.SignedRunLogs)
}

// signedLog answers a signed log URL under prefix with what read returns
// for the id that follows it, or 403 when read refuses the signature.
func (e *Emulator) signedLog(w http.ResponseWriter, r *http.Request, prefix, contentType string, read func(id int64, expires, sig string) ([]byte, bool)) {
	id, err := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, prefix), 10, 64)
	if err != nil {
		wire.WriteJSON(w, http.StatusNotFound, wire.ErrorBody{Message: "Not Found"})
		return
	}
	q := r.URL.Query()
	e.state.RLock()
	body, ok := read(id, q.Get("expires"), q.Get("sig"))
	e.state.RUnlock()
	if !ok {
		wire.WriteJSON(w, http.StatusForbidden, wire.ErrorBody{Message: "Server failed to authenticate the request. The signature is invalid or the URL has expired."})
		return
	}
	w.Header().Set("Content-Type", contentType)
	_, _ = w.Write(body)
}

// assetFile serves a release asset's file at the signed URL GET
// .../releases/assets/{id} redirects a download to: the bytes with the
// asset's content type and name and no token, as from GitHub's storage,
// and 403 once the signature is wrong or the minute has passed.
func (e *Emulator) assetFile(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, "/_emulator/assets/"), 10, 64)
	if err != nil {
		wire.WriteJSON(w, http.StatusNotFound, wire.ErrorBody{Message: "Not Found"})
		return
	}
	q := r.URL.Query()
	e.state.Lock() // a download is counted
	a, ok := e.state.SignedAsset(id, q.Get("expires"), q.Get("sig"))
	var name, ctype string
	var body []byte
	if ok {
		name, ctype, body = a.Name, a.ContentType, a.Content
	}
	e.state.Unlock()
	if !ok {
		wire.WriteJSON(w, http.StatusForbidden, wire.ErrorBody{Message: "Server failed to authenticate the request. The signature is invalid or the URL has expired."})
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write(body)
}
