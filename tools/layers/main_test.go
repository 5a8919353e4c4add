package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

func p(path string, imports ...string) pkg {
	q := pkg{ImportPath: module + "/" + path}
	if path == "" {
		q.ImportPath = module
	}
	for _, i := range imports {
		if strings.Contains(i, ".") {
			q.Imports = append(q.Imports, i) // another module
		} else {
			q.Imports = append(q.Imports, module+"/"+i)
		}
	}
	return q
}

// allExceptions is cmd importing exactly its listed exceptions.
func allExceptions() pkg { return p("cmd", append([]string{"config", "cook"}, cmdExceptions...)...) }

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		pkgs []pkg
		want []string // substrings of the problems, in order
	}{
		{"clean", []pkg{p("internal/scene", "internal/mapped", "github.com/goccy/go-json"), p("cook", "internal/scene", "validate"), allExceptions()}, nil},
		{"upward", []pkg{p("internal/scene", "validate"), allExceptions()}, []string{"internal/scene imports validate, which is not below it"}},
		{"sideways", []pkg{p("validate", "streaming"), allExceptions()}, []string{"validate imports streaming, which is not below it"}},
		{"cmd reaches into internal", []pkg{p("cmd", append([]string{"internal/fingerprint"}, cmdExceptions...)...)}, []string{"cmd imports internal/fingerprint; cmd adapts"}},
		{"stale exception", []pkg{p("cmd", "config", "cook")}, []string{"cmd no longer imports internal/gcpause"}},
		{"unknown package", []pkg{p("newpkg"), allExceptions()}, []string{"newpkg is in no layer"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := check(tc.pkgs)
			if len(got) != len(tc.want) {
				t.Fatalf("problems %q, want %d", got, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %q, want %q", got[i], w)
				}
			}
		})
	}
}

// TestModuleLayers checks worldcook itself.
func TestModuleLayers(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the packages with")
	}
	out, err := exec.Command("go", "list", "-deps", "-json", module+"/...").Output()
	if err != nil {
		t.Fatal("go list:", err)
	}
	pkgs, err := decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, problem := range check(pkgs) {
		t.Error(problem)
	}
}
