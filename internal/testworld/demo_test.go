package testworld

import (
	"bytes"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	goldenfile "github.com/worldcook/worldcook/internal/golden"
)

const demoDir = "../../testdata/demo"

// TestDemoIsUpToDate keeps the committed demo files equal to what the
// generator writes. After changing the demo, run
//
//	go test ./internal/testworld -run TestDemoIsUpToDate -update
func TestDemoIsUpToDate(t *testing.T) {
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{"main.esscene", Demo},
		{"route.csv", DemoRoute},
		{"worldcook.yaml", func(w io.Writer) error { _, err := io.WriteString(w, DemoConfig); return err }},
	} {
		var buf bytes.Buffer
		if err := f.write(&buf); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		goldenfile.Compare(t, filepath.Join(demoDir, f.name), buf.Bytes())
	}
	for _, f := range DemoAssets() {
		goldenfile.Compare(t, filepath.Join(demoDir, filepath.FromSlash(f.Name)), f.Data)
	}
}

func demoScene(t *testing.T) (*testScene, *layout) {
	t.Helper()
	var buf bytes.Buffer
	if err := Demo(&buf); err != nil {
		t.Fatal(err)
	}
	s := decodeScene(t, buf.Bytes())
	checkTopology(t, s)
	return s, partition(t, s, false)
}

func named(s *testScene, name string) []*testEntity {
	var out []*testEntity
	for i := range s.Entities {
		if s.Entities[i].Name == name {
			out = append(out, &s.Entities[i])
		}
	}
	return out
}

func TestDemoWorld(t *testing.T) {
	s, l := demoScene(t)
	if n := len(s.Entities); n < 300 || n > 500 {
		t.Errorf("the demo has %d entities, want 300 to 500", n)
	}
	if l.cellSize != demoCell {
		t.Errorf("cell size %v, want %d", l.cellSize, demoCell)
	}
	cells := map[cellKey]int{}
	for _, c := range l.cell {
		if c.i < 0 || c.i >= demoColumns || c.j < 0 || c.j >= demoRows {
			t.Errorf("a root lies in cell %v, outside the %d×%d grid", c, demoColumns, demoRows)
		}
		cells[c]++
	}
	if len(cells) != demoColumns*demoRows {
		t.Errorf("roots cover %d cells, want %d", len(cells), demoColumns*demoRows)
	}

	for _, r := range l.refs() {
		if c := l.classify(r); c != refOK {
			t.Errorf("reference %s from %d to %d is class %d; the demo must validate clean", r.field, r.from, r.to, c)
		}
	}

	for _, name := range []string{"World Settings", "Player", "Main Camera", "Sun", "Sky"} {
		e := named(s, name)
		if len(e) != 1 || !l.persistent[e[0].ID] {
			t.Errorf("want exactly one persistent %q", name)
		}
	}
	player := named(s, "Player")[0]
	if player.ID != demoPlayer {
		t.Errorf("the player has id %d, want %d", player.ID, demoPlayer)
	}
	src := player.component("WorldStreamingSource")
	if field(src, "prefetchRadius", 0) != 1800 || field(src, "loadRadius", 0) != 1200 || field(src, "unloadRadius", 0) != 1800 {
		t.Errorf("player source radii %v", src)
	}
	if named(s, "Main Camera")[0].component("WorldStreamingSource") == nil {
		t.Error("the main camera is not a streaming source")
	}

	// The guard's FollowTarget is the cell-to-persistent reference.
	guard := named(s, "Guard")
	if len(guard) != 1 || field(guard[0].component("FollowTarget"), "target", 0) != float64(player.ID) {
		t.Error("want one Guard following the player")
	} else if _, streamed := l.cellOf(guard[0].ID); !streamed {
		t.Error("the guard must stream with its cell")
	}

	// The bridge is hinged to a plank that is another root of the same cell.
	bridge := named(s, "Bridge")
	if len(bridge) != 1 {
		t.Fatal("want one Bridge")
	}
	plank := int64(field(bridge[0].component("RevoluteJoint"), "connectedEntity", 0))
	bc, _ := l.cellOf(bridge[0].ID)
	pc, ok := l.cellOf(plank)
	if !ok || bc != pc || l.root[plank] == bridge[0].ID {
		t.Errorf("the bridge's joint target %d is not another root of cell %v", plank, bc)
	}

	// Some doors stand across the border of their house's cell.
	overhanging := 0
	for _, door := range named(s, "Door") {
		m := l.world(door.ID)
		c := cellKey{int64(math.Floor(m[3] / demoCell)), int64(math.Floor(m[11] / demoCell))}
		if home, _ := l.cellOf(door.ID); home != c {
			overhanging++
		}
	}
	if overhanging < 3 {
		t.Errorf("%d doors overhang their house's cell, want at least 3", overhanging)
	}

	mill := named(s, "Windmill")
	if len(mill) != 1 {
		t.Fatal("want one Windmill")
	}
	tr := mill[0].component("Transform")
	if tr["rotation"] == nil || tr["scale"] == nil {
		t.Error("the windmill should be rotated and scaled")
	}
}

func TestDemoRoute(t *testing.T) {
	var buf bytes.Buffer
	if err := DemoRoute(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if lines[0] != "frame,x,z" {
		t.Fatalf("header %q", lines[0])
	}
	rows := lines[1:]
	if len(rows) < 250 || len(rows) > 400 {
		t.Errorf("%d rows, want about 300", len(rows))
	}
	cells := map[cellKey]bool{}
	var px, pz int
	for i, row := range rows {
		f := strings.Split(row, ",")
		if len(f) != 3 {
			t.Fatalf("row %d: %q", i+1, row)
		}
		frame, _ := strconv.Atoi(f[0])
		x, _ := strconv.Atoi(f[1])
		z, _ := strconv.Atoi(f[2])
		if frame != i+1 {
			t.Fatalf("row %d has frame %d", i+1, frame)
		}
		if x < 0 || x >= demoColumns*demoCell || z < 0 || z >= demoRows*demoCell {
			t.Fatalf("frame %d at (%d, %d) leaves the world", frame, x, z)
		}
		if i > 0 {
			step := math.Hypot(float64(x-px), float64(z-pz))
			last := i == len(rows)-1
			if step > 40 || (step < 17 && !last) {
				t.Errorf("frame %d moves %.1f units", frame, step)
			}
		}
		px, pz = x, z
		cells[cellKey{int64(x / demoCell), int64(z / demoCell)}] = true
	}
	if len(cells) < 10 {
		t.Errorf("the route visits %d cells, want most of the %d", len(cells), demoColumns*demoRows)
	}
}
