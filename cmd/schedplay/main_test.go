package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplay/schedplay/core/scenario"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ (commit only diffs you understand)")

// runCLI runs the command twice and insists on identical output: every
// output of the engine must be deterministic.
func runCLI(t *testing.T, args ...string) string {
	t.Helper()
	var outs [2]string
	for i := range outs {
		var stdout, stderr bytes.Buffer
		if code := run(args, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("schedplay %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
		}
		outs[i] = stdout.String()
	}
	if outs[0] != outs[1] {
		t.Fatalf("schedplay %s: two runs differ", strings.Join(args, " "))
	}
	return outs[0]
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run go test ./cmd/schedplay -update to create it): %v", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; run with -update and review the diff.\n--- got ---\n%s", path, got)
	}
}

// TestExamplesGolden pins explain (every pending pod, JSON and report) and
// simulate (final state, trace, timeline) for every example.
func TestExamplesGolden(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(base, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := scenario.Load(f, data)
			if err != nil {
				t.Fatalf("example does not load: %v", err)
			}
			for _, p := range sc.Pods {
				if p.Spec.NodeName != "" || p.DeletionTimestamp != nil {
					continue
				}
				name := base + ".explain." + p.Namespace + "." + p.Name
				golden(t, name+".json", runCLI(t, "explain", f, "--pod", p.Key(), "--output", "json"))
				golden(t, name+".txt", runCLI(t, "explain", f, "--pod", p.Key()))
			}
			golden(t, base+".simulate.json", runCLI(t, "simulate", f, "--output", "json"))
			golden(t, base+".trace.jsonl", runCLI(t, "simulate", f, "--trace"))
			golden(t, base+".timeline.txt", runCLI(t, "simulate", f))
		})
	}
}

func TestBadInputExitsNonZeroWithPositionAndNoStdout(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    resources:\n      requests:\n        cpu: lots\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"explain", bad, "--pod", "default/p", "--output", "json"},
		{"simulate", bad, "--output", "json"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(args, nil, &stdout, &stderr)
		if code == 0 {
			t.Errorf("%v: exit 0 on invalid input", args)
		}
		if stdout.Len() != 0 {
			t.Errorf("%v: printed on stdout: %q", args, stdout.String())
		}
		if !strings.Contains(stderr.String(), "bad.yaml:10:") {
			t.Errorf("%v: error does not name file and line 10: %q", args, stderr.String())
		}
	}
}

func TestExplainUnknownPod(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"explain", "../../examples/preemption-basic.yaml", "--pod", "default/nope"}, nil, &stdout, &stderr); code == 0 || stdout.Len() != 0 {
		t.Errorf("exit %d, stdout %q", code, stdout.String())
	}
	if !strings.Contains(stderr.String(), `no pod "default/nope"`) {
		t.Errorf("stderr = %q", stderr.String())
	}
}

// A scenario piped in as "-" gives the same answer as the file, and its
// errors are positioned at <stdin>.
func TestStdin(t *testing.T) {
	const example = "../../examples/preemption-basic.yaml"
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"explain", "--pod", "default/critical", "--output", "json"},
		{"simulate", "--trace"},
	} {
		var fromFile, fromStdin, stderr bytes.Buffer
		if code := run(append(append([]string{}, args...), example), nil, &fromFile, &stderr); code != 0 {
			t.Fatalf("%v %s: exit %d: %s", args, example, code, stderr.String())
		}
		if code := run(append(append([]string{}, args...), "-"), bytes.NewReader(data), &fromStdin, &stderr); code != 0 {
			t.Fatalf("%v -: exit %d: %s", args, code, stderr.String())
		}
		if fromFile.Len() == 0 || !bytes.Equal(fromFile.Bytes(), fromStdin.Bytes()) {
			t.Errorf("%v: standard input answered differently from the file (%d and %d bytes)", args, fromFile.Len(), fromStdin.Len())
		}
	}
	var stdout, stderr bytes.Buffer
	bad := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: lots}}\n"
	if code := run([]string{"simulate", "-"}, strings.NewReader(bad), &stdout, &stderr); code == 0 {
		t.Fatal("exit 0 on invalid input from standard input")
	}
	if !strings.Contains(stderr.String(), "<stdin>:8:") {
		t.Errorf("error does not name <stdin> and line 8: %q", stderr.String())
	}
}
