package engine

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedplay/schedplay/core/scenario"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of testdata/steps scripts (review the diff)")

// TestSteps runs the scripts of testdata/steps, the way etcd-io/raft tests
// its state machine with datadriven: each script loads a scenario and
// steps the simulation, and after each command the output must be what
// the script says below its "----" line. Commands:
//
//	load            the block above "----" is the scenario (YAML)
//	step [n=N]      N advances (a cycle, an instant of timers or a flush):
//	                the trace events they made, in the text form
//	run             advances until nothing more can happen
//	queue           the scheduling queue's four sub-queues
//	pods            every pod: phase, node, nomination, termination end
//
// go test ./core/engine -run TestSteps -rewrite rewrites the outputs.
func TestSteps(t *testing.T) {
	files, err := filepath.Glob("testdata/steps/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no step scripts in testdata/steps: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			script, err := parseScript(f, string(data))
			if err != nil {
				t.Fatal(err)
			}
			st := stepper{file: f}
			for _, c := range script.cmds {
				got := st.do(t, c)
				if *rewrite {
					c.want = got
				} else if got != c.want {
					t.Errorf("%s:%d: %s\ngot:\n%s\nwant:\n%s", f, c.line, c.cmd, got, c.want)
				}
			}
			if *rewrite {
				if err := os.WriteFile(f, []byte(script.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// stepper is the simulation a script drives.
type stepper struct {
	file string
	sim  *Simulation
	seen int // trace events already printed
}

func (st *stepper) do(t *testing.T, c *stepCmd) string {
	t.Helper()
	if c.name != "load" && st.sim == nil {
		t.Fatalf("line %d: %s before load", c.line, c.name)
	}
	switch c.name {
	case "load":
		// Padded so that load errors point at the script's own lines.
		sc, err := scenario.Load(st.file, []byte(strings.Repeat("\n", c.line)+c.input))
		if err != nil {
			return "error: " + err.Error()
		}
		if st.sim, err = NewSimulation(sc, Options{}); err != nil {
			return "error: " + err.Error()
		}
		st.seen = 0
		return st.events("ok")
	case "step", "run":
		n := 1
		if v, ok := c.args["n"]; ok {
			var err error
			if n, err = strconv.Atoi(v); err != nil || n < 1 {
				t.Fatalf("line %d: n=%q is not a positive count", c.line, v)
			}
		}
		done := false
		for i := 0; (c.name == "run" || i < n) && !done; i++ {
			var err error
			if done, err = st.sim.advance(); err != nil {
				return "error: " + err.Error()
			}
		}
		if done {
			return st.events("done")
		}
		return st.events("")
	case "queue":
		q := st.sim.StateAt(len(st.sim.Trace()) - 1).Queue
		var b strings.Builder
		for _, sub := range []struct {
			name    string
			entries []QueueEntry
		}{{"activeQ", q.ActiveQ}, {"backoffQ", q.BackoffQ}, {"unschedulable", q.Unschedulable}, {"gated", q.Gated}} {
			fmt.Fprintf(&b, "%s:", sub.name)
			for _, e := range sub.entries {
				fmt.Fprintf(&b, " %s", e.Pod)
				if e.BackoffRemaining > 0 {
					fmt.Fprintf(&b, " (backoff %v)", e.BackoffRemaining)
				}
			}
			b.WriteString("\n")
		}
		return strings.TrimSuffix(b.String(), "\n")
	case "pods":
		state := st.sim.StateAt(len(st.sim.Trace()) - 1)
		var b strings.Builder
		fmt.Fprintf(&b, "t=%v", state.T)
		for _, p := range state.Pods {
			fmt.Fprintf(&b, "\n%s %s", p.Key, p.Phase)
			if p.Node != "" {
				fmt.Fprintf(&b, " on %s", p.Node)
			}
			if p.NominatedNode != "" {
				fmt.Fprintf(&b, " nominated to %s", p.NominatedNode)
			}
			if p.TerminatingUntil != nil {
				fmt.Fprintf(&b, " terminating until %v", *p.TerminatingUntil)
			}
		}
		return b.String()
	}
	t.Fatalf("line %d: unknown command %q", c.line, c.name)
	return ""
}

// events is the text form of the trace events not printed yet (each line
// without the time column's padding), then tail.
func (st *stepper) events(tail string) string {
	var b strings.Builder
	if err := WriteTraceText(&b, st.sim.Trace()[st.seen:]); err != nil {
		return "error: " + err.Error()
	}
	st.seen = len(st.sim.Trace())
	var lines []string
	if b.Len() > 0 {
		lines = strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	}
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	if tail != "" {
		lines = append(lines, tail)
	}
	if len(lines) == 0 {
		return "(no events)"
	}
	return strings.Join(lines, "\n")
}

// stepScript is a parsed script: commands, and the text around their
// outputs kept as is so that -rewrite changes outputs only.
type stepScript struct {
	cmds []*stepCmd
}

type stepCmd struct {
	line  int // of the command
	cmd   string
	name  string
	args  map[string]string
	input string
	want  string
	// before are the lines from the previous output's end to the command
	// line (blank lines, comments).
	before []string
}

// parseScript reads datadriven's format: a command line, an optional input
// block, a "----" line, the expected output up to a blank line.
func parseScript(file, text string) (*stepScript, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	s := &stepScript{}
	var before []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			before = append(before, l)
			continue
		}
		c := &stepCmd{line: i + 1, cmd: l, args: map[string]string{}, before: before}
		before = nil
		fields := strings.Fields(l)
		c.name = fields[0]
		for _, f := range fields[1:] {
			k, v, ok := strings.Cut(f, "=")
			if !ok {
				return nil, fmt.Errorf("%s:%d: argument %q: want key=value", file, i+1, f)
			}
			c.args[k] = v
		}
		var input []string
		for i++; i < len(lines) && lines[i] != "----"; i++ {
			input = append(input, lines[i])
		}
		if i == len(lines) {
			return nil, fmt.Errorf("%s:%d: %s has no \"----\" line", file, c.line, c.name)
		}
		c.input = strings.Join(input, "\n")
		var want []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
			want = append(want, lines[i])
		}
		c.want = strings.Join(want, "\n")
		s.cmds = append(s.cmds, c)
		if i < len(lines) {
			before = append(before, lines[i])
		}
	}
	return s, nil
}

// String writes the script back with each command's current output.
func (s *stepScript) String() string {
	var b strings.Builder
	for _, c := range s.cmds {
		for _, l := range c.before {
			b.WriteString(l + "\n")
		}
		b.WriteString(c.cmd + "\n")
		if c.input != "" {
			b.WriteString(c.input + "\n")
		}
		b.WriteString("----\n" + c.want + "\n")
	}
	return b.String()
}
