//go:build unix

package cook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/worldcook/worldcook/internal/testbin"
	"github.com/worldcook/worldcook/manifest"
)

// digests maps every regular file under dir (slash paths) to its blake3,
// leaving out the paths skip accepts. Files are hashed in parallel.
func digests(t testing.TB, dir string, skip func(rel string) bool) map[string]string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if skip != nil && rel != "." && skip(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sums := make([]string, len(files))
	errs := make([]error, len(files))
	next := make(chan int, len(files))
	for k := range files {
		next <- k
	}
	close(next)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for k := range next {
				f, err := os.Open(filepath.Join(dir, filepath.FromSlash(files[k])))
				if err != nil {
					errs[k] = err
					continue
				}
				st, err := f.Stat()
				if err == nil {
					if int64(cap(buf)) < st.Size() {
						buf = make([]byte, st.Size())
					}
					buf = buf[:st.Size()]
					_, err = io.ReadFull(f, buf)
				}
				f.Close()
				if err != nil {
					errs[k] = err
					continue
				}
				sums[k] = digest(buf)
			}
		}()
	}
	wg.Wait()
	m := make(map[string]string, len(files))
	for k, rel := range files {
		if errs[k] != nil {
			t.Fatal(errs[k])
		}
		m[rel] = sums[k]
	}
	return m
}

// digestDiff says how got differs from want, or "" when they are equal.
func digestDiff(got, want map[string]string) string {
	var missing, extra, differ []string
	for p, d := range want {
		if g, ok := got[p]; !ok {
			missing = append(missing, p)
		} else if g != d {
			differ = append(differ, p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			extra = append(extra, p)
		}
	}
	if len(missing)+len(extra)+len(differ) == 0 {
		return ""
	}
	first := func(s []string) string {
		if len(s) == 0 {
			return ""
		}
		sort.Strings(s)
		return " (" + s[0] + ", ...)"
	}
	return fmt.Sprintf("%d missing%s, %d extra%s, %d different%s",
		len(missing), first(missing), len(extra), first(extra), len(differ), first(differ))
}

// uncommitted is what a cook killed before its commit point may leave:
// its staging folder and a half-written journal. Both are discarded by
// the next cook and are not part of any world.
func uncommitted(rel string) bool {
	return strings.HasPrefix(rel, stagingPrefix) || strings.HasSuffix(rel, journalSuffix+".tmp") || IsRecord(rel)
}

// cookSummary is the part of `worldcook cook --json` this test reads.
type cookSummary struct {
	MessageType string   `json:"message_type"`
	Written     []string `json:"written"`
	Removed     []string `json:"removed"`
}

// TestKillDuringCook kills `worldcook cook` with SIGKILL at many moments
// while it replaces one large world by another in the same directory, and
// checks after each kill that the directory holds one whole world: the old
// one if the commit journal is not there, the new one once the journal is
// rolled forward (by Prepare, as the next cook would). The next cook of the
// same scene then rewrites exactly the files that differ, and every file
// the manifest lists has its size and blake3.
//
// Kills come after a random delay spread over the measured cook (fixed
// seed, logged), at fixed very early and very late moments, and at the
// moments the journal and the new manifest appear, so that every phase of
// a commit is hit on any machine. A directory equal to a reference world
// is consistent, since each reference is checked against its manifest.
func TestKillDuringCook(t *testing.T) {
	if testing.Short() {
		t.Skip("builds worldcook and cooks 100k-entity worlds in processes")
	}
	start := time.Now()
	dir := t.TempDir()
	bin, gen := testbin.Build(t, dir)
	built := time.Since(start)

	// Different seeds change every cell; B's smaller extent gives it fewer
	// cells, so A→B removes cells and B→A adds them.
	worlds := [2]string{filepath.Join(dir, "a", "main.esscene"), filepath.Join(dir, "b", "main.esscene")}
	for i, flags := range [][]string{
		{"-entities", "100000", "-seed", "1"},
		{"-entities", "100000", "-seed", "2", "-extent", "17000"},
	} {
		os.MkdirAll(filepath.Dir(worlds[i]), 0o755)
		if out, err := exec.Command(gen, append(flags, "-o", worlds[i])...).CombinedOutput(); err != nil {
			t.Fatalf("worldgen: %v\n%s", err, out)
		}
	}
	out := filepath.Join(dir, "out")
	const scene = "main"
	journal := filepath.Join(out, "."+scene+journalSuffix)
	manifestFile := filepath.Join(out, "world", scene+".world.json")

	// The reference worlds, cooked without interruption. A is cooked into
	// out: it is the world the first kill round starts from.
	var refs [2]map[string]string
	var took time.Duration
	for i, dst := range []string{out, filepath.Join(dir, "ref-b")} {
		t0 := time.Now()
		if b, err := exec.Command(bin, "cook", "-q", worlds[i], "--out", dst).CombinedOutput(); err != nil {
			t.Fatalf("cook %s: %v\n%s", worlds[i], err, b)
		}
		took = max(took, time.Since(t0))
		refs[i] = digests(t, dst, IsRecord)
		checkManifest(t, "reference", dst, filepath.Join(dst, "world", scene+".world.json"))
	}
	os.RemoveAll(filepath.Join(dir, "ref-b"))
	cells := func(m map[string]string) int { return len(m) - 2 }
	t.Logf("setup %v (build %v): worlds of %d and %d cells; an uninterrupted cook takes %v",
		time.Since(start).Round(time.Millisecond), built.Round(time.Millisecond), cells(refs[0]), cells(refs[1]), took.Round(time.Millisecond))

	// When to kill: a delay, or the moment a file appears or changes.
	type kill struct {
		delay time.Duration
		when  string // "", "journal" or "manifest"
	}
	const seed = 20260101
	rng := rand.New(rand.NewPCG(seed, seed))
	plan := []kill{ // rounds alternate A→B and B→A
		{delay: 0},
		{when: "journal"}, // B→A: new cells appear before the manifest
		{when: "journal"}, // A→B: old cells go after it
		{delay: took * 97 / 100},
		{when: "manifest"}, // A→B: during the removals
	}
	for range 3 {
		plan = append(plan, kill{delay: time.Duration(rng.Int64N(int64(took * 11 / 10)))})
	}

	cur := 0 // the world out holds
	var before, rolled, finished int
	for round, k := range plan {
		to := 1 - cur
		name := fmt.Sprintf("round %d (%s→%s)", round, "AB"[cur:cur+1], "AB"[to:to+1])
		cmd := exec.Command(bin, "cook", "-q", worlds[to], "--out", out)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var oldManifest os.FileInfo
		if k.when == "manifest" {
			oldManifest, _ = os.Stat(manifestFile)
		}
		ready := func() bool {
			switch k.when {
			case "journal":
				_, err := os.Stat(journal)
				return err == nil
			case "manifest":
				st, err := os.Stat(manifestFile)
				return err == nil && !os.SameFile(st, oldManifest)
			}
			return time.Since(t0) >= k.delay
		}
		var err error
		exited := false
	wait:
		for {
			select {
			case err = <-done:
				exited = true
				break wait
			default:
			}
			if ready() {
				break wait
			}
			time.Sleep(100 * time.Microsecond)
		}
		at := time.Since(t0)
		if !exited {
			cmd.Process.Signal(syscall.SIGKILL)
			err = <-done
		}
		killed := false
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			ws, ok := ee.Sys().(syscall.WaitStatus)
			killed = ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
			if !killed {
				t.Fatalf("%s: the cook failed on its own: %v", name, err)
			}
		} else if err != nil {
			t.Fatal(err)
		}
		trigger := k.when
		if trigger == "" {
			trigger = fmt.Sprintf("after %v", k.delay.Round(time.Millisecond))
		}

		// What the kill left.
		var outcome string
		holds := cur
		if _, err := os.Stat(journal); err == nil {
			if !killed {
				t.Fatalf("%s: the cook exited cleanly and left its journal", name)
			}
			rolled++
			outcome = "journal pending"
			// Mid-commit, the manifest on disk never lists a file that is
			// not in place: new cells move before the manifest, old cells
			// go after it.
			m, err := manifest.Load(manifestFile)
			if err != nil {
				t.Fatalf("%s: mid-commit manifest: %v", name, err)
			}
			for _, c := range append([]manifest.Cell{{Path: m.Persistent.Path}}, m.Cells...) {
				if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(c.Path))); err != nil {
					t.Fatalf("%s: mid-commit, the manifest lists %s, which is not in place", name, c.Path)
				}
			}
			if err := (&committer{Dir: out}).Prepare(scene); err != nil {
				t.Fatalf("%s: Prepare: %v", name, err)
			}
			if d := digestDiff(digests(t, out, IsRecord), refs[to]); d != "" {
				t.Fatalf("%s: after rolling the journal forward the directory is not the new world: %s", name, d)
			}
			holds = to
		} else {
			got := digests(t, out, uncommitted)
			switch {
			case digestDiff(got, refs[cur]) == "" && killed:
				before++
				outcome = "killed before the commit point: the old world"
			case digestDiff(got, refs[to]) == "":
				finished++
				outcome = "the new world (the commit had finished)"
				holds = to
			default:
				t.Fatalf("%s: no journal, and the directory is neither world: against the old %s; against the new %s",
					name, digestDiff(got, refs[cur]), digestDiff(got, refs[to]))
			}
		}
		t.Logf("%s: kill %s landed at %v, killed=%v: %s", name, trigger, at.Round(time.Millisecond), killed, outcome)

		// The next cook of the same scene writes exactly what differs.
		var want cookSummary
		for p, d := range refs[to] {
			if refs[holds][p] != d {
				want.Written = append(want.Written, p)
			}
		}
		for p := range refs[holds] {
			if _, ok := refs[to][p]; !ok {
				want.Removed = append(want.Removed, p)
			}
		}
		b, err := exec.Command(bin, "--json", "cook", worlds[to], "--out", out).Output()
		if err != nil {
			t.Fatalf("%s: the next cook: %v", name, err)
		}
		// --json is JSON Lines: one "cook" object for the one scene.
		var got []cookSummary
		var err2 error
		for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			var s cookSummary
			if err2 = json.Unmarshal(line, &s); err2 != nil {
				break
			}
			if s.MessageType == "cook" {
				got = append(got, s)
			}
		}
		if err2 != nil || len(got) != 1 {
			t.Fatalf("%s: the next cook's --json: %v: %.200s", name, err2, b)
		}
		for _, l := range [][2][]string{{got[0].Written, want.Written}, {got[0].Removed, want.Removed}} {
			sort.Strings(l[0])
			sort.Strings(l[1])
			if strings.Join(l[0], "\n") != strings.Join(l[1], "\n") {
				t.Fatalf("%s: the next cook wrote %d and removed %d files, want %d and %d",
					name, len(got[0].Written), len(got[0].Removed), len(want.Written), len(want.Removed))
			}
		}
		if d := digestDiff(digests(t, out, IsRecord), refs[to]); d != "" {
			t.Fatalf("%s: after the next cook the directory is not the new world: %s", name, d)
		}
		cur = to
	}
	t.Logf("%d kills (seed %d) in %v: %d before the commit point, %d with the journal pending, %d after the commit",
		len(plan), seed, time.Since(start).Round(time.Millisecond), before, rolled, finished)
	if before == 0 || rolled == 0 {
		t.Errorf("no kill landed before the commit point (%d) or with a journal pending (%d): the test proved less than it should", before, rolled)
	}
}

// checkManifest checks the world in out the way a reader would: every
// file the manifest lists exists with the manifest's size and blake3.
func checkManifest(t *testing.T, name, out, file string) {
	t.Helper()
	m, err := manifest.Load(file)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := verify(out, m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := pending(out, m.Scene); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
