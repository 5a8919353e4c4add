package cook

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/worldcook/worldcook/internal/gcpause"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/testworld"
	"github.com/worldcook/worldcook/validate"
)

// benchEntities is the size of the world the cook benchmarks render: large
// enough that every cell document is non-trivial and the workers stay
// busy, small enough for `make bench`.
const benchEntities = 100_000

var (
	benchOnce sync.Once
	benchSrc  []byte
	benchPlan *validate.Plan
	benchErr  error
)

// benchWorld returns a generated pretty-printed world of benchEntities
// entities and its plan, made once for all benchmarks.
func benchWorld(b *testing.B) ([]byte, *validate.Plan) {
	b.Helper()
	benchOnce.Do(func() {
		var buf bytes.Buffer
		if benchErr = testworld.Write(&buf, testworld.DefaultOptions(benchEntities, 1)); benchErr != nil {
			return
		}
		benchSrc = buf.Bytes()
		var doc *scene.Document
		if doc, benchErr = scene.Parse("main.esscene", benchSrc); benchErr != nil {
			return
		}
		benchPlan, benchErr = validate.Check(doc, validate.Options{SceneName: "main"})
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	if n := benchPlan.Errors(false); n > 0 {
		b.Fatalf("the generated world has %d validation errors", n)
	}
	return benchSrc, benchPlan
}

// reportEntities adds the entity throughput of the timed part of b.
func reportEntities(b *testing.B, entities int) {
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(entities)*float64(b.N)/s, "entities/s")
	}
}

// BenchmarkBuild renders and hashes every document of a cooked world in
// memory: the persistent scene, each cell and the manifest. It is the
// write step without the file system; compare its MB/s with
// scene.BenchmarkWriteAll (rendering alone, one document, one thread) and
// scene.BenchmarkParse.
func BenchmarkBuild(b *testing.B) {
	src, plan := benchWorld(b)
	ctx := context.Background()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		w, err := buildWorld(ctx, plan, options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(w.Files) != len(plan.Cells)+2 {
			b.Fatalf("%d files for %d cells", len(w.Files), len(plan.Cells))
		}
	}
	reportEntities(b, benchEntities)
}

// BenchmarkCookToDisk cooks the world as the cook command does (read,
// parse, validate, render, hash, compare with the disk, stage, rename)
// into a temporary directory: "fresh" into an empty one, "unchanged" over
// its own previous output, where nothing may be rewritten. Besides the
// throughput it reports each phase's share of an operation (read-ns/op,
// parse-ns/op, validate-ns/op, write-ns/op), so the write phase has a
// figure of its own.
func BenchmarkCookToDisk(b *testing.B) {
	src, _ := benchWorld(b)
	dir := b.TempDir()
	file := filepath.Join(dir, "main.esscene")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	cook := func(b *testing.B, out string, phases map[string]time.Duration) *Report {
		rep, err := run(ctx, sceneJob{File: file, Out: out, GC: gcpause.Job})
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range rep.Timings {
			phases[p.Name] += p.Duration
		}
		return rep
	}
	report := func(b *testing.B, phases map[string]time.Duration) {
		names := make([]string, 0, len(phases))
		for name := range phases {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			b.ReportMetric(float64(phases[name].Nanoseconds())/float64(b.N), name+"-ns/op")
		}
		reportEntities(b, benchEntities)
	}

	b.Run("fresh", func(b *testing.B) {
		out := filepath.Join(dir, "fresh")
		phases := map[string]time.Duration{}
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			if err := os.RemoveAll(out); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if rep := cook(b, out, phases); len(rep.Result.Written) == 0 {
				b.Fatal("a fresh cook wrote nothing")
			}
		}
		report(b, phases)
	})

	b.Run("unchanged", func(b *testing.B) {
		out := filepath.Join(dir, "unchanged")
		cook(b, out, map[string]time.Duration{})
		phases := map[string]time.Duration{}
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if rep := cook(b, out, phases); rep.Result.Changed() {
				b.Fatalf("a no-change cook wrote %d and removed %d files", len(rep.Result.Written), len(rep.Result.Removed))
			}
		}
		report(b, phases)
	})
}
