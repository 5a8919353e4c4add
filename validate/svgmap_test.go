package validate

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/testworld"
)

// TestMapManyCells draws a generated world of 400 cells with rejected
// references: the picture that must stay readable at scale (neutral fill,
// no per-cell numbers, labelled arrows, only the largest growths outlined).
func TestMapManyCells(t *testing.T) {
	o := testworld.DefaultOptions(4000, 7)
	o.Pretty = false
	o.RefFraction = 0.01
	o.InvalidRefFraction = 0.5
	var src bytes.Buffer
	if err := testworld.Write(&src, o); err != nil {
		t.Fatal(err)
	}
	d, err := scene.Parse("w400.esscene", src.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	p, err := Check(d, Options{SceneName: "w400"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Cells) != 400 {
		t.Fatalf("%d cells, want 400", len(p.Cells))
	}
	var buf bytes.Buffer
	if err := WriteMap(&buf, p); err != nil {
		t.Fatal(err)
	}
	svg := buf.String()
	arrows := 0
	for _, f := range p.Findings {
		if f.Arrow != nil && !f.Arrow.Dangling {
			arrows++
		}
	}
	if arrows < 5 {
		t.Fatalf("only %d rejected references to draw", arrows)
	}
	// Fewer texts than arrows would be fine; none would not. They name
	// the entities either side ("Tree 191 → Crate 189"), not the field.
	if n := regexp.MustCompile(`>[^<>]+ → [^<>]+</text>`).FindAllString(svg, -1); len(n) == 0 || len(n) > maxArrowLabels {
		t.Errorf("%d arrow texts", len(n))
	}
	if strings.Contains(svg, `paint-order="stroke">cross-cell-ref: `) {
		t.Error("an arrow is labelled with its finding's code and field, not its entities")
	}
	if strings.Contains(svg, `fill="#b10026"`) {
		t.Error("the map uses the heat ramp's darkest red as a cell fill")
	}
	golden(t, "many-cells.map.svg.golden", buf.Bytes())
}

// maxArrowLabels mirrors drawing's limit on arrow texts.
const maxArrowLabels = 40
