package validate

import (
	"bytes"
	"testing"
	"time"

	"github.com/worldcook/worldcook/internal/scene"
)

// BenchmarkPartition isolates the partition: placing every root in its
// cell, growing the cells' bounds over their content and checking the
// residency rules. Check does it together with the structural checks
// (ids, hierarchy, references) that any scene gets, so each iteration
// checks the generated world twice, as it is and with its StreamedWorld
// component renamed (the same bytes otherwise: only the structural checks
// run), and reports the difference as partition-ns/op beside both
// timings.
func BenchmarkPartition(b *testing.B) {
	d := generated(b, 100_000)
	src := d.Src
	for _, sep := range []string{":", ": "} {
		src = bytes.Replace(src, []byte(`"type"`+sep+`"StreamedWorld"`), []byte(`"type"`+sep+`"StreamedWorlX"`), 1)
	}
	if bytes.Equal(src, d.Src) {
		b.Fatal("no StreamedWorld component in the generated world")
	}
	plain, err := scene.Parse("world.esscene", src)
	if err != nil {
		b.Fatal(err)
	}
	var spent [2]time.Duration
	b.ReportAllocs()
	for b.Loop() {
		for k, doc := range []*scene.Document{d, plain} {
			t0 := time.Now()
			p, err := Check(doc, benchOpts)
			spent[k] += time.Since(t0)
			if err != nil {
				b.Fatal(err)
			}
			if streamed := k == 0; p.Streamed != streamed || streamed && len(p.Cells) == 0 {
				b.Fatalf("streamed = %v with %d cells", p.Streamed, len(p.Cells))
			}
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(spent[0].Nanoseconds())/n, "check-ns/op")
	b.ReportMetric(float64(spent[1].Nanoseconds())/n, "structure-ns/op")
	b.ReportMetric(float64((spent[0]-spent[1]).Nanoseconds())/n, "partition-ns/op")
}

// BenchmarkPartitionLevels measures what levels cost the check of the 1M
// world, about one root in 350 of which is larger than its cell: each
// iteration checks it at levels 0 and at levels 4, taking turns at going
// first, and reports both timings and their ratio.
func BenchmarkPartitionLevels(b *testing.B) {
	d := generated(b, 1_000_000)
	levelled := benchOpts
	levelled.Levels = 4
	var spent [2]time.Duration
	b.ReportAllocs()
	turn := 0
	for b.Loop() {
		turn++
		for j := range 2 {
			k := (j + turn) % 2
			opts := []Options{benchOpts, levelled}[k]
			t0 := time.Now()
			p, err := Check(d, opts)
			spent[k] += time.Since(t0)
			if err != nil {
				b.Fatal(err)
			}
			if len(p.Cells) == 0 || k == 1 && len(p.Promotions) == 0 {
				b.Fatalf("levels %d: %d cells, %d promotions", opts.Levels, len(p.Cells), len(p.Promotions))
			}
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(spent[0].Nanoseconds())/n, "levels0-ns/op")
	b.ReportMetric(float64(spent[1].Nanoseconds())/n, "levels4-ns/op")
	b.ReportMetric(float64(spent[1])/float64(spent[0]), "levels4/levels0")
}
