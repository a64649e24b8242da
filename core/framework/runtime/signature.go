package runtime

import (
	"encoding/json"
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

// computeBatchablePlugins collects the signing plugins of the extension
// points whose results a signature stands for; one plugin that cannot sign
// turns signatures off (upstream frameworkImpl.computeBatchablePlugins).
func (f *Framework) computeBatchablePlugins() {
	seen := map[string]bool{}
	add := func(p framework.Plugin) {
		if seen[p.Name()] {
			return
		}
		seen[p.Name()] = true
		if sp, ok := p.(framework.SignPlugin); ok {
			f.signers = append(f.signers, sp)
		} else if f.unsigned == "" {
			f.unsigned = p.Name()
		}
	}
	for _, p := range f.preFilterPlugins {
		add(p)
	}
	for _, p := range f.filterPlugins {
		add(p)
	}
	for _, p := range f.preScorePlugins {
		add(p)
	}
	for _, p := range f.scorePlugins {
		add(p)
	}
}

// SignPod returns the pod's scheduling signature: two pods with the same
// one get the same feasibility and scores on the same nodes in the same
// state (upstream frameworkImpl.SignPod). When the pod cannot be signed
// the signature is "" and the status, with the plugin that refused, says
// why.
func (f *Framework) SignPod(pod *api.Pod) (string, *framework.Status) {
	if f.unsigned != "" {
		return "", framework.NewStatus(framework.Unschedulable,
			fmt.Sprintf("plugin %s cannot sign pods, so the profile has no signatures", f.unsigned))
	}
	sig := map[string]any{framework.SchedulerNameSignerName: pod.Spec.SchedulerName}
	for _, pl := range f.signers {
		fragments, st := pl.SignPod(pod)
		if !st.IsSuccess() {
			return "", st.WithPlugin(pl.Name())
		}
		for _, fr := range fragments {
			sig[fr.Key] = fr.Value
		}
	}
	b, err := json.Marshal(sig)
	if err != nil {
		return "", framework.AsStatus(fmt.Errorf("signing pod %s: %w", pod.Key(), err))
	}
	return string(b), nil
}
