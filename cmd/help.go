package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// addHelpTopics adds the topics to root, and lines up their list in the
// root's help: cobra pads it to the longest command path among the
// commands, which leaves a topic's longer path one space from its text.
func addHelpTopics(root *cobra.Command) {
	width := 0
	for _, t := range helpTopics() {
		root.AddCommand(t)
		width = max(width, len(t.CommandPath()))
	}
	const padded = "{{rpad .CommandPath .CommandPathPadding}} {{.Short}}"
	tmpl := root.UsageTemplate()
	if strings.Count(tmpl, padded) == 1 {
		root.SetUsageTemplate(strings.Replace(tmpl, padded, fmt.Sprintf("{{rpad .CommandPath %d}} {{.Short}}", width+1), 1))
	}
}

// helpTopics are the pages `worldcook help TOPIC` shows that belong to no
// one command (cobra lists a command without a Run under "Additional help
// topics"). What every command shares is said here once, and each
// command's help points here in one line.
func helpTopics() []*cobra.Command {
	return []*cobra.Command{
		{
			Use:   "exit-codes",
			Short: "What worldcook's exit statuses mean, for scripts and CI",
			Long: `Every worldcook command exits with one of three statuses:

  0  done: cooked (or, with --check, already up to date), validated without errors,
     simulated with no --fail-on condition holding
  1  done, and the result fails:
       cook      validation errors, or --check found output that would change
       validate  errors, or warnings with --strict
       simulate  a --fail-on condition held (holes, over-budget, over-cap, failures)
       init      the edited scene still has validation errors init cannot fix (named)
       tune      no candidate met --require on every route (the message says which
                 condition held least often, and where)
       route     never: a route that cannot be made is status 2
  2  could not be done: unreadable or malformed input (a scene, a route, the settings, a
     damaged or half-committed cooked world), bad usage, or an output that could not be
     written; an interrupted tune (its partial report printed)

config and version exit 0, or 2 (bad usage, unreadable settings). Errors are one line on
stderr. With --json a failed run ends with an exit_error object whose code is the status
(docs/json.md).`,
		},
		{
			Use:   "settings",
			Short: "Where settings come from: flags, environment, worldcook.yaml",
			Long: `Every setting can be given four ways; the first one given wins:

  1. a flag                    --max-resident-bytes 64MiB
  2. an environment variable   WORLDCOOK_SIMULATE_MAX_RESIDENT_BYTES=64MiB
  3. the settings file         simulate: {maxResidentBytes: 64MiB}
  4. the default

The settings file is ./worldcook.yaml, or the one --config names. It holds the global
settings at the top level, one mapping per command (cook, validate, simulate), components
and assetRefs. A key is the flag's name in camelCase; the flag's spelling is the same key.
The file is strict: an unknown key is an error naming its line and the nearest valid key.

Byte sizes take units (16KiB, 64MiB, 1.5GB). A setting given as 0 means 0; an optional one
left out means no budget, cap, pinning or LOD. 'worldcook config COMMAND' prints what a
command would run with and where each value came from.

Every setting with its key, variable, unit and default: docs/config.md.`,
		},
		{
			Use:   "environment",
			Short: "The environment variables worldcook reads",
			Long: `worldcook reads these environment variables:

  WORLDCOOK_<COMMAND>_<FLAG>  a command's setting, such as WORLDCOOK_SIMULATE_BUDGET=16KiB or
                              WORLDCOOK_COOK_OUT=build/world; an empty one counts as not
                              given, and a misspelt one of the command being run is an error
  WORLDCOOK_QUIET             --quiet, for every command
  WORLDCOOK_JSON              --json, for every command
  CI                          set (to anything): no progress bars, and output laid out as
                              for a file even on a terminal
  NO_COLOR                    set (to anything): no colour
  TERM                        dumb: no colour

A flag wins over the environment, which wins over worldcook.yaml ('worldcook help settings').
Every variable: docs/config.md.`,
		},
	}
}
