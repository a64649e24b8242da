package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPatchesApply checks the patches read this Go's runtime as expected: a
// new Go version that moved the text stops here, not in the page.
func TestPatchesApply(t *testing.T) {
	dir := t.TempDir()
	overlay, err := run(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(overlay)
	if err != nil {
		t.Fatal(err)
	}
	var o struct{ Replace map[string]string }
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	if len(o.Replace) != 4 {
		t.Errorf("overlay replaces %d files, want 4 (mem_wasm.go, proc.go, mgcmark.go, lock_js.go)", len(o.Replace))
	}
	for _, p := range patches {
		text, err := os.ReadFile(filepath.Join(dir, p.file))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(text), p.new) {
			t.Errorf("runtime/%s lacks its patch %q", p.file, p.new)
		}
	}
}

// rig builds the programs of testdata for js/wasm, with Go's own runtime or
// with the overlay, and runs them under Node.
type rig struct {
	t            *testing.T
	node, lib    string // node; GOROOT/lib/wasm
	dir, overlay string
}

func newRig(t *testing.T) *rig {
	if testing.Short() {
		t.Skip("builds and runs WebAssembly")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	overlay, err := run(filepath.Join(dir, "overlay"))
	if err != nil {
		t.Fatal(err)
	}
	return &rig{t: t, node: node, lib: filepath.Join(strings.TrimSpace(string(out)), "lib", "wasm"), dir: dir, overlay: overlay}
}

// run builds ./testdata/prog (with the overlay when patched) and runs
// node with args and the binary's path after them; it returns the output's
// fields.
func (r *rig) run(prog string, patched bool, args ...string) []string {
	name := prog + "-plain"
	flags := []string{"build"}
	if patched {
		name = prog + "-patched"
		flags = append(flags, "-overlay="+r.overlay)
	}
	wasm := filepath.Join(r.dir, name+".wasm")
	build := exec.Command("go", append(flags, "-o", wasm, "./testdata/"+prog)...)
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		r.t.Fatalf("building %s: %v\n%s", name, err, out)
	}
	out, err := exec.Command(r.node, append(args, wasm)...).CombinedOutput()
	if err != nil {
		r.t.Fatalf("running %s: %v\n%s", name, err, out)
	}
	r.t.Logf("%s: %s", name, strings.TrimSpace(string(out)))
	return strings.Fields(string(out))
}

// TestPatchedRuntimeGrowsAhead builds a program that keeps a live heap of
// linked records while it makes garbage, with and without the overlay, and
// runs both under Node: both must find every live record intact, and the
// patched one must grow linear memory far fewer times to a like size.
func TestPatchedRuntimeGrowsAhead(t *testing.T) {
	r := newRig(t)
	// churn returns the times linear memory grew, its size and, of that,
	// what the runtime has not taken (its reservations, MemStats.Sys, are
	// the same with the overlay; how far the heap got depends on when its
	// collections fell, which differs from run to run).
	churn := func(patched bool) (grows int, mb, free float64) {
		f := r.run("churn", patched, "testdata/grows.js", filepath.Join(r.lib, "wasm_exec.js"))
		if len(f) != 9 || f[0] != "ok" || f[4] != "sys" || f[5] != "grows" || f[7] != "MB" {
			t.Fatalf("churn printed %q", f)
		}
		sys, _ := strconv.ParseFloat(f[3], 64)
		grows, _ = strconv.Atoi(f[6])
		mb, _ = strconv.ParseFloat(f[8], 64)
		return grows, mb, mb - sys
	}
	plainGrows, _, plainFree := churn(false)
	grows, mb, free := churn(true)
	if grows*3 > plainGrows {
		t.Errorf("patched runtime grew memory %d times, plain %d: want at most a third", grows, plainGrows)
	}
	// A grow adds at most an eighth of the memory beyond what was asked.
	if free > plainFree+mb/8+1 {
		t.Errorf("patched runtime's memory %.1f MB, %.1f MB of it not taken by the runtime against %.1f MB plain: grown too far ahead", mb, free, plainFree)
	}
}

// TestPatchedRuntimeMarksInSlices builds a program that collects a live heap
// of 1.5 million linked records three ways (see testdata/gcturns), with and
// without the overlay, and runs both under Node. Both must finish with the
// heap intact (a turn that stopped marking and asked for no other turn left
// runtime.GC waiting for ever: Node exits and reports a deadlock); the
// patched one must give the host several turns while a cycle marks, where
// Go's own runtime marks it to the end in one.
func TestPatchedRuntimeMarksInSlices(t *testing.T) {
	r := newRig(t)
	turns := func(patched bool) int {
		f := r.run("gcturns", patched, filepath.Join(r.lib, "wasm_exec_node.js"))
		if len(f) != 3 || f[0] != "ok" || f[1] != "turns" {
			t.Fatalf("gcturns printed %q", f)
		}
		n, _ := strconv.Atoi(f[2])
		return n
	}
	plain, patched := turns(false), turns(true)
	if patched < plain+3 {
		t.Errorf("the host got %d turns while the patched runtime marked, %d with Go's own: want at least 3 more", patched, plain)
	}
}
