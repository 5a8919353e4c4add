package testworld

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

// This file holds a small, independent reading of generated scenes for the
// tests: it decodes documents with encoding/json, places roots into cells the
// way worldcook's partition does, and classifies every entity reference, so
// the generator is checked against the rules rather than against itself.

type testComponent struct {
	Type string         `json:"type"`
	Data map[string]any `json:"data"`
}

type testEntity struct {
	ID         int64           `json:"id"`
	Name       string          `json:"name"`
	Parent     *int64          `json:"parent"`
	Children   []int64         `json:"children"`
	Components []testComponent `json:"components"`
	Visible    bool            `json:"visible"`
}

type testScene struct {
	Version  int          `json:"version"`
	Name     string       `json:"name"`
	Entities []testEntity `json:"entities"`
}

func decodeScene(t testing.TB, data []byte) *testScene {
	t.Helper()
	var s testScene
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("decoding scene: %v", err)
	}
	return &s
}

func (e *testEntity) component(t string) map[string]any {
	for _, c := range e.Components {
		if c.Type == t {
			return c.Data
		}
	}
	return nil
}

// mat is a 4×4 affine matrix in row-major order, enough to compose
// Transform hierarchies in tests.
type mat [16]float64

func (a mat) mul(b mat) mat {
	var m mat
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			for k := 0; k < 4; k++ {
				m[4*r+c] += a[4*r+k] * b[4*k+c]
			}
		}
	}
	return m
}

func field(m map[string]any, k string, def float64) float64 {
	if v, ok := m[k].(float64); ok {
		return v
	}
	return def
}

// trs builds the local matrix of an entity's Transform: translate × rotate ×
// scale, with the format's defaults for missing fields.
func trs(e *testEntity) mat {
	data := e.component("Transform")
	p, _ := data["position"].(map[string]any)
	q, _ := data["rotation"].(map[string]any)
	s, _ := data["scale"].(map[string]any)
	tx, ty, tz := field(p, "x", 0), field(p, "y", 0), field(p, "z", 0)
	x, y, z, w := field(q, "x", 0), field(q, "y", 0), field(q, "z", 0), field(q, "w", 1)
	sx, sy, sz := field(s, "x", 1), field(s, "y", 1), field(s, "z", 1)
	return mat{
		(1 - 2*(y*y+z*z)) * sx, 2 * (x*y - z*w) * sy, 2 * (x*z + y*w) * sz, tx,
		2 * (x*y + z*w) * sx, (1 - 2*(x*x+z*z)) * sy, 2 * (y*z - x*w) * sz, ty,
		2 * (x*z - y*w) * sx, 2 * (y*z + x*w) * sy, (1 - 2*(x*x+y*y)) * sz, tz,
		0, 0, 0, 1,
	}
}

type cellKey struct{ i, j int64 }

// layout is the partition of a scene: each entity's root, whether that root
// is persistent, and the cell of every streamed root.
type layout struct {
	s          *testScene
	byID       map[int64]*testEntity
	root       map[int64]int64
	persistent map[int64]bool
	cell       map[int64]cellKey
	cellSize   float64
	xy         bool
}

func partition(t testing.TB, s *testScene, xy bool) *layout {
	t.Helper()
	l := &layout{
		s:          s,
		byID:       map[int64]*testEntity{},
		root:       map[int64]int64{},
		persistent: map[int64]bool{},
		cell:       map[int64]cellKey{},
		xy:         xy,
	}
	for i := range s.Entities {
		e := &s.Entities[i]
		if _, dup := l.byID[e.ID]; dup {
			t.Fatalf("duplicate id %d", e.ID)
		}
		l.byID[e.ID] = e
		if sw := e.component("StreamedWorld"); sw != nil {
			l.cellSize = field(sw, "cellSize", 0)
		}
	}
	if l.cellSize <= 0 {
		t.Fatalf("scene has no StreamedWorld with a positive cellSize")
	}
	for i := range s.Entities {
		e := &s.Entities[i]
		r := e
		for depth := 0; r.Parent != nil; depth++ {
			if depth > len(s.Entities) {
				t.Fatalf("entity %d is in a parent cycle", e.ID)
			}
			p, ok := l.byID[*r.Parent]
			if !ok {
				t.Fatalf("entity %d names missing parent %d", r.ID, *r.Parent)
			}
			r = p
		}
		l.root[e.ID] = r.ID
		if e.Parent != nil {
			continue
		}
		if e.component("WorldPersistent") != nil || e.component("StreamedWorld") != nil || e.component("Transform") == nil {
			l.persistent[e.ID] = true
			continue
		}
		m := trs(e)
		a, b := m[3], m[11]
		if xy {
			b = m[7]
		}
		l.cell[e.ID] = cellKey{int64(math.Floor(a / l.cellSize)), int64(math.Floor(b / l.cellSize))}
	}
	return l
}

// world returns the world matrix of an entity.
func (l *layout) world(id int64) mat {
	e := l.byID[id]
	m := trs(e)
	if e.Parent != nil {
		return l.world(*e.Parent).mul(m)
	}
	return m
}

func (l *layout) cellOf(id int64) (cellKey, bool) {
	r := l.root[id]
	if l.persistent[r] {
		return cellKey{}, false
	}
	return l.cell[r], true
}

// refClass is how a reference fares under worldcook's rules.
type refClass int

const (
	refOK refClass = iota
	refCrossCell
	refPersistentToCell
	refDangling
)

type testRef struct {
	from, to int64
	field    string
}

// refs lists every value of the declared entity fields the generator uses,
// plus FollowTarget.target, which the demo project declares.
func (l *layout) refs() []testRef {
	var out []testRef
	for _, e := range l.s.Entities {
		for _, c := range e.Components {
			switch c.Type {
			case "RevoluteJoint", "HingeJoint3D":
				out = append(out, testRef{e.ID, int64(field(c.Data, "connectedEntity", -1)), c.Type + ".connectedEntity"})
			case "FollowTarget":
				out = append(out, testRef{e.ID, int64(field(c.Data, "target", -1)), "FollowTarget.target"})
			case "MeshSkin":
				for _, j := range c.Data["joints"].([]any) {
					out = append(out, testRef{e.ID, int64(j.(float64)), "MeshSkin.joints"})
				}
			}
		}
	}
	return out
}

func (l *layout) classify(r testRef) refClass {
	if _, ok := l.byID[r.to]; !ok {
		return refDangling
	}
	if l.root[r.from] == l.root[r.to] {
		return refOK
	}
	fromCell, fromStreamed := l.cellOf(r.from)
	toCell, toStreamed := l.cellOf(r.to)
	switch {
	case !toStreamed:
		return refOK
	case !fromStreamed:
		return refPersistentToCell
	case fromCell != toCell:
		return refCrossCell
	}
	return refOK
}

// checkTopology verifies ids start at 1 and follow file order, and that
// every children list is exactly the set of entities naming it as parent, in
// file order.
func checkTopology(t testing.TB, s *testScene) {
	t.Helper()
	kids := map[int64][]int64{}
	for i, e := range s.Entities {
		if e.ID != int64(i+1) {
			t.Fatalf("entity %d has id %d; ids must be 1..n in file order", i, e.ID)
		}
		if e.Parent != nil {
			if *e.Parent >= e.ID || *e.Parent < 1 {
				t.Fatalf("entity %d has parent %d, which is not an earlier entity", e.ID, *e.Parent)
			}
			kids[*e.Parent] = append(kids[*e.Parent], e.ID)
		}
		if !e.Visible {
			t.Fatalf("entity %d is not visible", e.ID)
		}
		if e.Children == nil {
			t.Fatalf("entity %d has no children array", e.ID)
		}
	}
	for _, e := range s.Entities {
		if fmt.Sprint(e.Children) != fmt.Sprint(kids[e.ID]) && !(len(e.Children) == 0 && len(kids[e.ID]) == 0) {
			t.Fatalf("entity %d lists children %v, but its children are %v", e.ID, e.Children, kids[e.ID])
		}
	}
}
