package cook

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/worldcook/worldcook/internal/gcpause"
	"github.com/worldcook/worldcook/internal/testworld"
	"github.com/worldcook/worldcook/validate"
)

// The memory guard (make perf-guard; docs/benchmarks.md, "The memory
// guard"). It cooks and validates a generated world in this process, as
// the worldcook program does, and compares what that allocates and keeps
// live with the budget in testdata/perf-budget.json. Wall time is not
// measured: allocations and live bytes do not depend on the machine's
// load, so the guard can run in CI on a shared machine and still fail on
// a change that makes the cook heavier.

var updateBudget = flag.Bool("update-budget", false, "write the measured figures to testdata/perf-budget.json")

const (
	budgetFile = "testdata/perf-budget.json"
	// budgetSlack is how far over its budget a figure may go before the
	// guard fails: enough for the scheduling of the parallel passes and
	// a Go release's allocator, far less than any real regression.
	budgetSlack = 1.25
	// guardProcs fixes the number of workers, so that the per-worker
	// buffers and caches are the same on every machine.
	guardProcs = 2
)

// memBudget is one command's budget.
type memBudget struct {
	// AllocBytesPerEntity is every byte the command allocates on the
	// heap over the world's entity count. worldcook runs the job with
	// garbage collection off (gcpause), so these bytes are its heap.
	AllocBytesPerEntity float64 `json:"allocBytesPerEntity"`
	// PeakLiveHeapPerInputByte is the largest live heap seen (after a
	// full collection at the start of each phase and at the end, with
	// the results still held) over the scene's size.
	PeakLiveHeapPerInputByte float64 `json:"peakLiveHeapPerInputByte"`
}

type perfBudget struct {
	Entities int       `json:"entities"`
	Seed     uint64    `json:"seed"`
	Cook     memBudget `json:"cook"`
	Validate memBudget `json:"validate"`
}

// heapCounters reads the heap's cumulative allocated bytes and the live
// bytes the last collection marked.
func heapCounters() (allocs, live uint64) {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// liveMeter tracks the largest live heap above a baseline, sampled after
// a forced collection.
type liveMeter struct {
	base, peak uint64
}

func newLiveMeter() *liveMeter {
	runtime.GC()
	_, live := heapCounters()
	return &liveMeter{base: live}
}

func (m *liveMeter) sample() {
	runtime.GC()
	if _, live := heapCounters(); live > m.base {
		m.peak = max(m.peak, live-m.base)
	}
}

// TestPerfGuard measures the cook and the validate of the budget's world
// and fails when a figure is more than budgetSlack over its budget.
func TestPerfGuard(t *testing.T) {
	if os.Getenv("WORLDCOOK_PERF_GUARD") == "" {
		t.Skip("the memory guard runs with make perf-guard (WORLDCOOK_PERF_GUARD=1)")
	}
	if raceEnabled {
		t.Skip("the race detector changes what is allocated; make perf-guard runs without it")
	}
	raw, err := os.ReadFile(budgetFile)
	if err != nil {
		t.Fatal(err)
	}
	var budget perfBudget
	if err := json.Unmarshal(raw, &budget); err != nil {
		t.Fatalf("%s: %v", budgetFile, err)
	}
	if budget.Entities < 100_000 {
		t.Fatalf("%s: a world of %d entities is too small to measure a cook by", budgetFile, budget.Entities)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(guardProcs))

	dir := t.TempDir()
	file := filepath.Join(dir, "main.esscene")
	size := writeWorld(t, file, testworld.DefaultOptions(budget.Entities, budget.Seed))

	cook := measureCook(t, file, filepath.Join(dir, "out"), budget.Entities, size)
	check := measureValidate(t, file, budget.Entities, size)

	if *updateBudget {
		budget.Cook, budget.Validate = cook, check
		out, err := json.MarshalIndent(budget, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(budgetFile, append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", budgetFile)
		return
	}
	for _, f := range []struct {
		name      string
		got, want float64
	}{
		{"cook: bytes allocated per entity", cook.AllocBytesPerEntity, budget.Cook.AllocBytesPerEntity},
		{"cook: peak live heap per input byte", cook.PeakLiveHeapPerInputByte, budget.Cook.PeakLiveHeapPerInputByte},
		{"validate: bytes allocated per entity", check.AllocBytesPerEntity, budget.Validate.AllocBytesPerEntity},
		{"validate: peak live heap per input byte", check.PeakLiveHeapPerInputByte, budget.Validate.PeakLiveHeapPerInputByte},
	} {
		r := f.got / f.want
		t.Logf("%-40s %10.3f  budget %10.3f  (%.2f×)", f.name, f.got, f.want, r)
		if r > budgetSlack {
			t.Errorf("%s is %.3f, %.0f%% over its budget of %.3f (the limit is %.0f%% over): find what allocates or keeps more "+
				"(go test ./cook -run '^$' -bench CookToDisk -memprofile mem.out), or, if the cost is worth it, move the budget "+
				"as docs/benchmarks.md says", f.name, f.got, 100*(r-1), f.want, 100*(budgetSlack-1))
		}
	}
}

// writeWorld writes a generated world to file and returns its size.
func writeWorld(t *testing.T, file string, o testworld.Options) int64 {
	t.Helper()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := testworld.Write(w, o); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// measureCook cooks file into the empty folder out as the worldcook
// program does, sampling the live heap as each phase starts.
func measureCook(t *testing.T, file, out string, entities int, size int64) memBudget {
	t.Helper()
	live := newLiveMeter()
	before, _ := heapCounters()
	rep, err := run(context.Background(), sceneJob{File: file, Out: out, GC: gcpause.Job, Starting: func(string) { live.sample() }})
	if err != nil {
		t.Fatalf("cook: %v", err)
	}
	after, _ := heapCounters() // the forced collections allocate nothing
	live.sample()
	if rep.Entities != entities || len(rep.Result.Written) == 0 {
		t.Fatalf("cook: %d entities, %d files written", rep.Entities, len(rep.Result.Written))
	}
	runtime.KeepAlive(rep)
	return figures(after-before, live.peak, entities, size)
}

// measureValidate validates file as worldcook validate does.
func measureValidate(t *testing.T, file string, entities int, size int64) memBudget {
	t.Helper()
	live := newLiveMeter()
	before, _ := heapCounters()
	p, err := Validate(file, "", validate.Options{}, gcpause.Job)
	if err != nil {
		t.Fatalf("validate: %v", err)
	}
	after, _ := heapCounters()
	live.sample()
	if len(p.Doc.Entities) != entities {
		t.Fatalf("validate: %d entities", len(p.Doc.Entities))
	}
	runtime.KeepAlive(p)
	return figures(after-before, live.peak, entities, size)
}

// figures rounds what was measured to what the budget file keeps.
func figures(allocs, peak uint64, entities int, size int64) memBudget {
	return memBudget{
		AllocBytesPerEntity:      math.Round(10*float64(allocs)/float64(entities)) / 10,
		PeakLiveHeapPerInputByte: math.Round(1e4*float64(peak)/float64(size)) / 1e4,
	}
}
