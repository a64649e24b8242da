package adapt

import (
	"errors"
	"fmt"

	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/ui"
)

// Diagnostic is a load problem as the page shows it in the editor.
type Diagnostic struct {
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Object   string `json:"object,omitempty"`
	Field    string `json:"field,omitempty"`
	Msg      string `json:"msg"`
	Hint     string `json:"hint,omitempty"`
}

// Summary counts what a loaded scenario holds.
type Summary struct {
	Nodes   int `json:"nodes"`
	Pods    int `json:"pods"`
	Pending int `json:"pending"`
}

// Result is the answer to one load: on success the run ready to play, its
// t=0 scene and their summary, on failure the diagnostics (the caller keeps
// showing the last good scene).
type Result struct {
	OK          bool         `json:"ok"`
	Diagnostics []Diagnostic `json:"diagnostics"`
	Summary     Summary      `json:"summary"`
	// Error is set when the load failed without diagnostics.
	Error string `json:"error,omitempty"`
	// Lesson is the scenario's Lesson document, for the page's captions.
	Lesson *Lesson `json:"lesson,omitempty"`
	// Stopped is set when the scenario is over the budget (Run.Stopped).
	Stopped string `json:"stopped,omitempty"`
	// Partial is set when the text was refused for its size and only its
	// nodes are shown (scenario.NodesOnly): Diagnostics hold the refusal.
	Partial bool `json:"partial,omitempty"`
	// Cancelled is set when the load's yield hook stopped it.
	Cancelled bool `json:"cancelled,omitempty"`
	// Kept is set when the text changed no object of the run it was
	// loaded over (LoadOver): Run is that run, with the new positions.
	Kept     bool               `json:"kept,omitempty"`
	Scene    *ui.Scene          `json:"-"`
	Scenario *scenario.Scenario `json:"-"`
	Run      *Run               `json:"-"`
}

// Load loads scenario text and prepares its run within DefaultBudget.
// Warnings come back as diagnostics of a successful load.
func Load(filename string, data []byte) Result {
	return LoadCached(nil, filename, data, DefaultBudget)
}

// LoadCached is Load through a scenario.Cache (nil: none), which re-reads
// only the documents an edit changed, within budget b.
func LoadCached(c *scenario.Cache, filename string, data []byte, b Budget) Result {
	return LoadYielding(c, filename, data, b, nil)
}

// LoadYielding is LoadCached (c must not be nil when yield is set) calling
// yield between the steps of reading and before preparing the run (see
// scenario.Yield): when it returns false, the result is Cancelled.
func LoadYielding(c *scenario.Cache, filename string, data []byte, b Budget, yield scenario.Yield) Result {
	return LoadOver(nil, c, filename, data, b, yield)
}

// LoadOver is LoadYielding of an edit of the text prev (nil: none) was
// loaded from. When the edit changed no object (comments, blank lines,
// layout: c.Unchanged is prev's scenario), the answer is prev itself,
// moved to the new positions (scenario.Reposition), and Kept: its
// simulation goes on as it would from the new text. When the edit moved
// nothing either (c.Same), prev is kept without a load.
func LoadOver(prev *Run, c *scenario.Cache, filename string, data []byte, b Budget, yield scenario.Yield) Result {
	var s *scenario.Scenario
	var err error
	steps := 1 // preparing the run is the last step
	var stepped scenario.Yield
	if yield != nil {
		stepped = func(done, total int) bool {
			steps = total + 1
			return yield(done, steps)
		}
	}
	switch {
	case c != nil && prev != nil && prev.sc != nil:
		var same bool
		if s, same, err = c.LoadOver(prev.sc, filename, data, stepped); same {
			// Only comments or blank space changed, moving nothing: prev's
			// scenario is what a load would give, positions too.
			res := loaded(prev)
			res.Kept = true
			return res
		}
	case yield != nil:
		s, err = c.LoadYielding(filename, data, stepped)
	case c != nil:
		s, err = c.Load(filename, data)
	default:
		s, err = scenario.Load(filename, data)
	}
	if errors.Is(err, scenario.ErrCancelled) {
		return Result{Diagnostics: []Diagnostic{}, Cancelled: true}
	}
	if err != nil {
		var list scenario.ErrorList
		if errors.As(err, &list) {
			if nodes, ok := scenario.NodesOnly(filename, data, err); ok {
				return nodesOnly(nodes, list, b)
			}
			return Result{Diagnostics: diagnostics(list)}
		}
		return Result{Diagnostics: []Diagnostic{}, Error: fmt.Sprintf("loading %s: %v", filename, err)}
	}
	if prev != nil && c != nil && c.Unchanged() == prev.sc && prev.sc != nil && scenario.Reposition(prev.sc, s) {
		res := loaded(prev)
		res.Kept = true
		return res
	}
	var more func() bool // preparing the run: the last step, in parts
	if yield != nil {
		if more = func() bool { return yield(steps-1, steps) }; !more() {
			return Result{Diagnostics: []Diagnostic{}, Cancelled: true}
		}
	}
	run, err := newRun(s, b, more)
	if errors.Is(err, errRunCancelled) {
		return Result{Diagnostics: []Diagnostic{}, Cancelled: true}
	}
	if err != nil {
		return Result{Diagnostics: diagnostics(s.Warnings), Error: fmt.Sprintf("loading %s: %v", filename, err)}
	}
	return loaded(run)
}

// loaded is the answer of a load that gave run.
func loaded(run *Run) Result {
	s, scene := run.sc, run.Base()
	sum := Summary{Nodes: len(scene.Nodes), Pending: len(scene.Pending)}
	for _, n := range scene.Nodes {
		for i := range n.Pods {
			if !n.Pods[i].Finished() { // drawn, but not counted
				sum.Pods++
			}
		}
	}
	sum.Pods += sum.Pending
	return Result{OK: true, Diagnostics: diagnostics(s.Warnings), Summary: sum, Scene: scene, Scenario: s, Run: run,
		Stopped: run.Stopped, Lesson: lesson(s.Lesson)}
}

// nodesOnly answers a load refused for its size with its nodes alone,
// not simulated, and the refusal as the diagnostics and the budget message.
func nodesOnly(s *scenario.Scenario, refused scenario.ErrorList, b Budget) Result {
	run, err := NewRun(s, b)
	if err != nil {
		return Result{Diagnostics: diagnostics(refused)}
	}
	scene := run.Base()
	return Result{OK: true, Partial: true, Diagnostics: diagnostics(refused), Summary: Summary{Nodes: len(scene.Nodes)},
		Scene: scene, Scenario: s, Run: run, Stopped: "only the nodes are shown: " + refused[0].Msg}
}

// Lesson is what the page shows of a scenario's Lesson: the title and
// summary, and the captions it times against the trace.
type Lesson struct {
	Title    string    `json:"title"`
	Summary  string    `json:"summary"`
	Topic    string    `json:"topic,omitempty"`
	Captions []Caption `json:"captions"`
	// Name is the lesson's metadata.name (its file's name).
	Name string `json:"name"`
	// Questions are asked before their answers play; the session's
	// question and answer calls take the answers from the run.
	Questions []Question `json:"questions"`
}

// Question is a lesson question as the page asks it: its text, what the
// learner answers with (node, victims, time, feasible) and, for a time,
// the options in seconds.
type Question struct {
	ID      string    `json:"id"`
	Ask     string    `json:"ask"`
	Text    string    `json:"text"`
	Options []float64 `json:"options,omitempty"`
}

// Caption is shown from a time (At, seconds) or from the first trace event
// that On matches (every field set must be equal; Reason is a substring).
type Caption struct {
	At   *float64    `json:"at,omitempty"`
	On   *EventMatch `json:"on,omitempty"`
	Text string      `json:"text"`
}

// EventMatch is scenario.EventMatch as the page matches it.
type EventMatch struct {
	Kind   string `json:"kind"`
	Pod    string `json:"pod,omitempty"`
	Node   string `json:"node,omitempty"`
	Reason string `json:"reason,omitempty"`
}

func lesson(l *scenario.Lesson) *Lesson {
	if l == nil {
		return nil
	}
	out := &Lesson{Title: l.Title, Summary: l.Summary, Topic: l.Topic, Name: l.Name, Captions: []Caption{}, Questions: []Question{}}
	for _, q := range l.Questions {
		vq := Question{ID: q.ID, Ask: q.Ask, Text: q.Text}
		for _, o := range q.Options {
			vq.Options = append(vq.Options, o.Seconds())
		}
		out.Questions = append(out.Questions, vq)
	}
	for _, c := range l.Captions {
		vc := Caption{Text: c.Text}
		if c.At != nil {
			at := c.At.Seconds()
			vc.At = &at
		}
		if c.On != nil {
			vc.On = &EventMatch{Kind: c.On.Kind, Pod: c.On.Pod, Node: c.On.Node, Reason: c.On.Reason}
		}
		out.Captions = append(out.Captions, vc)
	}
	return out
}

func diagnostics(ds []scenario.Diagnostic) []Diagnostic {
	out := make([]Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = Diagnostic{Line: d.Line, Col: d.Col, Severity: d.Severity, Object: d.Object, Field: d.Field, Msg: d.Msg, Hint: d.Hint}
	}
	return out
}
