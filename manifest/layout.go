package manifest

import (
	"errors"
	"fmt"
	"math"
)

// Layout is how a world's content lies in space, as cook measured it: what
// tells a 2D scene (orthographic cameras, content spread on x and y) from
// a 3D one, for the commands that read only the manifest as for validate.
type Layout struct {
	// Cameras counts the scene's cameras, Orthographic those that are.
	Cameras      int `json:"cameras"`
	Orthographic int `json:"orthographic"`
	// Roots counts the top-level entities measured (cameras and UI roots
	// left out; at most LayoutSample of them, evenly spaced), Min and Max
	// the extent on x, y and z of their positions and of what they draw
	// flat (tilemaps' tiles, sprites, shapes: a 2D scene of one tilemap
	// spreads by them).
	Roots int        `json:"roots"`
	Min   [3]float64 `json:"min"`
	Max   [3]float64 `json:"max"`
}

// LayoutSample bounds the top-level entities a layout measures: enough to
// tell a flat world from a spread one, at a cost that does not grow with
// the world.
const LayoutSample = 4096

// Check reports the first way l is not a layout a cook writes.
func (l *Layout) Check() error {
	if l.Cameras < 0 || l.Orthographic < 0 || l.Orthographic > l.Cameras || l.Roots < 0 {
		return fmt.Errorf("layout counts %d cameras, %d orthographic, %d roots: counts must be 0 or more, and the orthographic cameras no more than the cameras", l.Cameras, l.Orthographic, l.Roots)
	}
	for k := range 3 {
		if bad(l.Min[k]) || bad(l.Max[k]) || l.Min[k] > l.Max[k] {
			return errors.New("layout extent must be finite, each min at most its max")
		}
	}
	return nil
}

func bad(f float64) bool { return math.IsNaN(f) || math.IsInf(f, 0) }

// Span is the extent of the roots on axis k (0 x, 1 y, 2 z).
func (l *Layout) Span(k int) float64 { return l.Max[k] - l.Min[k] }

// farMore is how many times more one axis must spread than the other for
// a world to be laid out on it: a 2D scene's layers sit a few units apart
// on z while it spreads hundreds on y.
const farMore = 8

// LaidOut returns the plane the content is laid out on when it is not
// the plane cut (else ""), and the evidence, for a message. A scene whose
// cameras are all orthographic and whose roots spread on y far more than
// on z is laid out on x and y (2D); one with a perspective camera whose
// roots spread on z far more than on y, on x and z (3D). Without a camera
// to say which, the spread axis must also cover two cells and a quarter
// of the x extent, over eight roots at least: a few layers apart is not a
// layout. One root can be laid out, by what it draws (a tilemap's tiles).
func (l *Layout) LaidOut(cut string, cellSize float64) (plane, evidence string) {
	if l == nil || l.Roots < 1 {
		return "", ""
	}
	y, z := l.Span(1), l.Span(2)
	axes := func(spread, flat int) string {
		name := [3]string{"x", "y", "z"}
		return fmt.Sprintf("its top-level entities span %s %s to %s but %s %s to %s", name[spread], num(l.Min[spread]), num(l.Max[spread]), name[flat], num(l.Min[flat]), num(l.Max[flat]))
	}
	spread := func(s, flat float64) bool { return s > 0 && s >= farMore*flat }
	large := func(s float64) bool { return l.Roots >= 8 && s >= 2*cellSize && s >= l.Span(0)/4 }
	ortho := l.Cameras > 0 && l.Orthographic == l.Cameras
	persp := l.Orthographic < l.Cameras
	switch {
	case cut != PlaneXY && ortho && spread(y, z):
		what := "its camera is orthographic"
		if l.Cameras > 1 {
			what = fmt.Sprintf("its %d cameras are all orthographic", l.Cameras)
		}
		return PlaneXY, fmt.Sprintf("%s (a 2D view) and %s", what, axes(1, 2))
	case cut != PlaneXY && l.Cameras == 0 && spread(y, z) && large(y):
		return PlaneXY, "it has no camera, and " + axes(1, 2)
	case cut == PlaneXY && persp && spread(z, y):
		return PlaneXZ, fmt.Sprintf("it has a perspective camera (a 3D view) and %s", axes(2, 1))
	case cut == PlaneXY && l.Cameras == 0 && spread(z, y) && large(z):
		return PlaneXZ, "it has no camera, and " + axes(2, 1)
	}
	return "", ""
}

// Mismatch says, when the content is laid out on the other plane than
// cut (LaidOut), that plane and what to say of the world: "is cut on xz,
// but it is laid out on x and y: <evidence>; its cells follow the wrong
// axis", for plane-mismatch wherever it is found.
func (l *Layout) Mismatch(cut string, cellSize float64) (other, says string) {
	other, evidence := l.LaidOut(cut, cellSize)
	if other == "" {
		return "", ""
	}
	axes := map[string]string{PlaneXY: "x and y", PlaneXZ: "x and z"}
	return other, fmt.Sprintf("is cut on %s, but it is laid out on %s: %s; its cells follow the wrong axis", cut, axes[other], evidence)
}
