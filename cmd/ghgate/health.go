package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/spf13/cobra"
)

// health is the body of GET /healthz. It says only that the server is up
// and which build answers: nothing about GitHub or the token, since the
// endpoint has no authentication and a probe must not spend rate budget.
type health struct {
	Status  string `json:"status"`
	Version string `json:"version"`
}

// newHealthcheckCommand probes a running `ghgate serve --http`. It exists
// for the container image, whose empty base has no shell or curl to run a
// health check with: the image's health check runs this binary instead.
func newHealthcheckCommand() *cobra.Command {
	var (
		url     string
		timeout time.Duration
	)
	cmd := &cobra.Command{
		Use:   "healthcheck",
		Short: "Probe a running `ghgate serve --http`: exit 0 when its " + healthPath + " answers ok",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			h, err := probeHealth(ctx, url)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(cmd.OutOrStdout(), h.Status, h.Version)
			return err
		},
	}
	cmd.Flags().StringVar(&url, "url", "http://127.0.0.1:8080"+healthPath, "the health endpoint to probe")
	cmd.Flags().DurationVar(&timeout, "timeout", 3*time.Second, "give up after this long")
	return cmd
}

// probeHealth GETs url and accepts only a 200 whose body says "ok".
func probeHealth(ctx context.Context, url string) (health, error) {
	var h health
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return h, fmt.Errorf("healthcheck: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return h, fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if err != nil {
		return h, fmt.Errorf("healthcheck: reading %s: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return h, fmt.Errorf("healthcheck: %s answered %s", url, resp.Status)
	}
	if err := json.Unmarshal(body, &h); err != nil || h.Status != "ok" {
		return h, fmt.Errorf("healthcheck: %s answered %q, not a status of ok", url, body)
	}
	return h, nil
}
