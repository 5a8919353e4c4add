package tilemap

import (
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var a, b Chunk
	a.X, a.Y = -3, 7
	a.Tiles[0], a.Tiles[255] = 4, 0xe005
	b.X = 1 << 20
	chunks, cut := Decode(Encode([]Chunk{a, b}))
	if cut || len(chunks) != 2 || chunks[0] != a || chunks[1] != b {
		t.Fatalf("round trip: %v %+v", cut, chunks)
	}
	if chunks[0].Tile(15, 15)&IDMask != 5 {
		t.Fatal("flip bits are not masked off")
	}
	blob := Encode([]Chunk{a, b})
	std := strings.NewReplacer("-", "+", "_", "/").Replace(blob)
	if c, _ := Decode(" " + std[:40] + "\n" + std[40:] + "=="); len(c) != 2 || c[0] != a {
		t.Fatal("standard alphabet, white space and padding are not read as the engine reads them")
	}
	if c, cut := Decode(blob[:len(blob)-10]); !cut || len(c) != 1 {
		t.Fatalf("a blob cut short keeps the whole chunks: %d %v", len(c), cut)
	}
	for _, bad := range []string{"", "AAAA", "RVNUTQ", Encode(nil)} {
		if c, cut := Decode(bad); len(c) != 0 || cut {
			t.Fatalf("%q: %d chunks", bad, len(c))
		}
	}
}

// The engine's own scenes: celestial-heights paints its terrain in the
// blob format (see the route package's tests); here any bytes decode to
// whole chunks or nothing, never a panic.
func FuzzDecode(f *testing.F) {
	var c Chunk
	c.Tiles[17] = 6
	f.Add(Encode([]Chunk{c}))
	f.Add("RVNUTQ8AAAAAAAAAAAAAAAYABgAGAAYABgAGAAYABgAGAAYABgAGAAYABgAGAAYABgAG")
	f.Fuzz(func(t *testing.T, blob string) {
		chunks, _ := Decode(blob)
		if len(chunks)*perChunk > len(blob) {
			t.Fatalf("%d chunks from %d characters", len(chunks), len(blob))
		}
		if len(chunks) > 0 {
			again, _ := Decode(Encode(chunks))
			if len(again) != len(chunks) || again[0] != chunks[0] {
				t.Fatal("re-encoding changes the chunks")
			}
		}
	})
}
