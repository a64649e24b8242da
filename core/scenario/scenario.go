// Package scenario loads a scenario: one multi-document YAML file of ordinary
// Kubernetes manifests. Objects are decoded into core/api and core/config
// types, validated, and then defaulted and admitted the way a real API server
// would store them, so the engine sees what kube-scheduler would see.
//
// Time rule (identical to the conformance harness, conformance/internal/scenario):
// the scenario's "now" (T0) is the latest creationTimestamp or status.startTime
// in the file, or 2026-01-01T00:00:00Z when the file carries none. A Pod (and
// every other object) without creationTimestamp is created at T0. A bound Pod
// runs from status.startTime, else from its creationTimestamp. Pending pods
// enter the scheduling queue in document order: the harness creates pending
// pod i of n at T0-(n-1-i)µs, so an earlier document has an earlier queue
// timestamp (see QueueTime).
package scenario

import (
	"fmt"
	"strings"
	"time"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
)

// DefaultT0 is the scenario's "now" when the file carries no timestamp.
var DefaultT0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Scenario is a loaded, validated and admitted scenario.
type Scenario struct {
	Nodes                  []*api.Node
	Pods                   []*api.Pod           // document order
	PriorityClasses        []*api.PriorityClass // built-in system classes first, then the file's
	PDBs                   []*api.PodDisruptionBudget
	Namespaces             []*api.Namespace
	Services               []*api.Service
	ReplicationControllers []*api.ReplicationController
	ReplicaSets            []*api.ReplicaSet
	StatefulSets           []*api.StatefulSet
	Deployments            []*api.Deployment
	// Storage, in document order (claims of StatefulSet templates are
	// created by the simulation's StatefulSet controller, not here).
	PersistentVolumes      []*api.PersistentVolume
	PersistentVolumeClaims []*api.PersistentVolumeClaim
	StorageClasses         []*api.StorageClass
	CSINodes               []*api.CSINode
	CSIDrivers             []*api.CSIDriver
	// Config is defaulted (config.SetDefaults) even when the file has none.
	Config *config.KubeSchedulerConfiguration
	// Timeline is what the scenario's Timeline document schedules, by time.
	Timeline []*Action
	// Lesson is the scenario's Lesson document, if any (docs/lessons.md).
	Lesson *Lesson
	// T0 is the scenario's "now" (see the package comment).
	T0       time.Time
	Warnings []Diagnostic
	// Positions maps "Kind/namespace/name" (or "Kind/name" for cluster-scoped
	// kinds) to where the object's document (or List item) starts.
	Positions map[string]Pos
}

// QueueTime is when the i-th of n pending pods (in document order) entered
// the scheduling queue, as the conformance harness creates them.
func QueueTime(t0 time.Time, i, n int) time.Time {
	return t0.Add(-time.Duration(n-1-i) * time.Microsecond)
}

// Pos is a 1-based line and column in the input.
type Pos struct{ Line, Col int }

// Severities of a Diagnostic.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Diagnostic is one problem found in the input.
type Diagnostic struct {
	File      string
	Line, Col int
	Object    string // "Pod default/web", "Node n1", "" when not inside an object
	Field     string // "spec.containers[0].resources.requests[cpu]"
	Msg       string
	Hint      string // what to do about it
	Severity  string // SeverityError or SeverityWarning
	// Limit names the limit a refusal crossed ("bytes", "pods", ...; see
	// limits.go), "" for every other diagnostic.
	Limit string
}

// Error formats the diagnostic as "file:line:col: Kind ns/name: field.path: msg (hint)".
func (d Diagnostic) Error() string {
	var b strings.Builder
	b.WriteString(d.File)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", d.Line, d.Col)
	}
	b.WriteString(": ")
	if d.Severity == SeverityWarning {
		b.WriteString("warning: ")
	}
	if d.Object != "" {
		b.WriteString(d.Object + ": ")
	}
	if d.Field != "" {
		b.WriteString(d.Field + ": ")
	}
	b.WriteString(d.Msg)
	if d.Hint != "" {
		b.WriteString(" (" + d.Hint + ")")
	}
	return b.String()
}

// ErrorList is every error diagnostic of a failed load, in input order.
type ErrorList []Diagnostic

func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, d := range l {
		msgs[i] = d.Error()
	}
	return strings.Join(msgs, "\n")
}

// maxErrors caps the diagnostics of one load so a wrong file stays readable.
const maxErrors = 50

// Load decodes, validates and admits a scenario. It returns an ErrorList when
// the input has any error; warnings are in Scenario.Warnings.
func Load(filename string, data []byte) (*Scenario, error) {
	return LoadLimited(filename, data, DefaultLimits)
}

// LoadLimited is Load within other limits than DefaultLimits.
func LoadLimited(filename string, data []byte, lim Limits) (*Scenario, error) {
	l := &loader{file: filename, src: data, lim: lim}
	return l.finish(l.load())
}

// finish returns the loaded scenario with its warnings, or its errors.
func (l *loader) finish(s *Scenario) (*Scenario, error) {
	if l.cancelled {
		return nil, ErrCancelled
	}
	var errs ErrorList
	for _, d := range l.diags {
		if d.Severity == SeverityError {
			errs = append(errs, d)
		}
	}
	if len(errs) > 0 {
		if len(errs) > maxErrors {
			errs = errs[:maxErrors]
		}
		return nil, errs
	}
	for _, d := range l.diags {
		if d.Severity == SeverityWarning {
			s.Warnings = append(s.Warnings, d)
		}
	}
	return s, nil
}
