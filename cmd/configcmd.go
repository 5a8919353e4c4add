package cmd

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"

	"github.com/worldcook/worldcook/internal/config"
)

// newConfigCmd is `worldcook config [COMMAND]`: the settings a command
// would run with and where each came from, like git config --show-origin.
// Each COMMAND takes that command's flags (and ignores its arguments), so
// a command line becomes its own explanation by putting config in front.
func newConfigCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config [COMMAND]",
		Short: "Print the resolved settings of a command and where each came from",
		Long: `Config prints every setting a command would use, its value, and where the
value came from: a flag, a WORLDCOOK_* environment variable, a line of the
settings file (worldcook.yaml, or --config FILE), or the default. Without a
COMMAND it prints the settings of every command. Put config in front of a
command line to see what it resolves to; the command's own arguments are
ignored. With --json, one JSON object per setting. Every setting: docs/config.md.`,
		Example: `  worldcook config simulate
  worldcook --config ci.yaml config cook --jobs 4
  WORLDCOOK_SIMULATE_BUDGET=16KiB worldcook --json config simulate`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			msg := fmt.Sprintf("%q is not a command with settings; use one of %s", args[0], strings.Join(config.Sections(), ", "))
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				msg += fmt.Sprintf(" (did you mean %s?)", s[0])
			}
			return errors.New(msg)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.showConfig(cmd, append([]string{""}, config.Sections()...))
		},
	}
	for _, section := range config.Sections() {
		sub := &cobra.Command{
			Use:   section + " [flags]",
			Short: "Print the resolved settings of " + section,
			Long: "Print every setting " + section + " would use, its value and where it came from.\n" +
				"Give " + section + "'s flags to see them resolved. Every setting: docs/config.md.",
			Example: "  worldcook config " + section,
			Args:    cobra.ArbitraryArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				return a.showConfig(cmd, []string{"", section})
			},
		}
		if section == "tune" {
			tuneSettings(sub)
		} else {
			settings(sub, section, sub.Flags())
		}
		cmd.AddCommand(sub)
	}
	return cmd
}

func (a *app) showConfig(cmd *cobra.Command, sections []string) error {
	cfg, err := a.config(cmd, sections...)
	if err != nil {
		return err
	}
	if cfg.JSON {
		return writeConfigJSON(a.io.Out, cfg, sections)
	}
	return writeConfigText(a.io.Out, cfg, sections)
}

func writeConfigText(w io.Writer, cfg *config.Config, sections []string) error {
	if cfg.File != "" {
		fmt.Fprintf(w, "# settings file %s\n", cfg.Found)
	} else {
		fmt.Fprintf(w, "# no settings file (%s)\n", cfg.Found)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tVALUE\tORIGIN")
	for _, v := range cfg.Values(sections...) {
		text := v.Text
		switch {
		case v.Value == nil:
			text = "(not set)"
		case text == "" && isList(v.Value):
			text = "(none)"
		case text == "":
			text = `""`
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", v.Setting.Path(), text, v.Origin)
	}
	for _, name := range componentNames(cfg) {
		c := cfg.Components[name]
		fmt.Fprintf(tw, "components.%s\tentityFields=[%s] softFields=[%s]\t%s\n", name,
			strings.Join(c.EntityFields, ","), strings.Join(c.SoftFields, ","), cfg.ComponentOrigin(name))
	}
	return tw.Flush()
}

// configRecord is one line of `worldcook --json config`.
type configRecord struct {
	Type   string `json:"message_type"`
	Key    string `json:"key"`
	Value  any    `json:"value"`
	Unit   string `json:"unit,omitempty"`
	Flag   string `json:"flag,omitempty"`
	Env    string `json:"env,omitempty"`
	Origin string `json:"origin"`
	// Source is the flag, variable or file the value came from, Line and
	// Column its place in the file.
	Source string `json:"source,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// FromKey is the key that gave the value when it is not this one:
	// "plane" for a cook.plane taken from the top-level plane.
	FromKey string `json:"fromKey,omitempty"`
}

func writeConfigJSON(w io.Writer, cfg *config.Config, sections []string) error {
	enc := json.NewEncoder(w)
	for _, v := range cfg.Values(sections...) {
		s := v.Setting
		r := configRecord{Type: "setting", Key: s.Path(), Value: v.Value, Unit: s.Unit, Flag: "--" + s.Flag, Env: s.Env,
			Origin: v.Origin.Kind.String(), Source: v.Origin.Name, Line: v.Origin.Line, Column: v.Origin.Column, FromKey: v.Origin.Key}
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	for _, name := range componentNames(cfg) {
		o := cfg.ComponentOrigin(name)
		r := configRecord{Type: "component", Key: "components." + name, Value: cfg.Components[name],
			Origin: o.Kind.String(), Source: o.Name, Line: o.Line, Column: o.Column}
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

func componentNames(cfg *config.Config) []string {
	names := make([]string, 0, len(cfg.Components))
	for name := range cfg.Components {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func isList(v any) bool { _, ok := v.([]string); return ok }
