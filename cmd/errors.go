package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/worldcook/worldcook/internal/config"
	"github.com/worldcook/worldcook/internal/shell"
)

// A mistake on the command line is answered with its fix: the flag or
// command that was probably meant, the flag a misplaced file belongs to,
// the usage line and an example when an argument is missing. Each is one
// line on stderr (plus the usage and example lines where said) and exit
// 2, and with --json the exit_error object of docs/json.md.

// usageError is bad usage whose report adds lines after its one-line
// message: the usage line and an example of the command.
type usageError struct {
	msg   string
	extra []string
}

func (e *usageError) Error() string { return e.msg }

// Texts of cobra and pflag that worldcook answers with more than they say.
var (
	unknownFlag      = regexp.MustCompile(`^unknown flag: --([^\s=]+)$`)
	unknownShorthand = regexp.MustCompile(`^unknown shorthand flag: '(.)' in -\S+$`)
	unknownCommand   = regexp.MustCompile(`^unknown command "(.*)" for "(.*)"$`)
	tooFewArgs       = regexp.MustCompile(`^requires at least (\d+) arg\(s\), only received \d+$`)
	tooManyArgs      = regexp.MustCompile(`^accepts at most (\d+) arg\(s\), received \d+$`)
)

// flagError is every command's answer to a flag that does not parse: the
// flag an unknown one most likely means (by meaning, then by spelling:
// config.Meant), what to do instead for a setting the command does not
// take, and where to read about them all. args is the command line.
func flagError(c *cobra.Command, err error, args []string) error {
	msg := err.Error()
	var names []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	if m := unknownFlag.FindStringSubmatch(msg); m != nil {
		if best := config.Meant(m[1], names); best != "" {
			msg += fmt.Sprintf(" (did you mean --%s?)", best)
		} else if config.Synonym(m[1]) == "cell-size" {
			// The advice ends the line, so that its command can be
			// copied as it is.
			return inputErr(fmt.Errorf("%s: %s", msg, cellSizeAdvice(c, m[1], args)))
		}
	} else if m := unknownShorthand.FindStringSubmatch(msg); m != nil {
		// A one-letter flag that does not exist: the one long flag that
		// starts with the letter is likely what was meant (-v: --version).
		var starting []string
		for _, n := range names {
			if strings.HasPrefix(n, m[1]) {
				starting = append(starting, n)
			}
		}
		if len(starting) == 1 {
			msg += fmt.Sprintf(" (did you mean --%s?)", starting[0])
		}
	}
	return inputErr(fmt.Errorf("%s; see '%s --help'", msg, c.CommandPath()))
}

// cellSizeAdvice says where the cell size of a streamed world is set,
// for a command that reads it from the scene (or world) instead of a
// flag: the scene's StreamedWorld, which init writes into a scene that
// has none. The init command repeats the size and the scene given, when
// the command line holds them.
func cellSizeAdvice(c *cobra.Command, flag string, args []string) string {
	size := ""
	var scenes []string
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+flag+"="); ok {
			size = v
		} else if a == "--"+flag && i+1 < len(args) {
			size = args[i+1]
		} else if strings.HasSuffix(a, ".esscene") && !strings.HasPrefix(a, "-") {
			scenes = append(scenes, a)
		}
	}
	say := fmt.Sprintf("%s reads the cell size from the world: the cellSize of the scene's StreamedWorld entity; set it there, or have init write a StreamedWorld into a scene without one", c.Name())
	if _, err := strconv.ParseFloat(size, 64); err != nil || len(scenes) != 1 {
		// Without a size and one scene there is no command to print
		// that would run as printed.
		return say + " (worldcook init --cell-size, see 'worldcook init --help')"
	}
	return say + ": " + shell.Command("worldcook", "init", "--cell-size", size, scenes[0])
}

// commandError rewrites cobra's unknown command error (whose suggestions
// come on lines of their own, indented with a tab) as one line with the
// nearest commands.
func commandError(root *cobra.Command, err error) error {
	var ee *ExitError
	if err == nil || errors.As(err, &ee) {
		return err
	}
	m := unknownCommand.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	msg := fmt.Sprintf("unknown command %q", m[1])
	if s := root.SuggestionsFor(m[1]); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", orList(s))
	}
	return inputErr(fmt.Errorf("%s; see '%s --help'", msg, m[2]))
}

func orList(vs []string) string {
	if len(vs) == 1 {
		return vs[0]
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}

// fileFlags are the flags whose file a user may give as an argument by
// mistake, by the file's extension: no command takes such a file as an
// argument (a scene is .esscene, a world a folder or a .json manifest).
var fileFlags = []struct {
	ext, what string
	flags     []string
}{
	{".csv", "a route", []string{"path"}},
	{".svg", "a drawing", []string{"map", "plot"}},
	{".html", "a page", []string{"html"}},
	{".yaml", "a settings file", []string{"config"}},
	{".yml", "a settings file", []string{"config"}},
}

// explainArgs wraps every command's argument check so that a mistake
// gets its fix: a file given where its flag was expected names the flag
// (simulate route.csv world: the route goes in --path), a missing
// argument shows the usage line and an example, and one too many says
// what the command takes.
func explainArgs(c *cobra.Command, a *app) {
	for _, sub := range c.Commands() {
		explainArgs(sub, a)
	}
	check := c.Args
	if check == nil {
		return
	}
	c.Args = func(cmd *cobra.Command, args []string) error {
		if err := misplacedFile(cmd, args, a.args); err != nil {
			return err
		}
		err := check(cmd, args)
		if err == nil {
			return nil
		}
		name := cmd.CommandPath()
		if tooFewArgs.MatchString(err.Error()) {
			return inputErr(&usageError{
				msg:   fmt.Sprintf("%s needs an argument: %s", cmd.Name(), argSpec(cmd)),
				extra: usageLines(cmd),
			})
		}
		if m := tooManyArgs.FindStringSubmatch(err.Error()); m != nil {
			return inputErr(fmt.Errorf("%s takes at most %s argument (%s), got %d: %s; see '%s --help'",
				cmd.Name(), m[1], argNames(cmd), len(args), strings.Join(args, " "), name))
		}
		return err
	}
}

// misplacedFile finds an argument that is the file of one of cmd's flags
// (by its extension) when that flag was not given.
func misplacedFile(cmd *cobra.Command, args, line []string) error {
	for _, arg := range args {
		ext := strings.ToLower(filepath.Ext(arg))
		for _, ff := range fileFlags {
			if ff.ext != ext {
				continue
			}
			if st, err := os.Stat(arg); err == nil && st.IsDir() {
				continue // a folder named so is an argument like any other
			}
			var flags []string
			for _, f := range ff.flags {
				if fl := cmd.Flags().Lookup(f); fl != nil && !fl.Changed {
					flags = append(flags, "--"+f)
				}
			}
			if len(flags) == 0 {
				continue
			}
			return inputErr(fmt.Errorf("%s looks like %s: give it with %s, as in %s",
				arg, ff.what, orList(flags), retyped(line, arg, []string{flags[0], arg}, strings.Fields(cmd.CommandPath() + " " + flags[0] + " " + arg + " " + argSpec(cmd))[1:]...)))
		}
	}
	return nil
}

// argSpec is the arguments part of cmd's usage line: WORLD, SCENE|DIR.
func argSpec(cmd *cobra.Command) string {
	fields := strings.Fields(cmd.Use)[1:]
	var out []string
	for i := 0; i < len(fields); i++ {
		if strings.HasPrefix(fields[i], "-") {
			i++ // the flag's value
			continue
		}
		out = append(out, fields[i])
	}
	return strings.Join(out, " ")
}

// argNames is argSpec without its brackets and ellipses, for a message:
// WORLD, SCENE|DIR.
func argNames(cmd *cobra.Command) string {
	return strings.NewReplacer("[", "", "]", "", "...", "").Replace(argSpec(cmd))
}

// usageLines are the usage line and the first example of cmd, as its
// help shows them (an example continued with \ joined into one line).
func usageLines(cmd *cobra.Command) []string {
	lines := []string{"Usage:   " + cmd.UseLine()}
	example := ""
	for _, l := range strings.Split(cmd.Example, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			if example != "" {
				break
			}
			continue
		}
		more := strings.HasSuffix(l, `\`)
		example += strings.TrimSpace(strings.TrimSuffix(l, `\`))
		if !more {
			break
		}
		example += " "
	}
	if example != "" {
		lines = append(lines, "Example: "+example)
	}
	return lines
}
