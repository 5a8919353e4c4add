//go:build unix

package cmd

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/testbin"
)

// generate writes a worldgen world as dir/main.esscene and returns its path.
func generate(t testing.TB, worldgen, dir string, flags ...string) string {
	t.Helper()
	p := filepath.Join(dir, "main.esscene")
	os.MkdirAll(dir, 0o755)
	if out, err := exec.Command(worldgen, append(flags, "-o", p)...).CombinedOutput(); err != nil {
		t.Fatalf("worldgen %v: %v\n%s", flags, err, out)
	}
	return p
}

// tree reads every regular file under dir by slash path.
func tree(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || cook.IsRecord(d.Name()) {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// treeDiff says how got differs from want, or "" when they are equal.
func treeDiff(got, want map[string][]byte) string {
	var missing, extra, differ int
	first := ""
	note := func(p string) {
		if first == "" {
			first = p
		}
	}
	for p, b := range want {
		if g, ok := got[p]; !ok {
			missing++
			note(p)
		} else if !bytes.Equal(g, b) {
			differ++
			note(p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			extra++
			note(p)
		}
	}
	if missing+extra+differ == 0 {
		return ""
	}
	return fmt.Sprintf("%d missing, %d extra, %d different, first %s", missing, extra, differ, first)
}

// TestConcurrentCooks runs two worldcook processes cooking different
// worlds of the same scene into one directory at the same moment, several
// times: both succeed, the second having waited for the first, and the
// directory then holds exactly the world of the one that finished last,
// never a mix. A cook that cannot get the lock within --lock-timeout
// fails with exit 2 and touches nothing.
func TestConcurrentCooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds worldcook and cooks generated worlds in processes")
	}
	dir := t.TempDir()
	start := time.Now()
	lap := func(what string) {
		t.Logf("%s: %v", what, time.Since(start).Round(time.Millisecond))
		start = time.Now()
	}
	bin, gen := testbin.Build(t, dir)
	lap("build")
	// Different seeds and extents: every cell differs and B has fewer,
	// so a mix would show as changed, missing or extra files.
	scenes := [2]string{
		generate(t, gen, filepath.Join(dir, "a"), "-entities", "30000", "-seed", "1"),
		generate(t, gen, filepath.Join(dir, "b"), "-entities", "30000", "-seed", "2", "-extent", "16000"),
	}
	lap("generate")
	var refs [2]map[string][]byte
	for i, s := range scenes {
		ref := filepath.Join(dir, fmt.Sprint("ref", i))
		if out, err := exec.Command(bin, "cook", "-q", s, "--out", ref).CombinedOutput(); err != nil {
			t.Fatalf("cook %s: %v\n%s", s, err, out)
		}
		refs[i] = tree(t, ref)
	}
	lap("reference cooks")
	if treeDiff(refs[0], refs[1]) == "" {
		t.Fatal("the two worlds cook to the same files")
	}

	out := filepath.Join(dir, "out")
	overlapped := 0
	const rounds = 3
	for round := range rounds {
		var cmds [2]*exec.Cmd
		var stderr [2]bytes.Buffer
		for i := range 2 {
			// Not -q: it would hide the notice that a cook waited.
			cmds[i] = exec.Command(bin, "cook", scenes[i], "--out", out)
			cmds[i].Stderr = &stderr[i]
		}
		// Alternate which world starts first.
		for k := range 2 {
			if err := cmds[(round+k)%2].Start(); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 2 {
			if err := cmds[i].Wait(); err != nil {
				t.Fatalf("round %d: cook %d: %v: %s", round, i, err, stderr[i].String())
			}
		}
		waited := -1
		for i := range 2 {
			if strings.Contains(stderr[i].String(), "waiting for another cook writing") {
				if waited >= 0 {
					t.Fatalf("round %d: both cooks waited", round)
				}
				waited = i
			}
		}
		got := tree(t, out)
		if waited >= 0 {
			overlapped++
			if d := treeDiff(got, refs[waited]); d != "" {
				t.Fatalf("round %d: cook %d waited and finished last, but the directory is not its world: %s", round, waited, d)
			}
			t.Logf("round %d: cook %d waited; the directory holds its world", round, waited)
			continue
		}
		// The cooks did not overlap: either world is the last one.
		if treeDiff(got, refs[0]) != "" && treeDiff(got, refs[1]) != "" {
			t.Fatalf("round %d: the directory is a mix of both worlds: %s", round, treeDiff(got, refs[0]))
		}
		t.Logf("round %d: the cooks did not overlap", round)
	}
	lap("rounds")
	if overlapped == 0 {
		t.Fatalf("in %d rounds the two cooks never ran at the same time; the test proved nothing", rounds)
	}

	t.Run("lock timeout", func(t *testing.T) {
		lock, err := cook.LockDir(out, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer lock.Unlock()
		before := snapshot(t, out)
		cmd := exec.Command(bin, "cook", scenes[0], "--out", out, "--lock-timeout", "1ms")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		err = cmd.Run()
		took := time.Since(start)
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		msg := stderr.String()
		t.Logf("exit %d after %v: %s", code, took.Round(time.Millisecond), strings.TrimSpace(msg))
		if code != ExitInput {
			t.Errorf("exit %d (%v), want %d", code, err, ExitInput)
		}
		// The error is one line, the last; before it at most the notice
		// that the cook was waiting.
		lines := strings.Split(strings.TrimSuffix(msg, "\n"), "\n")
		if !strings.Contains(lines[len(lines)-1], "another worldcook cook is writing "+out) {
			t.Errorf("want a last line saying another cook is writing %s, got:\n%s", out, msg)
		}
		for _, l := range lines[:len(lines)-1] {
			if !strings.HasPrefix(l, "worldcook: waiting for another cook writing ") {
				t.Errorf("unexpected line on stderr: %s", l)
			}
		}
		if took > 5*time.Second {
			t.Errorf("--lock-timeout 1ms took %v", took)
		}
		sameSnapshot(t, before, snapshot(t, out))
	})
}
