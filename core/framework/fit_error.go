package framework

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedplay/schedplay/core/api"
)

// NoNodeAvailableMsg starts every FailedScheduling message.
const NoNodeAvailableMsg = "0/%v nodes are available"

// Diagnosis records why a pod fit nowhere.
type Diagnosis struct {
	// NodeToStatus holds the rejecting status per node (feasible nodes are absent).
	NodeToStatus *NodeToStatus
	// UnschedulablePlugins rejected the pod (Unschedulable or UnschedulableAndUnresolvable).
	UnschedulablePlugins map[string]bool
	// PendingPlugins returned Pending.
	PendingPlugins map[string]bool
	// PreFilterMsg is the message of a PreFilter rejection.
	PreFilterMsg string
	// PostFilterMsg is the PostFilter plugins' message.
	PostFilterMsg string
}

// AddPluginStatus records the plugin of a rejecting status.
func (d *Diagnosis) AddPluginStatus(s *Status) {
	if s.Plugin() == "" {
		return
	}
	if s.IsRejected() {
		if d.UnschedulablePlugins == nil {
			d.UnschedulablePlugins = map[string]bool{}
		}
		d.UnschedulablePlugins[s.Plugin()] = true
	}
	if s.Code() == Pending {
		if d.PendingPlugins == nil {
			d.PendingPlugins = map[string]bool{}
		}
		d.PendingPlugins[s.Plugin()] = true
	}
}

// FitError is the error of a cycle in which no node fit.
type FitError struct {
	Pod         *api.Pod
	NumAllNodes int
	Diagnosis   Diagnosis
}

// Error renders the FailedScheduling message as upstream v1.36 does:
// "0/N nodes are available: <PreFilterMsg>." or the lexically sorted
// "<count> <reason>" histogram, then " <PostFilterMsg>" with no dot of its own.
func (f *FitError) Error() string {
	msg := fmt.Sprintf(NoNodeAvailableMsg+":", f.NumAllNodes)
	if f.Diagnosis.PreFilterMsg != "" {
		// The PreFilter status was copied to every node; listing them would repeat it.
		msg += fmt.Sprintf(" %v.", f.Diagnosis.PreFilterMsg)
	} else {
		counts := map[string]int{}
		f.Diagnosis.NodeToStatus.ForEachExplicitNode(func(_ string, s *Status) {
			for _, r := range s.Reasons() {
				counts[r]++
			}
		})
		if n := f.Diagnosis.NodeToStatus.Len(); n < f.NumAllNodes {
			for _, r := range f.Diagnosis.NodeToStatus.AbsentNodesStatus().Reasons() {
				counts[r] += f.NumAllNodes - n
			}
		}
		hist := make([]string, 0, len(counts))
		for r, c := range counts {
			hist = append(hist, fmt.Sprintf("%v %v", c, r))
		}
		sort.Strings(hist)
		if len(hist) > 0 {
			msg += fmt.Sprintf(" %v.", strings.Join(hist, ", "))
		}
	}
	if f.Diagnosis.PostFilterMsg != "" {
		msg += " " + f.Diagnosis.PostFilterMsg
	}
	return msg
}
