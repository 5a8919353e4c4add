package cmd

import (
	"io"
	"os"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"
)

// Machine output is one style for every command (docs/json.md): JSON
// Lines on stdout, each object naming what it is in its first field,
// message_type, as restic's does. A run that fails says so in the same
// stream, with an exit_error object, so a tool reading stdout never has
// to parse stderr.

// exitError is the last line of a failed run's machine output.
type exitError struct {
	MessageType string `json:"message_type"`
	Code        int    `json:"code"`
	Message     string `json:"message"`
}

// writeJSONLine writes v as one line of JSON.
func writeJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// machineOutput reports whether this run writes JSON Lines: --json (or
// WORLDCOOK_JSON), or a command that chose a JSON format. It is asked
// after the run, so it also answers for runs that failed before their
// settings were resolved (a bad flag, a broken worldcook.yaml), and for
// runs whose flags never parsed (an unknown command, an unknown flag
// before --json): then args say it.
func (a *app) machineOutput(root *cobra.Command, args []string) bool {
	if a.machine {
		return true
	}
	if f := root.PersistentFlags().Lookup("json"); f != nil && f.Changed {
		return f.Value.String() == "true"
	}
	given, on := false, false
	for _, arg := range args {
		if arg == "--" {
			break
		}
		if v, ok := strings.CutPrefix(arg, "--json"); ok && (v == "" || v[0] == '=') {
			b, err := strconv.ParseBool(strings.TrimPrefix(v, "="))
			given, on = true, v == "" || err == nil && b // the last one counts, as for pflag
		}
	}
	if given {
		return on
	}
	// Read as the settings read booleans, so that a value they accept
	// means the same here.
	on, err := strconv.ParseBool(os.Getenv("WORLDCOOK_JSON"))
	return err == nil && on
}
