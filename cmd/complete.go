package cmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// A list setting is one comma-separated word on the command line
// (--fail-on holes,over-cap), so its completion extends the list: after
// "holes," it offers "holes,over-budget", "holes,over-cap" and so on,
// never a value the list already holds, and leaves the word open for
// another comma.

// listCompletion completes the list flag named flag from values.
func listCompletion(flag string, values []string) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		done, _ := splitList(toComplete)
		given := strings.Split(done, ",")
		if f := cmd.Flags().Lookup(flag); f != nil && f.Changed {
			// --fail-on holes --fail-on <TAB>: the earlier ones count.
			given = append(given, strings.Split(f.Value.String(), ",")...)
		}
		var out []cobra.Completion
		left := 0
		for _, v := range values {
			if slices.Contains(given, v) {
				continue
			}
			left++
			if c := done + v; strings.HasPrefix(c, toComplete) {
				out = append(out, c)
			}
		}
		directive := cobra.ShellCompDirectiveNoFileComp
		if left > 1 {
			// Another value may follow the one chosen: no space yet.
			directive |= cobra.ShellCompDirectiveNoSpace
		}
		return out, directive
	}
}

// dirListCompletion completes a list of folders (--assets a,b): the
// shell's own folder completion while the word holds no comma, else the
// folders matching what follows the last comma.
func dirListCompletion(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	done, last := splitList(toComplete)
	if done == "" {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	dir, base := filepath.Split(last)
	entries, err := os.ReadDir(filepath.Join(".", dir))
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), base) && (base != "" || !strings.HasPrefix(e.Name(), ".")) {
			out = append(out, done+dir+e.Name()+"/")
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// splitList cuts a list word after its last comma: "holes,ov" is
// "holes," and "ov".
func splitList(word string) (done, last string) {
	i := strings.LastIndex(word, ",")
	return word[:i+1], word[i+1:]
}
