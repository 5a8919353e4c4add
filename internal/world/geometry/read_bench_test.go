package geometry

import (
	"bytes"
	"encoding/json"
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
	d := benchWorld(b)
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

// BenchmarkMembers3 reads the extent fields of every component Extents
// reads them from in a generated world, with the keys Extents.Local asks
// for: after the Transform, the second reader of every entity's data. The
// data is compacted, as the cook's parse hands it on.
func BenchmarkMembers3(b *testing.B) {
	d := benchWorld(b)
	type read struct {
		data       []byte
		k1, k2, k3 string
	}
	var reads []read
	for i := range d.Entities {
		for _, c := range d.Components(i) {
			var compact bytes.Buffer
			if err := json.Compact(&compact, c.Data); err != nil {
				b.Fatal(err)
			}
			c.Data = compact.Bytes()
			switch c.Type {
			case "Sprite":
				reads = append(reads, read{c.Data, "size", "pivot", ""})
			case "ShapeRenderer":
				reads = append(reads, read{c.Data, "size", "", ""})
			case "CharacterController3D", "CapsuleCollider3D":
				reads = append(reads, read{c.Data, "radius", "halfHeight", ""})
			case "Mesh2D", "MeshRenderer":
				reads = append(reads, read{c.Data, "mesh", "", ""})
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		for _, r := range reads {
			v1, v2, v3 := Members3(r.data, r.k1, r.k2, r.k3)
			n += len(v1) + len(v2) + len(v3)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(reads)), "ns/read")
	if n == 0 {
		b.Fatal("no fields read")
	}
}

// benchWorld is the generated 100,000-entity world the benchmarks read.
func benchWorld(b *testing.B) *scene.Document {
	b.Helper()
	var src bytes.Buffer
	if err := testworld.Write(&src, testworld.Options{Entities: 100_000, Seed: 1, InvalidRefFraction: 0.01}); err != nil {
		b.Fatal(err)
	}
	d, err := scene.Parse("world.esscene", src.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	return d
}
