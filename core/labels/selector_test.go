package labels

import (
	"testing"

	"github.com/schedplay/schedplay/core/api"
)

// LabelSelectorAsSelector validates requirements as upstream's
// labels.NewRequirement does, the same checks node selectors get.
func TestLabelSelectorAsSelectorValidation(t *testing.T) {
	tests := []struct {
		name    string
		expr    api.LabelSelectorRequirement
		wantErr bool
	}{
		{"In with values", api.LabelSelectorRequirement{Key: "app", Operator: "In", Values: []string{"web"}}, false},
		{"In without values", api.LabelSelectorRequirement{Key: "app", Operator: "In"}, true},
		{"Exists with a value", api.LabelSelectorRequirement{Key: "app", Operator: "Exists", Values: []string{"x"}}, true},
		{"invalid label value", api.LabelSelectorRequirement{Key: "app", Operator: "NotIn", Values: []string{"not valid!"}}, true},
		{"Gt is for node selectors only", api.LabelSelectorRequirement{Key: "n", Operator: "Gt", Values: []string{"1"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LabelSelectorAsSelector(&api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{tt.expr}})
			if (err != nil) != tt.wantErr {
				t.Errorf("err = %v, want error %v", err, tt.wantErr)
			}
		})
	}
}
