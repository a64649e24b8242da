package podtopologyspread

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestNew(t *testing.T) {
	zone := api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.DoNotSchedule}
	tests := []struct {
		name          string
		args          any
		wantDefaults  []api.TopologySpreadConstraint
		wantSystem    bool
		wantErrSubstr string
	}{
		{
			name:         "nil args are the v1 defaults: System",
			args:         nil,
			wantDefaults: systemDefaultConstraints,
			wantSystem:   true,
		},
		{
			name:         "System defaulting",
			args:         &config.PodTopologySpreadArgs{DefaultingType: config.SystemDefaulting},
			wantDefaults: systemDefaultConstraints,
			wantSystem:   true,
		},
		{
			name:         "List defaulting keeps the configured constraints",
			args:         &config.PodTopologySpreadArgs{DefaultingType: config.ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{zone}},
			wantDefaults: []api.TopologySpreadConstraint{zone},
		},
		{
			name: "List defaulting without constraints has none",
			args: &config.PodTopologySpreadArgs{DefaultingType: config.ListDefaulting},
		},
		{
			name:          "System defaulting with constraints is invalid",
			args:          &config.PodTopologySpreadArgs{DefaultingType: config.SystemDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{zone}},
			wantErrSubstr: "when .defaultConstraints are not empty",
		},
		{
			name:          "repeated default constraint is invalid",
			args:          &config.PodTopologySpreadArgs{DefaultingType: config.ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{zone, zone}},
			wantErrSubstr: `defaultConstraints[1]: Duplicate value: "{topology.kubernetes.io/zone, DoNotSchedule}"`,
		},
		{
			name: "default constraint with a selector is invalid",
			args: &config.PodTopologySpreadArgs{DefaultingType: config.ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{
				{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: fooSelector},
			}},
			wantErrSubstr: "constraint must not define a selector",
		},
		{
			name:          "wrong args type",
			args:          &config.NodeAffinityArgs{},
			wantErrSubstr: "want args to be of type PodTopologySpreadArgs, got *config.NodeAffinityArgs",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.args, st.NewHandle(nil, nil))
			if tt.wantErrSubstr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrSubstr) {
					t.Fatalf("New error = %v, want it to contain %q", err, tt.wantErrSubstr)
				}
				return
			}
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			pl := p.(*PodTopologySpread)
			if diff := cmp.Diff(tt.wantDefaults, pl.defaultConstraints); diff != "" {
				t.Errorf("default constraints (-want +got):\n%s", diff)
			}
			if pl.systemDefaulted != tt.wantSystem {
				t.Errorf("systemDefaulted = %v, want %v", pl.systemDefaulted, tt.wantSystem)
			}
		})
	}
}
