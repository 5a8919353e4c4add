package validate

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestGrewLinesAreBounded: a world of many grown cells lists the
// maxGrewLines largest after its findings, errors first, and counts the
// rest; --verbose and the machine formats keep every one.
func TestGrewLinesAreBounded(t *testing.T) {
	p := goldenPlan(t)
	p.Cells, p.Assets = nil, nil // synthetic cells, no asset lists
	const n = maxGrewLines + 5
	for i := range n {
		// Growth rises then falls with i, so that the largest are not
		// simply the last cells.
		by := float64((i*7)%n) + 0.5
		p.Cells = append(p.Cells, Cell{X: int32(i), Name: fmt.Sprintf("errors.cell_%d_0", i),
			Bounds: Rect{MinX: 0, MaxX: 10 + by, MinZ: 0, MaxZ: 10}, Overhang: Overhang{Entity: int64(i + 1), Name: fmt.Sprint("E", i), By: by}})
	}
	write := func(format string, opts ReportOptions) string {
		t.Helper()
		var buf bytes.Buffer
		if err := Write(&buf, format, []*Plan{p}, opts); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	text := write(FormatText, ReportOptions{})
	golden(t, "grew.text.golden", []byte(text))
	if got := strings.Count(text, " beyond its grid square"); got != maxGrewLines {
		t.Errorf("%d grew lines, want %d", got, maxGrewLines)
	}
	if !strings.Contains(text, "  … and 5 more cells grew by 5.5 or less (--verbose lists every one)\n") {
		t.Errorf("no count of the rest")
	}
	lastError, firstWarning := strings.LastIndex(text, ": error["), strings.Index(text, ": warning[")
	if lastError < 0 || firstWarning < 0 || lastError > firstWarning {
		t.Errorf("errors do not all come before warnings")
	}
	if got := strings.Count(write(FormatText, ReportOptions{Verbose: true}), " beyond its grid square"); got != n {
		t.Errorf("--verbose: %d grew lines, want %d", got, n)
	}
	if got := strings.Count(write(FormatJSON, ReportOptions{}), `"overhang":`); got != n {
		t.Errorf("json: %d overhangs, want %d", got, n)
	}
}
