// Command choices checks, at kube-scheduler's default parallelism, that the
// choices upstream makes are among the ones schedplay's explain says it could
// make. With several workers upstream's node search finds its feasible nodes
// in an order that depends on timing, so two runs differ and no single answer
// can be compared pod for pod (compare checks those with `parallelism: 1`).
//
//	go run ./cmd/choices --ours BIN [--runs 5] FILE...
//
// For each file: the scenario's parallelism is set back to the default (16),
// upstream's simulate runs --runs times, and the first pending pod (the one
// the first cycle schedules: the file's `schedplay.dev/explain` pod, which
// must be first in the queue) must be bound, in every run, to a node of ours'
// `explain` for that pod against the t=0 cluster: `search.couldTake` (the
// nodes some search order makes the best of those found) or, when the search
// finds every feasible node, `selected` (the nodes tied at the top). Later
// cycles are not checked: after the first, each run's cluster differs.
// It also prints how many distinct final states the runs gave.
// Exit 1 when an upstream choice is outside ours' set, 2 on errors.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/schedplay/schedplay/conformance/internal/ours"
	"github.com/schedplay/schedplay/conformance/internal/scenario"
	"github.com/schedplay/schedplay/conformance/internal/upstream"
)

// explained is the part of ours' explain JSON this check reads.
type explained struct {
	Selected []string `json:"selected"`
	Nodes    []struct {
		Feasible bool `json:"feasible"`
	} `json:"nodes"`
	Search *struct {
		Want      int      `json:"want"`
		Feasible  int      `json:"feasible"`
		CouldTake []string `json:"couldTake"`
	} `json:"search"`
}

func main() {
	bin := flag.String("ours", "", "schedplay binary")
	runs := flag.Int("runs", 5, "upstream runs per file")
	flag.Parse()
	if *bin == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: choices --ours BIN [--runs N] FILE...")
		os.Exit(2)
	}
	runner := &ours.Runner{Bin: *bin, Timeout: 2 * time.Minute}
	bad := 0
	for _, f := range flag.Args() {
		n, err := check(runner, f, *runs)
		if err != nil {
			fmt.Fprintln(os.Stderr, "choices:", err)
			os.Exit(2)
		}
		bad += n
	}
	if bad > 0 {
		os.Exit(1)
	}
}

func check(runner *ours.Runner, file string, runs int) (int, error) {
	sc, err := scenario.Load(file)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", file, err)
	}
	if sc.Explain == "" {
		return 0, fmt.Errorf("%s: no schedplay.dev/explain pod", file)
	}
	sc.Config.Parallelism = 16 // kube-scheduler's default
	var ex explained
	if err := runner.Run(&ex, "explain", file, "--pod", sc.Explain, "--output", "json"); err != nil {
		return 0, fmt.Errorf("%s: ours explain: %w", file, err)
	}
	allowed, why := ex.Selected, "tied at the top (the search finds every feasible node)"
	if ex.Search != nil && len(ex.Search.CouldTake) > 0 {
		allowed = ex.Search.CouldTake
		feasible := 0
		for _, n := range ex.Nodes {
			if n.Feasible {
				feasible++
			}
		}
		why = fmt.Sprintf("could be the best of %d found among %d feasible", ex.Search.Want, feasible)
	}
	bad := 0
	finals := map[string]int{}
	taken := map[string]int{}
	for r := 0; r < runs; r++ {
		s, err := upstream.Simulate(sc)
		if err != nil {
			return 0, fmt.Errorf("%s: upstream simulate: %w", file, err)
		}
		j, _ := json.Marshal(s.Pods)
		finals[string(bytes.TrimSpace(j))]++
		for _, p := range s.Pods {
			if p.Namespace+"/"+p.Name != sc.Explain {
				continue
			}
			taken[p.Node]++
			if !slices.Contains(allowed, p.Node) {
				bad++
				fmt.Printf("%s run %d: upstream put %s on %q, not one of ours' %d nodes (%s)\n", file, r+1, sc.Explain, p.Node, len(allowed), why)
			}
		}
	}
	fmt.Printf("%s: %s: ours allows %d node(s), %s; %d upstream runs took %v; %d distinct final states\n",
		file, sc.Explain, len(allowed), why, runs, taken, len(finals))
	return bad, nil
}
