// Command compare runs schedplay's CLI ("ours") and the upstream harness on scenario
// files and prints agreement counts per area: input, filter, score, selection,
// message, preemption, final (simulate).
//
//	go run ./cmd/compare [--ours BIN] [--root DIR] [--examples DIR] [-n N] [--seed S]
//	                     [--allowlist FILE] [--diffs K] [--no-simulate] [FILE...]
//
// Without --ours it builds ROOT/cmd/schedplay (ROOT defaults to ..). Files named on the
// command line are compared in addition to ROOT/examples/*.yaml and N generated ones.
// It exits 1 when an unexplained disagreement remains (see DIVERGENCES.md and the
// allowlist), 0 otherwise.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/schedplay/schedplay/conformance/compare"
	"github.com/schedplay/schedplay/conformance/contract"
	"github.com/schedplay/schedplay/conformance/gen"
	"github.com/schedplay/schedplay/conformance/internal/ours"
	"github.com/schedplay/schedplay/conformance/internal/scenario"
	"github.com/schedplay/schedplay/conformance/internal/upstream"
)

func main() {
	oursFlag := flag.String("ours", "", "schedplay binary (default: build ROOT/cmd/schedplay)")
	root := flag.String("root", "..", "root of the schedplay repository")
	examples := flag.String("examples", "", "directory of example scenarios (default ROOT/examples)")
	n := flag.Int("n", 20, "number of generated scenarios")
	seed := flag.Uint64("seed", 1, "generator seed")
	allowFile := flag.String("allowlist", "", "allowlist JSON (default: allowlist.json beside this module)")
	maxDiffs := flag.Int("diffs", 15, "differences to print")
	noSim := flag.Bool("no-simulate", false, "skip simulate")
	oursOptional := flag.Bool("ours-optional", false, "exit 0 when ours cannot be built at all")
	timeout := flag.Duration("timeout", 2*time.Minute, "timeout for one run of ours")
	verbose := flag.Bool("v", false, "print per-scenario progress")
	noExamples := flag.Bool("no-examples", false, "do not compare ROOT/examples")
	flag.Parse()

	start := time.Now()
	if *examples == "" {
		*examples = filepath.Join(*root, "examples")
	}
	if *allowFile == "" {
		*allowFile = "allowlist.json"
	}
	allow, err := compare.LoadAllowlist(*allowFile)
	if err != nil {
		fatal(err)
	}

	var files []string
	files = append(files, flag.Args()...)
	var ex []string
	if !*noExamples {
		ex, _ = filepath.Glob(filepath.Join(*examples, "*.yaml"))
	}
	sort.Strings(ex)
	files = append(files, ex...)
	if *n > 0 {
		dir, err := os.MkdirTemp("", "schedplay-gen-")
		if err != nil {
			fatal(err)
		}
		defer os.RemoveAll(dir)
		for i := 0; i < *n; i++ {
			name, data := gen.Scenario(*seed, i)
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				fatal(err)
			}
			files = append(files, p)
		}
	}

	runner := &ours.Runner{Bin: *oursFlag, Timeout: *timeout}
	if runner.Bin == "" {
		bin, err := buildOurs(*root)
		if err != nil {
			runner.BuildErr = err
			fmt.Printf("ours failed: cannot build %s/cmd/schedplay: %v\n", *root, ours.FirstLine(err.Error()))
		} else {
			runner.Bin = bin
			defer os.RemoveAll(filepath.Dir(bin))
		}
	}

	rep := compare.NewReport(allow)
	for _, f := range files {
		t0 := time.Now()
		compareFile(rep, runner, f, !*noSim)
		if *verbose {
			fmt.Fprintf(os.Stderr, "%s: %.2fs\n", f, time.Since(t0).Seconds())
		}
	}
	fmt.Printf("compared %d scenario files in %.1fs (examples: %d, generated: %d, seed %d)\n",
		len(files), time.Since(start).Seconds(), len(ex), *n, *seed)
	rep.Print(os.Stdout, *maxDiffs)
	if runner.BuildErr != nil && *oursOptional {
		fmt.Println("ours could not be built; --ours-optional: exit 0")
		return
	}
	if rep.Unexplained() > 0 {
		os.Exit(1)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "compare:", err)
	os.Exit(2)
}

func buildOurs(root string) (string, error) {
	dir, err := os.MkdirTemp("", "schedplay-ours-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "schedplay")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/schedplay")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("%v: %s", err, out)
	}
	return bin, nil
}

func compareFile(rep *compare.Report, runner *ours.Runner, file string, simulate bool) {
	name := filepath.Base(file)
	sc, upErr := scenario.Load(file)
	var inputErr *scenario.InputError
	if upErr != nil && !errors.As(upErr, &inputErr) {
		rep.Fail(name, "", "upstream failed: "+upErr.Error())
		return
	}
	var pods []string
	if sc != nil {
		if sc.Explain != "" {
			pods = []string{sc.Explain}
		} else {
			for _, p := range sc.Pods {
				if p.Spec.NodeName == "" && p.DeletionTimestamp == nil && p.Status.Phase != "Succeeded" && p.Status.Phase != "Failed" {
					pods = append(pods, p.Namespace+"/"+p.Name)
				}
			}
		}
	}
	if upErr != nil {
		// Upstream rejects the input: ours must reject it too.
		var ex contract.Explain
		err := runner.Run(&ex, "simulate", file, "--output", "json")
		var rej *ours.InputRejected
		switch {
		case errors.As(err, &rej):
			rep.Agree(name, "", "input")
		case err != nil:
			rep.Fail(name, "", "ours failed: "+err.Error())
		default:
			rep.Diff(compare.Diff{File: name, Area: "input", Field: "valid", Ours: "accepted", Upstream: "rejected: " + upErr.Error()})
		}
		return
	}
	inputChecked := false
	// oursRan classifies the outcome of a run of ours on a valid input: false when it
	// could not be compared (recorded as failure or input difference).
	oursRan := func(pk, what string, err error) bool {
		var rej *ours.InputRejected
		if errors.As(err, &rej) {
			if !inputChecked {
				inputChecked = true
				rep.Diff(compare.Diff{File: name, Area: "input", Field: "valid", Ours: "rejected: " + rej.Msg, Upstream: "accepted"})
			}
			return false
		}
		if err != nil {
			rep.Fail(name, pk, "ours failed: "+what+": "+err.Error())
			return false
		}
		if !inputChecked {
			inputChecked = true
			rep.Agree(name, "", "input")
		}
		return true
	}

	for _, pk := range pods {
		up1, err1 := upstream.Explain(sc, pk)
		if err1 != nil {
			rep.Fail(name, pk, "upstream failed: "+err1.Error())
			continue
		}
		up2, err2 := upstream.Explain(sc, pk)
		ambiguous := err2 != nil || !sameJSON(up1, up2)
		var o contract.Explain
		if !oursRan(pk, "explain", runner.Run(&o, "explain", file, "--pod", pk, "--output", "json")) {
			continue
		}
		if ambiguous {
			rep.Ambiguous(name, pk, "filter", "score", "selection", "message", "preemption")
			rep.Note(name, pk, "two upstream explain runs differ: "+firstDiff(up1, up2, err2))
			continue
		}
		nnn := ""
		if p := sc.Pod(pk); p != nil {
			nnn = p.Status.NominatedNodeName
		}
		compare.Explain(rep, name, pk, nnn, &o, up1)
	}

	if !simulate {
		return
	}
	s1, err1 := upstream.Simulate(sc)
	if err1 != nil {
		rep.Fail(name, "", "upstream failed: simulate: "+err1.Error())
		return
	}
	s2, err2 := upstream.Simulate(sc)
	var o contract.Simulate
	// A bounded budget: with workload controllers a run can livelock (a victim's
	// replacement takes the space its preemptor freed, and is preempted in turn).
	simErr := runner.Run(&o, "simulate", file, "--output", "json", "--max-events", fmt.Sprint(SimMaxEvents))
	var rej *ours.InputRejected
	if errors.As(simErr, &rej) && strings.Contains(rej.Msg, "event budget exhausted") && sc.HasWorkloads() {
		rep.Check("final", []compare.Diff{{File: name, Area: "final", Field: compare.FieldControllers,
			Ours: rej.Msg, Upstream: "no workload controllers run"}})
		return
	}
	if !oursRan("", "simulate", simErr) {
		return
	}
	if len(s1.Ambiguities) > 0 || err2 != nil || !sameJSON(s1, s2) {
		rep.Ambiguous(name, "", "final")
		why := strings.Join(s1.Ambiguities, "; ")
		if why == "" {
			why = "two upstream simulate runs differ: " + firstDiff(s1, s2, err2)
		}
		rep.Note(name, "", why)
		return
	}
	compare.Simulate(rep, name, &o, s1, sc.Timeline)
}

// SimMaxEvents is the event budget given to ours' simulate.
const SimMaxEvents = 20000

func sameJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// firstDiff describes the first line where the JSON of two upstream runs differs.
func firstDiff(a, b any, err error) string {
	if err != nil {
		return err.Error()
	}
	ja, _ := json.MarshalIndent(a, "", " ")
	jb, _ := json.MarshalIndent(b, "", " ")
	la, lb := strings.Split(string(ja), "\n"), strings.Split(string(jb), "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d: %s vs %s", i+1, strings.TrimSpace(la[i]), strings.TrimSpace(lb[i]))
		}
	}
	return "length differs"
}
