package boundaries

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/schedplay/schedplay"

// pkg is the part of `go list -json` output the rules read.
type pkg struct {
	ImportPath   string
	Imports      []string
	Deps         []string
	TestImports  []string
	XTestImports []string
}

// listed keeps each platform's listing: go list costs seconds.
var listed = map[string][]*pkg{}

// listModule lists the module's packages (tests' imports included) for one
// target platform, as tailscale's deptest does: the wasm package only exists
// for js/wasm, and build tags may pull different files in.
func listModule(t *testing.T, goos, goarch string) []*pkg {
	t.Helper()
	key := goos + "/" + goarch
	if pkgs, ok := listed[key]; ok {
		return pkgs
	}
	watchSources(t)
	cmd := exec.Command("go", "list", "-deps", "-json", "./...")
	cmd.Dir = "../.." // the module root
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list for %s/%s: %v\n%s", goos, goarch, err, stderr.Bytes())
	}
	var pkgs []*pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(pkg)
		if err := dec.Decode(p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decoding go list output for %s/%s: %v", goos, goarch, err)
		}
		if within(p.ImportPath, module+"/...") {
			pkgs = append(pkgs, p)
		}
	}
	if len(pkgs) == 0 {
		t.Fatalf("go list for %s/%s found no package of %s", goos, goarch, module)
	}
	listed[key] = pkgs
	return pkgs
}

// watchSources lists every directory of Go sources and stats every Go file,
// so that go test's cache, which hears of what the test itself opens but
// not of what go list reads, reruns the test when a file or an import changes.
func watchSources(t *testing.T) {
	t.Helper()
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != "../.." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "conformance") {
			return filepath.SkipDir // not this module's packages
		}
		if !d.IsDir() && strings.HasSuffix(name, ".go") {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatalf("walking the module's sources: %v", err)
	}
}

// within reports whether path is pattern, or under it when pattern ends in "/...".
func within(path, pattern string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return path == pattern
}

// rule forbids the packages that From selects some imports: in their
// transitive dependencies (Deps) or only among what they import themselves
// (Direct); their tests' imports count unless ProductOnly.
type rule struct {
	Name        string
	From        func(path string) bool
	Direct      bool
	ProductOnly bool
	// Bad maps an import path or a "path/..." pattern to why it is forbidden.
	Bad map[string]string
}

var (
	inCore = func(p string) bool { return within(p, module+"/core/...") }
	// The canvas is ui/ but ui/adapt (engine answers to scenes) and
	// ui/session (the playback session: it plays a run from ui/adapt and
	// hands scenes to the canvas, the host side of it, as wasm is).
	inCanvas = func(p string) bool {
		return within(p, module+"/ui/...") && !within(p, module+"/ui/adapt") && !within(p, module+"/ui/session")
	}
	notWasm    = func(p string) bool { return p != module+"/wasm" }
	isCLI      = func(p string) bool { return p == module+"/cmd/schedplay" }
	engineOnly = "the engine is pure data in and out; the caller (the CLI, wasm) does the I/O"
)

var rules = []rule{{
	Name: "core imports no canvas, browser or upstream code",
	From: inCore,
	Bad: map[string]string{
		module + "/ui/...":                  "the engine knows nothing of the canvas; ui/adapt reads the engine",
		module + "/wasm":                    "wasm is the browser glue on top of everything",
		module + "/cmd/...":                 "commands use the engine, not the other way round",
		"github.com/hajimehoshi/ebiten/...": "drawing belongs to ui",
		"net/...":                           "the engine is web-free: it runs natively and in the browser alike",
	},
}, {
	Name:        "the product imports no upstream code",
	From:        func(string) bool { return true },
	ProductOnly: true, // tests compare with upstream's quantities
	Bad:         map[string]string{"k8s.io/...": "the browser build stays small; upstream code runs in the separate conformance module"},
}, {
	Name:        "core touches no host",
	From:        inCore,
	Direct:      true,
	ProductOnly: true, // tests read examples and measure CPU time
	Bad: map[string]string{
		"os/exec": engineOnly,
		"syscall": engineOnly,
		"unsafe":  engineOnly,
	},
}, {
	Name: "ui reaches core only through ui/adapt",
	From: inCanvas,
	Bad: map[string]string{
		module + "/core/...": "the canvas draws scenes ui/adapt builds from engine answers; it never re-derives them",
		module + "/wasm":     "wasm drives the canvas, not the other way round",
	},
}, {
	// Direct only: under js/wasm the standard library (os, time) uses
	// syscall/js itself, so every package depends on it.
	Name:   "wasm is the only syscall/js user",
	From:   notWasm,
	Direct: true,
	Bad:    map[string]string{"syscall/js": "one bridge: wasm/ turns JSON calls into engine and canvas calls"},
}, {
	Name: "the CLI is native and headless",
	From: isCLI,
	Bad: map[string]string{
		module + "/ui/...":                  "the CLI prints engine answers",
		module + "/wasm":                    "the CLI prints engine answers",
		"github.com/hajimehoshi/ebiten/...": "the CLI must build without a display",
	},
}}

// TestImportRules fails when a package imports what its layer may not.
func TestImportRules(t *testing.T) {
	for _, platform := range [][2]string{{"linux", "amd64"}, {"js", "wasm"}} {
		pkgs := listModule(t, platform[0], platform[1])
		for _, r := range rules {
			for _, p := range pkgs {
				if !r.From(p.ImportPath) {
					continue
				}
				for _, v := range violations(r, p) {
					t.Errorf("%s/%s: %s: %s imports %s", platform[0], platform[1], r.Name, p.ImportPath, v)
				}
			}
		}
	}
}

// violations lists what p imports against rule r: for each forbidden
// pattern it matches, the pattern, the first matching import (sorted) and
// how many match.
func violations(r rule, p *pkg) []string {
	lists := [][]string{p.Imports}
	if !r.ProductOnly {
		lists = append(lists, p.TestImports, p.XTestImports)
	}
	if !r.Direct {
		lists = append(lists, p.Deps)
	}
	hits := map[string]map[string]bool{}
	for _, l := range lists {
		for _, imp := range l {
			if imp == p.ImportPath {
				continue
			}
			for pattern := range r.Bad {
				if within(imp, pattern) {
					if hits[pattern] == nil {
						hits[pattern] = map[string]bool{}
					}
					hits[pattern][imp] = true
				}
			}
		}
	}
	var out []string
	for pattern, imps := range hits {
		first := ""
		for imp := range imps {
			if first == "" || imp < first {
				first = imp
			}
		}
		v := fmt.Sprintf("%s (%s)", pattern, r.Bad[pattern])
		if len(imps) > 1 || first != pattern {
			v = fmt.Sprintf("%s: %d package(s), first %s (%s)", pattern, len(imps), first, r.Bad[pattern])
		}
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// TestRulesSelect guards the rules themselves: a selector that matches
// nothing would let any import through.
func TestRulesSelect(t *testing.T) {
	pkgs := listModule(t, "js", "wasm")
	for _, r := range rules {
		n := 0
		for _, p := range pkgs {
			if r.From(p.ImportPath) {
				n++
			}
		}
		if n == 0 {
			t.Errorf("rule %q selects no package", r.Name)
		}
	}
}
