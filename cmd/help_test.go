package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"

	"github.com/worldcook/worldcook/internal/config"
	goldenfile "github.com/worldcook/worldcook/internal/golden"
)

// helpWidth is the widest line --help may print: a terminal of 100
// columns shows every line of it whole.
const helpWidth = 100

// docsLink is a link from a command's help to its documentation.
var docsLink = regexp.MustCompile(`docs/[a-z-]+\.md`)

// userCommands walks the command tree: every command a user runs (the
// root included), then the help topics; cobra's own help and completion
// are not worldcook's.
func userCommands(t *testing.T) (commands, topics []*cobra.Command) {
	t.Helper()
	root := NewRoot(IO{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		switch {
		case c.Name() == "help" || c.Name() == "completion":
			return
		case c.IsAdditionalHelpTopicCommand():
			topics = append(topics, c)
			return
		}
		commands = append(commands, c)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if len(commands) < 5 || len(topics) == 0 {
		t.Fatalf("%d commands and %d topics found; the walk is broken", len(commands), len(topics))
	}
	return commands, topics
}

// linksDocs checks that text links a docs file and that every file it
// links exists.
func linksDocs(t *testing.T, what, text string) {
	t.Helper()
	links := docsLink.FindAllString(text, -1)
	if len(links) == 0 {
		t.Errorf("%s links no docs/*.md file", what)
	}
	for _, l := range links {
		if _, err := os.Stat(filepath.Join("..", l)); err != nil {
			t.Errorf("%s links %s: %v", what, l, err)
		}
	}
}

// TestHelpReads: every command's description (Long) is at most 20 lines of
// at most 100 columns, links its documentation, and comes with an
// example; the commands with settings point to 'worldcook help
// exit-codes' instead of repeating the exit statuses; and every line of
// every --help, each flag's included, fits in 100 columns.
func TestHelpReads(t *testing.T) {
	commands, _ := userCommands(t)
	for _, c := range commands {
		t.Run(c.CommandPath(), func(t *testing.T) {
			lines := strings.Split(c.Long, "\n")
			if c.Long == "" || len(lines) > 20 {
				t.Errorf("Long is %d lines, want 1 to 20", len(lines))
			}
			for i, l := range lines {
				if n := utf8.RuneCountInString(l); n > helpWidth {
					t.Errorf("Long line %d is %d columns: %s", i+1, n, l)
				}
			}
			linksDocs(t, "Long", c.Long)
			if !strings.Contains(c.Example, "worldcook ") {
				t.Errorf("no example: %q", c.Example)
			}
			if strings.Contains(strings.ToLower(c.Long), "exit status\n") {
				t.Errorf("Long lists the exit statuses; point to 'worldcook help exit-codes'")
			}
			if c.Parent() == c.Root() && slices.Contains(config.Sections(), c.Name()) && !strings.Contains(c.Long, "'worldcook help exit-codes'") {
				t.Errorf("Long does not point to 'worldcook help exit-codes'")
			}
			args := append(strings.Fields(strings.TrimPrefix(c.CommandPath(), "worldcook")), "--help")
			code, out, stderr := run(t, args...)
			if code != 0 || stderr != "" {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			flagLines := 0
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), "-") {
					flagLines++
				}
				if n := utf8.RuneCountInString(l); n > helpWidth {
					t.Errorf("--help line of %d columns (shorten the help tag in internal/config/config.go; detail goes in docs/):\n%s", n, l)
				}
			}
			if flagLines == 0 {
				t.Errorf("--help shows no flags:\n%s", out)
			}
		})
	}
}

// TestHelpGoldens keeps each command's --help as a golden, so that a
// change of what a person reads is seen in review.
func TestHelpGoldens(t *testing.T) {
	commands, topics := userCommands(t)
	for _, c := range append(commands, topics...) {
		args := strings.Fields(strings.TrimPrefix(c.CommandPath(), "worldcook"))
		name := strings.Join(append([]string{"worldcook"}, args...), "-")
		if c.IsAdditionalHelpTopicCommand() {
			args = append([]string{"help"}, args...)
			name = "help-" + c.Name()
		} else {
			args = append(args, "--help")
		}
		t.Run(name, func(t *testing.T) {
			code, out, stderr := run(t, args...)
			if code != 0 || stderr != "" {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			goldenfile.Compare(t, filepath.Join("testdata", "help", name+".txt"), []byte(out))
		})
	}
}

// TestHelpTopics: what every command shares is a help topic, listed in
// the root's help, within 100 columns, linking its documentation; the
// exit statuses are said there once, for each command with settings.
func TestHelpTopics(t *testing.T) {
	_, topics := userCommands(t)
	_, rootHelp, _ := run(t, "--help")
	var names []string
	for _, c := range topics {
		names = append(names, c.Name())
		if !regexp.MustCompile(`(?m)^Additional help topics:(\n  worldcook .*)*\n  worldcook ` + c.Name() + ` `).MatchString(rootHelp) {
			t.Errorf("worldcook --help does not list %s under Additional help topics:\n%s", c.Name(), rootHelp)
		}
		code, out, _ := run(t, "help", c.Name())
		if code != 0 || !strings.HasPrefix(out, c.Long) {
			t.Errorf("help %s: exit %d:\n%s", c.Name(), code, out)
		}
		for _, l := range strings.Split(c.Long, "\n") {
			if n := utf8.RuneCountInString(l); n > helpWidth {
				t.Errorf("help %s: a line of %d columns: %s", c.Name(), n, l)
			}
		}
		linksDocs(t, "help "+c.Name(), c.Long)
	}
	for _, want := range []string{"exit-codes", "settings", "environment"} {
		if !slices.Contains(names, want) {
			t.Errorf("no help topic %s (topics: %v)", want, names)
		}
	}
	_, exitCodes, _ := run(t, "help", "exit-codes")
	for _, section := range config.Sections() {
		if !regexp.MustCompile(`(?m)^ +` + section + ` +\S`).MatchString(exitCodes) {
			t.Errorf("help exit-codes does not say what exit 1 means for %s:\n%s", section, exitCodes)
		}
	}
	for _, code := range []string{"0", "1", "2"} {
		if !regexp.MustCompile(`(?m)^  ` + code + `  \S`).MatchString(exitCodes) {
			t.Errorf("help exit-codes does not explain exit status %s", code)
		}
	}
}

// TestMistakesGetTheFix: each usage mistake is answered with its fix in
// one line on stderr (the usage line and an example added for a missing
// argument), exit 2, and with --json the exit_error object of
// docs/json.md carrying the same line. Each answer is a golden
// (go test ./cmd -run MistakesGetTheFix -update).
func TestMistakesGetTheFix(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		want  string // in the first line of stderr
		lines int    // of stderr
	}{
		{"unknown-flag", []string{"simulate", "--plain", "xy"}, "unknown flag: --plain (did you mean --plane?)", 1},
		{"unknown-flag-spelling", []string{"simulate", "--maxResidentBytes", "1"}, "(did you mean --max-resident-bytes?)", 1},
		{"unknown-flag-json", []string{"simulate", "--plain", "xy", "--json"}, "(did you mean --plane?)", 1},
		{"unknown-shorthand", []string{"-v"}, "unknown shorthand flag: 'v' in -v (did you mean --version?)", 1},
		{"route-as-argument", []string{"simulate", "route.csv", "world"}, "give it with --path, as in worldcook simulate --path route.csv world", 1},
		{"route-as-argument-json", []string{"--json", "simulate", "route.csv", "world"}, "give it with --path", 1},
		{"drawing-as-argument", []string{"validate", "main.esscene", "map.svg"}, "map.svg looks like a drawing: give it with --map", 1},
		{"two-worlds", []string{"simulate", "--path", "route.csv", "a", "b"}, "simulate takes at most 1 argument (WORLD), got 2: a b", 1},
		{"cook-without-scene", []string{"cook"}, "cook needs an argument: SCENE|DIR...", 3},
		{"cook-without-scene-json", []string{"--json", "cook"}, "cook needs an argument: SCENE|DIR...", 3},
		{"validate-without-scene", []string{"validate"}, "validate needs an argument: SCENE|DIR|PREFAB...", 3},
		{"unknown-command", []string{"simlate"}, `unknown command "simlate" (did you mean simulate?); see 'worldcook --help'`, 1},
		{"unknown-command-json", []string{"--json", "simlate"}, `unknown command "simlate" (did you mean simulate?)`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, tc.args...)
			if code != ExitInput {
				t.Errorf("exit %d, want %d", code, ExitInput)
			}
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			if !strings.HasPrefix(lines[0], "worldcook: ") || !strings.Contains(lines[0], tc.want) || len(lines) != tc.lines {
				t.Errorf("stderr, want %d lines, the first containing %q:\n%s", tc.lines, tc.want, stderr)
			}
			if tc.lines > 1 && (!strings.HasPrefix(lines[1], "Usage:   worldcook ") || !strings.HasPrefix(lines[2], "Example: worldcook ")) {
				t.Errorf("no usage line and example:\n%s", stderr)
			}
			if slices.Contains(tc.args, "--json") {
				var e exitError
				if err := json.Unmarshal([]byte(stdout), &e); err != nil || e.MessageType != "exit_error" || e.Code != ExitInput ||
					"worldcook: "+e.Message != lines[0] || strings.Count(stdout, "\n") != 1 {
					t.Errorf("stdout is not the exit_error of stderr's line (%v):\n%s", err, stdout)
				}
			} else if stdout != "" {
				t.Errorf("stdout: %s", stdout)
			}
			got := "$ worldcook " + strings.Join(tc.args, " ") + "\n--- stderr\n" + stderr
			if stdout != "" {
				got += "--- stdout\n" + stdout
			}
			goldenfile.Compare(t, filepath.Join("testdata", "mistakes", tc.name+".txt"), []byte(got))
		})
	}
}

// TestListFlagsComplete: a list setting completes as a list, each value
// offered after those given and never twice.
func TestListFlagsComplete(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"simulate", "--fail-on", ""}, []string{"holes", "pop-in", "over-budget", "over-cap", "failures"}},
		{[]string{"simulate", "--fail-on", "holes,"}, []string{"holes,pop-in", "holes,over-budget", "holes,over-cap", "holes,failures"}},
		{[]string{"simulate", "--fail-on", "holes,over-"}, []string{"holes,over-budget", "holes,over-cap"}},
		{[]string{"simulate", "--fail-on", "holes", "--fail-on", "over-cap,"}, []string{"over-cap,pop-in", "over-cap,over-budget", "over-cap,failures"}},
		{[]string{"simulate", "--fail-on", "holes,over-budget,over-cap,"}, []string{"holes,over-budget,over-cap,pop-in", "holes,over-budget,over-cap,failures"}},
		{[]string{"simulate", "--assets", "../testdata/demo,../testdata/v"}, []string{"../testdata/demo,../testdata/validate/"}},
	} {
		_, out, _ := run(t, append([]string{cobra.ShellCompRequestCmd}, tc.args...)...)
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.HasPrefix(l, ":") {
				got = append(got, l)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v: completes %q, want %q", tc.args, got, tc.want)
		}
	}
}
