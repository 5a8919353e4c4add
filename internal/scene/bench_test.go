package scene

import (
	"bytes"
	"sync"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/internal/testworld"
)

var (
	benchOnce  sync.Once
	benchWorld []byte
)

// world100k is a generated 100,000-entity pretty-printed world, made once.
func world100k(b *testing.B) []byte {
	benchOnce.Do(func() {
		var buf bytes.Buffer
		if err := testworld.Write(&buf, testworld.DefaultOptions(100_000, 1)); err != nil {
			b.Fatal(err)
		}
		benchWorld = buf.Bytes()
	})
	return benchWorld
}

// BenchmarkFloorCopy is the floor every decoder is compared to: touching
// each byte once.
func BenchmarkFloorCopy(b *testing.B) {
	src := world100k(b)
	dst := make([]byte, len(src))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		copy(dst, src)
	}
}

// BenchmarkFloorTypedDecode decodes every record into a typed model with
// raw component data: what a straightforward cook would do first.
func BenchmarkFloorTypedDecode(b *testing.B) {
	src := world100k(b)
	type typed struct {
		Entities []struct {
			ID         int64   `json:"id"`
			Name       string  `json:"name"`
			Parent     *int64  `json:"parent"`
			Children   []int64 `json:"children"`
			Components []struct {
				Type string          `json:"type"`
				Data json.RawMessage `json:"data"`
			} `json:"components"`
		} `json:"entities"`
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		var s typed
		if err := json.Unmarshal(src, &s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	src := world100k(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("bench", src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteAll(b *testing.B) {
	src := world100k(b)
	d, err := Parse("bench", src)
	if err != nil {
		b.Fatal(err)
	}
	all := make([]int32, len(d.Entities))
	for i := range all {
		all[i] = int32(i)
	}
	w := d.NewWriter()
	buf := make([]byte, 0, w.Size("n", all))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		buf = w.Append(buf[:0], "n", all, nil)
	}
}

// BenchmarkSqueeze runs each squeeze kernel over a 1 MiB piece of the
// world that stays in cache: the kernel's own speed, without the memory
// traffic a whole world adds.
func BenchmarkSqueeze(b *testing.B) {
	src := world100k(b)[:1<<20]
	dst := make([]byte, len(src)+64)
	masks := make([]uint64, len(src)/32)
	for _, m := range squeezeModes()[1:] {
		b.Run(m.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				var st lexState
				if _, n := m.kernel(dst, src, masks, &st); n != len(src)/64 {
					b.Fatalf("stopped at block %d", n)
				}
			}
		})
	}
}

// BenchmarkWriteCells renders a world as 400 cells whose records are
// spread over the whole file, as a grid partition spreads them: each copy
// reads a record far from the one before.
func BenchmarkWriteCells(b *testing.B) {
	src := world100k(b)
	d, err := Parse("bench", src)
	if err != nil {
		b.Fatal(err)
	}
	cells := make([][]int32, 400)
	for i := range d.Entities {
		k := (i * 7919) % len(cells)
		cells[k] = append(cells[k], int32(i))
	}
	w := d.NewWriter()
	var buf []byte
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		for _, c := range cells {
			buf = w.Append(buf[:0], "c", c, nil)
		}
	}
}
