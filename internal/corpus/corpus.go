// Package corpus locates the shared Estella material that tests run
// against: the scene corpus and the example projects. It is public data
// kept beside the repository, not in it; tests skip with a clear message
// where it is absent, and fuzz targets seed from it only when it is there.
package corpus

import (
	"io/fs"
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
		return existing(d)
	}
	return shared("estella-corpus")
}

// Projects returns the folder of the Estella example projects, or ""
// when it is not there. The WORLDCOOK_PROJECTS environment variable
// overrides the default location, ../shared/estella-projects beside the
// repository.
func Projects() string {
	if d := os.Getenv("WORLDCOOK_PROJECTS"); d != "" {
		return existing(d)
	}
	return shared("estella-projects")
}

// EngineSDK returns the engine's TypeScript sources (its sdk/src folder)
// that tests run in Node to compare worldcook with the engine, or ""
// when they are not there. WORLDCOOK_ENGINE_SDK overrides the default,
// ../shared/estella-sdk/engine/sdk/src beside the repository.
func EngineSDK() string {
	if d := os.Getenv("WORLDCOOK_ENGINE_SDK"); d != "" {
		return existing(d)
	}
	if d := shared("estella-sdk"); d != "" {
		return existing(filepath.Join(d, "engine", "sdk", "src"))
	}
	return ""
}

// Estella returns the checkout of the engine (esengine/estella) named by
// the WORLDCOOK_ESTELLA environment variable, whose examples/ hold whole
// projects, skipping t when it is unset or not a folder. The engine's
// files are read there and never copied into the repository.
func Estella(t testing.TB) string {
	t.Helper()
	d := os.Getenv("WORLDCOOK_ESTELLA")
	if d == "" {
		t.Skip("set WORLDCOOK_ESTELLA to a checkout of esengine/estella to run this test on its example projects")
	}
	if existing(d) == "" {
		t.Skipf("WORLDCOOK_ESTELLA=%s is not a folder", d)
	}
	return d
}

// existing is d when it is a folder, else "": a variable naming a folder
// that is not there means the material is absent, and tests skip.
func existing(d string) string {
	if st, err := os.Stat(d); err == nil && st.IsDir() {
		return d
	}
	return ""
}

// shared is the folder name in ../shared beside the repository, or ""
// when it is not there.
func shared(name string) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	root := filepath.Join(filepath.Dir(file), "..", "..")
	d := filepath.Join(root, "..", "shared", name)
	if st, err := os.Stat(d); err == nil && st.IsDir() {
		return d
	}
	return ""
}

// ProjectFiles returns the files of the example projects whose names
// end in suffix (".esmesh"), sorted; none when the projects are absent.
// For fuzz seeds, which are optional: a test that needs the files calls
// Projects and skips.
func ProjectFiles(suffix string) []string {
	d := Projects()
	if d == "" {
		return nil
	}
	var out []string
	filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(p, suffix) {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
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

// CopyTree copies the regular files under src (a shared project, or the
// repository's own demo) to dst, so that a test can cook or edit a
// project without touching the original, which is read-only in CI.
func CopyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
