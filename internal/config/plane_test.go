package config

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// resolveCook resolves as `worldcook cook` does: the global settings on
// one flag set (the root's persistent flags), cook's on its own.
func resolveCook(t *testing.T, file string, args ...string) *Config {
	t.Helper()
	global := pflag.NewFlagSet("worldcook", pflag.ContinueOnError)
	Register("", global)
	local := pflag.NewFlagSet("cook", pflag.ContinueOnError)
	Register("cook", local)
	local.AddFlagSet(global) // as cobra merges them: the local --plane wins
	if err := local.Parse(args); err != nil {
		t.Fatal(err)
	}
	l := NewLoader()
	l.Bind("", global)
	l.Bind("cook", local)
	cfg, err := l.Resolve(file)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestTopLevelPlane(t *testing.T) {
	top := writeConfig(t, "plane: xy\n")
	both := writeConfig(t, "plane: xy\ncook:\n  plane: xz\n")
	for _, tc := range []struct {
		name      string
		file, env string
		args      []string
		// want is every section's plane; cook's origin as config prints it.
		want       [4]string
		cookOrigin string
		cookName   string
	}{
		{name: "default", want: [4]string{"xz", "xz", "xz", "xz"}, cookOrigin: "default", cookName: "--plane"},
		{name: "top level sets every section", file: top, want: [4]string{"xy", "xy", "xy", "xy"},
			cookOrigin: top + ":1:8: plane", cookName: top + ":1:8: plane"},
		{name: "a section overrides in the same file", file: both, want: [4]string{"xz", "xy", "xy", "xy"},
			cookOrigin: both + ":3", cookName: both + ":3:10: cook.plane"},
		{name: "the top-level variable beats the file", file: both, env: "xy", want: [4]string{"xy", "xy", "xy", "xy"},
			cookOrigin: "env WORLDCOOK_PLANE", cookName: "WORLDCOOK_PLANE"},
		{name: "the command's flag beats all", file: top, env: "xy", args: []string{"--plane", "xz"}, want: [4]string{"xz", "xy", "xy", "xy"},
			cookOrigin: "flag --plane", cookName: "--plane"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("WORLDCOOK_PLANE", tc.env)
			cfg := resolveCook(t, tc.file, tc.args...)
			got := [4]string{cfg.Cook.Plane, cfg.Validate.Plane, cfg.Simulate.Plane, cfg.Init.Plane}
			if got != tc.want {
				t.Errorf("planes (cook, validate, simulate, init) %v, want %v", got, tc.want)
			}
			var origin string
			for _, v := range cfg.Values("cook") {
				if v.Setting.Path() == "cook.plane" {
					origin = v.Origin.String()
				}
			}
			if origin != tc.cookOrigin {
				t.Errorf("cook.plane origin %q, want %q", origin, tc.cookOrigin)
			}
			if n := cfg.Cook.Name(&cfg.Cook.Plane); n != tc.cookName {
				t.Errorf("cook.plane named %q, want %q", n, tc.cookName)
			}
		})
	}
}

func TestOnlyPlaneInherits(t *testing.T) {
	var got []string
	for _, s := range declared {
		if g := s.Inherits(); g != nil {
			got = append(got, s.Path()+"<"+g.Path())
		}
	}
	want := "cook.plane<plane validate.plane<plane simulate.plane<plane init.plane<plane route.plane<plane"
	if j := strings.Join(got, " "); j != want {
		t.Fatalf("inheriting settings %q, want %q", j, want)
	}
}

func TestSimulateDefaultWorldIsCookOut(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"", "cooked"},
		{writeConfig(t, "cook:\n  out: build/world\n"), "build/world"},
	} {
		cfg, err := load(t, tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Simulate.DefaultWorld != tc.want {
			t.Errorf("config %q: DefaultWorld %q, want %q", tc.file, cfg.Simulate.DefaultWorld, tc.want)
		}
	}
}
