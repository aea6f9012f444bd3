package tasks

import (
	"context"
	"sync"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
)

func (m *Manager) maxTasks() int {
	if m.Limits.MaxTasks > 0 {
		return m.Limits.MaxTasks
	}
	return DefaultMaxTasks
}

func (m *Manager) maxTasksPerClient() int {
	if m.Limits.MaxTasksPerClient > 0 {
		return m.Limits.MaxTasksPerClient
	}
	return DefaultMaxTasksPerClient
}

// reserve takes a running task's slot for owner: under the caps, then
// from Limits.Admit. It returns the function that gives both back (once,
// whoever calls it how often), or the refusal as a protocol error.
func (m *Manager) reserve(ctx context.Context, owner string) (func(), error) {
	if e := m.take(owner); e != nil {
		return nil, tooldef.LimitError(e)
	}
	give := func() { m.give(owner) }
	if m.Limits.Admit != nil {
		release, e := m.Limits.Admit(ctx)
		if e != nil {
			give()
			return nil, tooldef.LimitError(e)
		}
		give = func() { release(); m.give(owner) }
	}
	var once sync.Once
	return func() { once.Do(give) }, nil
}

// take counts one more running task of owner, or says which cap refuses
// it.
func (m *Manager) take(owner string) *contract.Error {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch per, all := m.maxTasksPerClient(), m.maxTasks(); {
	case m.slots[owner] >= per:
		return tooFull(contract.Errorf(contract.CodeRateLimited,
			"this client already runs %d tasks, the most one client may (max_tasks_per_client); wait for one to end or cancel one, then call again", per))
	case m.inSlots >= all:
		return tooFull(contract.Errorf(contract.CodeRateLimited,
			"the server already runs %d tasks, the most it takes (max_tasks); call again once some have ended", all))
	}
	if m.slots == nil {
		m.slots = map[string]int{}
	}
	m.slots[owner]++
	m.inSlots++
	return nil
}

func (m *Manager) give(owner string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.inSlots--
	if m.slots[owner]--; m.slots[owner] <= 0 {
		delete(m.slots, owner)
	}
}

// tooFull completes a cap's refusal: temporary, retried after a poll
// interval or so, with what to do meanwhile.
func tooFull(e *contract.Error) *contract.Error {
	e.Temporary = true
	return e.WithRetryAfter(1000).WithRepair(contract.Repair{
		NextStep: "wait for one of this client's running tasks to end (tasks/get), or cancel one (tasks/cancel), then make the same call again"})
}
