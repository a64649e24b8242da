package noderesources

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/labels"
)

// ValidateNodeResourcesFitArgs checks the args as upstream's validation does
// (messages follow its field paths).
func ValidateNodeResourcesFitArgs(a *config.NodeResourcesFitArgs) error {
	var errs []error
	for i, r := range a.IgnoredResources {
		if !labels.IsQualifiedName(r) {
			errs = append(errs, fmt.Errorf("ignoredResources[%d]: Invalid value: %q: must be a valid label name", i, r))
		}
	}
	for i, g := range a.IgnoredResourceGroups {
		if strings.Contains(g, "/") {
			errs = append(errs, fmt.Errorf("ignoredResourceGroups[%d]: Invalid value: %q: resource group name can't contain '/'", i, g))
		}
		if !labels.IsQualifiedName(g) {
			errs = append(errs, fmt.Errorf("ignoredResourceGroups[%d]: Invalid value: %q: must be a valid label name", i, g))
		}
	}
	s := a.ScoringStrategy
	if s == nil {
		return errors.Join(append(errs, errors.New("scoringStrategy: Required value: ScoringStrategy field is required"))...)
	}
	switch s.Type {
	case config.LeastAllocated, config.MostAllocated, config.RequestedToCapacityRatio:
	default:
		errs = append(errs, fmt.Errorf(`scoringStrategy.type: Unsupported value: %q: supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"`, s.Type))
	}
	for i, r := range s.Resources {
		if r.Weight <= 0 || r.Weight > 100 {
			errs = append(errs, fmt.Errorf("scoringStrategy.resources[%d].weight: Invalid value: %d: resource weight of %v not in valid range (0, 100]", i, r.Weight, r.Name))
		}
	}
	switch {
	case s.Type == config.RequestedToCapacityRatio && s.RequestedToCapacityRatio == nil:
		errs = append(errs, errors.New("scoringStrategy.requestedToCapacityRatio: Required value: must be specified when type is RequestedToCapacityRatio"))
	case s.Type == config.RequestedToCapacityRatio:
		errs = append(errs, validateFunctionShape(s.RequestedToCapacityRatio.Shape)...)
	case s.RequestedToCapacityRatio != nil:
		errs = append(errs, errors.New("scoringStrategy.requestedToCapacityRatio: Forbidden: must be nil when type is not RequestedToCapacityRatio"))
	}
	return errors.Join(errs...)
}

func validateFunctionShape(shape []config.UtilizationShapePoint) []error {
	const path = "scoringStrategy.requestedToCapacityRatio.shape"
	if len(shape) == 0 {
		return []error{fmt.Errorf("%s: Required value: at least one point must be specified", path)}
	}
	var errs []error
	for i := 1; i < len(shape); i++ {
		if shape[i-1].Utilization >= shape[i].Utilization {
			errs = append(errs, fmt.Errorf("%s[%d].utilization: Invalid value: %d: values must be sorted in increasing order", path, i, shape[i].Utilization))
			break
		}
	}
	for i, p := range shape {
		if p.Utilization < 0 || p.Utilization > maxUtilization {
			errs = append(errs, fmt.Errorf("%s[%d].utilization: Invalid value: %d: not in valid range [0, %d]", path, i, p.Utilization, maxUtilization))
		}
		if p.Score < 0 || p.Score > maxCustomPriorityScore {
			errs = append(errs, fmt.Errorf("%s[%d].score: Invalid value: %d: not in valid range [0, %d]", path, i, p.Score, maxCustomPriorityScore))
		}
	}
	return errs
}

// ValidateNodeResourcesBalancedAllocationArgs rejects duplicate resources
// and any weight but 1 (upstream ignores weights here and says so).
func ValidateNodeResourcesBalancedAllocationArgs(a *config.NodeResourcesBalancedAllocationArgs) error {
	var errs []error
	seen := map[string]bool{}
	for i, r := range a.Resources {
		if seen[r.Name] {
			errs = append(errs, fmt.Errorf("resources[%d].name: Duplicate value: %q", i, r.Name))
		}
		seen[r.Name] = true
		if r.Weight != 1 {
			errs = append(errs, fmt.Errorf("resources[%d].weight: Invalid value: %d: must be 1", i, r.Weight))
		}
	}
	return errors.Join(errs...)
}
