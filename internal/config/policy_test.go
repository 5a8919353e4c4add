package config

import (
	"slices"
	"testing"

	"github.com/worldcook/worldcook/simulate"
)

// TestPolicyEnum: --policy accepts exactly the policies simulate runs, so
// that a policy added there is one the command line can ask for, and
// seed still means budgeted.
func TestPolicyEnum(t *testing.T) {
	var policy *Setting
	for _, s := range Declared("simulate") {
		if s.Flag == "policy" {
			policy = s
		}
	}
	if policy == nil {
		t.Fatal("simulate has no --policy setting")
	}
	var want []string
	for _, p := range simulate.Policies() {
		want = append(want, string(p))
	}
	if !slices.Equal(policy.Values, want) {
		t.Errorf("--policy accepts %q, simulate runs %q", policy.Values, want)
	}
	if got := policy.aliases["seed"]; got != string(simulate.Budgeted) {
		t.Errorf("--policy seed means %q, want %q", got, simulate.Budgeted)
	}
}
