package scene

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLineIndex: with the checkpoint index, every offset's line start and
// column are those a read back to the line's start gives, on a file of
// short lines, lines longer than a checkpoint stride, one line spanning
// many, and characters of every width across checkpoint boundaries.
func TestLineIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	words := []string{"a", "{\"x\": 1}", "é", "東京", "🦀", " ", "\t"}
	for b.Len() < 600<<10 {
		n := []int{3, 40, 90_000, 200_000}[rng.IntN(4)]
		for k := 0; k < n; {
			w := words[rng.IntN(len(words))]
			b.WriteString(w)
			k += len(w)
		}
		b.WriteByte('\n')
	}
	src := []byte(b.String())
	indexed := &Document{Src: src, lines: &lineIndex{}}
	plain := &Document{Src: src}
	for range 1000 {
		off := rng.IntN(len(src) + 1)
		for off < len(src) && !utf8.RuneStart(src[off]) {
			off++
		}
		gs, gr := indexed.lineStart(off)
		ws := bytes.LastIndexByte(src[:off], '\n') + 1
		wr := utf8.RuneCount(src[ws:off])
		if gs != ws || gr != wr {
			t.Fatalf("offset %d: start %d, %d characters; want %d, %d", off, gs, gr, ws, wr)
		}
		if ps, pr := plain.lineStart(off); ps != ws || pr != wr {
			t.Fatalf("offset %d without the index: %d, %d", off, ps, pr)
		}
	}
}

// TestSourceLineIsBounded: a line longer than MaxSourceLine is not
// returned (and not read to its end); a shorter one is.
func TestSourceLineIsBounded(t *testing.T) {
	long := `{"entities": [{"id": 1, "name": "` + strings.Repeat("x", 2*MaxSourceLine) + `", "parent": null, "children": [], "components": []}]}`
	d, err := Parse("long.esscene", []byte(long))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.SourceLine(0, 1); got != nil {
		t.Errorf("a %d-byte line was returned", len(long))
	}
	short := "{\"entities\": [\n{\"id\": 1, \"name\": \"a\", \"parent\": null, \"children\": [], \"components\": []}\n]}"
	if d, err = Parse("short.esscene", []byte(short)); err != nil {
		t.Fatal(err)
	}
	if got := string(d.SourceLine(0, 2)); !strings.HasPrefix(got, `{"id": 1`) {
		t.Errorf("SourceLine = %q", got)
	}
}
