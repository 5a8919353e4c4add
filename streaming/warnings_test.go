package streaming

import (
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/manifest"
)

// TestOversizeCellsCountAssets: a cell is as large as its first request,
// its document and the assets it loads, unless the run ignores assets.
func TestOversizeCellsCountAssets(t *testing.T) {
	w := rowWorld(3)
	w.Assets = []Asset{{Path: "tex.png", Bytes: 4000}}
	w.Cells[1].Assets = []int32{0}
	ws := OversizeCells(w, Settings{Budget: Int64(1024)})
	if len(ws) != 1 || !slices.Equal(ws[0].Cells, []string{"c01 (4100 B with its assets: 4.0 frames of budget in one)"}) || !strings.Contains(ws[0].Message, "1 of 3 cells") {
		t.Errorf("with assets: %+v", ws)
	}
	if ws := OversizeCells(w, Settings{Budget: Int64(1024), IgnoreAssets: true}); ws != nil {
		t.Errorf("assets ignored: %+v", ws)
	}
	// Shared with another cell, or held by the persistent world, the
	// texture may be resident already: the cell's requests need not ask it.
	w.Cells[2].Assets = []int32{0}
	if ws := OversizeCells(w, Settings{Budget: Int64(1024)}); ws != nil {
		t.Errorf("a shared asset: %+v", ws)
	}
	w.Cells[2].Assets, w.PersistentAssets = nil, []int32{0}
	if ws := OversizeCells(w, Settings{Budget: Int64(1024)}); ws != nil {
		t.Errorf("a persistent asset: %+v", ws)
	}
}

// TestNothingStreams: no cell or one warns, with the span and a cell size
// to try; two cells do not.
func TestNothingStreams(t *testing.T) {
	for _, tc := range []struct {
		cells int
		want  string
	}{
		{0, "the world has no cell"},
		{1, "all of the world's content is in one cell, c00"},
		{2, ""},
	} {
		w := rowWorld(tc.cells)
		ws := NothingStreams(w)
		switch {
		case tc.want == "" && ws != nil:
			t.Errorf("%d cells: %+v", tc.cells, ws)
		case tc.want != "" && (len(ws) != 1 || ws[0].Code != "nothing-streams" || !strings.Contains(ws[0].Message, tc.want)):
			t.Errorf("%d cells: %+v, want %q", tc.cells, ws, tc.want)
		}
	}
	if ws := NothingStreams(rowWorld(1)); !strings.Contains(ws[0].Hint, "lower StreamedWorld.cellSize") {
		t.Errorf("hint %q", ws[0].Hint)
	}
	// One top-level entity (a tilemap scene): no cell size splits it, so
	// the hint must not ask for a smaller one.
	one := rowWorld(1)
	one.Layout = &manifest.Layout{Cameras: 1, Orthographic: 1, Roots: 1}
	if ws := NothingStreams(one); strings.Contains(ws[0].Hint, "cellSize") || !strings.Contains(ws[0].Hint, "split it into several top-level entities") {
		t.Errorf("one entity: hint %q", ws[0].Hint)
	}
}

// TestRouteOutside: a route with one row inside the cells' bounds is in
// the world; one wholly outside is named with both extents, on the
// world's plane.
func TestRouteOutside(t *testing.T) {
	w := rowWorld(3) // x 0..30, z 0..10
	for _, tc := range []struct {
		csv, plane, want string
	}{
		{"x,z\n99999,5\n5,5\n", "xz", ""},
		{"x,z\n99999,5\n100000,5\n", "xz", "route.csv: the route lies outside the world: it spans x 99999..100000, z 5..5, the world's cells x 0..30, z 0..10"},
		{"x,y,z\n5,5,500\n", "xz", "z 500..500"},
		{"x,y,z\n5,5,500\n", "xy", ""},
	} {
		rt, err := parseRouteOn(strings.NewReader(tc.csv), "route.csv", "")
		if err != nil {
			t.Fatal(err)
		}
		w.Plane = tc.plane
		got := rt.Outside(w)
		switch {
		case tc.want == "" && got != nil:
			t.Errorf("%q: %v", tc.csv, got)
		case tc.want != "" && (got == nil || got.Code != "route-outside-world" || !strings.Contains(got.Message, tc.want)):
			t.Errorf("%q on %s: %v, want %q", tc.csv, tc.plane, got, tc.want)
		}
	}
}
