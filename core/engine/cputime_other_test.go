//go:build !unix && !js

package engine

import "time"

// processCPU is unknown here; benchmarks then skip their CPU-time metric.
func processCPU() time.Duration { return 0 }

// threadCPU is unknown here too.
func threadCPU() time.Duration { return 0 }
