// Package doctor checks a broker deployment's gates: the files that hold the
// config and the credentials, the socket, the mirrors' sync_root, the state
// database's size, and an agent user's reach. Every
// check reads modes, owners and group memberships; none switches user, and
// no secret value is ever printed.
package doctor

import (
	"fmt"

	"github.com/ghgate/ghgate/internal/broker"
)

// Verdict is a gate's outcome.
type Verdict string

const (
	Pass Verdict = "PASS"
	Warn Verdict = "WARN"
	Fail Verdict = "FAIL"
)

// Gate is one check and why it came out as it did.
type Gate struct {
	Name    string
	Verdict Verdict
	Reason  string
}

// Options says what to check.
type Options struct {
	// ConfigPath is the broker's config file.
	ConfigPath string
	// ServiceUser is the user the broker runs as (default "ghgate").
	ServiceUser string
	// AgentUser, when set, adds the agent gates.
	AgentUser string
}

// Failed counts the gates that failed.
func Failed(gates []Gate) int {
	n := 0
	for _, g := range gates {
		if g.Verdict == Fail {
			n++
		}
	}
	return n
}

// Run checks every gate. It never stops early: a gate whose inputs are
// missing (no config, no such user) says so and the others still run.
func Run(env Env, opts Options) []Gate {
	if opts.ServiceUser == "" {
		opts.ServiceUser = "ghgate"
	}
	c := &checker{env: env, opts: opts}
	c.loadConfig()
	c.loadAccounts()
	c.configFile()
	c.serviceUser()
	c.bridgeGroup()
	c.secretsFile()
	c.secretsDir()
	c.secretNames()
	c.socket()
	c.syncRoot()
	c.stateDatabase()
	if opts.AgentUser != "" {
		c.agentUser()
		c.agentInBridgeGroup()
		c.agentNotInServiceGroup()
		c.agentCannotReadSecrets()
		c.agentReachesSocket()
		c.agentSudo()
		c.agentRootGroups()
	}
	return c.gates
}

// checker carries what the gates share.
type checker struct {
	env   Env
	opts  Options
	gates []Gate

	cfg       *broker.Config
	cfgErr    error
	svc       *User // nil when the service user does not exist
	svcErr    error
	bridge    *Group // nil when unknown or missing
	bridgeErr error
	agent     *User
	agentErr  error
}

func (c *checker) add(name string, v Verdict, format string, args ...any) {
	c.gates = append(c.gates, Gate{Name: name, Verdict: v, Reason: fmt.Sprintf(format, args...)})
}

func (c *checker) loadConfig() {
	c.cfg, c.cfgErr = c.env.LoadConfig(c.opts.ConfigPath)
	if c.cfgErr != nil {
		c.add("config", Fail, "%v", c.cfgErr)
		return
	}
	c.add("config", Pass, "%s parses and its routes are consistent", c.opts.ConfigPath)
}

func (c *checker) loadAccounts() {
	c.svc, c.svcErr = c.env.Accounts.User(c.opts.ServiceUser)
	if c.cfg != nil && c.cfg.Listen.Group != "" {
		c.bridge, c.bridgeErr = c.env.Accounts.Group(c.cfg.Listen.Group)
	}
	if c.opts.AgentUser != "" {
		c.agent, c.agentErr = c.env.Accounts.User(c.opts.AgentUser)
	}
}
