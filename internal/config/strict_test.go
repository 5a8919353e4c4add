package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// load resolves the simulate and cook settings with flags registered from
// the declarations, as the commands do.
func load(t *testing.T, file string, args ...string) (*Config, error) {
	t.Helper()
	fs := pflag.NewFlagSet("simulate", pflag.ContinueOnError)
	Register("", fs)
	Register("simulate", fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	l := NewLoader()
	l.Bind("", fs)
	l.Bind("simulate", fs)
	l.Bind("cook", pflag.NewFlagSet("cook", pflag.ContinueOnError))
	return l.Resolve(file)
}

func TestStrictFile(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       string // the error, after "FILE:"
	}{
		{"component field typo", "components:\n  FollowTarget:\n    entityField: [target]\n",
			`3:5: unknown key "entityField" in components.FollowTarget; did you mean "entityFields"?`},
		{"section typo", "simulate:\n  maxResidentByte: 5\n",
			`2:3: unknown key "maxResidentByte" in simulate; did you mean "maxResidentBytes"?`},
		{"flag spelling typo", "simulate:\n  max-resident-byts: 5\n",
			`2:3: unknown key "max-resident-byts" in simulate; did you mean "maxResidentBytes"?`},
		{"section name typo", "simulat:\n  budget: 5\n", `1:1: unknown key "simulat"; did you mean "simulate"?`},
		{"setting at the top", "budget: 5\n", `1:1: unknown key "budget"; did you mean "budget" under simulate:?`},
		{"another command's key", "cook:\n  distance: center\n", `2:3: unknown key "distance" in cook; it is a setting of simulate, not of cook`},
		{"a global under a command", "simulate:\n  quiet: true\n", `2:3: unknown key "quiet" in simulate; it is a global setting: put it at the top level`},
		{"merge key", "base: &b {budget: 5}\nsimulate:\n  <<: *b\n", `1:1: unknown key "base"`},
		{"merge key in a section", "simulate:\n  <<: {budget: 5}\n", `2:3: merge keys (<<) are not read in simulate; write the settings out`},
		{"nothing near", "simulate:\n  zzzzzz: 1\n", `2:3: unknown key "zzzzzz" in simulate`},
		{"wrong type", "simulate:\n  budget: lots\n", `2:11: simulate.budget: "lots" is not a byte size`},
		{"mapping for a number", "simulate:\n  budget: {a: 1}\n", `2:11: simulate.budget must be a single value, not a mapping`},
		{"list for a scalar", "cook:\n  out: [a, b]\n", `2:8: cook.out must be a single value, not a list`},
		{"negative size", "simulate:\n  budget: -16KiB\n", `2:11: simulate.budget must be 0 or more bytes (got -16KiB)`},
		{"enum", "simulate:\n  distance: far\n", `2:13: simulate.distance "far": use bounds or center`},
		{"yes is not a boolean", "quiet: yes\n", `1:8: quiet: "yes" is not a boolean; use true or false`},
		{"given twice", "simulate:\n  maxResidentBytes: 1\n  max-resident-bytes: 2\n", `3:3: "max-resident-bytes" is given twice in simulate (also at line 2); keep one`},
		{"component twice", "components:\n  A: {entityFields: [x]}\n  a: {entityFields: [y]}\n", `3:3: "a" is given twice in components (also at line 2); keep one`}, {"components differ by more than case", "components:\n  A_b: {entityFields: [x]}\n  ab: {entityFields: [y]}\n", ``},
		{"section not a mapping", "simulate: 5\n", `1:11: simulate must be a mapping of keys to values, not "5"`},
		{"top not a mapping", "- a\n", `1:1: worldcook.yaml must be a mapping of keys to values, not a list`},
		{"component fields not a list", "components:\n  A:\n    entityFields: {x: 1}\n", `3:19: components.A.entityFields must be a list of field names, not a mapping`},
		{"two documents", "quiet: true\n---\nquiet: false\n", `:2: a second YAML document`},
		{"syntax", "simulate: [", `fix the YAML`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := writeConfig(t, tc.body)
			_, err := load(t, file)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), file) {
				t.Fatalf("error %v, want one naming %s and containing %q", err, file, tc.want)
			}
		})
	}
}

func TestSpellingsAreOneKey(t *testing.T) {
	for _, body := range []string{
		"simulate:\n  maxResidentBytes: 64MiB\n",
		"simulate:\n  max-resident-bytes: 64MiB\n",
		"simulate:\n  MaxResidentBytes: 67108864\n",
		"Simulate:\n  max_resident_bytes: \"64 MiB\"\n",
	} {
		cfg, err := load(t, writeConfig(t, body))
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.Simulate.MaxResidentBytes; got == nil || *got != 64<<20 {
			t.Errorf("%q: maxResidentBytes %v", body, got)
		}
	}
}

func TestFileValues(t *testing.T) {
	file := writeConfig(t, `# every kind of value
quiet: true
cook:
  lockTimeout: 90s
  assets: [a, b]
  jobs: 3
simulate:
  budget: 16KiB
  ioBytesPerFrame: 1.5GB
  distance: centre
  loadRadius: 12.5
  pinnedRadius:
  seed: 7
components:
  FollowTarget:
    entityFields: [target]
    soft-fields: hint
`)
	cfg, err := load(t, file)
	if err != nil {
		t.Fatal(err)
	}
	c, s := cfg.Cook, cfg.Simulate
	if !cfg.Quiet || c.LockTimeout != 90*time.Second || strings.Join(c.Assets, "|") != "a|b" || c.Jobs != 3 {
		t.Errorf("cook %+v quiet %v", c, cfg.Quiet)
	}
	if *s.Budget != 16384 || *s.IOBytesPerFrame != 1_500_000_000 || s.Distance != "center" || *s.LoadRadius != 12.5 || s.Seed != 7 {
		t.Errorf("simulate %+v", s)
	}
	if s.PinnedRadius != nil {
		t.Error("an empty value must leave an optional setting unset")
	}
	if fc := cfg.Components["followtarget"]; len(fc.SoftFields) != 1 || fc.SoftFields[0] != "hint" {
		t.Errorf("components %+v", cfg.Components)
	}
	if got := s.Name(&s.Budget); got != file+":8:11: simulate.budget" {
		t.Errorf("Name(budget) = %q", got)
	}
	if got := s.Name(&s.Format); got != "--format" {
		t.Errorf("Name(format) = %q", got)
	}
}

func TestEnvValues(t *testing.T) {
	t.Setenv("WORLDCOOK_SIMULATE_BUDGET", "64MiB")
	t.Setenv("WORLDCOOK_SIMULATE_ASSETS", "a,b")
	t.Setenv("WORLDCOOK_SIMULATE_MAX_IN_FLIGHT", "") // empty: unset
	t.Setenv("WORLDCOOK_COOK_LOCK_TIMEOUT", "2s")
	cfg, err := load(t, "")
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Simulate
	if *s.Budget != 64<<20 || len(s.Assets) != 2 || s.MaxInFlight != nil || cfg.Cook.LockTimeout != 2*time.Second {
		t.Errorf("simulate %+v, lock timeout %v", s, cfg.Cook.LockTimeout)
	}
	if got := s.Name(&s.Budget); got != "WORLDCOOK_SIMULATE_BUDGET" {
		t.Errorf("Name(budget) = %q", got)
	}
}

func TestBadEnv(t *testing.T) {
	for _, tc := range []struct{ name, value, want string }{
		{"WORLDCOOK_QUIET", "yes", `WORLDCOOK_QUIET: "yes" is not a boolean; use true or false`},
		{"WORLDCOOK_JSON", "on", `WORLDCOOK_JSON: "on" is not a boolean`},
		{"WORLDCOOK_SIMULATE_BUDGET", "lots", `WORLDCOOK_SIMULATE_BUDGET: "lots" is not a byte size`},
		{"WORLDCOOK_SIMULATE_BUDGET", "-1", `WORLDCOOK_SIMULATE_BUDGET must be 0 or more bytes (got -1)`},
		{"WORLDCOOK_SIMULATE_CONCURRENCY", "0", `WORLDCOOK_SIMULATE_CONCURRENCY must be from 1 to 256 (got 0)`},
		{"WORLDCOOK_SIMULATE_FAIL_RATE", "NaN", `WORLDCOOK_SIMULATE_FAIL_RATE must be a probability from 0 to 1`},
		{"WORLDCOOK_SIMULATE_LOAD_RADIUS", "+Inf", `WORLDCOOK_SIMULATE_LOAD_RADIUS must be a finite distance, 0 or more`},
		{"WORLDCOOK_SIMULATE_IO", "tape", `WORLDCOOK_SIMULATE_IO "tape": use model or disk`},
		{"WORLDCOOK_COOK_LOCK_TIMEOUT", "5", `WORLDCOOK_COOK_LOCK_TIMEOUT: "5" is not a duration`},
		{"WORLDCOOK_COOK_JOBS", "-3", `WORLDCOOK_COOK_JOBS must be 0 or more (got -3)`},
		{"WORLDCOOK_SIMULATE_BUDGTE", "5", `environment variable WORLDCOOK_SIMULATE_BUDGTE is not a setting of simulate; did you mean "WORLDCOOK_SIMULATE_BUDGET"?`},
	} {
		t.Run(tc.name+"="+tc.value, func(t *testing.T) {
			t.Setenv(tc.name, tc.value)
			if _, err := load(t, ""); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--budget", "lots"}, `invalid argument "lots" for "--budget" flag: "lots" is not a byte size`},
		{[]string{"--budget", "-1"}, `--budget must be 0 or more bytes (got -1)`},
		{[]string{"--retries", "-3"}, `--retries must be 0 or more (got -3)`},
		{[]string{"--quiet=yes"}, `"yes" is not a boolean`},
		{[]string{"--frame-budget-ms", "Inf"}, `--frame-budget-ms must be from 0 to 3600000 milliseconds (got Inf)`},
		{[]string{"--concurrency", "1000000000000"}, `--concurrency must be from 1 to 256 (got 1000000000000)`},
	} {
		if _, err := load(t, "", tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
	}
	cfg, err := load(t, "", "--budget", "16KiB", "--assets", "a,b", "--assets", "c", "-q")
	if err != nil {
		t.Fatal(err)
	}
	if *cfg.Simulate.Budget != 16384 || strings.Join(cfg.Simulate.Assets, "|") != "a|b|c" || !cfg.Quiet {
		t.Errorf("%+v", cfg.Simulate)
	}
}

// TestConfigFileMustBeRegular: a device, a FIFO or a huge file where the
// settings file belongs is refused at once, before it is read.
func TestConfigFileMustBeRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxFileBytes)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{
		"/dev/zero": "not a regular file",
		fifo:        "not a regular file (a named pipe)",
		big:         "more than the 1048576 a settings file may have",
		dir:         "not a regular file",
	} {
		done := make(chan error, 1)
		go func() { _, err := load(t, file); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %v, want %q", file, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: reading it hangs", file)
		}
	}
}

// FuzzConfigFile: any bytes as worldcook.yaml give a configuration or an
// error naming the file, never a panic.
func FuzzConfigFile(f *testing.F) {
	for _, s := range []string{
		"simulate:\n  budget: 16KiB\n",
		"components:\n  A: {entityFields: [x], softFields: y}\n",
		"cook: &a {jobs: 2}\nsimulate: *a\n",
		"quiet: [1, {a: b}]\n",
		"a: &x [*x]\n",
		"simulate:\n  view: {width: 1280, height: 720}\n",
		"simulate:\n  view: {distance: 5, width: [1]}\n",
		"simulate:\n  viewSize: 12x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		const file = "fuzz.yaml"
		cfg := &Config{origins: map[string]Origin{}}
		if err := decodeFile(cfg, reflect.ValueOf(cfg).Elem(), file, "", body); err != nil && !strings.Contains(err.Error(), file) {
			t.Fatalf("error does not name the file: %v", err)
		}
	})
}

// BenchmarkResolve is what settings cost a run: the file, the
// environment and the flags of one command.
func BenchmarkResolve(b *testing.B) {
	file := filepath.Join(b.TempDir(), "worldcook.yaml")
	os.WriteFile(file, []byte("simulate:\n  distance: center\n  budget: 4KiB\n  maxResidentBytes: 12000\ncomponents:\n  FollowTarget: {entityFields: [target]}\n"), 0o644)
	for b.Loop() {
		fs := pflag.NewFlagSet("simulate", pflag.ContinueOnError)
		Register("", fs)
		Register("simulate", fs)
		if err := fs.Parse([]string{"--budget", "16KiB", "--path", "r.csv"}); err != nil {
			b.Fatal(err)
		}
		l := NewLoader()
		l.Bind("", fs)
		l.Bind("simulate", fs)
		if _, err := l.Resolve(file); err != nil {
			b.Fatal(err)
		}
	}
}

// TestListOfValues: a list setting with a set of values checks each item.
func TestListOfValues(t *testing.T) {
	f := reflect.TypeOf(struct {
		FailOn []string `flag:"fail-on" enum:"holes,over-budget,over-cap|overcap,failures"`
	}{}).Field(0)
	s := declareField("simulate", f, []int{0, 0})
	v, err := s.parse([]string{"holes", " overcap"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.check(v); err != nil || strings.Join(v.Interface().([]string), ",") != "holes,over-cap" {
		t.Errorf("%v %v", v, err)
	}
	v, _ = s.parse([]string{"holes", "hole"})
	if bad, err := s.check(v); err == nil || bad != "hole" {
		t.Errorf("bad item %q, %v", bad, err)
	}
	if s.TypeName() != "list" || s.Env != "WORLDCOOK_SIMULATE_FAIL_ON" || s.Key != "failOn" {
		t.Errorf("%+v", s)
	}
}

// FuzzSettingValue: any text as the value of any setting parses or is
// refused without a panic, and a value that passes reads back the same
// from the form `worldcook config` prints it in.
func FuzzSettingValue(f *testing.F) {
	for i, s := range declared {
		f.Add(i, s.Default)
		f.Add(i, "16KiB")
		f.Add(i, "-1.5e300")
	}
	f.Fuzz(func(t *testing.T, i int, text string) {
		if i < 0 {
			i = -i
		}
		s := declared[i%len(declared)]
		v, err := s.parse([]string{text})
		if err != nil {
			return
		}
		if _, err := s.check(v); err != nil {
			return
		}
		if s.Optional {
			p := reflect.New(s.typ)
			p.Elem().Set(v)
			v = p
		}
		printed := s.format(v)
		back, err := s.parse([]string{printed})
		if s.List() {
			back, err = s.parse(strings.Split(printed, ","))
		}
		if err != nil {
			t.Fatalf("%s: %q is printed %q, which does not parse: %v", s.Path(), text, printed, err)
		}
		if s.Optional {
			v = v.Elem()
		}
		if !s.List() && !reflect.DeepEqual(back.Interface(), v.Interface()) {
			t.Fatalf("%s: %q is %v, printed %q, read back as %v", s.Path(), text, v, printed, back)
		}
	})
}
