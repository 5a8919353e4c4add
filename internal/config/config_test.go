package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/pflag"
)

// resolve binds a simulate-like flag set, parses args and resolves with
// the given config file.
func resolve(t *testing.T, file string, args ...string) *Config {
	t.Helper()
	fs := pflag.NewFlagSet("simulate", pflag.ContinueOnError)
	fs.Float64("load-radius", 0, "")
	fs.Int64("budget", 0, "")
	fs.Int64("max-resident-bytes", 0, "")
	fs.String("format", "table", "")
	fs.Int("evict-cooldown", 0, "")
	global := pflag.NewFlagSet("global", pflag.ContinueOnError)
	global.Bool("quiet", false, "")
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	l := NewLoader()
	if err := l.Bind("", global); err != nil {
		t.Fatal(err)
	}
	if err := l.Bind("simulate", fs); err != nil {
		t.Fatal(err)
	}
	cfg, err := l.Resolve(file)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "worldcook.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPrecedence(t *testing.T) {
	file := writeConfig(t, `
quiet: true
simulate:
  loadRadius: 100
  budget: 4096
  format: csv
components:
  FollowTarget:
    entityFields: [target]
    softFields: [hint]
`)
	t.Run("file over default", func(t *testing.T) {
		cfg := resolve(t, file)
		if got := *cfg.Simulate.LoadRadius; got != 100 {
			t.Fatalf("loadRadius %v", got)
		}
		if cfg.Simulate.Format != "csv" || !cfg.Quiet {
			t.Fatalf("format %q quiet %v", cfg.Simulate.Format, cfg.Quiet)
		}
		if c := cfg.Components["followtarget"]; len(c.EntityFields) != 1 || c.SoftFields[0] != "hint" {
			t.Fatalf("components %+v", cfg.Components)
		}
		if cfg.File != file {
			t.Fatalf("File %q", cfg.File)
		}
	})
	t.Run("env over file", func(t *testing.T) {
		t.Setenv("WORLDCOOK_SIMULATE_LOAD_RADIUS", "200")
		t.Setenv("WORLDCOOK_QUIET", "false")
		cfg := resolve(t, file)
		if got := *cfg.Simulate.LoadRadius; got != 200 || cfg.Quiet {
			t.Fatalf("loadRadius %v quiet %v", got, cfg.Quiet)
		}
	})
	t.Run("flag over env", func(t *testing.T) {
		t.Setenv("WORLDCOOK_SIMULATE_LOAD_RADIUS", "200")
		cfg := resolve(t, file, "--load-radius", "300", "--budget", "0")
		if got := *cfg.Simulate.LoadRadius; got != 300 {
			t.Fatalf("loadRadius %v", got)
		}
		if cfg.Simulate.Budget == nil || *cfg.Simulate.Budget != 0 {
			t.Fatal("--budget 0 must mean a budget of 0, not unset")
		}
	})
}

func TestUnsetOptionalSettingsAreNil(t *testing.T) {
	cfg := resolve(t, "")
	s := cfg.Simulate
	if s.LoadRadius != nil || s.Budget != nil || s.MaxResidentBytes != nil {
		t.Fatalf("unset settings must be nil: %+v", s)
	}
	if s.Format != "table" {
		t.Fatalf("default format %q", s.Format)
	}
}

func TestBadConfigFile(t *testing.T) {
	for name, body := range map[string]string{
		"syntax": "simulate: [",
		"types":  "simulate:\n  budget: lots\n",
	} {
		t.Run(name, func(t *testing.T) {
			file := writeConfig(t, body)
			fs := pflag.NewFlagSet("simulate", pflag.ContinueOnError)
			fs.Int64("budget", 0, "")
			l := NewLoader()
			l.Bind("simulate", fs)
			if _, err := l.Resolve(file); err == nil {
				t.Fatal("bad config accepted")
			}
		})
	}
	l := NewLoader()
	if _, err := l.Resolve(filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Fatal("missing explicit config accepted")
	}
}
