package state

import (
	"archive/zip"
	"bytes"
	"crypto/hmac"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A workflow run's logs download as one zip archive, from a signed URL that
// expires as a job's log URL does: per job a file "<n>_<job>.txt" with the
// job's whole log, and a directory "<job>/" with a file "<step>_<name>.txt"
// per step, which gh run view --log reads. The emulator keeps one log per
// job, not per step: the job's log is the log of the step that did its
// work (its failed step, or else its longest step), and the other steps'
// files are empty.

// SignedRunLogPath is the path, on the emulator's own host, of a run's
// logs archive: signed and expiring, so it needs no token.
func (s *State) SignedRunLogPath(runID int64) string {
	exp := s.Clock().Add(logURLLifetime).Unix()
	return "/_emulator/logs/runs/" + strconv.FormatInt(runID, 10) + "?expires=" + strconv.FormatInt(exp, 10) + "&sig=" + s.urlSig("runs", runID, exp)
}

// SignedRunLogs checks a signed run-logs URL's values and returns the
// run's logs archive; ok is false for a bad signature, an expired URL or
// an unknown run.
func (s *State) SignedRunLogs(runID int64, expires, sig string) (archive []byte, ok bool) {
	exp, err := strconv.ParseInt(expires, 10, 64)
	if err != nil || s.Clock().Unix() > exp || !hmac.Equal([]byte(sig), []byte(s.urlSig("runs", runID, exp))) {
		return nil, false
	}
	for _, r := range s.repoOrder {
		if w := r.FindRun(runID); w != nil {
			b, err := RunLogArchive(w)
			return b, err == nil
		}
	}
	return nil, false
}

// logFileName drops what GitHub drops from a name in the archive: path
// separators and colons.
func logFileName(name string) string {
	return strings.NewReplacer("/", "", ":", "").Replace(name)
}

// RunLogArchive is w's logs archive.
func RunLogArchive(w *WorkflowRun) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	put := func(name, text string, at time.Time) error {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: at})
		if err != nil {
			return err
		}
		_, err = f.Write([]byte(text))
		return err
	}
	for i, j := range w.Jobs {
		text := ""
		if j.Log != nil {
			text = j.Log()
		}
		job := logFileName(j.Name)
		if err := put(fmt.Sprintf("%d_%s.txt", i, job), text, j.StartedAt); err != nil {
			return nil, err
		}
		work := workStep(j.Steps)
		for _, st := range j.Steps {
			body := ""
			if st == work {
				body = text
			}
			if err := put(fmt.Sprintf("%s/%d_%s.txt", job, st.Number, logFileName(st.Name)), body, j.StartedAt); err != nil {
				return nil, err
			}
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// workStep is the step a job's log is filed under: its first failed
// step, or else its longest.
func workStep(steps []*JobStep) *JobStep {
	var longest *JobStep
	var took time.Duration
	for _, st := range steps {
		if st.Conclusion != nil && *st.Conclusion == "failure" {
			return st
		}
		if st.StartedAt != nil && st.CompletedAt != nil && st.CompletedAt.Sub(*st.StartedAt) > took {
			longest, took = st, st.CompletedAt.Sub(*st.StartedAt)
		}
	}
	return longest
}
