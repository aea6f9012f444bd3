package doctor

import (
	"errors"
	"fmt"
	"io/fs"
)

// stateDatabase reports the state file's size and what it holds. It never
// fails: the store bounds itself (expired keys pruned, cached responses
// within a byte budget), so a large file is news, not a fault, and a
// missing or unreadable one costs cached reads and replays, not safety.
func (c *checker) stateDatabase() {
	const name = "state database"
	switch {
	case c.cfg == nil:
		c.add(name, Warn, "not checked: the config did not load")
		return
	case c.cfg.State == "":
		c.add(name, Warn, "no state file configured: idempotency keys, cached responses and the cursor key live in memory and are lost on restart")
		return
	case c.env.InspectState == nil:
		c.add(name, Warn, "not checked: no way to read %s here", c.cfg.State)
		return
	}
	path := c.cfg.State
	st, err := c.env.InspectState(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.add(name, Warn, "%s does not exist yet: the broker creates it when it starts", path)
	case errors.Is(err, fs.ErrPermission):
		c.add(name, Warn, "cannot read %s as this user: run doctor as root to see its size", path)
	case err != nil:
		c.add(name, Warn, "%s is unreadable: %v", path, err)
	default:
		c.add(name, Pass, "%s is %s on disk; %d cached %s (%s), %d idempotency %s",
			path, humanBytes(st.FileBytes), st.ETags, plural(st.ETags, "response", "responses"),
			humanBytes(st.ETagBodyBytes), st.IdempotencyKeys, plural(st.IdempotencyKeys, "key", "keys"))
	}
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// humanBytes writes n in binary units, one decimal past bytes.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 3; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGT"[exp])
}
