package runtime

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
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
	// The plugins that may refuse a pod sign first, so a refused pod costs
	// no fragments. The signature does not depend on the order: plugins
	// writing the same key write the same value.
	slices.SortStableFunc(f.signers, func(a, b framework.SignPlugin) int {
		return cmp.Compare(signOrder(a.Name()), signOrder(b.Name()))
	})
}

func signOrder(name string) int {
	switch name {
	case names.PodTopologySpread, names.InterPodAffinity, names.DynamicResources:
		return 0
	}
	return 1
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
	// The map is made once every plugin has signed: most pods are refused
	// by the first plugin, every cycle.
	fragments := f.signScratch[:0]
	for _, pl := range f.signers {
		frs, st := pl.SignPod(pod)
		if !st.IsSuccess() {
			return "", st.WithPlugin(pl.Name())
		}
		fragments = append(fragments, frs...)
	}
	f.signScratch = fragments[:0]
	sig := make(map[string]any, len(fragments)+1)
	sig[framework.SchedulerNameSignerName] = pod.Spec.SchedulerName
	for _, fr := range fragments {
		sig[fr.Key] = fr.Value
	}
	b, err := json.Marshal(sig)
	if err != nil {
		return "", framework.AsStatus(fmt.Errorf("signing pod %s: %w", pod.Key(), err))
	}
	return string(b), nil
}
