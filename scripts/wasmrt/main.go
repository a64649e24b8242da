// Command wasmrt writes a build overlay (go build -overlay) of the Go
// runtime for the page's WebAssembly, with two changes:
//
//	go run ./scripts/wasmrt -dir DIR     # prints DIR/overlay.json
//
// Linear memory grows by at least an eighth of itself at a time, as
// allocators elsewhere grow a heap, not by exactly what each reservation
// asks. js/wasm Go reserves heap in arenas of about half a megabyte through
// sbrk (runtime/mem_wasm.go), each a memory.grow: a load of 500 nodes and
// 5,000 pods grew memory about 145 times to 96 MB, and Node's V8 answers
// nearly every grow of a large memory with a full collection of its own.
// Pages grown ahead are address space until Go writes them (V8 commits wasm
// memory lazily); should the larger grow fail, what is needed is grown.
//
// Idle-time marking stops after a slice of each turn the host gives Go (a
// call into Go: a callback, a timer, the start). js/wasm has one thread:
// when the goroutines wait, the scheduler (findRunnable in proc.go) runs the
// idle mark worker before beforeIdle hands control back to the host, and
// that worker stops only when pollWork sees a runnable goroutine, which
// nothing can make runnable while it runs, so it marks a cycle to its end in
// one task of the page. With the overlay the worker stops once the turn's
// slice is spent, the scheduler starts no idle marking for the rest of the
// turn, and a turn that leaves marking undone asks the host for another
// within a millisecond (a goroutine may be waiting for the cycle, in
// runtime.GC or an assist, and no other call into Go may come: Node would
// exit, a hidden tab would wait). Inside a callback that has not returned,
// Go cannot hand control back, so marking goes on there as before. Assists
// and the fractional worker are untouched.
//
// A runtime whose files do not read as expected (another Go version) stops
// the build with the reason.
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

// idleMarkSlice is the most idle marking the runtime adds to one turn the
// host gives Go, in nanoseconds.
const idleMarkSlice = 8_000_000

var patches = []patch{
	// Linear memory grows by at least an eighth of itself at a time.
	{file: "mem_wasm.go",
		old: "\t\tgrow := (bl + n - blocMax) / physPageSize\n\t\tsize := growMemory(int32(grow))\n\t\tif size < 0 {\n\t\t\treturn nil\n\t\t}\n\t\tresetMemoryDataView()\n\t\tblocMax = bl + n\n",
		new: "\t\tgrow := (bl + n - blocMax) / physPageSize\n" +
			"\t\t// schedplay's scripts/wasmrt: grow ahead by an eighth.\n" +
			"\t\tahead := max(grow, blocMax/8/physPageSize)\n" +
			"\t\tif growMemory(int32(ahead)) >= 0 {\n\t\t\tgrow = ahead\n" +
			"\t\t} else if growMemory(int32(grow)) < 0 {\n\t\t\treturn nil\n\t\t}\n" +
			"\t\tresetMemoryDataView()\n\t\tblocMax += grow * physPageSize\n"},
	// The scheduler starts the idle mark worker only within the turn's slice.
	{file: "proc.go",
		old: "if gcBlackenEnabled != 0 && gcShouldScheduleWorker(pp) && gcController.addIdleMarkWorker() {",
		new: "if gcBlackenEnabled != 0 && gcShouldScheduleWorker(pp) && idleMarkAllowed() && gcController.addIdleMarkWorker() {"},
	// The idle worker's drain stops when the slice is spent, too.
	{file: "mgcmark.go",
		old: "\t\tif idle {\n\t\t\tcheck = pollWork\n",
		new: "\t\tif idle {\n\t\t\tcheck = idleMarkStop\n"},
	// A turn that left marking undone asks the host for another turn: a
	// goroutine may be waiting for the cycle (runtime.GC, an assist), and
	// nothing else may call into Go again (Node exits; a hidden tab waits).
	{file: "proc.go",
		old: "\tgp, otherReady := beforeIdle(now, pollUntil)\n",
		new: "\tpollUntil, now = idleMarkResume(pollUntil, now)\n\tgp, otherReady := beforeIdle(now, pollUntil)\n"},
	// A turn begins where the host calls into Go (wasm_export_resume, a
	// callback's or a timer's, starts in handleEvent).
	{file: "lock_js.go",
		old: "func handleEvent() {\n\tsched.idleTime.Add(nanotime() - idleStart)\n",
		new: "func handleEvent() {\n\tsched.idleTime.Add(nanotime() - idleStart)\n\tidleMarkUntil = 0\n"},
	{file: "lock_js.go", old: "\nvar idleStart int64\n", new: `
var idleStart int64

// Written by schedplay's scripts/wasmrt: idle marking in slices.

// idleMarkUntil ends this turn's idle marking (0: none yet this turn).
var idleMarkUntil int64

// canPause reports whether Go may hand control back to the host now: no
// callback is running, or the innermost one has returned.
func canPause() bool {
	return len(events) == 0 || events[len(events)-1].returned
}

// idleMarkAllowed reports whether the idle mark worker may run, starting
// the turn's slice at its first call. Inside a callback that has not
// returned, Go cannot hand control back, so marking goes on.
func idleMarkAllowed() bool {
	now := nanotime()
	if idleMarkUntil == 0 {
		idleMarkUntil = now + ` + fmt.Sprint(idleMarkSlice) + `
	}
	return now < idleMarkUntil || !canPause()
}

// idleMarkStop stops an idle worker's drain: other work, or the slice spent.
func idleMarkStop() bool {
	return pollWork() || nanotime() >= idleMarkUntil && canPause()
}

// idleMarkResume returns the wake time beforeIdle should ask the host for
// (and the current time): within 1 ms if this turn's slice left marking
// undone.
func idleMarkResume(pollUntil, now int64) (int64, int64) {
	if gcBlackenEnabled == 0 || idleMarkUntil == 0 || !canPause() {
		return pollUntil, now
	}
	if now == 0 {
		now = nanotime()
	}
	if now >= idleMarkUntil && (pollUntil == 0 || pollUntil > now+1_000_000) {
		pollUntil = now + 1_000_000
	}
	return pollUntil, now
}
`},
}

func main() {
	dir := flag.String("dir", "", "folder for the patched files and overlay.json")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "usage: wasmrt -dir DIR")
		os.Exit(2)
	}
	overlay, err := run(*dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "wasmrt: %v\n", err)
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
