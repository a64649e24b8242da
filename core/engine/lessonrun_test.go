package engine

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/schedplay/schedplay/core/scenario"
)

// readFile reads a test input or fails the test.
func readFile(t *testing.T, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// runText loads data as file and simulates it.
func runText(t *testing.T, file string, data []byte) (*scenario.Scenario, *Simulation) {
	t.Helper()
	sc, err := scenario.Load(file, data)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := Simulate(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return sc, sim
}

// fewestVictimsFile is the lesson the moved-decision tests edit.
const fewestVictimsFile = "../../examples/preemption-fewest-victims.yaml"

// fewestVictimsMoved returns that lesson as written and with big given the
// preemptor's priority, which can then no longer be a victim: critical
// goes to node-b instead of node-a.
func fewestVictimsMoved(t *testing.T) (data, mutated []byte) {
	t.Helper()
	data = readFile(t, fewestVictimsFile)
	const from = "metadata: {name: big}\nspec:\n  nodeName: node-a\n  priorityClassName: low\n"
	if !bytes.Contains(data, []byte(from)) {
		t.Fatalf("%s no longer has big in class low; update the mutation", fewestVictimsFile)
	}
	return data, bytes.Replace(data, []byte(from), []byte(strings.Replace(from, "priorityClassName: low", "priorityClassName: high", 1)), 1)
}
