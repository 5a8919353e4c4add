package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/config"
	"github.com/worldcook/worldcook/internal/golden"
	"github.com/worldcook/worldcook/validate"
)

// notSettings are the flags that are not settings: cobra's own, and
// --config, which says where the settings file is.
var notSettings = map[string]bool{"help": true, "version": true, "config": true}

// commandFlag is one flag of one worldcook command.
type commandFlag struct {
	command string // the command path: "worldcook simulate"
	section string // the settings section the command resolves
	flag    *pflag.Flag
}

// everyFlag walks the command tree and returns every flag a user can
// give, with the section it belongs to.
func everyFlag(t *testing.T) []commandFlag {
	root := NewRoot(IO{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	var out []commandFlag
	var walk func(c *cobra.Command, section string)
	walk = func(c *cobra.Command, section string) {
		if c.Name() == "help" || c.Name() == "completion" {
			return // cobra's
		}
		fs := c.LocalNonPersistentFlags()
		if c == root {
			fs = c.PersistentFlags()
		}
		fs.VisitAll(func(f *pflag.Flag) {
			out = append(out, commandFlag{command: c.CommandPath(), section: section, flag: f})
		})
		for _, sub := range c.Commands() {
			s := section
			if slices.Contains(config.Sections(), sub.Name()) {
				s = sub.Name()
			}
			walk(sub, s)
		}
	}
	walk(root, "")
	if len(out) < 40 {
		t.Fatalf("only %d flags found; the walk is broken", len(out))
	}
	return out
}

// sample is a valid value of s that differs from its default, written for
// a flag or variable and for worldcook.yaml.
func sample(s *config.Setting) (text, yaml string) {
	switch {
	case len(s.Values) > 0:
		v := s.Values[len(s.Values)-1]
		return v, v
	case s.TypeName() == "bool":
		return "true", "true"
	case s.List():
		return "a,b", "[a, b]"
	}
	v := map[string]string{"bytes": "16KiB", "count": "7", "frames": "9", "distance": "12.5", "ms": "2.5",
		"probability": "0.25", "duration": "90s", "path": "some/file.csv", "seed": "42", "extent": "1280x720", "rate": "2.5", "seconds": "3"}[s.Unit]
	if v == "" {
		v = "x"
	}
	return v, v
}

// resolved runs `worldcook config SECTION` and returns the value and
// origin it reports for s.
func resolved(t *testing.T, s *config.Setting, args ...string) (code int, value, origin, stderr string) {
	t.Helper()
	args = append(args, "config")
	if s.Section != "" {
		args = append(args, s.Section)
	}
	code, out, stderr := run(t, args...)
	if code != 0 {
		return code, "", "", stderr
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "{") {
			var r struct {
				Key, Origin, Source string
				Line                int
				Value               any
			}
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			if r.Key == s.Path() {
				return 0, strings.Trim(strings.ReplaceAll(strings.Join(strings.Fields(strings.Trim(jsonText(r.Value), "[]")), ""), `"`, ""), " "), r.Origin, ""
			}
			continue
		}
		cols := regexp.MustCompile(`\s{2,}`).Split(line, -1)
		if len(cols) == 3 && cols[0] == s.Path() {
			return 0, cols[1], strings.Fields(cols[2])[0], ""
		}
	}
	t.Fatalf("%s not in the output of %v:\n%s", s.Path(), args, out)
	return
}

func jsonText(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestEveryFlagIsASetting: every flag of every command is a declared
// setting of the command's section (none is bound by hand into a
// command's options, where the environment and the file cannot reach
// it), and its flag, its WORLDCOOK_* variable and its worldcook.yaml key
// all set the same value; a typo of the key or the variable is refused
// with the right name suggested.
func TestEveryFlagIsASetting(t *testing.T) {
	for _, env := range os.Environ() {
		if name, _, _ := strings.Cut(env, "="); strings.HasPrefix(name, "WORLDCOOK_") && name != "WORLDCOOK_CORPUS" {
			t.Setenv(name, "")
		}
	}
	seen := map[*config.Setting]bool{}
	for _, cf := range everyFlag(t) {
		if notSettings[cf.flag.Name] {
			continue
		}
		s := config.FlagSetting(cf.flag)
		if s == nil {
			t.Errorf("%s --%s is not a declared setting: declare it as a field of config.%s with tags (see internal/config/declare.go)", cf.command, cf.flag.Name, cf.section)
			continue
		}
		fixed := cf.section == "tune" && s.Section == "simulate" && slices.Contains(config.TuneFixed, s.Flag)
		if (s.Section != cf.section && !fixed) || s.Flag != cf.flag.Name {
			t.Errorf("%s --%s is the setting %s of another command", cf.command, cf.flag.Name, s.Path())
		}
		if seen[s] {
			continue
		}
		seen[s] = true
		t.Run(s.Path(), func(t *testing.T) {
			text, yamlText := sample(s)
			_, def, _, _ := resolved(t, s)
			code, byFlag, o, stderr := resolved(t, s, "--"+s.Flag+"="+text)
			if code != 0 || o != "flag" {
				t.Fatalf("flag: exit %d, origin %q: %s", code, o, stderr)
			}
			if byFlag == def {
				t.Fatalf("the sample %q resolves to the default %q", text, def)
			}
			t.Setenv(s.Env, text)
			if code, byEnv, o, stderr := resolved(t, s); code != 0 || o != "env" || byEnv != byFlag {
				t.Errorf("%s=%s: exit %d, %q from %q; the flag gave %q %s", s.Env, text, code, byEnv, o, byFlag, stderr)
			}
			t.Setenv(s.Env, "")
			file := filepath.Join(t.TempDir(), "worldcook.yaml")
			body := s.Key + ": " + yamlText + "\n"
			if s.Section != "" {
				body = s.Section + ":\n  " + body
			}
			os.WriteFile(file, []byte(body), 0o644)
			if code, byFile, o, stderr := resolved(t, s, "--config", file); code != 0 || !strings.HasPrefix(o, file+":") && o != "file" || byFile != byFlag {
				t.Errorf("%s in %s: exit %d, %q from %q; the flag gave %q %s", s.Path(), file, code, byFile, o, byFlag, stderr)
			}
			// The flag's spelling is the same key.
			os.WriteFile(file, []byte(strings.Replace(body, s.Key+":", s.Flag+":", 1)), 0o644)
			if code, byFile, _, stderr := resolved(t, s, "--config", file); code != 0 || byFile != byFlag {
				t.Errorf("%s spelt %s: exit %d, %q %s", s.Path(), s.Flag, code, byFile, stderr)
			}
			typo := s.Key + s.Key[len(s.Key)-1:]
			os.WriteFile(file, []byte(strings.Replace(body, s.Key+":", typo+":", 1)), 0o644)
			if code, _, _, stderr := resolved(t, s, "--config", file); code != ExitInput || !strings.Contains(stderr, file+":") ||
				!strings.Contains(stderr, `unknown key "`+typo+`"`) || !strings.Contains(stderr, `did you mean "`+s.Key+`"?`) {
				t.Errorf("typo %s: exit %d, stderr %q", typo, code, stderr)
			}
			if s.Section != "" {
				t.Setenv(s.Env+"S", text)
				if code, _, _, stderr := resolved(t, s); code != ExitInput || !strings.Contains(stderr, s.Env+"S") || !strings.Contains(stderr, `did you mean "`+s.Env+`"?`) {
					t.Errorf("typo %sS: exit %d, stderr %q", s.Env, code, stderr)
				}
				t.Setenv(s.Env+"S", "")
			}
		})
	}
	for _, section := range append([]string{""}, config.Sections()...) {
		for _, s := range config.Declared(section) {
			if !seen[s] {
				t.Errorf("setting %s is declared but no command has its flag", s.Path())
			}
		}
	}
}

// TestLockTimeoutFromEveryLayer: the lock timeout reaches the cook from
// the environment and the file, not only from the flag.
func TestLockTimeoutFromEveryLayer(t *testing.T) {
	out := t.TempDir()
	lock, err := cook.LockDir(out, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	file := filepath.Join(t.TempDir(), "worldcook.yaml")
	os.WriteFile(file, []byte("cook:\n  lockTimeout: 50ms\ncomponents:\n  FollowTarget: {entityFields: [target]}\n"), 0o644)
	for name, layer := range map[string]func(t *testing.T) []string{
		"flag": func(t *testing.T) []string { return []string{"--config", demoConfig, "cook", "--lock-timeout", "50ms"} },
		"env": func(t *testing.T) []string {
			t.Setenv("WORLDCOOK_COOK_LOCK_TIMEOUT", "50ms")
			return []string{"--config", demoConfig, "cook"}
		},
		"file": func(t *testing.T) []string { return []string{"--config", file, "cook"} },
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			code, _, stderr := run(t, append(layer(t), "../testdata/demo/main.esscene", "--out", out)...)
			// The default would wait a minute.
			if code != ExitInput || time.Since(start) > 30*time.Second || !strings.Contains(stderr, "another worldcook cook is writing") {
				t.Errorf("exit %d after %v: %s", code, time.Since(start), stderr)
			}
		})
	}
}

// TestSizesWithUnits: a byte size with a unit reaches the scheduler as
// the same number of bytes from the flag, the environment and the file.
func TestSizesWithUnits(t *testing.T) {
	_, plain, _ := run(t, "--config", islandYAML, "simulate", "--path", islandRoute, "--budget", "2048", island)
	code, flag, errs := run(t, "--config", islandYAML, "simulate", "--path", islandRoute, "--budget", "2KiB", island)
	if code != 0 || !strings.Contains(flag, "budget 2048 B") {
		t.Fatalf("--budget 2KiB: exit %d %s\n%s", code, errs, flag)
	}
	t.Setenv("WORLDCOOK_SIMULATE_BUDGET", "2 KiB")
	if _, env, _ := run(t, "--config", islandYAML, "simulate", "--path", islandRoute, island); env != flag {
		t.Error("WORLDCOOK_SIMULATE_BUDGET=2 KiB differs from --budget 2KiB")
	}
	if plain != flag {
		t.Error("--budget 2KiB differs from --budget 2048")
	}
	code, _, errs = run(t, "--config", islandYAML, "simulate", "--path", islandRoute, "--budget", "16KB!", island)
	if code != ExitInput || !strings.Contains(errs, `invalid argument "16KB!" for "--budget" flag`) || !strings.Contains(errs, "16KiB") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

func TestNegativeCountsRefused(t *testing.T) {
	for _, args := range [][]string{
		{"cook", "--jobs", "-3", "../testdata/demo/main.esscene"},
		{"simulate", "--path", islandRoute, "--max-in-flight", "-1", island},
		{"simulate", "--path", islandRoute, "--retries", "-1", island},
		{"simulate", "--path", islandRoute, "--concurrency", "0", island},
	} {
		code, _, errs := run(t, args...)
		if code != ExitInput || !strings.Contains(errs, args[len(args)-3]+" must be") {
			t.Errorf("%v: exit %d %s", args, code, errs)
		}
	}
}

// TestEnumCompletion: enum flags complete their declared values.
func TestEnumCompletion(t *testing.T) {
	for _, tc := range []struct{ args, want []string }{
		{[]string{"simulate", "--distance", ""}, []string{"bounds", "center"}},
		{[]string{"simulate", "--io", ""}, []string{"model", "disk"}},
		{[]string{"simulate", "--format", ""}, []string{"table", "jsonl", "csv"}},
		{[]string{"validate", "--format", ""}, validate.Formats},
		{[]string{"cook", "--plane", ""}, []string{"xz", "xy"}},
	} {
		_, out, _ := run(t, append([]string{cobra.ShellCompRequestCmd}, tc.args...)...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if strings.Join(lines[:len(lines)-1], ",") != strings.Join(tc.want, ",") || !strings.HasPrefix(lines[len(lines)-1], ":4") {
			t.Errorf("%v: completions %q", tc.args, lines)
		}
	}
}

// TestConfigCommand: `worldcook config` output, text and JSON, with a
// value from each layer.
func TestConfigCommand(t *testing.T) {
	for _, env := range os.Environ() {
		if name, _, _ := strings.Cut(env, "="); strings.HasPrefix(name, "WORLDCOOK_") && name != "WORLDCOOK_CORPUS" {
			t.Setenv(name, "")
		}
	}
	t.Setenv("WORLDCOOK_SIMULATE_LATENCY_FRAMES", "2")
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"simulate.txt", []string{"--config", islandYAML, "config", "simulate", "--budget", "16KiB", "--path", "route.csv", "ignored-world"}},
		{"simulate.jsonl", []string{"--config", islandYAML, "--json", "config", "simulate", "--budget", "16KiB"}},
		{"cook.txt", []string{"--config", demoConfig, "config", "cook", "--jobs", "2"}},
		{"all.txt", []string{"-q", "config"}}, // the environment reaches every section
		// A top-level plane: reaches every section but the one that sets its own.
		{"plane.txt", []string{"--config", "testdata/config/plane.yaml", "config"}},
		{"plane.jsonl", []string{"--config", "testdata/config/plane.yaml", "--json", "config", "cook"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			golden.Compare(t, filepath.Join("testdata", "config", tc.golden), []byte(out))
		})
	}
	if code, _, errs := run(t, "config", "simulat"); code != ExitInput || !strings.Contains(errs, `"simulat" is not a command with settings; use one of cook, validate, simulate, init, tune, route (did you mean simulate?)`) {
		t.Errorf("unknown command: exit %d %s", code, errs)
	}
	if code, _, errs := run(t, "config", "simulate", "--budget", "-1"); code != ExitInput || !strings.Contains(errs, "--budget must be 0 or more bytes") {
		t.Errorf("bad value: exit %d %s", code, errs)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := run(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "worldcook ") {
		t.Errorf("--version: exit %d %q", code, out)
	}
	bad := filepath.Join(t.TempDir(), "worldcook.yaml")
	os.WriteFile(bad, []byte("simulat: {}\n"), 0o644)
	code, out, _ = run(t, "--config", bad, "version", "--json")
	var b buildInfo
	if err := json.Unmarshal([]byte(out), &b); code != 0 || err != nil || b.Type != "version" || b.Version == "" || b.Go == "" {
		t.Errorf("version --json: exit %d %q %v", code, out, err)
	}
}
