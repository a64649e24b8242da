package plugins

import (
	"testing"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/internal/st"
)

// TestRegistryCoversDefaultProfile builds every default-profile plugin with
// its default args and checks it reports the name it is registered under.
func TestRegistryCoversDefaultProfile(t *testing.T) {
	reg := NewInTreeRegistry()
	h := st.NewHandle(nil, []*api.Node{st.MakeNode().Name("n").Obj()})
	for _, p := range config.DefaultMultiPoint() {
		t.Run(p.Name, func(t *testing.T) {
			factory, ok := reg[p.Name]
			if !ok {
				t.Fatalf("no factory for %s", p.Name)
			}
			pl, err := factory(config.NewDefaultArgs(p.Name), h)
			if err != nil {
				t.Fatalf("building %s: %v", p.Name, err)
			}
			if pl.Name() != p.Name {
				t.Errorf("plugin registered as %s calls itself %s", p.Name, pl.Name())
			}
		})
	}
	if len(reg) != len(config.DefaultMultiPoint()) {
		t.Errorf("registry has %d plugins, default profile %d", len(reg), len(config.DefaultMultiPoint()))
	}
}
