package emulator

import "net/http"

func (e *Emulator) graphQLHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		callFrom(r).fail(http.StatusNotFound, "Not Found", "graphql")
	})
}
