package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// The statements a tool call runs are prepared once, when the Store opens,
// rather than compiled by SQLite on every call: compiling the same SELECT
// each time was a visible share of a call's CPU. A query declared with
// hotQuery is prepared by Open; the rest (migrations, pruning) run rarely
// and are compiled when they run.

// query is a statement prepared by Open; its value indexes Store.stmts.
type query int

// hotQueries holds the text of every query, in the order hotQuery
// declared them. It is filled by package variable initialisation, before
// any Store opens, and only read afterwards.
var hotQueries []string

func hotQuery(text string) query {
	hotQueries = append(hotQueries, text)
	return query(len(hotQueries) - 1)
}

// prepare compiles every hot query on the database. database/sql prepares
// each again on every other connection of the pool the first time it runs
// there, and keeps it.
func (s *Store) prepare(ctx context.Context) error {
	s.stmts = make([]*sql.Stmt, len(hotQueries))
	for i, text := range hotQueries {
		st, err := s.db.PrepareContext(ctx, text)
		if err != nil {
			return errors.Join(fmt.Errorf("store: prepare %q: %w", text, err), s.closeStmts())
		}
		s.stmts[i] = st
	}
	return nil
}

// stmt is q prepared, for use outside a transaction.
func (s *Store) stmt(q query) *sql.Stmt { return s.stmts[q] }

// txStmt is q prepared, bound to tx: on tx's connection it reuses what was
// compiled there before.
func (s *Store) txStmt(ctx context.Context, tx *sql.Tx, q query) *sql.Stmt {
	return tx.StmtContext(ctx, s.stmts[q])
}

func (s *Store) closeStmts() error {
	var errs []error
	for _, st := range s.stmts {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	return errors.Join(errs...)
}
