// Package spyreport is what the ostest spy (an upstream MCP server run as
// a broker's child) reports about what it can reach: shared by the spy and
// the tests that read its answers.
package spyreport

// Report is what the spy can reach. Access results say only whether a
// read worked, and why not.
type Report struct {
	PID    int   `json:"pid"`
	PPID   int   `json:"ppid"`
	UID    int   `json:"uid"`
	EUID   int   `json:"euid"`
	GID    int   `json:"gid"`
	EGID   int   `json:"egid"`
	Groups []int `json:"groups"`
	// Caps holds CapInh, CapPrm, CapEff and CapAmb from /proc/self/status.
	Caps map[string]string `json:"caps"`
	// EnvNames are the names of its environment's variables; Home is HOME.
	EnvNames []string `json:"env_names"`
	Home     string   `json:"home"`
	// TokenSHA256 is the SHA-256 of the token variable's value ("" when
	// unset): the test compares it with each token's, the value never
	// leaves the process.
	TokenSHA256 string `json:"token_sha256"`

	BrokerEnviron  Access `json:"broker_environ"`
	BrokerMaps     Access `json:"broker_maps"`
	BrokerMem      Access `json:"broker_mem"`
	Secrets        Access `json:"secrets"`
	SiblingEnviron Access `json:"sibling_environ"`
}

// Access is one attempted read.
type Access struct {
	Path     string `json:"path"`
	Readable bool   `json:"readable"`
	Error    string `json:"error,omitempty"`
}
