// Package cmd is worldcook's command line: it turns flags, environment and
// worldcook.yaml into one typed configuration and calls the cook, validate
// and streaming packages. It holds no cooking logic of its own.
package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/worldcook/worldcook/internal/config"
)

// Exit statuses shared by every command.
const (
	ExitOK       = 0 // clean
	ExitFindings = 1 // validation errors, or output that would change under --check
	ExitInput    = 2 // unreadable or malformed input, or bad usage
)

// ExitError carries an exit status out of a command. A nil Err means the
// command already reported everything it had to say.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// inputErr marks err as a problem with the user's input or usage (exit 2).
func inputErr(err error) error {
	if err == nil {
		return nil
	}
	return &ExitError{Code: ExitInput, Err: err}
}

// IO is where a command reads and writes. Tests inject buffers.
type IO struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// ErrTerminal reports whether Err is an interactive terminal: progress
	// bars are drawn only there, never into CI logs.
	ErrTerminal bool
	// OutTerminal reports whether Out is one: a report is laid out for a
	// person there (findings with their source line, a simulation's
	// summary first, sizes in binary units).
	OutTerminal bool
}

// app is what every command shares: its streams and the --config flag
// (the other global flags are settings, resolved with the command's).
type app struct {
	io         IO
	configFile string
	// machine is set by a command whose output is JSON Lines, so that a
	// failure is reported in them too.
	machine bool
	// args are the command line as given, for advice that repeats it.
	args []string
}

// config resolves the configuration for one command run: the command's own
// flags are bound under its sections (one, but every one for `worldcook
// config`), the global flags at the top level.
func (a *app) config(cmd *cobra.Command, sections ...string) (*config.Config, error) {
	l := config.NewLoader()
	if err := l.Bind("", cmd.Root().PersistentFlags()); err != nil {
		return nil, inputErr(err)
	}
	for _, section := range sections {
		if err := l.Bind(section, cmd.Flags()); err != nil {
			return nil, inputErr(err)
		}
	}
	// The settings follow the input: without --config or a worldcook.yaml
	// here, the one nearest to the first scene (or world) is read.
	if args := cmd.Flags().Args(); len(args) > 0 {
		l.Near(args[0])
	}
	cfg, err := l.Resolve(a.configFile)
	if err != nil {
		return nil, inputErr(err)
	}
	a.machine = a.machine || cfg.JSON
	return cfg, nil
}

// settings registers the declared settings of section ("" for the global
// ones) as flags of cmd in fs, with value completion for the settings
// that have a set of values. Flags are never registered by hand: a new
// setting is a field with tags in package config (see internal/config/declare.go).
func settings(cmd *cobra.Command, section string, fs *pflag.FlagSet) {
	for _, s := range config.Register(section, fs) {
		switch {
		case len(s.Values) > 0 && s.List():
			cmd.RegisterFlagCompletionFunc(s.Flag, listCompletion(s.Flag, s.Values))
		case s.Unit == "dir" && s.List():
			cmd.RegisterFlagCompletionFunc(s.Flag, dirListCompletion)
		case len(s.Values) > 0:
			cmd.RegisterFlagCompletionFunc(s.Flag, cobra.FixedCompletions(s.Values, cobra.ShellCompDirectiveNoFileComp))
		case s.Unit == "dir":
			cmd.RegisterFlagCompletionFunc(s.Flag, func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
				return nil, cobra.ShellCompDirectiveFilterDirs
			})
		case s.Unit != "path":
			cmd.RegisterFlagCompletionFunc(s.Flag, cobra.NoFileCompletions)
		}
	}
}

// NewRoot builds the worldcook command tree writing to streams.
func NewRoot(streams IO) *cobra.Command {
	root, _ := newRoot(streams)
	return root
}

func newRoot(streams IO) (*cobra.Command, *app) {
	a := &app{io: streams}
	root := &cobra.Command{
		Use:   "worldcook",
		Short: "Cook, validate and simulate streamed Estella worlds",
		Long: `worldcook splits an authored Estella scene into a persistent world and one document per
grid cell with a world manifest (cook), checks the residency rules a streamed world must keep
(validate), and replays camera routes through the runtime streaming scheduler (simulate).

Settings come from flags, then WORLDCOOK_* environment variables, then worldcook.yaml (or
--config FILE), then defaults ('worldcook help settings'); 'worldcook config COMMAND' shows
what a command resolves and where each value came from. Byte sizes take units (16KiB, 64MiB).

Exit status: 'worldcook help exit-codes'. Every setting: docs/config.md.`,
		Example: `  worldcook cook levels/main.esscene --out build/world
  worldcook validate --format github levels/
  worldcook simulate --path route.csv build/world`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       versionString(),
	}
	root.SetVersionTemplate("worldcook {{.Version}}\n")
	// --version without cobra's -v: a one-letter -v is kept free, as gh
	// and kubectl keep it (kubectl's is verbosity); 'worldcook version'
	// says more.
	root.Flags().Bool("version", false, "print worldcook's version")
	root.SetIn(streams.In)
	root.SetOut(streams.Out)
	root.SetErr(streams.Err)
	pf := root.PersistentFlags()
	// --config is the one flag that is not a setting: it says where the
	// settings file is, so it cannot come from that file.
	pf.StringVar(&a.configFile, "config", "", "configuration `file` (default: ./worldcook.yaml, else the input's nearest)")
	settings(root, "", pf)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return flagError(c, err, a.args) })
	// Unknown commands get their suggestions on the one line of the
	// error (commandError), not on lines of their own.
	root.DisableSuggestions = true
	root.SuggestionsMinimumDistance = 2
	root.AddCommand(
		newCookCmd(a),
		newValidateCmd(a),
		newSimulateCmd(a),
		newVersionCmd(a),
		newConfigCmd(a),
		newInitCmd(a),
		newTuneCmd(a),
		newRouteCmd(a),
	)
	addHelpTopics(root)
	explainArgs(root, a)
	return root, a
}

// Main runs worldcook with args and returns the process exit status.
func Main(args []string, in io.Reader, out, errw io.Writer) int {
	streams := IO{In: in, Out: out, Err: errw}
	if f, ok := errw.(*os.File); ok {
		streams.ErrTerminal = isatty.IsTerminal(f.Fd()) && os.Getenv("CI") == ""
	}
	if f, ok := out.(*os.File); ok {
		streams.OutTerminal = isatty.IsTerminal(f.Fd()) && os.Getenv("CI") == ""
	}
	// Everything printed goes through textOut: names from the user's
	// files reach the terminal with their control characters escaped.
	tout, terr := newTextOut(out), newTextOut(errw)
	defer tout.Flush()
	defer terr.Flush()
	out, errw = tout, terr
	streams.Out, streams.Err = tout, terr
	root, a := newRoot(streams)
	a.args = args
	root.SetArgs(args)
	err := commandError(root, root.Execute())
	code := report(errw, err)
	if code != ExitOK && a.machineOutput(root, args) {
		msg := ""
		var ee *ExitError
		if errors.As(err, &ee) && ee.Err == nil {
			// The command already reported everything it had to say
			// (findings, stale output) in its own lines.
			msg = exitMeaning(code)
		} else if err != nil {
			msg = oneLine(errOf(err))
		}
		writeJSONLine(out, exitError{MessageType: "exit_error", Code: code, Message: msg})
	}
	return code
}

// errOf is the error an ExitError carries, or err itself.
func errOf(err error) error {
	var ee *ExitError
	if errors.As(err, &ee) && ee.Err != nil {
		return ee.Err
	}
	return err
}

// exitMeaning says what an exit status means, for an exit_error line
// whose details came before it.
func exitMeaning(code int) string {
	switch code {
	case ExitFindings:
		return "validation errors, a --check that found output to change, or a --fail-on condition (see the lines above)"
	case ExitInput:
		return "unreadable or malformed input, bad usage, or an output that could not be written (see the lines above)"
	}
	return ""
}

// report prints err as one line and maps it to an exit status.
func report(errw io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	code := ExitInput // cobra's own errors are usage errors
	var ee *ExitError
	if errors.As(err, &ee) {
		code = ee.Code
		if ee.Err == nil {
			return code
		}
		err = ee.Err
	}
	msg := strings.TrimSpace(err.Error())
	fmt.Fprintf(errw, "worldcook: %s\n", strings.ReplaceAll(msg, "\n", " "))
	var ue *usageError
	if errors.As(err, &ue) {
		for _, l := range ue.extra {
			fmt.Fprintln(errw, l)
		}
	}
	return code
}
