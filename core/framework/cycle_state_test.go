package framework

import (
	"errors"
	"strings"
	"testing"
)

type intState int

func (s intState) Clone() StateData { return s }

// TestCycleStateReadCache checks that the recent-read cache never serves
// data that Write or Delete replaced, whatever string the key is built from.
func TestCycleStateReadCache(t *testing.T) {
	// Same content as "PreFilterA", but a different backing array.
	dynamicA := StateKey(strings.Repeat("PreFilterA", 1))
	tests := []struct {
		name    string
		steps   func(c *CycleState)
		key     StateKey
		want    StateData
		wantErr error
	}{
		{name: "missing key", steps: func(*CycleState) {}, key: "PreFilterA", wantErr: ErrNotFound},
		{name: "written key", steps: func(c *CycleState) { c.Write("PreFilterA", intState(1)) }, key: "PreFilterA", want: intState(1)},
		{name: "overwritten after a cached read", steps: func(c *CycleState) {
			c.Write("PreFilterA", intState(1))
			_, _ = c.Read("PreFilterA")
			c.Write(dynamicA, intState(2))
		}, key: "PreFilterA", want: intState(2)},
		{name: "deleted after a cached read", steps: func(c *CycleState) {
			c.Write("PreFilterA", intState(1))
			_, _ = c.Read("PreFilterA")
			c.Delete(dynamicA)
		}, key: "PreFilterA", wantErr: ErrNotFound},
		{name: "more keys than the cache holds", steps: func(c *CycleState) {
			for i, k := range []StateKey{"a", "b", "c", "d", "e", "f"} {
				c.Write(k, intState(i))
			}
			for _, k := range []StateKey{"a", "b", "c", "d", "e", "f", "a"} {
				_, _ = c.Read(k)
			}
		}, key: "b", want: intState(1)},
		{name: "reset after a cached read", steps: func(c *CycleState) {
			c.Write("PreFilterA", intState(5))
			_, _ = c.Read("PreFilterA")
			c.Reset()
		}, key: "PreFilterA", wantErr: ErrNotFound},
		{name: "written after a reset", steps: func(c *CycleState) {
			c.Write("PreFilterA", intState(5))
			c.Reset()
			c.Write("PreFilterA", intState(6))
		}, key: "PreFilterA", want: intState(6)},
		{name: "equal content, other pointer", steps: func(c *CycleState) {
			c.Write("PreFilterA", intState(3))
			_, _ = c.Read("PreFilterA")
		}, key: dynamicA, want: intState(3)},
		{name: "clone starts fresh and keeps data", steps: func(c *CycleState) {
			c.Write("PreFilterA", intState(4))
			_, _ = c.Read("PreFilterA")
			*c = *c.Clone()
		}, key: "PreFilterA", want: intState(4)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewCycleState()
			tt.steps(c)
			for i := 0; i < 2; i++ { // the second read may come from the cache
				got, err := c.Read(tt.key)
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("read %d: err = %v, want %v", i, err, tt.wantErr)
				}
				if got != tt.want {
					t.Errorf("read %d: got %v, want %v", i, got, tt.want)
				}
			}
		})
	}
}

func TestCycleStateResetForgetsSkips(t *testing.T) {
	c := NewCycleState()
	c.SkipFilterPlugins, c.SkipScorePlugins = map[string]bool{"A": true}, map[string]bool{"B": true}
	owner := new(ListOwner)
	c.SetFilterPlugins(owner, []FilterPlugin{nil})
	c.Reset()
	if c.SkipFilterPlugins != nil || c.SkipScorePlugins != nil {
		t.Errorf("skip sets survived Reset: %v, %v", c.SkipFilterPlugins, c.SkipScorePlugins)
	}
	if _, ok := c.FilterPlugins(owner); ok {
		t.Errorf("filter plugin list survived Reset")
	}
}
