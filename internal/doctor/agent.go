package doctor

import (
	"fmt"
	"strings"
)

// agentUser: the agent exists and is neither root nor the service user.
func (c *checker) agentUser() {
	const name = "agent user"
	switch {
	case c.agentErr != nil:
		c.add(name, Fail, "%s: %v", c.opts.AgentUser, c.agentErr)
	case c.agent.UID == 0:
		c.add(name, Fail, "%s is uid 0: root reads every secret", c.agent.Name)
	case c.svc != nil && c.agent.UID == c.svc.UID:
		c.add(name, Fail, "%s is the service user itself", c.agent.Name)
	default:
		c.add(name, Pass, "%s is uid %d, groups %s", c.agent.Name, c.agent.UID, c.groupNames(c.agent))
	}
}

// groupNames lists a user's groups by name, for reasons.
func (c *checker) groupNames(u *User) string {
	seen := map[uint32]bool{}
	var names []string
	for _, gid := range append([]uint32{u.GID}, u.Groups...) {
		if seen[gid] {
			continue
		}
		seen[gid] = true
		if g, err := c.env.Accounts.GroupByID(gid); err == nil {
			names = append(names, g.Name)
		} else {
			names = append(names, fmt.Sprint(gid))
		}
	}
	return strings.Join(names, ",")
}

func (c *checker) agentInBridgeGroup() {
	const name = "agent in bridge group"
	switch {
	case c.agent == nil || c.bridge == nil:
		c.add(name, Fail, "not checked: %s", c.missing())
	case c.agent.InGroup(c.bridge.GID):
		c.add(name, Pass, "%s is in %s", c.agent.Name, c.bridge.Name)
	default:
		c.add(name, Fail, "%s is not in %s, so it cannot open the socket (provision.sh --agent-user %s)", c.agent.Name, c.bridge.Name, c.agent.Name)
	}
}

// agentNotInServiceGroup: the service user's own group owns the secrets
// (0640), the state and the audit log.
func (c *checker) agentNotInServiceGroup() {
	const name = "agent not in service group"
	switch {
	case c.agent == nil || c.svc == nil:
		c.add(name, Fail, "not checked: %s", c.missing())
	case c.agent.InGroup(c.svc.GID):
		gn := fmt.Sprint(c.svc.GID)
		if g, err := c.env.Accounts.GroupByID(c.svc.GID); err == nil {
			gn = g.Name
		}
		c.add(name, Fail, "%s is in %s, %s's primary group, which can read the broker's secrets and state (gpasswd -d %s %s)", c.agent.Name, gn, c.svc.Name, c.agent.Name, gn)
	default:
		c.add(name, Pass, "%s is not in %s's primary group (gid %d)", c.agent.Name, c.svc.Name, c.svc.GID)
	}
}

// agentCannotReadSecrets evaluates the secrets file's bits for the agent's
// uid and groups, and the directories on the way.
func (c *checker) agentCannotReadSecrets() {
	const name = "agent cannot read secrets"
	path := c.secretsPath()
	switch {
	case c.agent == nil:
		c.add(name, Fail, "not checked: %s", c.missing())
		return
	case path == "":
		c.add(name, Pass, "no secrets file is configured")
		return
	}
	fi, err := c.env.Stat(path)
	if isNotExist(err) {
		c.add(name, Warn, "%s does not exist", path)
		return
	}
	if err != nil {
		c.add(name, Fail, "%v", err)
		return
	}
	class := accessClass(fi, c.agent)
	if mayAccess(fi, c.agent, accRead) {
		if dir := c.blockingDir(path, c.agent); dir != "" {
			c.add(name, Warn, "%s (%s) is readable by %s through its %s bits; only %s's mode keeps it out", path, c.describe(fi), c.agent.Name, class, dir)
			return
		}
		c.add(name, Fail, "%s (%s) is readable by %s through its %s bits", path, c.describe(fi), c.agent.Name, class)
		return
	}
	if fi.ACL {
		c.add(name, Warn, "the bits deny %s (%s class), but %s carries an ACL that may grant it", c.agent.Name, class, path)
		return
	}
	c.add(name, Pass, "%s (%s) denies %s: the %s bits apply", path, c.describe(fi), c.agent.Name, class)
}

// agentReachesSocket: the agent can search every directory on the way and
// write the socket (connecting to a Unix socket needs write permission).
func (c *checker) agentReachesSocket() {
	const name = "agent can reach socket"
	if c.agent == nil || c.cfg == nil {
		c.add(name, Fail, "not checked: %s", c.missing())
		return
	}
	path := c.cfg.Listen.Socket
	fi, ok := c.statSocket(name)
	if !ok {
		return
	}
	if dir := c.blockingDir(path, c.agent); dir != "" {
		c.add(name, Fail, "%s cannot search %s", c.agent.Name, dir)
		return
	}
	if !mayAccess(fi, c.agent, accRead|accWrite) {
		c.add(name, Fail, "%s (%s) refuses %s: the %s bits apply", path, c.describe(fi), c.agent.Name, accessClass(fi, c.agent))
		return
	}
	c.add(name, Pass, "%s can open %s", c.agent.Name, path)
}

// rootEquivalentGroups are groups whose members control the host: the
// Docker and LXD daemons run containers as root on request; disk reads
// every block device.
var rootEquivalentGroups = []string{"docker", "lxd", "incus-admin", "disk"}

func (c *checker) agentRootGroups() {
	const name = "agent without root-equivalent groups"
	if c.agent == nil {
		c.add(name, Fail, "not checked: %s", c.missing())
		return
	}
	var bad []string
	for _, gname := range rootEquivalentGroups {
		g, err := c.env.Accounts.Group(gname)
		if err == nil && c.agent.InGroup(g.GID) {
			bad = append(bad, gname)
		}
	}
	if len(bad) > 0 {
		c.add(name, Fail, "%s is in %s: rootful Docker (and the like) is root-equivalent, and root reads every secret", c.agent.Name, strings.Join(bad, ", "))
		return
	}
	for _, sock := range c.env.DockerSockets {
		fi, err := c.env.Stat(sock)
		if err == nil && mayAccess(fi, c.agent, accWrite) {
			c.add(name, Fail, "%s can write %s (%s): access to rootful Docker is root-equivalent", c.agent.Name, sock, c.describe(fi))
			return
		}
	}
	c.add(name, Pass, "%s is in none of %s and cannot write a Docker socket", c.agent.Name, strings.Join(rootEquivalentGroups, ", "))
}

// missing says which input a skipped gate lacked.
func (c *checker) missing() string {
	var parts []string
	if c.agentErr != nil {
		parts = append(parts, c.agentErr.Error())
	}
	if c.svcErr != nil {
		parts = append(parts, c.svcErr.Error())
	}
	if c.cfg == nil {
		parts = append(parts, "the config did not load")
	} else if c.cfg.Listen.Group == "" {
		parts = append(parts, "no [listen] group")
	} else if c.bridgeErr != nil {
		parts = append(parts, c.bridgeErr.Error())
	}
	if len(parts) == 0 {
		return "inputs missing"
	}
	return strings.Join(parts, "; ")
}
