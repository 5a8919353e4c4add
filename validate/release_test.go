package validate

import "testing"

// A released plan still writes a cut parent as null, and no longer holds
// the model.
func TestReleaseWorld(t *testing.T) {
	p := check(t, Options{}, E{ID: 1, Name: "Settings", C: []string{`{"type": "StreamedWorld", "data": {"cellSize": 100}}`}}, E{ID: 2, Name: "Lost", Parent: at(77)})
	if p.World() == nil || !p.CutParent(1) || p.CutParent(0) {
		t.Fatalf("before: world %v, cut %v %v", p.World() != nil, p.CutParent(0), p.CutParent(1))
	}
	p.ReleaseWorld()
	if p.World() != nil || !p.CutParent(1) || p.CutParent(0) || p.CutParent(5) {
		t.Fatalf("after: world %v, cut %v %v %v", p.World() != nil, p.CutParent(0), p.CutParent(1), p.CutParent(5))
	}
}
