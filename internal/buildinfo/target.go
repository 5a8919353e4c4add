package buildinfo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CheckTarget refuses file, the value of flag, when it lies inside a
// folder of the authored scenes: a directory argument, or the folder of a
// scene given as a file. A build's bookkeeping does not belong among the
// sources (a directory cook and a watch read those folders), and a name
// there is one slip from an input. Inputs themselves are refused when the
// file is written (sidefile), once the cook has read them all.
func CheckTarget(file, flag string, args []string) error {
	if file == "" {
		return nil
	}
	dir := real(filepath.Dir(file))
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			continue // the cook reports it
		}
		folder := a
		if !st.IsDir() {
			folder = filepath.Dir(a)
		}
		if f := real(folder); dir == f || strings.HasPrefix(dir, f+string(filepath.Separator)) {
			return fmt.Errorf("%s %s is inside %s, a folder of the scenes being cooked; write it beside the output (for example next to --out) instead", flag, file, folder)
		}
	}
	return nil
}

// real is the absolute path of a folder with links resolved, as far as
// it exists.
func real(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if r, err := filepath.EvalSymlinks(a); err == nil {
		return r
	}
	return a
}
