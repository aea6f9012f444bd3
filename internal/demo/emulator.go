// Package demo runs ghgate against an in-process emulator seeded with the
// demo world: `ghgate serve --demo` and the scripted tour `ghgate demo`.
package demo

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server"
)

// Emulator is a demo emulator listening on a loopback port.
type Emulator struct {
	URL string
	Emu *emulator.Emulator
	srv *http.Server
}

// StartEmulator serves a demo-seeded emulator on 127.0.0.1 until Close.
func StartEmulator(opts emulator.Options) (*Emulator, error) {
	emu, err := emulator.New(opts)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: emu, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return &Emulator{URL: "http://" + ln.Addr().String(), Emu: emu, srv: srv}, nil
}

// Close stops the emulator.
func (e *Emulator) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := e.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return e.srv.Close()
	}
	return nil
}

// Stack is a ghgate acting as alice over a demo emulator, state in memory.
type Stack struct {
	*server.Stack
	Emulator *Emulator
}

// NewStack starts a demo emulator and a ghgate over it.
func NewStack(ctx context.Context, opts server.StackOptions, log *slog.Logger) (*Stack, error) {
	emu, err := StartEmulator(emulator.Options{Logger: log})
	if err != nil {
		return nil, err
	}
	opts.BaseURL, opts.Token, opts.StorePath = emu.URL, emulator.DemoTokenAlice, ""
	opts.Log = log
	st, err := server.NewStack(ctx, opts)
	if err != nil {
		return nil, errors.Join(err, emu.Close())
	}
	return &Stack{Stack: st, Emulator: emu}, nil
}

// Close stops the stack and its emulator.
func (s *Stack) Close() error { return errors.Join(s.Stack.Close(), s.Emulator.Close()) }
