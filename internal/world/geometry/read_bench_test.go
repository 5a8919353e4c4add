package geometry

import (
	"bytes"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/testworld"
)

// BenchmarkReadTRS reads every Transform of a generated world with the
// one-pass reader placement uses: the hottest per-entity path of placement.
// in-place reads the data where the document holds it, spread over the
// records as Check meets it; packed reads a copy laid end to end, which
// the caches hold better, to show the cost of the reading itself.
func BenchmarkReadTRS(b *testing.B) {
	var src bytes.Buffer
	if err := testworld.Write(&src, testworld.Options{Entities: 100_000, Seed: 1, InvalidRefFraction: 0.01}); err != nil {
		b.Fatal(err)
	}
	d, err := scene.Parse("world.esscene", src.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	var data, packed [][]byte
	var buf []byte
	for i := range d.Entities {
		if t, ok := d.Component(i, "Transform"); ok {
			data = append(data, t)
			buf = append(buf, t...)
		}
	}
	for _, t := range data {
		packed = append(packed, buf[:len(t):len(t)])
		buf = buf[len(t):]
	}
	for _, c := range []struct {
		name string
		data [][]byte
	}{{"in-place", data}, {"packed", packed}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				for _, t := range c.data {
					if _, ok := ReadTRS(t); !ok {
						b.Fatalf("ReadTRS(%s) is off the fast path", t)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(c.data)), "ns/transform")
		})
	}
}
