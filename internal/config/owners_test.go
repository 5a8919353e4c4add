package config

import (
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// TestOwnedFactsComeFromTheirOwner: a tag that names an owner's fact
// takes the value registered for it, whatever the value is, so a setting
// changes with its owner; and the real settings carry their owners' facts.
func TestOwnedFactsComeFromTheirOwner(t *testing.T) {
	type section struct {
		Workers int      `flag:"workers" default:"streaming.DefaultRetry.Retries" unit:"count" min:"1" max:"streaming.MaxConcurrency" help:"workers ({min} to {max})"`
		Modes   string   `flag:"modes" default:"streaming.DistanceBounds" enum:"streaming.DistanceModes"`
		Formats []string `flag:"formats" values:"report.Formats" help:"one of {values}"`
	}
	saved := maps.Clone(owned)
	t.Cleanup(func() { owned = saved })
	owned["streaming.MaxConcurrency"] = 7
	owned["streaming.DefaultRetry.Retries"] = 5
	owned["streaming.DistanceModes"] = []string{"near|close", "far"}
	owned["streaming.DistanceBounds"] = "far"
	owned["report.Formats"] = []string{"a", "b"}
	st := reflect.TypeOf(section{})
	workers := declareField("test", st.Field(0), []int{0, 0})
	if hi := workers.max; hi == nil || *hi != 7 || workers.Default != "5" || workers.Help != "workers (1 to 7)" {
		t.Errorf("workers: max %v, default %q, help %q; want 7, 5 and the range from them", hi, workers.Default, workers.Help)
	}
	modes := declareField("test", st.Field(1), []int{0, 1})
	if strings.Join(modes.Values, ",") != "near,far" || modes.aliases["close"] != "near" || modes.Default != "far" || !modes.Closed {
		t.Errorf("modes: values %v, aliases %v, default %q", modes.Values, modes.aliases, modes.Default)
	}
	if formats := declareField("test", st.Field(2), []int{0, 2}); strings.Join(formats.Values, ",") != "a,b" || formats.Closed || formats.Help != "one of a, b" {
		t.Errorf("formats: values %v, closed %v, help %q", formats.Values, formats.Closed, formats.Help)
	}

	owned = saved
	setting := func(section, key string) *Setting { return lookup(section, key) }
	if hi := setting("simulate", "frameBudgetMs").max; hi == nil || *hi != streaming.MaxFrameBudgetMS {
		t.Errorf("simulate.frameBudgetMs max %v, streaming.MaxFrameBudgetMS %v", hi, streaming.MaxFrameBudgetMS)
	}
	if got := setting("simulate", "policy").Values; !slices.Equal(got, []string{string(simulate.Budgeted), string(simulate.Estella)}) {
		t.Errorf("simulate.policy values %v", got)
	}
	if got, want := setting("simulate", "retryTimeout").Default, strconv.Itoa(streaming.DefaultRetry().TimeoutFrames); got != want {
		t.Errorf("simulate.retryTimeout default %s, streaming.DefaultRetry has %s", got, want)
	}
}

// TestOwnedNames: a tag naming a fact nobody registered is refused when
// the package loads, and every registered fact is named by some tag.
func TestOwnedNames(t *testing.T) {
	type section struct {
		Bad int `flag:"bad" unit:"count" max:"streaming.MaxConcurency"`
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), `test.bad: max:"streaming.MaxConcurency" names no fact of its owner`) {
				t.Errorf("an unknown name: %v", r)
			}
		}()
		declareField("test", reflect.TypeOf(section{}).Field(0), []int{0, 0})
	}()

	named := map[string]bool{}
	var walk func(reflect.Type)
	walk = func(rt reflect.Type) {
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			if f.Type.Kind() == reflect.Struct && (f.Anonymous || f.Tag.Get("section") != "") {
				walk(f.Type)
				continue
			}
			for _, key := range []string{"default", "enum", "values", "min", "max"} {
				if v := f.Tag.Get(key); ownedName.MatchString(v) {
					named[v] = true
				}
			}
		}
	}
	walk(configType)
	for name := range owned {
		if !named[name] {
			t.Errorf("owned[%q] is named by no setting's tag", name)
		}
	}
}
