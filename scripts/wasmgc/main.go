// Command wasmgc writes a build overlay (go build -overlay) in which the Go
// runtime's idle-time marking stops after a slice of idleMarkSlice in each
// turn the page gives Go, so that in js/wasm a collection's marking spreads
// over the page's tasks instead of filling one.
//
//	go run ./scripts/wasmgc -dir DIR     # prints DIR/overlay.json
//
// Why: js/wasm has one thread. When the goroutines wait, the scheduler
// (findRunnable in proc.go) runs the idle mark worker before beforeIdle
// hands control back to the page, and that worker stops only when pollWork
// sees a runnable goroutine, which on one thread nothing can make
// runnable while it runs: it marks to the end of the cycle, one task of
// 100 to 300 ms at a live heap of 60 to 130 MB (docs/performance-web.md).
// With the overlay the worker also stops once the slice is spent, the
// scheduler skips idle marking for the rest of the turn and returns to the
// page, and the next turn (the next event, frame or timer) marks another
// slice. Allocation-driven assists and the rest of the collector are
// untouched. A runtime whose files do not read as expected (another Go
// version) stops the build with the reason.
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

// idleMarkSlice is the longest idle marking in one turn, in nanoseconds.
const idleMarkSlice = 8e6

// patch replaces old, which must occur once in the runtime's file, with new.
type patch struct {
	file, old, new string
}

var patches = []patch{
	// The idle worker's drain also stops when the turn's slice is spent.
	{file: "mgcmark.go", old: "\t\tif idle {\n\t\t\tcheck = pollWork\n", new: "\t\tif idle {\n\t\t\tcheck = idleMarkCheck\n"},
	// The scheduler starts idle marking only within the turn's slice.
	{file: "proc.go",
		old: "if gcBlackenEnabled != 0 && gcShouldScheduleWorker(pp) && gcController.addIdleMarkWorker() {",
		new: "if gcBlackenEnabled != 0 && gcShouldScheduleWorker(pp) && markAllowed() && gcController.addIdleMarkWorker() {"},
	{file: "proc.go",
		old: "\tif !gcShouldScheduleWorker(nil) {\n\t\treturn nil, nil\n\t}\n",
		new: "\tif !gcShouldScheduleWorker(nil) || !markAllowed() {\n\t\treturn nil, nil\n\t}\n"},
	// A turn begins where the page calls into Go: the wasm export resume
	// (rt0_js_wasm.s) starts every call, an event's or a timer's, in
	// handleEvent. (Nothing after a pause runs: pause unwinds the stack.)
	{file: "lock_js.go",
		old: "func handleEvent() {\n\tsched.idleTime.Add(nanotime() - idleStart)\n",
		new: "func handleEvent() {\n\tsched.idleTime.Add(nanotime() - idleStart)\n\tmarkUntil = 0\n"},
	// The slice's clock (appended to lock_js.go, which only js builds read).
	{file: "lock_js.go", old: "\nvar idleStart int64\n", new: `
var idleStart int64

// markUntil ends this turn's idle marking (0: not begun); written by
// schedplay's scripts/wasmgc.
var markUntil int64

// markAllowed reports whether idle marking may run now, starting the
// turn's slice at its first call.
func markAllowed() bool {
	now := nanotime()
	if markUntil == 0 {
		markUntil = now + ` + fmt.Sprint(int64(idleMarkSlice)) + `
	}
	return now < markUntil
}

// idleMarkCheck stops an idle worker's drain: other work, or the slice spent.
func idleMarkCheck() bool { return pollWork() || nanotime() >= markUntil }
`},
}

func main() {
	dir := flag.String("dir", "", "folder for the patched files and overlay.json")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "usage: wasmgc -dir DIR")
		os.Exit(2)
	}
	overlay, err := run(*dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "wasmgc: %v\n", err)
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
				return "", err
			}
			text = string(b)
		}
		if n := strings.Count(text, p.old); n != 1 {
			return "", fmt.Errorf("runtime/%s: the text to patch occurs %d times, want 1 (another Go version? %q)", p.file, n, p.old)
		}
		texts[p.file] = strings.Replace(text, p.old, p.new, 1)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	replace := map[string]string{}
	for name, text := range texts {
		to := filepath.Join(dir, name)
		if err := os.WriteFile(to, []byte(text), 0o644); err != nil {
			return "", err
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
