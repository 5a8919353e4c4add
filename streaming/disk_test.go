package streaming

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

// cellDocument renders a cell document like cook writes: compact JSON with
// the cell's name and n entities.
func cellDocument(name string, n int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"version":1,"name":%q,"entities":[`, name)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"Rock %d","parent":null,"children":[],"components":[{"type":"Transform","data":{"position":{"x":%d.5,"y":0,"z":%d.25},"rotation":{"x":0,"y":0,"z":0,"w":1},"scale":{"x":1,"y":1,"z":1}}},{"type":"Sprite","data":{"texture":"@uuid:3f2a9c1e-rock","size":{"x":32,"y":32},"color":{"r":1,"g":1,"b":1,"a":1}}}],"visible":true}`, i+1, i, i, i)
	}
	b.WriteString("]}\n")
	return []byte(b.String())
}

// cooked writes a document for every cell of w into a map file system,
// setting each cell's Path, Bytes and EntityCount to match.
func cooked(w *World, entities int) fstest.MapFS {
	files := fstest.MapFS{}
	for i := range w.Cells {
		c := &w.Cells[i]
		c.Path = "world/" + c.Name + ".json"
		doc := cellDocument(c.Name, entities)
		files[c.Path] = &fstest.MapFile{Data: doc}
		c.Bytes, c.EntityCount = int64(len(doc)), entities
	}
	w.Files = files
	return files
}

// TestDiskIO runs the scheduler on real reads and decodes with failures
// injected, a missing file and a corrupt one: every cell ends resident or
// given up, none stuck loading, and the failures are reported. Run it with
// -race.
func TestDiskIO(t *testing.T) {
	w := gridWorld(6)
	files := cooked(w, 20)
	delete(files, w.Cells[7].Path)
	files[w.Cells[11].Path] = &fstest.MapFile{Data: []byte(`{"name":"x","entities":[{"id":`)}
	d, err := NewDiskLoader(DiskIO{Files: files, Concurrency: 4, QueueDepth: 2, FrameBudget: time.Millisecond, Fail: FailureModel{Rate: 0.2, Seed: 9}})
	if err != nil {
		t.Fatal(err)
	}
	set := Settings{Budget: Int64(20000), MaxInFlight: Int(8), Retry: RetryPolicy{Retries: 3, TimeoutFrames: 500, BackoffFrames: 1, MaxBackoffFrames: 8}}
	sources := []Source{{Name: "cam", X: 300, Z: 300, Prefetch: 1000, Load: 1000, Unload: 1200, Enabled: true}}
	s, err := NewScheduler(w, sources, set, d)
	if err != nil {
		t.Fatal(err)
	}
	// Up to 20000 frames (4 s) so that a loaded machine still settles;
	// the run stops as soon as every cell has.
	frames := make([][]Point, 20000)
	var reps []FrameReport
	settled := func(*FrameReport) error {
		for i := range w.Cells {
			if st := s.rt[i].state; st != Resident && st != Failed {
				return nil
			}
		}
		return context.Canceled // everything settled: stop early
	}
	reps, err = Run(context.Background(), s, frames, 200*time.Microsecond, settled)
	if err != context.Canceled {
		t.Fatalf("after %d frames not every cell settled", len(reps))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	sum := s.Summary()
	gave := map[string]string{}
	for _, g := range sum.GaveUp {
		gave[g.Cell] = g.Err
	}
	if e := gave[w.Cells[7].Name]; !strings.Contains(e, "is missing; re-cook") {
		t.Errorf("missing file: gave-up error %q", e)
	}
	if e := gave[w.Cells[11].Name]; !strings.Contains(e, "not a cell document") {
		t.Errorf("corrupt file: gave-up error %q", e)
	}
	if sum.Failures < 8 || sum.IO == nil || sum.IO.Reads == 0 {
		t.Fatalf("failures %d, io %+v", sum.Failures, sum.IO)
	}
	rr := s.Residency()
	if len(rr.ResidentCells)+len(sum.GaveUp) != len(w.Cells) {
		t.Errorf("%d resident + %d given up of %d cells", len(rr.ResidentCells), len(sum.GaveUp), len(w.Cells))
	}
	for _, name := range rr.ResidentCells {
		if rr.CellEntityCounts[name] != 20 {
			t.Errorf("%s decoded %d entities, want 20", name, rr.CellEntityCounts[name])
		}
	}
	for _, r := range reps {
		if r.Timing == nil {
			t.Fatalf("frame %d has no timing", r.Frame)
		}
	}
}

// TestCompletionQueueBackpressure: when nobody polls, workers stop once the
// completion queue is full, so decoded documents held in memory stay at
// QueueDepth + Concurrency however many requests wait.
func TestCompletionQueueBackpressure(t *testing.T) {
	w := gridWorld(10)
	files := cooked(w, 50)
	const depth, workers = 3, 2
	d, err := NewDiskLoader(DiskIO{Files: files, Concurrency: workers, QueueDepth: depth, FrameBudget: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for i, c := range w.Cells {
		d.Start(Request{ID: uint64(i + 1), Cell: i, Name: c.Name, Path: c.Path, Bytes: c.Bytes, Attempt: 1})
	}
	deadline := time.Now().Add(2 * time.Second)
	for d.Live() < depth+workers && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // give a leaky queue time to overfill
	if live := d.Live(); live != depth+workers {
		t.Fatalf("%d documents held with nobody polling, want exactly %d", live, depth+workers)
	}
	if q := d.pool.Queued(); q != len(w.Cells)-depth-workers {
		t.Errorf("%d requests still queued, want %d: workers did not stop", q, len(w.Cells)-depth-workers)
	}
	got := 0
	for got < len(w.Cells) && time.Now().Before(deadline.Add(5*time.Second)) {
		got += len(d.Poll(0))
	}
	if got != len(w.Cells) {
		t.Fatalf("polled %d of %d results", got, len(w.Cells))
	}
	d.pool.Wait() // a worker counts its job done just after handing it over
	if p := d.Peak(); p > depth+workers+1 {
		t.Errorf("peak %d documents held, bound %d", p, depth+workers+1)
	}
	if pr := d.Progress(); pr.Ratio() != 1 || pr.Done != len(w.Cells) {
		t.Errorf("progress %+v", pr)
	}
}

// TestDiskFrameTimeBudget: with a budget of 0 a frame still applies one
// result, and leaves the rest queued for later frames.
func TestDiskFrameTimeBudget(t *testing.T) {
	w := gridWorld(3)
	files := cooked(w, 5)
	d, err := NewDiskLoader(DiskIO{Files: files, Concurrency: 2, QueueDepth: 16, FrameBudget: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for i, c := range w.Cells {
		d.Start(Request{ID: uint64(i + 1), Cell: i, Name: c.Name, Path: c.Path, Attempt: 1})
	}
	d.pool.Wait()
	for k := 0; k < len(w.Cells); k++ {
		if n := len(d.Poll(k)); n != 1 {
			t.Fatalf("poll %d applied %d results, want 1", k, n)
		}
		if _, backlog, _ := d.frameTiming(); backlog != len(w.Cells)-k-1 {
			t.Errorf("poll %d left %d queued, want %d", k, backlog, len(w.Cells)-k-1)
		}
	}
}

func TestDiskCancel(t *testing.T) {
	w := gridWorld(4)
	files := cooked(w, 5)
	d, err := NewDiskLoader(DiskIO{Files: files, Concurrency: 1, QueueDepth: 1, FrameBudget: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for i, c := range w.Cells {
		d.Start(Request{ID: uint64(i + 1), Cell: i, Name: c.Name, Path: c.Path, Attempt: 1})
	}
	// Cancel every even request, wherever it is: queued, being read, or
	// waiting in the completion queue.
	for i := range w.Cells {
		if i%2 == 0 {
			d.Cancel(uint64(i + 1))
		}
	}
	var got []uint64
	deadline := time.Now().Add(5 * time.Second)
	for len(got) < len(w.Cells)/2 && time.Now().Before(deadline) {
		for _, r := range d.Poll(0) {
			got = append(got, r.ID)
		}
	}
	for _, id := range got {
		if id%2 == 1 { // IDs are index+1: odd IDs were cancelled
			t.Errorf("cancelled request %d delivered", id)
		}
	}
	if len(got) != len(w.Cells)/2 {
		t.Errorf("delivered %d, want %d", len(got), len(w.Cells)/2)
	}
}

func TestNewDiskLoaderRefusesBadConfig(t *testing.T) {
	for _, cfg := range []DiskIO{{}, {Files: fstest.MapFS{}}, {Files: fstest.MapFS{}, Concurrency: 1, FrameBudget: -1}} {
		if _, err := NewDiskLoader(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}

func TestPoolOrderMergeAndProgress(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var order []string
	p := newPool(1, func(j job) {
		if j.Key == "blocker" {
			<-release
		}
		mu.Lock()
		order = append(order, j.Key)
		mu.Unlock()
	})
	defer p.Close()
	p.Submit(job{ID: 1, Key: "blocker", Bytes: 10})
	for p.Queued() != 0 { // wait for the worker to hold the blocker
		time.Sleep(time.Millisecond)
	}
	p.Submit(job{ID: 2, Key: "far", Distance: 900, Bytes: 100})
	p.Submit(job{ID: 3, Key: "near", Distance: 10, Bytes: 100})
	p.Submit(job{ID: 4, Key: "tie-a", Distance: 50, Bytes: 100})
	p.Submit(job{ID: 5, Key: "tie-b", Distance: 50, Bytes: 100})
	p.Submit(job{ID: 6, Key: "gone", Distance: 1, Bytes: 100})
	// A repeated request merges, keeping the higher priority (nearer).
	if id, merged := p.Submit(job{ID: 7, Key: "far", Distance: 5, Bytes: 100}); !merged || id != 2 {
		t.Errorf("resubmitting far: id %d merged %v, want 2 true", id, merged)
	}
	if _, merged := p.Submit(job{ID: 8, Key: "near", Distance: 999}); !merged {
		t.Error("resubmitting near did not merge")
	}
	if !p.Cancel("gone") || p.Cancel("gone") {
		t.Error("cancel of a queued job")
	}
	if pr := p.Progress(); pr.Total != 5 || pr.BytesTotal != 410 || pr.Ratio() != 0 {
		t.Errorf("progress before %+v", pr)
	}
	close(release)
	p.Wait()
	want := []string{"blocker", "far", "near", "tie-a", "tie-b"}
	if !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	if pr := p.Progress(); pr.Done != 5 || pr.BytesDone != 410 || pr.Ratio() != 1 {
		t.Errorf("progress after %+v", pr)
	}
}

// writeCooked writes a cooked world of n×n cells under dir and returns it.
func writeCooked(tb testing.TB, dir string, n, entities int) *World {
	w := gridWorld(n)
	files := cooked(w, entities)
	for name, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	w.Files = os.DirFS(dir)
	return w
}

// BenchmarkDiskPool is the loader's throughput table: every cell of a
// cooked world on disk read and decoded by 1, 2, 4 and 8 workers.
func BenchmarkDiskPool(b *testing.B) {
	w := writeCooked(b, b.TempDir(), 16, 200)
	var total int64
	for _, c := range w.Cells {
		total += c.Bytes
	}
	for _, workers := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("concurrency=%d", workers), func(b *testing.B) {
			// A completion queue deep enough for the whole world, so that
			// the workers never wait for the (idle) frame thread.
			d, err := NewDiskLoader(DiskIO{Files: w.Files, Concurrency: workers, QueueDepth: len(w.Cells), FrameBudget: time.Hour})
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			b.SetBytes(total)
			id := uint64(0)
			for b.Loop() {
				for i, c := range w.Cells {
					id++
					d.Start(Request{ID: id, Cell: i, Name: c.Name, Path: c.Path, Bytes: c.Bytes, Attempt: 1})
				}
				d.pool.Wait()
				if n := len(d.Poll(0)); n != len(w.Cells) {
					b.Fatalf("%d of %d cells loaded", n, len(w.Cells))
				}
			}
		})
	}
}

func TestMemFiles(t *testing.T) {
	files := MemFiles{"world/a.json": []byte(`{"entities":[]}`)}
	f, err := files.Open("world/a.json")
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := f.Stat(); st.Size() != 15 || st.Name() != "a.json" || st.IsDir() {
		t.Errorf("stat %v", st)
	}
	f.Close()
	for _, name := range []string{"world/b.json", "../a.json", "/world/a.json"} {
		if _, err := files.Open(name); err == nil {
			t.Errorf("opened %q", name)
		}
		if _, err := files.ReadFile(name); err == nil {
			t.Errorf("read %q", name)
		}
	}
	if b, _ := files.ReadFile("world/a.json"); string(b) != `{"entities":[]}` {
		t.Errorf("read %q", b)
	}
}
