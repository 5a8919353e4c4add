// Command layers checks worldcook's import layering, so that a package
// never reaches up to one that builds on it and cmd/ stays a thin adapter
// over the library. It reads `go list -deps -json` of the module and
// fails, naming each offending import, when
//
//   - a package imports one of its own layer or of a higher one,
//   - cmd imports a package outside cmdImports and cmdExceptions (the
//     library's helpers belong behind cook,
//     validate and streaming), or an exception is no longer used,
//   - a package is in no layer (add it to layers).
//
// Run it with `go run ./tools/layers` (make lint does); its test runs the
// same check in `go test ./...`.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
)

const module = "github.com/worldcook/worldcook"

// layers orders worldcook's packages, lowest first, as they are built on
// one another: the diagnostic, the grid and the helpers, with no worldcook imports, the
// formats, scene reading, the rules (validate) and the scheduler
// (streaming) side by side, the cook pipeline, a run of simulate, its
// report, settings, the settings search (tune, which reads sizes as
// settings do), the command line, then programs.
// Paths are relative to the module; "" is the module's root (main).
var layers = [][]string{
	{"diag", "grid", "internal/regular", "internal/jsondoc", "internal/gcpause", "internal/corpus", "internal/golden", "internal/testbin", "internal/browser", "internal/watch", "internal/english", "internal/bytesize", "internal/shell", "internal/tilemap", "internal/navgrid"},
	{"internal/mapped", "internal/timeline", "internal/enginejs", "internal/project"},
	{"internal/fingerprint"},
	{"manifest", "internal/drawing", "internal/testworld", "internal/sidefile"},
	{"internal/scene"},
	{"internal/assets", "internal/camera", "internal/reparent"},
	{"validate", "streaming"},
	{"cook", "internal/initworld"},
	{"simulate", "internal/buildinfo", "route"},
	{"internal/report", "internal/repair"},
	{"internal/config"},
	{"tune"},
	{"cmd"},
	{"", "tools/cookbench", "tools/worldgen", "tools/layers", "tools/npmpack", "tools/precommit", "action"},
}

// cmdImports are the packages cmd is an adapter over: the public library
// (cook, validate, simulate, tune and the packages of the types they
// take and return) and the command line's own internal packages (the
// renderers of simulate's results, the side files, init, validate --fix, watch and the
// build files).
var cmdImports = []string{"internal/config", "cook", "diag", "manifest", "route", "simulate", "streaming", "tune", "validate", "internal/assets", "internal/buildinfo", "internal/english", "internal/initworld", "internal/repair", "internal/report", "internal/sidefile", "internal/watch", "internal/shell"}

// cmdExceptions are the lower packages cmd imports itself: internal/gcpause,
// because how the garbage collector runs during a cook is the program's
// decision, not the library's (cook takes it as a GCPolicy). They are
// listed so that a new one fails the check.
var cmdExceptions = []string{"internal/gcpause"}

// pkg is what layers reads of `go list -json`.
type pkg struct {
	ImportPath string
	Imports    []string
	Module     *struct{ Path string }
}

func main() {
	out, err := exec.Command("go", "list", "-deps", "-json", "./...").Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "layers: go list:", err)
		os.Exit(2)
	}
	pkgs, err := decode(bytes.NewReader(out))
	if err != nil {
		fmt.Fprintln(os.Stderr, "layers:", err)
		os.Exit(2)
	}
	if problems := check(pkgs); len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(os.Stderr, "layers:", p)
		}
		os.Exit(1)
	}
}

// decode reads the stream of JSON objects go list writes.
func decode(r io.Reader) ([]pkg, error) {
	var pkgs []pkg
	dec := json.NewDecoder(r)
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("reading go list: %v", err)
		}
		pkgs = append(pkgs, p)
	}
}

// rel is a module package's path relative to the module, and whether it
// is one of the module's.
func rel(path string) (string, bool) {
	if path == module {
		return "", true
	}
	r, ok := strings.CutPrefix(path, module+"/")
	return r, ok
}

// check returns every broken rule, sorted.
func check(pkgs []pkg) []string {
	layer := map[string]int{}
	for i, l := range layers {
		for _, p := range l {
			layer[p] = i
		}
	}
	name := func(p string) string {
		if p == "" {
			return "worldcook (main)"
		}
		return p
	}
	var problems []string
	usedExceptions := map[string]bool{}
	for _, p := range pkgs {
		from, ok := rel(p.ImportPath)
		if !ok {
			continue
		}
		lf, known := layer[from]
		if !known {
			problems = append(problems, fmt.Sprintf("%s is in no layer; add it to layers in tools/layers/main.go", name(from)))
			continue
		}
		for _, imp := range p.Imports {
			to, ok := rel(imp)
			if !ok {
				continue
			}
			lt, known := layer[to]
			if !known {
				continue // reported as a package of its own
			}
			if lt >= lf {
				problems = append(problems, fmt.Sprintf("%s imports %s, which is not below it (layers: %s)", name(from), name(to), order(from, to, layer)))
			}
			if from == "cmd" && !slices.Contains(cmdImports, to) {
				if slices.Contains(cmdExceptions, to) {
					usedExceptions[to] = true
				} else {
					problems = append(problems, fmt.Sprintf("cmd imports %s; cmd adapts %s only; put the code behind one of them", to, strings.Join(cmdImports, ", ")))
				}
			}
		}
	}
	for _, e := range cmdExceptions {
		if !usedExceptions[e] {
			problems = append(problems, fmt.Sprintf("cmd no longer imports %s; remove it from cmdExceptions in tools/layers/main.go", e))
		}
	}
	sort.Strings(problems)
	return problems
}

func order(a, b string, layer map[string]int) string {
	return fmt.Sprintf("%s is in layer %d, %s in layer %d", a, layer[a], b, layer[b])
}
