// Package defaultbinder holds DefaultBinder. Binding itself is done by the
// simulation engine; the plugin exists so profiles name it as upstream does.
package defaultbinder

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.DefaultBinder

// DefaultBinder binds pods to nodes.
type DefaultBinder struct{}

var _ framework.BindPlugin = (*DefaultBinder)(nil)

// New builds the plugin.
func New(any, framework.Handle) (framework.Plugin, error) { return &DefaultBinder{}, nil }

// Name returns the plugin's name.
func (pl *DefaultBinder) Name() string { return Name }

// Bind always succeeds: the engine records the binding.
func (pl *DefaultBinder) Bind(*framework.CycleState, *api.Pod, string) *framework.Status { return nil }
