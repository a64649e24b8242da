// Command realworld compares schedplay's CLI ("ours") with answers upstream
// kube-scheduler gave earlier, stored beside each scenario in the contract's JSON:
// CASE.yaml names its explain pod in a `# explain-pod: NAMESPACE/NAME` line,
// CASE.explain.json holds upstream's explain of that pod and CASE.simulate.json, where
// upstream decides without random tie-breaks, its final state. It runs no upstream
// code, so it builds in seconds.
//
//	go run ./cmd/realworld --ours BIN [--allowlist FILE] [-v] DIR
//
// It prints agreement counts per area (see compare.Areas) and the first differences,
// and exits 1 when a difference is not explained by the allowlist, 2 on its own errors.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/schedplay/schedplay/conformance/compare"
	"github.com/schedplay/schedplay/conformance/contract"
	"github.com/schedplay/schedplay/conformance/internal/ours"
)

func main() {
	bin := flag.String("ours", "", "schedplay binary (required)")
	allowFile := flag.String("allowlist", "", "allowlist JSON (none by default)")
	maxDiffs := flag.Int("diffs", 40, "differences to print")
	timeout := flag.Duration("timeout", 2*time.Minute, "timeout for one run of ours")
	verbose := flag.Bool("v", false, "print one line per scenario")
	flag.Parse()
	if *bin == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: realworld --ours BIN [--allowlist FILE] [-v] DIR")
		os.Exit(2)
	}
	allow, err := compare.LoadAllowlist(*allowFile)
	if err != nil {
		fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(flag.Arg(0), "*.yaml"))
	if err != nil {
		fatal(err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		fatal(fmt.Errorf("no scenarios (*.yaml) in %s", flag.Arg(0)))
	}

	runner := &ours.Runner{Bin: *bin, Timeout: *timeout}
	rep := compare.NewReport(allow)
	start := time.Now()
	loaded := 0
	for _, f := range files {
		before := rep.Unexplained()
		ok, err := compareFile(rep, runner, f)
		if err != nil {
			fatal(err)
		}
		if ok {
			loaded++
		}
		if *verbose {
			verdict := "agrees"
			switch {
			case !ok:
				verdict = "not loaded"
			case rep.Unexplained() > before:
				verdict = "differs"
			}
			fmt.Printf("%-44s %s\n", filepath.Base(f), verdict)
		}
	}
	fmt.Printf("compared %d real-world scenarios in %.1fs: %d loaded\n", len(files), time.Since(start).Seconds(), loaded)
	rep.Print(os.Stdout, *maxDiffs)
	if rep.Unexplained() > 0 {
		os.Exit(1)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "realworld:", err)
	os.Exit(2)
}

// compareFile checks one scenario against the answers stored beside it and says
// whether ours loaded it.
func compareFile(rep *compare.Report, runner *ours.Runner, file string) (bool, error) {
	name := filepath.Base(file)
	base := strings.TrimSuffix(file, ".yaml")
	pod, err := header(file)
	if err != nil {
		return false, err
	}
	var upExplain *contract.Explain
	var upSim *contract.Simulate
	if err := readJSON(base+".explain.json", &upExplain); err != nil {
		return false, err
	}
	if err := readJSON(base+".simulate.json", &upSim); err != nil {
		return false, err
	}
	if upExplain == nil && upSim == nil {
		return false, fmt.Errorf("%s: no %s.explain.json or .simulate.json beside it", file, filepath.Base(base))
	}

	// input: upstream accepted every scenario of the corpus.
	var rej *ours.InputRejected
	var sim contract.Simulate
	simErr := runner.Run(&sim, "simulate", file, "--output", "json")
	if errors.As(simErr, &rej) {
		rep.Diff(compare.Diff{File: name, Area: "input", Field: "valid", Ours: "rejected: " + rej.Msg, Upstream: "accepted"})
		return false, nil
	}
	if simErr != nil {
		rep.Fail(name, "", "ours failed: simulate: "+simErr.Error())
		return false, nil
	}
	rep.Agree(name, "", "input")

	if upExplain != nil {
		if pod == "" {
			return true, fmt.Errorf("%s: no `# explain-pod: NAMESPACE/NAME` line for %s.explain.json", file, filepath.Base(base))
		}
		var ex contract.Explain
		if err := runner.Run(&ex, "explain", file, "--pod", pod, "--output", "json"); err != nil {
			rep.Fail(name, pod, "ours failed: explain: "+err.Error())
		} else {
			// No pod of the corpus carries status.nominatedNodeName, so upstream
			// scored every feasible node (compare.Explain's nominated case).
			compare.Explain(rep, name, pod, "", &ex, upExplain)
		}
	}
	if upSim != nil {
		compare.Simulate(rep, name, &sim, upSim, false)
	} else {
		rep.Ambiguous(name, "", "final")
	}
	return true, nil
}

// header reads the explain pod from the file's `# explain-pod:` line.
func header(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "# explain-pod:"); ok {
			return strings.TrimSpace(rest), nil
		}
	}
	return "", sc.Err()
}

// readJSON decodes file into v; a missing file leaves v nil.
func readJSON[T any](file string, v **T) error {
	b, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	*v = new(T)
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(*v); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}
