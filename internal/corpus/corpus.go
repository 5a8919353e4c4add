// Package corpus locates the shared Estella scene corpus that tests run
// against. The corpus is public data kept beside the repository, not in it;
// tests skip with a clear message where it is absent.
package corpus

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// Dir returns the corpus directory, or "" when it is not there. The
// WORLDCOOK_CORPUS environment variable overrides the default location,
// ../shared/estella-corpus beside the repository.
func Dir() string {
	if d := os.Getenv("WORLDCOOK_CORPUS"); d != "" {
		return d
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	root := filepath.Join(filepath.Dir(file), "..", "..")
	d := filepath.Join(root, "..", "shared", "estella-corpus")
	if st, err := os.Stat(d); err == nil && st.IsDir() {
		return d
	}
	return ""
}

// Files returns the corpus files with the given suffix (".esscene",
// ".esprefab"), sorted, skipping t when the corpus is absent.
func Files(t testing.TB, suffix string) []string {
	t.Helper()
	d := Dir()
	if d == "" {
		t.Skip("Estella corpus not found at ../shared/estella-corpus (set WORLDCOOK_CORPUS to its path to run this test)")
	}
	entries, err := os.ReadDir(d)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), suffix) {
			out = append(out, filepath.Join(d, e.Name()))
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		t.Skipf("no %s files in %s", suffix, d)
	}
	return out
}
