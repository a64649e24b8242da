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

// TestPatchesApply checks the patches read this Go's runtime as expected:
// a new Go version that moved the text stops here, not in the page.
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
	if len(o.Replace) != 3 {
		t.Errorf("overlay replaces %d files, want 3 (mgcmark.go, proc.go, lock_js.go)", len(o.Replace))
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

// TestPatchedRuntimeCollects builds a program that keeps a live heap while
// making garbage and sleeping (turns of idle marking) with the overlay, and
// runs it under Node: it must collect several times and find every live
// record intact.
func TestPatchedRuntimeCollects(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs WebAssembly")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	overlay, err := run(filepath.Join(dir, "overlay"))
	if err != nil {
		t.Fatal(err)
	}
	wasm := filepath.Join(dir, "churn.wasm")
	build := exec.Command("go", "build", "-overlay="+overlay, "-o", wasm, "./testdata/churn")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building with the overlay: %v\n%s", err, out)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec_node.js"), wasm)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("running: %v\n%s", err, out)
	}
	f := strings.Fields(string(out))
	if len(f) < 2 || f[0] != "ok" {
		t.Fatalf("churn printed %q", out)
	}
	if n, _ := strconv.Atoi(f[1]); n < 3 {
		t.Errorf("churn saw %d collections, want at least 3: %s", n, out)
	}
	t.Logf("%s", out)
}
