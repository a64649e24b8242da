package scenario

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/admission"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/apis/scheduling"
	podregistry "k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/plugin/pkg/admission/podtopologylabels"
	"k8s.io/kubernetes/plugin/pkg/admission/priority"
)

// admitter runs the upstream admission plugins that change what the scheduler sees:
// Priority (priorityClassName -> priority, preemptionPolicy) and PodTopologyLabels
// (a pod created bound to a node gets the node's zone/region labels).
type admitter struct {
	cancel   context.CancelFunc
	factory  informers.SharedInformerFactory
	priority *priority.Plugin
	topology *podtopologylabels.Plugin
}

func newAdmitter(nodes []*v1.Node) (*admitter, error) {
	cs := fake.NewClientset()
	for _, n := range nodes {
		if _, err := cs.CoreV1().Nodes().Create(context.Background(), n, metav1.CreateOptions{}); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := informers.NewSharedInformerFactory(cs, 0)
	a := &admitter{cancel: cancel, factory: f}

	a.priority = priority.NewPlugin()
	a.priority.SetExternalKubeClientSet(cs)
	a.priority.SetExternalKubeInformerFactory(f)

	a.topology = podtopologylabels.NewPodTopologyPlugin(podtopologylabels.Config{
		// The plugin's registered default configuration.
		Labels: []string{v1.LabelTopologyZone, v1.LabelTopologyRegion},
	})
	a.topology.InspectFeatureGates(utilfeature.DefaultFeatureGate)
	a.topology.SetExternalKubeInformerFactory(f)
	if err := a.topology.ValidateInitialization(); err != nil {
		cancel()
		return nil, err
	}
	if err := a.priority.ValidateInitialization(); err != nil {
		cancel()
		return nil, err
	}
	// Only the node informer is started; priority classes go straight into the
	// informer's store so that they can be validated one by one, in file order.
	f.Core().V1().Nodes().Informer()
	f.Start(ctx.Done())
	f.WaitForCacheSync(ctx.Done())
	return a, nil
}

func (a *admitter) stop() { a.cancel() }

func (a *admitter) addPriorityClass(pc *schedulingv1.PriorityClass) {
	_ = a.factory.Scheduling().V1().PriorityClasses().Informer().GetStore().Add(pc)
}

// validatePriorityClass runs the Priority plugin's validation of a PriorityClass
// create (only one globalDefault class may exist).
func (a *admitter) validatePriorityClass(pc *schedulingv1.PriorityClass) error {
	var in scheduling.PriorityClass
	if err := toInternal(pc, &in); err != nil {
		return err
	}
	attrs := admission.NewAttributesRecord(&in, nil, scheduling.Kind("PriorityClass").WithVersion("v1"), "", in.Name,
		scheduling.Resource("priorityclasses").WithVersion("v1"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
	return a.priority.Validate(context.Background(), attrs, nil)
}

// admitPod runs the mutating admission plugins on a pod create and returns the admitted v1 pod.
func (a *admitter) admitPod(ctx context.Context, p *v1.Pod) (*v1.Pod, error) {
	var in core.Pod
	if err := toInternal(p, &in); err != nil {
		return nil, err
	}
	attrs := admission.NewAttributesRecord(&in, nil, core.Kind("Pod").WithVersion("v1"), in.Namespace, in.Name,
		core.Resource("pods").WithVersion("v1"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := a.topology.Admit(ctx, attrs, nil); err != nil {
		return nil, err
	}
	if err := a.priority.Admit(ctx, attrs, nil); err != nil {
		return nil, err
	}
	// The registry's BeforeCreate after mutating admission: the pod strategy's
	// PrepareForCreate (matchLabelKeys/mismatchLabelKeys merged into pod (anti-)affinity
	// and topology spread selectors, disabled fields dropped, scheduling-gated
	// condition). It resets status; the scenario's status is restored below.
	podregistry.Strategy.PrepareForCreate(ctx, &in)
	out := &v1.Pod{}
	if err := toInternal(&in, out); err != nil {
		return nil, fmt.Errorf("converting admitted pod: %w", err)
	}
	out.TypeMeta = p.TypeMeta
	// Status is not part of the internal->v1 round trip loss, but keep it verbatim.
	out.Status = *p.Status.DeepCopy()
	return out, nil
}
