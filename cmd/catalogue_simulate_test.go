package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// hostileWorld is one way a cooked world or a route can be bad when
// simulate reads it, how simulate must answer, and how it is made: spoil
// damages a freshly cooked demo world in out and returns the WORLD
// argument and the file the message must name.
type hostileWorld struct {
	name  string
	route string // default: the demo route
	spoil func(t *testing.T, out string) (world, named string)
	want  string // substring of stderr
}

const demoRoute = "../testdata/demo/route.csv"

func demoCell(out string) string { return filepath.Join(out, "world", "main.cell_1_1.json") }

func demoManifest(out string) string { return filepath.Join(out, "world", "main.world.json") }

func rewrite(t *testing.T, p string, edit func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, edit(b), 0o644); err != nil {
		t.Fatal(err)
	}
}

// interrupt cooks an edit of the demo world into out through a file
// system whose renames fail once the journal and two files are in place:
// the state a cook killed mid-commit leaves.
func interrupt(t *testing.T, out string) {
	t.Helper()
	_, edited := demoPair(t, t.TempDir())
	fsys := &faultFS{FS: openOut(t, out), errno: syscall.EIO, ops: map[string]bool{"rename": true}, after: 3}
	if code, stderr := cookThrough(t, fsys, edited, out); code != ExitInput || !strings.Contains(stderr, "the next cook into") {
		t.Fatalf("the interrupted cook: exit %d: %s", code, stderr)
	}
}

func simulateCatalogue() []hostileWorld {
	return []hostileWorld{
		{name: "cell file missing", want: "is missing; the cooked world is damaged: re-cook the world",
			spoil: func(t *testing.T, out string) (string, string) {
				os.Remove(demoCell(out))
				return out, demoCell(out)
			}},
		{name: "cell blake3 mismatch", want: "does not match its blake3 in the manifest",
			spoil: func(t *testing.T, out string) (string, string) {
				rewrite(t, demoCell(out), func(b []byte) []byte { b[len(b)/2] ^= 1; return b })
				return out, demoCell(out)
			}},
		{name: "cell truncated", want: "(truncated since the cook); the cooked world is damaged: re-cook the world",
			spoil: func(t *testing.T, out string) (string, string) {
				rewrite(t, demoCell(out), func(b []byte) []byte { return b[:len(b)/2] })
				return out, demoCell(out)
			}},
		{name: "cell grown", want: "(changed since the cook)",
			spoil: func(t *testing.T, out string) (string, string) {
				rewrite(t, demoCell(out), func(b []byte) []byte { return append(b, ' ') })
				return out, demoCell(out)
			}},
		{name: "cell replaced by a folder", want: "is not a regular file",
			spoil: func(t *testing.T, out string) (string, string) {
				os.Remove(demoCell(out))
				os.Mkdir(demoCell(out), 0o755)
				return out, demoCell(out)
			}},
		{name: "cell is a symbolic link out of the world", want: "main.cell_1_1.json: path escapes from parent",
			spoil: func(t *testing.T, out string) (string, string) {
				os.Remove(demoCell(out))
				if err := os.Symlink("/etc/hostname", demoCell(out)); err != nil {
					t.Skip(err)
				}
				return out, demoCell(out)
			}},
		{name: "persistent scene changed", want: "main.esscene does not match its blake3",
			spoil: func(t *testing.T, out string) (string, string) {
				p := filepath.Join(out, "main.esscene")
				rewrite(t, p, func(b []byte) []byte { b[1] ^= 1; return b })
				return out, p
			}},
		{name: "manifest given directly, cell missing", want: "is missing",
			spoil: func(t *testing.T, out string) (string, string) {
				os.Remove(demoCell(out))
				return demoManifest(out), demoCell(out)
			}},
		{name: "manifest not JSON", want: "not a world manifest",
			spoil: func(t *testing.T, out string) (string, string) {
				os.WriteFile(demoManifest(out), []byte("<<<<<<< HEAD\n"), 0o644)
				return out, demoManifest(out)
			}},
		{name: "manifest truncated", want: "not a world manifest",
			spoil: func(t *testing.T, out string) (string, string) {
				rewrite(t, demoManifest(out), func(b []byte) []byte { return b[:len(b)/2] })
				return demoManifest(out), demoManifest(out)
			}},
		{name: "manifest path escapes the cooked directory", want: `path "../../../etc/passwd" leaves the cooked directory`,
			spoil: func(t *testing.T, out string) (string, string) {
				rewrite(t, demoManifest(out), func(b []byte) []byte {
					return []byte(strings.Replace(string(b), `"world/main.cell_0_0.json"`, `"../../../etc/passwd"`, 1))
				})
				return out, demoManifest(out)
			}},
		{name: "manifest absolute path", want: `path "/etc/passwd" leaves the cooked directory`,
			spoil: func(t *testing.T, out string) (string, string) {
				rewrite(t, demoManifest(out), func(b []byte) []byte {
					return []byte(strings.Replace(string(b), `"main.esscene"`, `"/etc/passwd"`, 1))
				})
				return out, demoManifest(out)
			}},
		{name: "interrupted cook (journal pending)", want: "mid-commit; run worldcook cook again to finish it",
			spoil: func(t *testing.T, out string) (string, string) {
				interrupt(t, out)
				return out, filepath.Join(out, ".main.worldcook-journal")
			}},
		{name: "interrupted cook, manifest given", want: "mid-commit; run worldcook cook again to finish it",
			spoil: func(t *testing.T, out string) (string, string) {
				interrupt(t, out)
				return demoManifest(out), filepath.Join(out, ".main.worldcook-journal")
			}},
		{name: "first cook interrupted before its manifest", want: "mid-commit; run worldcook cook again to finish it",
			spoil: func(t *testing.T, out string) (string, string) {
				fresh := filepath.Join(filepath.Dir(out), "fresh")
				interrupt(t, fresh)
				return fresh, filepath.Join(fresh, ".main.worldcook-journal")
			}},
		{name: "route with a word for a number", route: "route-bad-number.csv", want: `:3: x "abc" is not a finite number`},
		{name: "route row with an extra field", route: "route-extra-field.csv", want: ":2: the row has a different number of fields from the header"},
		{name: "route without x and z", route: "route-no-xz.csv", want: ":1: the header needs columns x and z"},
	}
}

// TestSimulateHostileWorlds runs simulate on damaged cooked worlds and bad
// routes: exit status 2, one line on stderr naming the file and what is
// wrong, no panic. A cooked world is refused unless it is exactly what
// cook left: no commit pending, every listed file with its size and blake3.
func TestSimulateHostileWorlds(t *testing.T) {
	demo, _ := demoPair(t, t.TempDir())
	good := filepath.Join(t.TempDir(), "good")
	if code, stderr := cookThrough(t, nil, demo, good); code != 0 {
		t.Fatalf("cook: exit %d: %s", code, stderr)
	}
	if code, _, stderr := run(t, "--config", demoConfig, "simulate", "-q", "--path", demoRoute, good); code != 0 {
		t.Fatalf("simulate on the intact world: exit %d: %s", code, stderr)
	}
	for _, tc := range simulateCatalogue() {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			if code, stderr := cookThrough(t, nil, demo, out); code != 0 {
				t.Fatalf("cook: exit %d: %s", code, stderr)
			}
			world, named, route := out, "", demoRoute
			if tc.spoil != nil {
				world, named = tc.spoil(t, out)
			}
			if tc.route != "" {
				route = filepath.Join("..", "testdata", "bad", tc.route)
				named = route
			}
			code, stdout, stderr := run(t, "--config", demoConfig, "simulate", "--path", route, world)
			t.Logf("exit %d: %s", code, strings.TrimSpace(stderr))
			if code != ExitInput {
				t.Errorf("exit %d, want %d", code, ExitInput)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr does not say %q", tc.want)
			}
			if !strings.Contains(stderr, named) {
				t.Errorf("stderr does not name %s", named)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "worldcook: ") {
				t.Errorf("want one line on stderr, got:\n%s", stderr)
			}
			if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") {
				t.Errorf("stderr shows a panic:\n%s", stderr)
			}
			if stdout != "" {
				t.Errorf("a refused world still printed a report:\n%.200s", stdout)
			}
		})
	}
}

// TestSimulateAfterTheInterruptedCookIsFinished follows the refusal's
// advice: the next cook finishes the commit, and simulate then reads the
// new world.
func TestSimulateAfterTheInterruptedCookIsFinished(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	interrupt(t, out)
	if code, _, _ := run(t, "--config", demoConfig, "simulate", "-q", "--path", demoRoute, out); code != ExitInput {
		t.Fatalf("simulate mid-commit: exit %d, want %d", code, ExitInput)
	}
	_, edited := demoPair(t, t.TempDir())
	if code, stderr := cookThrough(t, nil, edited, out); code != 0 {
		t.Fatalf("cook: exit %d: %s", code, stderr)
	}
	if code, _, stderr := run(t, "--config", demoConfig, "simulate", "-q", "--path", demoRoute, out); code != 0 {
		t.Fatalf("simulate after the cook finished the commit: exit %d: %s", code, stderr)
	}
}
