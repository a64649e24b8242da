package framework

import "fmt"

// StateKey names a plugin's entry in the cycle state.
type StateKey string

// StateData is a plugin's per-cycle data. Clone must deep-copy whatever
// preemption may change through AddPod/RemovePod.
type StateData interface {
	Clone() StateData
}

// ErrNotFound is returned by Read for a missing key.
var ErrNotFound = fmt.Errorf("not found")

// CycleState carries plugin data through one scheduling cycle.
type CycleState struct {
	storage map[StateKey]StateData
	// SkipFilterPlugins are plugins whose PreFilter returned Skip.
	SkipFilterPlugins map[string]bool
	// SkipScorePlugins are plugins whose PreScore returned Skip.
	SkipScorePlugins map[string]bool

	// filterOwner's filterPlugins are the filter plugins left after the
	// PreFilter skips, so that Filter, which runs per node, need not look
	// every plugin up in SkipFilterPlugins each time.
	filterOwner   *ListOwner
	filterPlugins []FilterPlugin

	// recent caches the last keys read: plugins read their state once per
	// node, and comparing a few strings (usually the same constant, so the
	// same pointer) is cheaper than hashing one. Write and Delete clear it.
	recent     [recentReads]recentRead
	nextRecent int

	// version moves whenever the storage changes (Write, Delete, Reset),
	// so a plugin that read its data once may keep using it while the
	// state and its version are the same.
	version uint64
}

const recentReads = 4

type recentRead struct {
	key  StateKey
	data StateData
}

// ListOwner identifies who recorded a plugin list in a state (a
// framework); only its address matters, and comparing addresses is cheap
// enough to do for every node filtered.
type ListOwner struct{ _ byte }

// SetFilterPlugins records the filter plugins owner (a framework) runs this
// cycle; it must be called again whenever SkipFilterPlugins changes.
func (c *CycleState) SetFilterPlugins(owner *ListOwner, plugins []FilterPlugin) {
	c.filterOwner, c.filterPlugins = owner, plugins
}

// FilterPlugins returns what owner recorded with SetFilterPlugins.
func (c *CycleState) FilterPlugins(owner *ListOwner) ([]FilterPlugin, bool) {
	if owner == nil || c.filterOwner != owner {
		return nil, false
	}
	return c.filterPlugins, true
}

// NewCycleState returns an empty state.
func NewCycleState() *CycleState {
	return &CycleState{storage: map[StateKey]StateData{}}
}

// Reset empties the state for a new cycle, keeping the storage's room. A
// caller may reuse a state only once nothing from the last cycle holds it.
func (c *CycleState) Reset() {
	clear(c.storage)
	c.SkipFilterPlugins, c.SkipScorePlugins = nil, nil
	c.filterOwner, c.filterPlugins = nil, nil
	c.recent, c.nextRecent = [recentReads]recentRead{}, 0
	c.version++
}

// Version changes whenever the storage does (Write, Delete, Reset): while
// a state's version stays the same, Read returns the same data for every
// key.
func (c *CycleState) Version() uint64 { return c.version }

// Read returns the data under key.
func (c *CycleState) Read(key StateKey) (StateData, error) {
	for i := range c.recent {
		if r := &c.recent[i]; r.data != nil && r.key == key {
			return r.data, nil
		}
	}
	d, ok := c.storage[key]
	if !ok {
		return nil, ErrNotFound
	}
	if d != nil {
		c.recent[c.nextRecent] = recentRead{key: key, data: d}
		c.nextRecent = (c.nextRecent + 1) % recentReads
	}
	return d, nil
}

// Write stores data under key.
func (c *CycleState) Write(key StateKey, d StateData) {
	c.storage[key] = d
	c.recent = [recentReads]recentRead{}
	c.version++
}

// Delete removes key.
func (c *CycleState) Delete(key StateKey) {
	delete(c.storage, key)
	c.recent = [recentReads]recentRead{}
	c.version++
}

// Clone deep-copies the state (preemption evaluates nodes on clones).
func (c *CycleState) Clone() *CycleState {
	if c == nil {
		return nil
	}
	out := NewCycleState()
	for k, v := range c.storage {
		out.storage[k] = v.Clone()
	}
	out.SkipFilterPlugins = copySet(c.SkipFilterPlugins)
	out.SkipScorePlugins = copySet(c.SkipScorePlugins)
	out.filterOwner, out.filterPlugins = c.filterOwner, c.filterPlugins
	return out
}

func copySet(s map[string]bool) map[string]bool {
	if s == nil {
		return nil
	}
	out := make(map[string]bool, len(s))
	for k, v := range s {
		out[k] = v
	}
	return out
}
