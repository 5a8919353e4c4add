package validate

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/testworld"
)

// generated returns a parsed testworld world of n entities, with FollowTarget
// declared as a project reference field as a real project would.
func generated(b *testing.B, n int) *scene.Document {
	b.Helper()
	var buf bytes.Buffer
	if err := testworld.Write(&buf, testworld.Options{Entities: n, Seed: 1, InvalidRefFraction: 0.01}); err != nil {
		b.Fatal(err)
	}
	d, err := scene.Parse("world.esscene", buf.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	return d
}

var benchOpts = Options{SceneName: "world", Components: map[string]ComponentFields{"FollowTarget": {Entity: []string{"target"}}}}

// BenchmarkCheck measures Check on generated worlds. The parse of the same
// bytes is measured beside it as the floor: validating should cost a
// fraction of reading the file.
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		if testing.Short() && n > 100_000 {
			continue
		}
		d := generated(b, n)
		b.Run(fmt.Sprintf("entities=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(d.Src)))
			b.ReportAllocs()
			for b.Loop() {
				p, err := Check(d, benchOpts)
				if err != nil {
					b.Fatal(err)
				}
				if len(p.Cells) == 0 {
					b.Fatal("no cells")
				}
			}
		})
		b.Run(fmt.Sprintf("parse-floor/entities=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(d.Src)))
			for b.Loop() {
				if _, err := scene.Parse("world.esscene", d.Src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
