package testworld

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

func generate(t testing.TB, o Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, o); err != nil {
		t.Fatalf("Write(%+v): %v", o, err)
	}
	return buf.Bytes()
}

func TestDeterministic(t *testing.T) {
	o := DefaultOptions(3000, 7)
	a, b := generate(t, o), generate(t, o)
	if !bytes.Equal(a, b) {
		t.Fatal("the same options produced different documents")
	}
	o.Seed = 8
	if c := generate(t, o); bytes.Equal(a, c) {
		t.Fatal("different seeds produced the same document")
	}
}

// TestGoldenPrefix pins the first bytes of a small world, so that a change
// to the generator that alters existing benchmark worlds is noticed.
func TestGoldenPrefix(t *testing.T) {
	got := generate(t, Options{Entities: 6, Seed: 1})
	want := `{"version":1,"name":"Generated World","entities":[{"id":1,"name":"World Settings","parent":null,"children":[],"components":[{"type":"StreamedWorld","data":{"cellSize":1000}}],"visible":true},{"id":2,"name":"Player","parent":null,"children":[],"components":[{"type":"Transform","data":{"position":{"x":10000,"y":0,"z":10000}}}`
	if !strings.HasPrefix(string(got), want) {
		t.Fatalf("document starts\n%.400s\nwant\n%s", got, want)
	}
}

func TestWorldIsValid(t *testing.T) {
	const n = 10000
	data := generate(t, DefaultOptions(n, 1))

	// The document must be plain JSON that any decoder reads.
	var generic map[string]any
	if err := json.Unmarshal(data, &generic); err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	if got := len(generic["entities"].([]any)); got != n {
		t.Fatalf("got %d entities, want %d", got, n)
	}
	if !bytes.HasPrefix(data, []byte("{\n  \"version\": 1,\n  \"name\": ")) || !bytes.HasSuffix(data, []byte("\n  ]\n}\n")) {
		t.Fatalf("document does not have the editor's layout: %.60q ... %q", data, data[len(data)-20:])
	}
	checkFieldOrder(t, data)

	s := decodeScene(t, data)
	checkTopology(t, s)
	l := partition(t, s, false)

	children := 0
	for _, e := range s.Entities {
		if e.Parent != nil {
			children++
		}
		if e.Parent == nil && !l.persistent[e.ID] {
			m := trs(&e)
			if m[3] < 0 || m[3] >= DefaultExtent || m[11] < 0 || m[11] >= DefaultExtent {
				t.Fatalf("prop %d at (%v, %v) is outside the extent", e.ID, m[3], m[11])
			}
		}
		if e.Parent == nil && e.component("Transform") != nil && len(e.Components) < 2 {
			t.Errorf("prop %d has only %d components", e.ID, len(e.Components))
		}
	}
	if f := float64(children) / n; f < 0.27 || f > 0.33 {
		t.Errorf("child fraction %.3f, want about %.2f", f, DefaultChildFraction)
	}
	if len(l.persistent) != 4 {
		t.Errorf("got %d persistent roots, want settings, player, camera and sun", len(l.persistent))
	}

	refs := l.refs()
	carriers := map[int64]bool{}
	for _, r := range refs {
		carriers[r.from] = true
		if c := l.classify(r); c != refOK {
			t.Errorf("reference %s from %d to %d is class %d, want valid", r.field, r.from, r.to, c)
		}
	}
	if f := float64(len(carriers)) / n; f < 0.014 || f > 0.026 {
		t.Errorf("%.4f of entities carry a reference, want about %.2f", f, DefaultRefFraction)
	}
}

// checkFieldOrder walks the token stream of the document to check that the
// top level ends with entities and that every record keeps the editor's
// field order, which decoding into a struct or map would not reveal.
func checkFieldOrder(t *testing.T, data []byte) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	var walk func(depth int)
	walk = func(depth int) {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		switch tok {
		case json.Delim('{'):
			var keys []string
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					t.Fatal(err)
				}
				keys = append(keys, k.(string))
				walk(depth + 1)
			}
			dec.Token()
			got := strings.Join(keys, ",")
			if depth == 0 && got != "version,name,entities" {
				t.Fatalf("top-level fields %s", got)
			}
			if depth == 2 && got != "id,name,parent,children,components,visible" {
				t.Fatalf("entity fields %s", got)
			}
		case json.Delim('['):
			for dec.More() {
				walk(depth + 1)
			}
			dec.Token()
		}
	}
	walk(0)
}

func TestCompactAndPrettyAgree(t *testing.T) {
	o := DefaultOptions(2000, 3)
	pretty := generate(t, o)
	o.Pretty = false
	compact := generate(t, o)
	var want bytes.Buffer
	if err := json.Compact(&want, pretty); err != nil {
		t.Fatal(err)
	}
	want.WriteByte('\n')
	if !bytes.Equal(compact, want.Bytes()) {
		t.Fatal("the compact document is not the pretty one without whitespace")
	}
}

func TestExactEntityCounts(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 50, 333} {
		for _, sources := range []int{-1, 0, 5} {
			o := Options{Entities: n, Seed: uint64(n), Sources: sources, ChildFraction: 0.6, RefFraction: 0.5}
			s := decodeScene(t, generate(t, o))
			if len(s.Entities) != n {
				t.Fatalf("Entities=%d Sources=%d: got %d records", n, sources, len(s.Entities))
			}
			checkTopology(t, s)
			if n > 0 {
				l := partition(t, s, false)
				for _, r := range l.refs() {
					if c := l.classify(r); c != refOK {
						t.Fatalf("Entities=%d: reference %+v is class %d", n, r, c)
					}
				}
			}
		}
	}
}

func TestInvalidReferences(t *testing.T) {
	o := DefaultOptions(10000, 5)
	o.Pretty = false
	o.RefFraction = 0.05
	o.InvalidRefFraction = 0.4
	s := decodeScene(t, generate(t, o))
	l := partition(t, s, false)
	var total, cross int
	for _, r := range l.refs() {
		if r.field == "MeshSkin.joints" {
			continue // One skin is one reference however many joints it lists.
		}
		total++
		switch l.classify(r) {
		case refCrossCell:
			cross++
		case refOK:
		default:
			t.Fatalf("reference %+v is neither valid nor cross-cell", r)
		}
	}
	if f := float64(cross) / float64(total); f < 0.3 || f > 0.5 {
		t.Fatalf("%d of %d references cross cells (%.2f), want about %.2f", cross, total, f, o.InvalidRefFraction)
	}
}

func TestPlaneXY(t *testing.T) {
	o := DefaultOptions(3000, 2)
	o.Plane = "xy"
	o.Extent = 5000
	o.CellSize = 500
	s := decodeScene(t, generate(t, o))
	l := partition(t, s, true)
	rows := map[int64]bool{}
	for _, c := range l.cell {
		rows[c.j] = true
	}
	if len(rows) != 10 {
		t.Fatalf("props cover %d rows of cells on Y, want 10", len(rows))
	}
	for _, r := range l.refs() {
		if c := l.classify(r); c != refOK {
			t.Fatalf("reference %+v is class %d", r, c)
		}
	}
}

// TestFractionalCells uses cells a tenth of a unit wide, where many props sit
// exactly on a border, to check that references planned as same-cell stay
// valid when a reader partitions in floating point.
func TestFractionalCells(t *testing.T) {
	o := Options{Entities: 5000, Seed: 4, Extent: 10, CellSize: 0.1, RefFraction: 0.3}
	s := decodeScene(t, generate(t, o))
	l := partition(t, s, false)
	cells := map[cellKey]bool{}
	for _, c := range l.cell {
		cells[c] = true
	}
	if len(cells) < 90 {
		t.Fatalf("props cover only %d cells", len(cells))
	}
	for _, r := range l.refs() {
		if c := l.classify(r); c != refOK {
			t.Fatalf("reference %+v is class %d", r, c)
		}
	}
}

func TestOptionErrors(t *testing.T) {
	for _, o := range []Options{
		{Entities: -1},
		{Entities: 1, Extent: -5},
		{Entities: 1, CellSize: -1},
		{Entities: 1, ChildFraction: 1},
		{Entities: 1, RefFraction: 1.5},
		{Entities: 1, InvalidRefFraction: -0.1},
		{Entities: 1, Plane: "yz"},
	} {
		if err := Write(io.Discard, o); err == nil {
			t.Errorf("Write(%+v) accepted invalid options", o)
		}
	}
}

type failingWriter struct{ after int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after -= len(p); w.after < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestWriteError(t *testing.T) {
	err := Write(&failingWriter{after: 1 << 20}, DefaultOptions(10000, 1))
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("got error %v, want the writer's error", err)
	}
}

// heapWatcher discards what it is given and samples the live heap on every
// write, which bufio makes one per 256 KiB of output.
type heapWatcher struct {
	bytes int64
	peak  uint64
	ms    runtime.MemStats
}

func (h *heapWatcher) Write(p []byte) (int, error) {
	h.bytes += int64(len(p))
	runtime.ReadMemStats(&h.ms)
	h.peak = max(h.peak, h.ms.HeapAlloc)
	return len(p), nil
}

// TestStreamsInBoundedMemory writes a world of about a hundred megabytes and
// checks that the heap never grows by more than a small fraction of it: the
// generator must not hold the world, or even a large part of it, in memory.
func TestStreamsInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100 MB")
	}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	h := &heapWatcher{}
	if err := Write(h, DefaultOptions(100000, 9)); err != nil {
		t.Fatal(err)
	}
	grew := int64(h.peak) - int64(base.HeapAlloc)
	t.Logf("wrote %d MB; heap peaked %d KB above its start", h.bytes>>20, grew>>10)
	if h.bytes < 80<<20 {
		t.Fatalf("wrote only %d bytes", h.bytes)
	}
	if grew > 16<<20 {
		t.Fatalf("heap grew by %d MB while writing %d MB", grew>>20, h.bytes>>20)
	}
}

// BenchmarkWrite1M writes a million-entity world per iteration, the size
// cook's scale target names, and reports the output rate.
func BenchmarkWrite1M(b *testing.B) {
	for _, pretty := range []bool{true, false} {
		name := "compact"
		if pretty {
			name = "pretty"
		}
		b.Run(name, func(b *testing.B) {
			o := DefaultOptions(1_000_000, 1)
			o.Pretty = pretty
			var total int64
			start := time.Now()
			for b.Loop() {
				h := &countingWriter{}
				if err := Write(h, o); err != nil {
					b.Fatal(err)
				}
				total += h.n
			}
			secs := time.Since(start).Seconds()
			b.ReportMetric(float64(total)/1e6/secs, "MB/s")
			b.ReportMetric(float64(b.N)*float64(o.Entities)/secs, "entities/s")
		})
	}
}

type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// TestLargeContent checks the large-content option: exact counts, a sound
// hierarchy, references that stay valid, colliders spanning 2 to 16
// cells, and no change at all to a world that does not ask for it.
func TestLargeContent(t *testing.T) {
	for _, n := range []int{1, 2, 17, 3000} {
		o := Options{Entities: n, Seed: 3, LargeFraction: 0.2, CellSize: 100, Extent: 2000}
		s := decodeScene(t, generate(t, o))
		if len(s.Entities) != n {
			t.Fatalf("Entities=%d: got %d records", n, len(s.Entities))
		}
		checkTopology(t, s)
		l := partition(t, s, false)
		for _, r := range l.refs() {
			if c := l.classify(r); c != refOK {
				t.Fatalf("Entities=%d: reference %+v is class %d", n, r, c)
			}
		}
	}
	src := string(generate(t, Options{Entities: 3000, Seed: 3, LargeFraction: 0.2, CellSize: 100, Extent: 2000}))
	large := 0
	for _, kind := range largeKinds {
		large += strings.Count(src, `"`+kind+" ")
	}
	if large < 20 {
		t.Fatalf("%d large roots in 3000 entities", large)
	}
	if !strings.Contains(src, `"halfExtents"`) {
		t.Fatal("no colliders")
	}
	plain := generate(t, Options{Entities: 3000, Seed: 3})
	if got := generate(t, Options{Entities: 3000, Seed: 3, LargeFraction: 0}); string(got) != string(plain) {
		t.Fatal("LargeFraction 0 changed the world")
	}
	if err := (Options{LargeFraction: 1.5}).Check(); err == nil {
		t.Fatal("LargeFraction 1.5 accepted")
	}
}
