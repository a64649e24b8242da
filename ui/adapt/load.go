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

// Result is the answer to one load: on success a scene and its summary, on
// failure the diagnostics (the caller keeps showing the last good scene).
type Result struct {
	OK          bool         `json:"ok"`
	Diagnostics []Diagnostic `json:"diagnostics"`
	Summary     Summary      `json:"summary"`
	// Error is set when the load failed without diagnostics.
	Error    string             `json:"error,omitempty"`
	Scene    *ui.Scene          `json:"-"`
	Scenario *scenario.Scenario `json:"-"`
}

// Load loads scenario text and builds its scene. Warnings come back as
// diagnostics of a successful load.
func Load(filename string, data []byte) Result {
	s, err := scenario.Load(filename, data)
	if err != nil {
		var list scenario.ErrorList
		if errors.As(err, &list) {
			return Result{Diagnostics: diagnostics(list)}
		}
		return Result{Diagnostics: []Diagnostic{}, Error: fmt.Sprintf("loading %s: %v", filename, err)}
	}
	scene := Scene(s)
	sum := Summary{Nodes: len(scene.Nodes), Pending: len(scene.Pending)}
	for _, n := range scene.Nodes {
		sum.Pods += len(n.Pods)
	}
	sum.Pods += sum.Pending
	return Result{OK: true, Diagnostics: diagnostics(s.Warnings), Summary: sum, Scene: scene, Scenario: s}
}

func diagnostics(ds []scenario.Diagnostic) []Diagnostic {
	out := make([]Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = Diagnostic{Line: d.Line, Col: d.Col, Severity: d.Severity, Object: d.Object, Field: d.Field, Msg: d.Msg, Hint: d.Hint}
	}
	return out
}
