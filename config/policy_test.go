package config

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/simulate"
)

// TestPolicyEnum: --policy accepts exactly the policies simulate runs, so
// that a policy added there is one the command line can ask for.
func TestPolicyEnum(t *testing.T) {
	f, ok := reflect.TypeFor[Simulate]().FieldByName("Policy")
	if !ok {
		t.Fatal("Simulate has no Policy setting")
	}
	var names []string
	for _, v := range strings.Split(f.Tag.Get("enum"), ",") {
		name, _, _ := strings.Cut(v, "|") // the rest are aliases
		names = append(names, name)
	}
	var want []string
	for _, p := range simulate.Policies() {
		want = append(want, string(p))
	}
	if !slices.Equal(names, want) {
		t.Errorf("--policy enum %q, simulate runs %q: update the enum tag of Simulate.Policy in config/config.go", names, want)
	}
}
