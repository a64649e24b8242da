// Command upstream runs a schedplay scenario file through the upstream kube-scheduler
// code (k8s.io/kubernetes v1.36) and prints the JSON of the conformance contract.
//
//	upstream explain FILE --pod NS/NAME [--output json]
//	upstream simulate FILE [--output json]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/schedplay/schedplay/conformance/internal/scenario"
	"github.com/schedplay/schedplay/conformance/internal/upstream"
)

func usage() {
	fmt.Fprintln(os.Stderr, "usage: upstream explain FILE --pod NAMESPACE/NAME [--output json]\n       upstream simulate FILE [--output json]")
	os.Exit(2)
}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	cmd := os.Args[1]
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	pod := fs.String("pod", "", "NAMESPACE/NAME of the pending pod to explain")
	output := fs.String("output", "json", "output format (only json)")
	// Accept flags before and after the file name.
	var file string
	args := os.Args[2:]
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			os.Exit(2)
		}
		args = fs.Args()
		if len(args) > 0 {
			if file != "" {
				fmt.Fprintf(os.Stderr, "upstream: unexpected argument %q\n", args[0])
				os.Exit(2)
			}
			file = args[0]
			args = args[1:]
		}
	}
	if file == "" {
		usage()
	}
	if *output != "json" {
		fmt.Fprintf(os.Stderr, "upstream: unsupported --output %q (only json)\n", *output)
		os.Exit(2)
	}
	sc, err := scenario.Load(file)
	if err != nil {
		fail(err)
	}
	var result any
	switch cmd {
	case "explain":
		key := *pod
		if key == "" {
			key = sc.Explain
		}
		if key == "" {
			fmt.Fprintln(os.Stderr, "upstream: explain needs --pod NAMESPACE/NAME")
			os.Exit(2)
		}
		result, err = upstream.Explain(sc, key)
	case "simulate":
		result, err = upstream.Simulate(sc)
	default:
		usage()
	}
	if err != nil {
		fail(err)
	}
	b, err := json.MarshalIndent(result, "", "  ")
	if err != nil {
		fail(err)
	}
	os.Stdout.Write(append(b, '\n'))
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "upstream: %v\n", err)
	if _, ok := err.(*scenario.InputError); ok {
		os.Exit(1)
	}
	os.Exit(3)
}
