// Command wasmgrow writes a build overlay (go build -overlay) in which the Go
// runtime grows WebAssembly linear memory by at least an eighth of itself at
// a time, as allocators elsewhere grow a heap, instead of by exactly what
// each reservation asks.
//
//	go run ./scripts/wasmgrow -dir DIR     # prints DIR/overlay.json
//
// Why: js/wasm Go reserves heap in arenas of about half a megabyte through
// sbrk (runtime/mem_wasm.go), each a memory.grow. A load of 500 nodes and
// 5,000 pods grew memory about 145 times to 96 MB, and V8 answers nearly
// every grow of a large memory with a full collection of its own (about
// 2.5 ms; the old buffer is detached and a new one made), so a first large
// load or simulation paid some 0.3 s for growing. Grown ahead, memory grows
// a few dozen times. Pages grown ahead are address space until Go writes
// them (V8 commits wasm memory lazily), so the tab holds no more than it
// uses; what Go reserves is unchanged. Should the larger grow fail, what is
// needed is grown, as before. A runtime whose file does not read as
// expected (another Go version) stops the build with the reason.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// patch replaces old, which must occur once in the runtime's file, with new.
type patch struct {
	file, old, new string
}

var patches = []patch{
	{file: "mem_wasm.go",
		old: "\t\tgrow := (bl + n - blocMax) / physPageSize\n\t\tsize := growMemory(int32(grow))\n\t\tif size < 0 {\n\t\t\treturn nil\n\t\t}\n\t\tresetMemoryDataView()\n\t\tblocMax = bl + n\n",
		new: "\t\tgrow := (bl + n - blocMax) / physPageSize\n" +
			"\t\t// schedplay's scripts/wasmgrow: grow ahead by an eighth.\n" +
			"\t\tahead := max(grow, blocMax/8/physPageSize)\n" +
			"\t\tif growMemory(int32(ahead)) >= 0 {\n\t\t\tgrow = ahead\n" +
			"\t\t} else if growMemory(int32(grow)) < 0 {\n\t\t\treturn nil\n\t\t}\n" +
			"\t\tresetMemoryDataView()\n\t\tblocMax += grow * physPageSize\n"},
}

func main() {
	dir := flag.String("dir", "", "folder for the patched files and overlay.json")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "usage: wasmgrow -dir DIR")
		os.Exit(2)
	}
	overlay, err := run(*dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "wasmgrow: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(overlay)
}

// run writes the patched runtime files and dir/overlay.json; it returns the
// overlay's path.
func run(dir string) (string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %w", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src", "runtime")
	texts := map[string]string{}
	for _, p := range patches {
		text, ok := texts[p.file]
		if !ok {
			b, err := os.ReadFile(filepath.Join(src, p.file))
			if err != nil {
				return "", fmt.Errorf("reading the runtime: %w", err)
			}
			text = string(b)
		}
		if n := strings.Count(text, p.old); n != 1 {
			return "", fmt.Errorf("runtime/%s: the text to patch occurs %d times, want 1 (another Go version?)", p.file, n)
		}
		texts[p.file] = strings.Replace(text, p.old, p.new, 1)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("overlay folder: %w", err)
	}
	replace := map[string]string{}
	for name, text := range texts {
		to := filepath.Join(dir, name)
		if err := os.WriteFile(to, []byte(text), 0o644); err != nil {
			return "", fmt.Errorf("writing the patched runtime: %w", err)
		}
		replace[filepath.Join(src, name)] = to
	}
	b, err := json.MarshalIndent(map[string]any{"Replace": replace}, "", "\t")
	if err != nil {
		return "", err
	}
	overlay := filepath.Join(dir, "overlay.json")
	return overlay, os.WriteFile(overlay, b, 0o644)
}
