package scenario

import (
	"reflect"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
)

// enums are the values the validator accepts for each enumerated string
// type, as upstream's validation lists them; the validator and the editor's
// schema (schema.go) both read this table.
var enums = map[reflect.Type][]string{
	reflect.TypeFor[api.TaintEffect]():                               {"NoExecute", "NoSchedule", "PreferNoSchedule"},
	reflect.TypeFor[api.TolerationOperator]():                        {"Equal", "Exists"},
	reflect.TypeFor[api.PreemptionPolicy]():                          {"Never", "PreemptLowerPriority"},
	reflect.TypeFor[api.Protocol]():                                  {"SCTP", "TCP", "UDP"},
	reflect.TypeFor[api.ContainerRestartPolicy]():                    {"Always"},
	reflect.TypeFor[api.LabelSelectorOperator]():                     {"In", "NotIn", "Exists", "DoesNotExist"},
	reflect.TypeFor[api.NodeSelectorOperator]():                      {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"},
	reflect.TypeFor[api.UnsatisfiableConstraintAction]():             {"DoNotSchedule", "ScheduleAnyway"},
	reflect.TypeFor[api.NodeInclusionPolicy]():                       {"Honor", "Ignore"},
	reflect.TypeFor[config.PodTopologySpreadConstraintsDefaulting](): {"List", "System"},
	reflect.TypeFor[config.ScoringStrategyType]():                    {"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"},
}

// enumOf returns the accepted values of T.
func enumOf[T any]() []string {
	return enums[reflect.TypeFor[T]()]
}
