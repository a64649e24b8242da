// Command schedplay runs schedplay's engine natively: `explain` shows one
// scheduling cycle for a pending pod and `simulate` plays a scenario on a
// simulated clock, as kube-scheduler v1.36 would. Its JSON follows
// docs/contract.md.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/schedplay/schedplay/core/engine"
	"github.com/schedplay/schedplay/core/scenario"
)

const usage = `schedplay: a kube-scheduler v1.36 playground engine

Usage:
  schedplay explain FILE --pod NAMESPACE/NAME [--output json] [--limit NAME=N]
      One scheduling cycle for a pending pod against the cluster at t=0:
      every node's filter verdict or scores, the chosen node(s), and, when
      nothing fits, the FailedScheduling message and the preemption dry run.
  schedplay simulate FILE [--output json | --trace] [--seed N] [--max-events N]
      Runs the scenario on a simulated clock until nothing more can happen:
      the scheduling queue, preemption, graceful termination. Without flags
      prints a timeline; --trace prints one JSON event per line; --output json
      prints the final state of every pod.

FILE may be - to read the scenario from standard input, for example
  kubectl get nodes,pods,pdb,priorityclasses -A -o yaml | schedplay explain - --pod NS/NAME

--limit NAME=N (repeatable) raises a load limit: bytes, depth, width,
aliases, nodes or pods (docs/limits.md); the defaults are the playground's.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without os.Exit, for tests.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	switch args[0] {
	case "explain":
		return explain(args[1:], stdin, stdout, stderr)
	case "simulate":
		return simulate(args[1:], stdin, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "schedplay: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}

// parseArgs accepts the FILE positional argument before or after flags.
func parseArgs(fs *flag.FlagSet, args []string) (string, error) {
	var file string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return "", err
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		if file != "" {
			return "", fmt.Errorf("one scenario file expected, got %q and %q", file, args[0])
		}
		file, args = args[0], args[1:]
	}
	if file == "" {
		return "", errors.New("missing scenario FILE")
	}
	return file, nil
}

// stdinName is how positions in a scenario read from standard input are
// named, as compilers name it.
const stdinName = "<stdin>"

// limitsFlag registers --limit on fs; its value starts at the playground's.
func limitsFlag(fs *flag.FlagSet) *scenario.Limits {
	lim := scenario.DefaultLimits
	fs.Var(&lim, "limit", "raise a load limit, as NAME=N (bytes, depth, width, aliases, nodes, pods); repeatable")
	return &lim
}

// load reads and loads the scenario; file "-" is standard input. It reads
// no more than one byte past the byte limit: the loader refuses what is
// over it, and a huge input is not read whole for that.
func load(file string, lim *scenario.Limits, stdin io.Reader, stderr io.Writer) (*scenario.Scenario, bool) {
	var data []byte
	var err error
	if file == "-" {
		file = stdinName
		data, err = io.ReadAll(io.LimitReader(stdin, int64(lim.Bytes)+1))
	} else {
		data, err = readLimited(file, lim.Bytes)
	}
	if err != nil {
		fmt.Fprintf(stderr, "schedplay: reading scenario: %v\n", err)
		return nil, false
	}
	s, err := scenario.LoadLimited(file, data, *lim)
	if err != nil {
		var list scenario.ErrorList
		if errors.As(err, &list) {
			for _, d := range list {
				fmt.Fprintln(stderr, d.Error())
			}
		} else {
			fmt.Fprintf(stderr, "schedplay: %v\n", err)
		}
		return nil, false
	}
	for _, w := range s.Warnings {
		fmt.Fprintln(stderr, w.Error())
	}
	return s, true
}

func explain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	podKey := fs.String("pod", "", "the pending pod to explain, as NAMESPACE/NAME")
	lim := limitsFlag(fs)
	output := fs.String("output", "text", "output format: text or json")
	file, err := parseArgs(fs, args)
	if err != nil {
		fmt.Fprintf(stderr, "schedplay explain: %v\n", err)
		return 2
	}
	if *podKey == "" {
		fmt.Fprintln(stderr, "schedplay explain: --pod NAMESPACE/NAME is required")
		return 2
	}
	if *output != "text" && *output != "json" {
		fmt.Fprintf(stderr, "schedplay explain: --output must be text or json, not %q\n", *output)
		return 2
	}
	s, ok := load(file, lim, stdin, stderr)
	if !ok {
		return 1
	}
	ex, err := engine.Explain(s, *podKey)
	if err != nil {
		fmt.Fprintf(stderr, "schedplay explain: %v\n", err)
		return 1
	}
	if *output == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(ex); err != nil {
			fmt.Fprintf(stderr, "schedplay explain: writing JSON: %v\n", err)
			return 1
		}
		return 0
	}
	writeExplainReport(stdout, s, ex)
	return 0
}

func simulate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	output := fs.String("output", "text", "output format: text or json")
	trace := fs.Bool("trace", false, "print the event log, one JSON object per line")
	seed := fs.Uint64("seed", 0, "seed for upstream's random choices")
	maxEvents := fs.Int("max-events", 0, "stop after this many events (0: the default budget)")
	lim := limitsFlag(fs)
	file, err := parseArgs(fs, args)
	if err != nil {
		fmt.Fprintf(stderr, "schedplay simulate: %v\n", err)
		return 2
	}
	if *output != "text" && *output != "json" {
		fmt.Fprintf(stderr, "schedplay simulate: --output must be text or json, not %q\n", *output)
		return 2
	}
	s, ok := load(file, lim, stdin, stderr)
	if !ok {
		return 1
	}
	sim, err := engine.Simulate(s, engine.Options{Seed: *seed, MaxEvents: *maxEvents})
	// A run stopped by its event budget still prints the trace or timeline
	// of what it did (exit 1); --output json, the contract's final state,
	// prints nothing since there is none.
	if err != nil && (sim == nil || !errors.Is(err, engine.ErrEventBudget) || *output == "json" && !*trace) {
		fmt.Fprintf(stderr, "schedplay simulate: %v\n", err)
		return 1
	}
	if err != nil {
		defer fmt.Fprintf(stderr, "schedplay simulate: %v\n", err)
		code := writeSimulation(stdout, stderr, sim, *trace, *output)
		return max(code, 1)
	}
	return writeSimulation(stdout, stderr, sim, *trace, *output)
}

// writeSimulation prints a run as --trace, --output json or the timeline.
func writeSimulation(stdout, stderr io.Writer, sim *engine.Simulation, trace bool, output string) int {
	switch {
	case trace:
		if err := engine.WriteTraceJSON(stdout, sim.Trace()); err != nil {
			fmt.Fprintf(stderr, "schedplay simulate: %v\n", err)
			return 1
		}
	case output == "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sim.Result()); err != nil {
			fmt.Fprintf(stderr, "schedplay simulate: writing JSON: %v\n", err)
			return 1
		}
	default:
		if err := writeTimeline(stdout, sim); err != nil {
			fmt.Fprintf(stderr, "schedplay simulate: writing the timeline: %v\n", err)
			return 1
		}
	}
	return 0
}

// readLimited reads a file, but no more than one byte past limit.
func readLimited(file string, limit int) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, int64(limit)+1))
}
