// Command gen writes seeded random schedplay scenarios.
//
//	go run ./cmd/gen --seed N --out DIR --count K
//
// Each file names its pod to explain in the annotation schedplay.dev/explain of its
// first document. The same seed always writes the same files.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/schedplay/schedplay/conformance/gen"
)

func main() {
	seed := flag.Uint64("seed", 1, "random seed")
	out := flag.String("out", "", "output directory (created if missing)")
	count := flag.Int("count", 10, "number of scenarios")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gen: --out DIR is required")
		os.Exit(2)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	for i := 0; i < *count; i++ {
		name, data := gen.Scenario(*seed, i)
		if err := os.WriteFile(filepath.Join(*out, name), data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}
