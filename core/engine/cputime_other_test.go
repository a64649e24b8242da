//go:build !unix

package engine

import "time"

// processCPU is unknown here; benchmarks then skip their CPU-time metric.
func processCPU() time.Duration { return 0 }
