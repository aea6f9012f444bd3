package server

import (
	"context"
	"log/slog"
)

// SDKLogger is log as the SDK should write through it. The SDK narrates
// each session at Info ("server connecting", "server session connected",
// "… disconnected"), and over stateless HTTP every request is a session:
// three lines a call, each formatted and written to stderr while the
// call waits, saying nothing the call's own line does not. Its Info
// lines go at Debug (ghgate serve -v shows them); its warnings and
// errors pass unchanged.
func SDKLogger(log *slog.Logger) *slog.Logger {
	if log == nil {
		return nil
	}
	return slog.New(demoted{log.Handler()})
}

// demoted logs Info records at Debug.
type demoted struct{ slog.Handler }

func (d demoted) Enabled(ctx context.Context, l slog.Level) bool {
	return d.Handler.Enabled(ctx, demote(l))
}

func (d demoted) Handle(ctx context.Context, r slog.Record) error {
	r.Level = demote(r.Level)
	return d.Handler.Handle(ctx, r)
}

func (d demoted) WithAttrs(as []slog.Attr) slog.Handler { return demoted{d.Handler.WithAttrs(as)} }

func (d demoted) WithGroup(name string) slog.Handler { return demoted{d.Handler.WithGroup(name)} }

func demote(l slog.Level) slog.Level {
	if l == slog.LevelInfo {
		return slog.LevelDebug
	}
	return l
}
