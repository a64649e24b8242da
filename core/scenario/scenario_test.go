package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
)

func mustLoad(t *testing.T, name string, src string) *Scenario {
	t.Helper()
	s, err := Load(name, []byte(src))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return s
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// scenarioCmp compares scenarios: quantities by their text, warnings and
// positions left out (they describe the file, not the cluster).
var scenarioCmp = []cmp.Option{
	cmp.Comparer(func(a, b api.Quantity) bool { return a.String() == b.String() && a.MilliValue() == b.MilliValue() }),
	// Write does not write the Timeline and Lesson documents yet (see
	// docs/timeline.md, docs/lessons.md).
	cmpopts.IgnoreFields(Scenario{}, "Warnings", "Positions", "Timeline", "Lesson"),
}

func TestLoadBasic(t *testing.T) {
	s, err := Load("basic.yaml", readFile(t, "testdata/basic.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 0 {
		t.Errorf("unexpected warnings: %v", s.Warnings)
	}
	byName := map[string]*api.Pod{}
	for _, p := range s.Pods {
		byName[p.Key()] = p
	}
	low, high := byName["default/low-1"], byName["prod/high-1"]
	t0 := time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name      string
		got, want any
	}{
		{"T0 is the latest timestamp", s.T0, t0},
		{"pending pod created at T0", *high.CreationTimestamp, t0},
		{"globalDefault class applies without priorityClassName", low.Spec.PriorityClassName, "low"},
		{"priority from the default class", *low.Spec.Priority, int32(10)},
		{"preemptionPolicy from the class", *low.Spec.PreemptionPolicy, api.PreemptNever},
		{"priority from the named class", *high.Spec.Priority, int32(1000)},
		{"preemptionPolicy defaults to PreemptLowerPriority", *high.Spec.PreemptionPolicy, api.PreemptLowerPriority},
		{"schedulerName default", high.Spec.SchedulerName, "default-scheduler"},
		{"terminationGracePeriodSeconds default", *high.Spec.TerminationGracePeriodSeconds, int64(30)},
		{"namespace default", low.Namespace, "default"},
		{"requests default to limits", low.Spec.Containers[0].Resources.Requests[api.ResourceCPU].MilliValue(), int64(500)},
		{"port protocol default", low.Spec.Containers[0].Ports[0].Protocol, api.ProtocolTCP},
		{"bound pod gets the node's zone", low.Labels[api.LabelTopologyZone], "zone-b"},
		{"bound pod runs", low.Status.Phase, api.PodRunning},
		{"bound pod starts at creation", *low.Status.StartTime, t0},
		{"bound pod is ready", low.Status.Conditions, []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}},
		{"pending pod has no phase", high.Status.Phase, ""},
		{"deterministic pod uid", high.UID, "pod-prod-high-1"},
		{"deterministic node uid", s.Nodes[0].UID, "node-node-a"},
		{"allocatable defaults to capacity", s.Nodes[1].Status.Allocatable[api.ResourceCPU].MilliValue(), int64(4000)},
		{"matchLabelKeys merged into anti-affinity", high.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchExpressions,
			[]api.LabelSelectorRequirement{{Key: "version", Operator: api.LabelSelectorOpIn, Values: []string{"v2"}}}},
		{"matchLabelKeys merged into spread constraint", high.Spec.TopologySpreadConstraints[0].LabelSelector.MatchExpressions,
			[]api.LabelSelectorRequirement{{Key: "version", Operator: api.LabelSelectorOpIn, Values: []string{"v2"}}}},
		{"built-in classes first", []string{s.PriorityClasses[0].Name, s.PriorityClasses[1].Name}, []string{"system-node-critical", "system-cluster-critical"}},
		{"percentageOfNodesToScore", *s.Config.PercentageOfNodesToScore, int32(50)},
		{"config backoff defaulted", s.Config.PodMaxBackoffSeconds, int64(10)},
		{"positions", s.Positions["Pod/prod/high-1"], Pos{Line: 58, Col: 1}},
		{"cluster-scoped positions", s.Positions["Node/node-b"], Pos{Line: 32, Col: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.got, scenarioCmp...); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	fit := config.ArgsFor(&s.Config.Profiles[0], "NodeResourcesFit").(*config.NodeResourcesFitArgs)
	if fit.ScoringStrategy.Type != config.RequestedToCapacityRatio || len(fit.ScoringStrategy.RequestedToCapacityRatio.Shape) != 2 {
		t.Errorf("scoring strategy = %+v", fit.ScoringStrategy)
	}
	pts := config.ArgsFor(&s.Config.Profiles[0], "PodTopologySpread").(*config.PodTopologySpreadArgs)
	if pts.DefaultingType != config.ListDefaulting || len(pts.DefaultConstraints) != 1 {
		t.Errorf("pod topology spread args = %+v", pts)
	}
}

func TestLoadKubectlDump(t *testing.T) {
	s, err := Load("list.yaml", readFile(t, "testdata/list.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Nodes) != 1 || len(s.Pods) != 1 {
		t.Fatalf("got %d nodes, %d pods", len(s.Nodes), len(s.Pods))
	}
	p := s.Pods[0]
	if *p.Spec.Priority != 2000000000 || p.UID != "pod-kube-system-coredns-abc" || s.Nodes[0].UID != "3c1f5d3e-1111-2222-3333-444455556666" {
		t.Errorf("pod priority %d uid %q, node uid %q", *p.Spec.Priority, p.UID, s.Nodes[0].UID)
	}
	if len(s.PriorityClasses) != 2 {
		t.Errorf("a dumped built-in class must not be added twice: %d classes", len(s.PriorityClasses))
	}
	var got []string
	for _, w := range s.Warnings {
		got = append(got, w.Error())
	}
	want := []string{
		"list.yaml:52:7: warning: Pod kube-system/coredns-abc: spec.containers[0].readinessProbe: field readinessProbe is not simulated: the pod's readiness is taken from status.conditions only (remove the field, or expect the simulation to differ from a real cluster)",
		"list.yaml:72:9: warning: kind: kind ConfigMap is not simulated; the object is ignored",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got)\n%s", diff)
	}
}

func TestLoadErrors(t *testing.T) {
	const pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n"
	const node = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n"
	tests := []struct {
		name string
		src  string
		want []string // Diagnostic.Error() of every error
	}{
		{"syntax error", "apiVersion: v1\nkind: Pod\nmetadata: {name: [}\n",
			[]string{`f.yaml:3:`}},
		{"not a mapping", "- a\n- b\n",
			[]string{`f.yaml:1:1: a document must be a Kubernetes object (a mapping), got a list (start the document with apiVersion: and kind:)`}},
		{"missing kind", "apiVersion: v1\nmetadata: {name: x}\n",
			[]string{`f.yaml:1:1: kind: missing kind (add kind: Pod, Node, PriorityClass, PodDisruptionBudget, ... to the object)`}},
		{"wrong apiVersion", "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: x}\n",
			[]string{`f.yaml:1:13: apiVersion: no kind PodDisruptionBudget in version "policy/v1beta1" (use apiVersion: policy/v1)`}},
		{"unknown field with suggestion", pod + "  nodeNme: n\n  containers: [{name: a, image: i}]\n",
			[]string{`f.yaml:6:3: Pod default/p: spec.nodeNme: unknown field "nodeNme" (did you mean "nodeName"?)`}},
		{"unknown field case", pod + "  containers: [{name: a, Resources: {}, image: i}]\n",
			[]string{`f.yaml:6:26: Pod default/p: spec.containers[0].Resources: unknown field "Resources" (did you mean "resources"?)`}},
		{"missing containers", pod + "  nodeName: \"\"\n",
			[]string{`f.yaml:6:3: Pod default/p: spec.containers: Required value: a pod needs at least one container (add containers: [{name: app, image: registry.k8s.io/pause}])`}},
		{"bad quantity", pod + "  containers:\n  - name: a\n    resources:\n      requests: {cpu: 1x}\n    image: i\n",
			[]string{`f.yaml:9:23: Pod default/p: spec.containers[0].resources.requests[cpu]: "1x" has an unknown suffix "x" (use one of m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei or an exponent like e3) (write a quantity such as "500m", "2", "1Gi" or "1e3")`}},
		{"negative request", pod + "  containers:\n  - name: a\n    resources:\n      requests: {memory: -1Gi}\n    image: i\n",
			[]string{`f.yaml:9:26: Pod default/p: spec.containers[0].resources.requests[memory]: Invalid value: "-1Gi": must be greater than or equal to 0`}},
		{"request above limit", pod + "  containers:\n  - name: a\n    resources:\n      requests: {cpu: 2}\n      limits: {cpu: 1}\n    image: i\n",
			[]string{`f.yaml:9:23: Pod default/p: spec.containers[0].resources.requests[cpu]: Invalid value: "2": must be less than or equal to cpu limit of 1 (raise the limit or lower the request)`}},
		{"extended resource needs limit", pod + "  containers:\n  - name: a\n    resources:\n      requests: {example.com/gpu: 1}\n    image: i\n",
			[]string{`f.yaml:9:7: Pod default/p: spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources (add limits: {example.com/gpu: 1})`}},
		{"container may not request a node-only resource", pod + "  containers:\n  - name: a\n    resources:\n      requests: {attachable-volumes-aws-ebs: 1}\n    image: i\n",
			[]string{`f.yaml:9:18: Pod default/p: spec.containers[0].resources.requests[attachable-volumes-aws-ebs]: Invalid value: "attachable-volumes-aws-ebs": must be a standard resource for containers (use cpu, memory, ephemeral-storage, hugepages-<size> or an extended resource such as example.com/gpu)`}},
		{"node quantities", node + "status:\n  capacity: {cpu: -1, pods: 1.5, example.com/gpu: 500m}\n",
			[]string{
				`f.yaml:6:19: Node n: status.capacity[cpu]: Invalid value: "-1": must be greater than or equal to 0`,
				`f.yaml:6:51: Node n: status.capacity[example.com/gpu]: Invalid value: "500m": must be an integer (extended resources are counted in whole units)`,
				`f.yaml:6:29: Node n: status.capacity[pods]: Invalid value: "1.5": must be an integer (pods are counted in whole units)`,
			}},
		{"string for int", pod + "  terminationGracePeriodSeconds: \"30\"\n  containers: [{name: a, image: i}]\n",
			[]string{`f.yaml:6:34: Pod default/p: spec.terminationGracePeriodSeconds: expected an integer, got the string "30" (write the number without quotes)`}},
		{"number for label value", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels: {version: 2}\n",
			[]string{`f.yaml:5:21: Node n: metadata.labels[version]: expected a string, got 2 (quote it: "2")`}},
		{"bad label key", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels: {-bad: x}\n",
			[]string{`f.yaml:5:12: Node n: metadata.labels: Invalid value: "-bad": ` + qualifiedMsg}},
		{"bad label value", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels: {a: -x}\n",
			[]string{`f.yaml:5:15: Node n: metadata.labels[a]: Invalid value: "-x": ` + labelValueMsg}},
		{"bad name", "apiVersion: v1\nkind: Node\nmetadata:\n  name: Node_A\n",
			[]string{`f.yaml:4:9: Node Node_A: metadata.name: Invalid value: "Node_A": ` + dnsSubdomainMsg + ` (use a name such as 'web-1' or 'node-a.example.com')`}},
		{"taint effect", node + "spec:\n  taints: [{key: a, effect: NoScheduled}]\n",
			[]string{`f.yaml:6:29: Node n: spec.taints[0].effect: Unsupported value: "NoScheduled": supported values: "NoExecute", "NoSchedule", "PreferNoSchedule" (did you mean "NoSchedule"?)`}},
		{"toleration operator", pod + "  containers: [{name: a, image: i}]\n  tolerations: [{key: a, operator: Equals}]\n",
			[]string{`f.yaml:7:36: Pod default/p: spec.tolerations[0].operator: Unsupported value: "Equals": supported values: "Equal", "Exists" (did you mean "Equal"?)`}},
		{"toleration Exists with value", pod + "  containers: [{name: a, image: i}]\n  tolerations: [{key: a, operator: Exists, value: b}]\n",
			[]string{`f.yaml:7:36: Pod default/p: spec.tolerations[0].operator: Invalid value: "b": value must be empty when ` + "`operator`" + ` is 'Exists' (remove the value)`}},
		{"selector operator", pod + "  containers: [{name: a, image: i}]\n  affinity:\n    podAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n      - topologyKey: zone\n        labelSelector:\n          matchExpressions: [{key: a, operator: Gt, values: [\"1\"]}]\n",
			[]string{`f.yaml:12:49: Pod default/p: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].operator: Unsupported value: "Gt": supported values: "In", "NotIn", "Exists", "DoesNotExist" (did you mean "In"?)`}},
		{"node selector Gt needs an integer", pod + "  containers: [{name: a, image: i}]\n  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n        - matchExpressions: [{key: cores, operator: Gt, values: [many]}]\n",
			[]string{`f.yaml:11:66: Pod default/p: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid value: "many": must be an integer`}},
		{"spread constraint fields", pod + "  containers: [{name: a, image: i}]\n  topologySpreadConstraints:\n  - {maxSkew: 0, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, minDomains: 0, nodeTaintsPolicy: honor}\n",
			[]string{
				`f.yaml:8:15: Pod default/p: spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero (set maxSkew to 1 or more)`,
				`f.yaml:8:84: Pod default/p: spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: must be greater than zero`,
				`f.yaml:8:84: Pod default/p: spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway (remove minDomains or use DoNotSchedule)`,
				`f.yaml:8:105: Pod default/p: spec.topologySpreadConstraints[0].nodeTaintsPolicy: Unsupported value: "honor": supported values: "Honor", "Ignore" (did you mean "Honor"?)`,
			}},
		{"whenUnsatisfiable", pod + "  containers: [{name: a, image: i}]\n  topologySpreadConstraints:\n  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotScheduled}\n",
			[]string{`f.yaml:8:56: Pod default/p: spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "DoNotScheduled": supported values: "DoNotSchedule", "ScheduleAnyway" (did you mean "DoNotSchedule"?)`}},
		{"pod preemptionPolicy enum", pod + "  containers: [{name: a, image: i}]\n  preemptionPolicy: never\n",
			[]string{`f.yaml:7:21: Pod default/p: spec.preemptionPolicy: Unsupported value: "never": supported values: "Never", "PreemptLowerPriority" (did you mean "Never"?)`}},
		{"unknown priority class", pod + "  containers: [{name: a, image: i}]\n  priorityClassName: gold\n",
			[]string{`f.yaml:7:22: Pod default/p: spec.priorityClassName: no PriorityClass with name gold was found (add the PriorityClass to the scenario or fix the name)`}},
		{"priority must match the class", pod + "  containers: [{name: a, image: i}]\n  priority: 5\n",
			[]string{`f.yaml:7:13: Pod default/p: spec.priority: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name (remove spec.priority; it comes from the PriorityClass)`}},
		{"user class above 1e9", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: huge}\nvalue: 1000000001\n",
			[]string{`f.yaml:4:8: PriorityClass huge: value: Forbidden: maximum allowed value of a user defined priority is 1000000000, got 1000000001 (use a value of at most 1000000000)`}},
		{"system- prefix", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-mine}\nvalue: 1\n",
			[]string{`f.yaml:3:18: PriorityClass system-mine: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only (choose a name without the system- prefix)`}},
		{"two global defaults", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: a}\nvalue: 1\nglobalDefault: true\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: b}\nvalue: 2\nglobalDefault: true\n",
			[]string{`f.yaml:11:16: PriorityClass b: globalDefault: Forbidden: PriorityClass a is already marked as default. Only one default can exist (set globalDefault: true on one class only)`}},
		{"pdb both set", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: x}\nspec:\n  minAvailable: 1\n  maxUnavailable: 50%\n",
			[]string{`f.yaml:5:3: PodDisruptionBudget default/x: spec: Invalid value: minAvailable and maxUnavailable cannot be both set (keep one of them)`}},
		{"pdb bad percent", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: x}\nspec:\n  maxUnavailable: 50 %\n",
			[]string{`f.yaml:5:19: PodDisruptionBudget default/x: spec.maxUnavailable: Invalid value: "50 %": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%') (write an integer or a percentage such as "50%")`}},
		{"duplicate object", node + "---\n" + node,
			[]string{`f.yaml:9:9: Node n: metadata.name: Node n is defined twice (first at line 1) (rename or remove one of them)`}},
		{"bound to unknown node", pod + "  nodeName: ghost\n  containers: [{name: a, image: i}]\n",
			[]string{`f.yaml:6:13: Pod default/p: spec.nodeName: Pod is bound to unknown node "ghost" (add the Node to the scenario or remove spec.nodeName)`}},
		{"duplicate yaml key", "apiVersion: v1\nkind: Node\nkind: Node\n",
			[]string{`f.yaml:3:1: `}},
		{"matchLabelKeys also in matchLabels", pod + "  containers: [{name: a, image: i}]\n  topologySpreadConstraints:\n  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: x}}, matchLabelKeys: [app]}\n",
			[]string{`f.yaml:8:128: Pod default/p: spec.topologySpreadConstraints[0].matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector (remove the key from one of them)`}},
		{"config System defaulting with constraints", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}]\n",
			[]string{`f.yaml:7:7: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.defaultingType: Invalid value: "System": when .defaultConstraints are not empty (set defaultingType: List to use defaultConstraints)`}},
		{"config default constraint with selector", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultingType: List\n      defaultConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {}}]\n",
			[]string{`f.yaml:8:110: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod (remove the labelSelector)`}},
		{"config scoring strategy", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: RequestedToCapacityRatio\n        requestedToCapacityRatio:\n          shape: [{utilization: 50, score: 11}, {utilization: 40, score: 0}]\n",
			[]string{
				`f.yaml:10:63: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid value: 40: values must be sorted in increasing order`,
				`f.yaml:10:44: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.scoringStrategy.requestedToCapacityRatio.shape[0].score: Invalid value: 11: not in valid range [0, 10]`,
			}},
		{"config unknown plugin", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- plugins:\n    score:\n      disabled: [{name: NodeResourceFit}]\n",
			[]string{`f.yaml:6:25: KubeSchedulerConfiguration: profiles[0].plugins.score.disabled[0].name: unknown plugin "NodeResourceFit" (did you mean "NodeResourcesFit"?)`}},
		{"config backoff", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npodInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 2\npercentageOfNodesToScore: 101\n",
			[]string{
				`f.yaml:4:23: KubeSchedulerConfiguration: podMaxBackoffSeconds: Invalid value: 2: must be greater than or equal to PodInitialBackoffSeconds`,
				`f.yaml:5:27: KubeSchedulerConfiguration: percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]`,
			}},
		{"config duplicate profiles", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: a\n- schedulerName: a\n",
			[]string{`f.yaml:5:18: KubeSchedulerConfiguration: profiles[1].schedulerName: Duplicate value: profiles[0].schedulerName (scheduler names must be unique)`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("f.yaml", []byte(tc.src))
			var el ErrorList
			if !errors.As(err, &el) {
				t.Fatalf("want an ErrorList, got %v", err)
			}
			var got []string
			for i, d := range el {
				s := d.Error()
				if i < len(tc.want) && strings.HasSuffix(tc.want[i], ": ") || i < len(tc.want) && strings.HasSuffix(tc.want[i], ":") {
					s = s[:min(len(s), len(tc.want[i]))]
				}
				got = append(got, s)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestLoadNodeResourceNames: the API server validates the quantities of a node's
// capacity and allocatable, not their names (ValidateNodeResources), so a kubelet's
// attachable-volumes-* and any device plugin's name load, and the scheduler sees them.
func TestLoadNodeResourceNames(t *testing.T) {
	src := "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus:\n" +
		"  allocatable: {attachable-volumes-aws-ebs: \"39\", cpu: 1930m, pods: \"35\", vendor-gpu: \"2\"}\n" +
		"  capacity: {attachable-volumes-aws-ebs: \"39\", cpu: \"2\", pods: \"35\", vendor-gpu: \"2\"}\n"
	s := mustLoad(t, "n.yaml", src)
	got := s.Nodes[0].Status.Allocatable["attachable-volumes-aws-ebs"]
	if got.Value() != 39 {
		t.Errorf("allocatable[attachable-volumes-aws-ebs] = %s, want 39", got.String())
	}
}

func TestLoadWarnings(t *testing.T) {
	src := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  hostNetwork: true\n  runtimeClassName: kata\n  containers:\n  - name: a\n    ports: [{containerPort: 80}]\n    resources:\n      claims: [{name: gpu}]\n    image: i\n"
	s := mustLoad(t, "w.yaml", src)
	var got []string
	for _, w := range s.Warnings {
		got = append(got, w.Field)
	}
	// hostNetwork is simulated (its ports are host ports): no warning.
	if diff := cmp.Diff([]string{"spec.runtimeClassName", "spec.containers[0].resources.claims"}, got); diff != "" {
		t.Errorf("warned fields (-want +got)\n%s", diff)
	}
	if hp := s.Pods[0].Spec.Containers[0].Ports[0].HostPort; hp != 80 {
		t.Errorf("hostNetwork must make container ports host ports, got hostPort %d", hp)
	}
}

func TestQueueTime(t *testing.T) {
	t0 := DefaultT0
	if got, want := QueueTime(t0, 0, 3), t0.Add(-2*time.Microsecond); !got.Equal(want) {
		t.Errorf("first of three = %v, want %v", got, want)
	}
	if got := QueueTime(t0, 2, 3); !got.Equal(t0) {
		t.Errorf("last of three = %v, want T0", got)
	}
}

func TestRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.yaml")
	examples, _ := filepath.Glob("../../examples/*.yaml")
	for _, f := range append(files, examples...) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			checkRoundTrip(t, f, readFile(t, f))
		})
	}
}

func checkRoundTrip(t *testing.T, name string, src []byte) {
	t.Helper()
	s, err := Load(name, src)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	checkWriteLoad(t, s)
}

// checkWriteLoad asserts that s survives Write -> Load unchanged.
func checkWriteLoad(t *testing.T, s *Scenario) {
	t.Helper()
	out, err := Write(s)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	s2, err := Load("written.yaml", out)
	if err != nil {
		t.Fatalf("reloading the written scenario: %v\n%s", err, out)
	}
	if diff := cmp.Diff(s, s2, scenarioCmp...); diff != "" {
		t.Errorf("Write -> Load changed the scenario (-loaded +reloaded)\n%s", diff)
	}
}

func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.yaml")
	examples, _ := filepath.Glob("../../examples/*.yaml")
	for _, p := range append(files, examples...) {
		f.Add(readFile(f, p))
	}
	for _, s := range []string{
		"", "---\n---\n", "kind: [", "a: &x [*x]", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a, resources: {requests: {cpu: 1e999}}}]}\n",
		"apiVersion: v1\nkind: List\nitems: [1, {kind: Node}]\n", "x: &a {b: 1}\ny: {<<: *a}\n",
		"a: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e]\ng: [*f, *f, *f, *f, *f, *f, *f, *f]\n",
		"apiVersion: v1\nkind: Node\nmetadata: {name: n, labels: {a: 1}}\n\t- x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Load("fuzz.yaml", data)
		if err != nil {
			var el ErrorList
			if !errors.As(err, &el) || len(el) == 0 {
				t.Fatalf("error is not a non-empty ErrorList: %v", err)
			}
			// YAML breaks lines at \n, \r\n and a lone \r.
			lines := strings.Count(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") + strings.Count(strings.ReplaceAll(string(data), "\r\n", ""), "\r") + 1
			for _, d := range el {
				if d.Line < 1 || d.Line > lines || d.Col < 1 {
					t.Fatalf("diagnostic outside the input (%d lines): %v", lines, d)
				}
			}
			return
		}
		checkWriteLoad(t, s)
	})
}

func TestAliasBomb(t *testing.T) {
	src := "a: &a [x, x, x, x, x, x, x, x]\n"
	for i, c := range "bcdefghijklmnop" {
		prev := string("abcdefghijklmnop"[i])
		src += string(c) + ": &" + string(c) + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n"
	}
	_, err := Load("bomb.yaml", []byte(src))
	var el ErrorList
	if !errors.As(err, &el) || !strings.Contains(el[0].Msg, "aliases expand") {
		t.Fatalf("want an 'aliases expand' error, got %v", err)
	}
}

// An empty or comment-only document (two "---" in a row, as concatenated
// manifests often have) holds nothing, and every document after it is read:
// goccy's whole-stream parse alone would drop them (goccy/go-yaml#765, #870).
func TestLoadKeepsDocumentsAfterEmptyOnes(t *testing.T) {
	node := func(name string) string {
		return "apiVersion: v1\nkind: Node\nmetadata: {name: " + name + "}\nstatus: {allocatable: {cpu: \"1\", memory: 1Gi, pods: \"10\"}}\n"
	}
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"empty between", node("a") + "---\n---\n" + node("b") + "---\n" + node("c"), []string{"a", "b", "c"}},
		{"leading empty", "---\n---\n" + node("a"), []string{"a"}},
		{"comment only", node("a") + "---\n# nothing here\n---\n" + node("b"), []string{"a", "b"}},
		{"blank lines only", node("a") + "---\n\n\n---\n" + node("b"), []string{"a", "b"}},
		{"three in a row", node("a") + "---\n---\n---\n" + node("b") + "---\n" + node("c"), []string{"a", "b", "c"}},
		{"marker with comment", node("a") + "--- # b next\n---\n" + node("b"), []string{"a", "b"}},
		{"trailing markers", node("a") + "---\n---\n", []string{"a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, load := range []func() (*Scenario, error){
				func() (*Scenario, error) { return Load("f.yaml", []byte(tc.src)) },
				func() (*Scenario, error) { return (&Cache{}).Load("f.yaml", []byte(tc.src)) },
			} {
				s, err := load()
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, n := range s.Nodes {
					got = append(got, n.Name)
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("nodes (-want +got)\n%s", diff)
				}
			}
		})
	}
	// Positions after an empty document are the file's.
	_, err := Load("f.yaml", []byte(node("a")+"---\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\nstatus: {allocatable: {cpu: [\n"))
	if err == nil || !strings.Contains(err.Error(), "f.yaml:10:29:") {
		t.Errorf("syntax error in the document after an empty one: got %v, want it at f.yaml:10:29 (the unclosed \"[\")", err)
	}
}
