package upstream

import (
	"fmt"

	"github.com/schedplay/schedplay/conformance/contract"
	"github.com/schedplay/schedplay/conformance/internal/scenario"
)

// Simulate runs the real scheduler to quiescence.
func Simulate(sc *scenario.Scenario) (*contract.Simulate, error) {
	return nil, fmt.Errorf("simulate: not implemented yet")
}
