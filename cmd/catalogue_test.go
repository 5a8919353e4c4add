package cmd

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/worldcook/worldcook/cook"
)

// run executes worldcook in-process and returns its exit status and output.
func run(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			st, _ := os.Stat(p)
			m[p] = string(b) + "@" + st.ModTime().String()
		}
		return nil
	})
	return m
}

// hostile is one bad input, how worldcook must answer it, and how the
// file is made (from testdata/bad/, or generated when large).
type hostile struct {
	name string
	file string        // under testdata/bad
	gen  func() []byte // instead of file
	exit int           // expected exit status
	want string        // substring of stderr
}

// write puts the input in a fresh temporary folder as main.esscene.
func (h hostile) write(t *testing.T) string {
	t.Helper()
	data := []byte(nil)
	if h.gen != nil {
		data = h.gen()
	} else {
		var err error
		if data, err = os.ReadFile(filepath.Join("..", "testdata", "bad", h.file)); err != nil {
			t.Fatal(err)
		}
	}
	in := filepath.Join(t.TempDir(), "main.esscene")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return in
}

func catalogue() []hostile {
	deep := func() []byte {
		var b bytes.Buffer
		b.WriteString(`{"version":1,"name":"m","entities":[{"id":1,"name":"A","parent":null,"children":[],"components":[{"type":"Deep","data":`)
		b.WriteString(strings.Repeat("[", 10000))
		b.WriteString(strings.Repeat("]", 10000))
		b.WriteString(`}]}]}`)
		return b.Bytes()
	}
	hugeString := func() []byte {
		var b bytes.Buffer
		b.WriteString(`{"version":1,"name":"m","entities":[{"id":1,"name":"`)
		b.Write(bytes.Repeat([]byte("a"), 50<<20))
		return b.Bytes() // never closed
	}
	return []hostile{
		{name: "empty file", file: "empty.esscene", exit: 2, want: "file is empty"},
		{name: "UTF-8 BOM", file: "bom.esscene", exit: 2, want: "byte order mark"},
		{name: "truncated JSON", file: "truncated.esscene", exit: 2, want: "truncated"},
		{name: "trailing garbage", file: "trailing-garbage.esscene", exit: 2, want: "trailing data"},
		{name: "merge-conflict markers", file: "merge-conflict.esscene", exit: 2, want: "merge-conflict"},
		{name: "top level is an array", file: "top-level-array.esscene", exit: 2, want: "top level is an array"},
		{name: "top level is a string", file: "top-level-string.esscene", exit: 2, want: "top level is a string"},
		{name: "entities not an array", file: "entities-object.esscene", exit: 2, want: `"entities" is an object`},
		{name: "no entities", file: "no-entities.esscene", exit: 2, want: `no "entities" array`},
		{name: "id as string", file: "id-string.esscene", exit: 2, want: "field id"},
		{name: "id with a fraction", file: "id-fraction.esscene", exit: 2, want: "field id"},
		{name: "id missing", file: "id-missing.esscene", exit: 2, want: "field id: is missing"},
		{name: "parent as object", file: "parent-object.esscene", exit: 2, want: "field parent"},
		{name: "components not an array", file: "components-object.esscene", exit: 2, want: "field components"},
		{name: "component without type", file: "component-no-type.esscene", exit: 2, want: "components[0].type"},
		{name: "children as string", file: "children-string.esscene", exit: 2, want: "field children"},
		{name: "NaN literal", file: "nan.esscene", exit: 2, want: "NaN is not a JSON number"},
		{name: "Infinity literal", file: "infinity.esscene", exit: 2, want: "Infinity is not a JSON number"},
		{name: "single quotes", file: "single-quotes.esscene", exit: 2, want: "double-quoted"},
		{name: "trailing comma", file: "trailing-comma.esscene", exit: 2, want: "trailing comma"},
		{name: "non-UTF-8 bytes", file: "non-utf8.esscene", exit: 2, want: "invalid UTF-8"},
		{name: "10,000-deep nesting", gen: deep, exit: 2, want: "nesting deeper than"},
		{name: "50 MB unterminated string", gen: hugeString, exit: 2, want: "never closed"},
		{name: "duplicate ids", file: "duplicate-ids.esscene", exit: 1, want: "duplicate-id"},
		{name: "parent cycle", file: "parent-cycle.esscene", exit: 1, want: "parent-cycle"},
		{name: "children disagree with parent", file: "children-disagree.esscene", exit: 1, want: "inconsistent-topology"},
		{name: "cellSize 0", file: "cellsize-zero.esscene", exit: 1, want: "bad-cell-size"},
		{name: "cellSize negative", file: "cellsize-negative.esscene", exit: 1, want: "bad-cell-size"},
		{name: "cellSize string", file: "cellsize-string.esscene", exit: 1, want: "bad-cell-size"},
		{name: "cellSize 1e308", file: "cellsize-huge.esscene", exit: 1, want: "bad-cell-size"},
		{name: "position overflows the cell index", file: "position-overflow.esscene", exit: 1, want: "bad-cell-size"},
		{name: "two StreamedWorlds", file: "two-streamed-worlds.esscene", exit: 1, want: "multiple-streamed-world"},
		{name: "WorldPersistent on a child", file: "persistent-child.esscene", exit: 1, want: "persistent-not-root"},
		{name: "unresolvable prefab", file: "unplaceable-prefab.esscene", exit: 1, want: "unplaceable-prefab"},
		{name: "cross-cell reference", file: "cross-cell-ref.esscene", exit: 1, want: "cross-cell-ref"},
		{name: "bad source radii", file: "bad-source-radii.esscene", exit: 1, want: "bad-source-radii"},
	}
}

// TestHostileInputs cooks each bad input over a good cooked world and
// checks the answer: the expected exit status, a message naming the file,
// no panic, and the previous world left exactly as it was.
func TestHostileInputs(t *testing.T) {
	base := t.TempDir()
	out := filepath.Join(base, "out")
	good := filepath.Join(base, "good", "main.esscene")
	os.MkdirAll(filepath.Dir(good), 0o755)
	demo, err := os.ReadFile("../testdata/demo/main.esscene")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(good, demo, 0o644)
	if code, _, stderr := run(t, "--config", "../testdata/demo/worldcook.yaml", "cook", good, "--out", out); code != 0 {
		t.Fatalf("cooking the demo world: exit %d: %s", code, stderr)
	}
	before := snapshot(t, out)

	for _, tc := range catalogue() {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.write(t)
			start := time.Now()
			code, _, stderr := run(t, "cook", in, "--out", out)
			if took := time.Since(start); took > 20*time.Second {
				t.Errorf("took %v", took)
			}
			if code != tc.exit {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.exit, stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr does not mention %q:\n%s", tc.want, stderr)
			}
			if !strings.Contains(stderr, in) {
				t.Errorf("stderr does not name the file %s:\n%s", in, stderr)
			}
			if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") {
				t.Errorf("stderr shows a panic:\n%s", stderr)
			}
			if tc.exit == 2 && strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("want one line on stderr, got:\n%s", stderr)
			}
			if after := snapshot(t, out); len(after) != len(before) {
				t.Fatalf("previous world changed: %d files, was %d", len(after), len(before))
			} else {
				for p, v := range before {
					if after[p] != v {
						t.Fatalf("previous world changed: %s", p)
					}
				}
			}
		})
	}
}

func TestHostileFileNamesStayInsideWorld(t *testing.T) {
	src, err := os.ReadFile("../testdata/demo/main.esscene")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"my world.esscene", "a;rm -rf $HOME`x`.esscene", "..esscene", "-dash.esscene"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "scenes", name)
			os.MkdirAll(filepath.Dir(in), 0o755)
			os.WriteFile(in, src, 0o644)
			out := filepath.Join(dir, "out")
			code, _, stderr := run(t, "--config", "../testdata/demo/worldcook.yaml", "cook", "--out", out, "--", in)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if d.IsDir() {
					return nil
				}
				rel, _ := filepath.Rel(out, p)
				switch {
				case strings.HasPrefix(p, filepath.Join(dir, "scenes")):
				case strings.HasPrefix(rel, "world"+string(filepath.Separator)):
					if strings.ContainsAny(filepath.Base(p), " ;$`") {
						t.Errorf("cell file name %q is not file-safe", filepath.Base(p))
					}
				case !strings.Contains(rel, string(filepath.Separator)) && strings.HasSuffix(rel, ".esscene"):
				case !strings.Contains(rel, string(filepath.Separator)) && strings.HasPrefix(rel, ".") && cook.IsRecord(rel):
					// the cook's record of the world it wrote
				default:
					t.Errorf("unexpected file %s", p)
				}
				return nil
			})
		})
	}
}

func TestOutputIsAFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	os.WriteFile(out, []byte("x"), 0o644)
	code, _, stderr := run(t, "--config", "../testdata/demo/worldcook.yaml", "cook", "../testdata/demo/main.esscene", "--out", out)
	if code != 2 || !strings.Contains(stderr, out) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// TestNamedPipeScene: a FIFO where a scene belongs must be refused, not
// opened (opening blocks until a writer comes, holding the output lock).
func TestNamedPipeScene(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "main.esscene")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan struct{})
	var code int
	var stderr string
	go func() {
		code, _, stderr = run(t, "cook", fifo, "--out", filepath.Join(dir, "out"))
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("cook of a named pipe blocked")
	}
	if code != 2 || !strings.Contains(stderr, "named pipe") || !strings.Contains(stderr, fifo) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
