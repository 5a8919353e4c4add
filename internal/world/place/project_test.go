package place

import (
	"math"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
)

// TestProjectRotatedBox checks the range a box covers on the partition
// plane against bounds worked out by hand: a box of half extents 1, 2, 3
// (x, y, z) turned about each axis projects, on an axis a row of the
// rotation maps to, to the centre ± |r·x|·1 + |r·y|·2 + |r·z|·3. Turning
// about y brings the z extent into the x range, turning about x into the
// y range (xy plane) or swaps it with the y extent (xz plane): every term
// of the projection is needed for one of the rows.
func TestProjectRotatedBox(t *testing.T) {
	s30, c30 := 0.5, math.Sqrt(3)/2
	about := func(ax, ay, az, deg float64) scene.Quat {
		h := deg * math.Pi / 360
		return scene.Quat{X: ax * math.Sin(h), Y: ay * math.Sin(h), Z: az * math.Sin(h), W: math.Cos(h)}
	}
	lo, hi := scene.Vec3{X: -1, Y: -2, Z: -3}, scene.Vec3{X: 1, Y: 2, Z: 3}
	for _, tc := range []struct {
		name  string
		trs   scene.TRS
		lo    scene.Vec3 // box, when not the centred one
		hi    scene.Vec3
		xz    [4]float64 // u0, u1, v0, v1 on the xz plane
		xy    [4]float64 // and on the xy plane
		moved bool       // lo, hi set
	}{
		{name: "unturned", trs: scene.Identity,
			xz: [4]float64{-1, 1, -3, 3}, xy: [4]float64{-1, 1, -2, 2}},
		{name: "90 about x", trs: scene.TRS{Rotation: about(1, 0, 0, 90), Scale: scene.Vec3{X: 1, Y: 1, Z: 1}},
			// y' = -z, z' = y
			xz: [4]float64{-1, 1, -2, 2}, xy: [4]float64{-1, 1, -3, 3}},
		{name: "30 about x", trs: scene.TRS{Rotation: about(1, 0, 0, 30), Scale: scene.Vec3{X: 1, Y: 1, Z: 1}},
			// y' = y cos - z sin, z' = y sin + z cos
			xz: [4]float64{-1, 1, -(2*s30 + 3*c30), 2*s30 + 3*c30}, xy: [4]float64{-1, 1, -(2*c30 + 3*s30), 2*c30 + 3*s30}},
		{name: "90 about y", trs: scene.TRS{Rotation: about(0, 1, 0, 90), Scale: scene.Vec3{X: 1, Y: 1, Z: 1}},
			// x' = z, z' = -x
			xz: [4]float64{-3, 3, -1, 1}, xy: [4]float64{-3, 3, -2, 2}},
		{name: "30 about y", trs: scene.TRS{Rotation: about(0, 1, 0, 30), Scale: scene.Vec3{X: 1, Y: 1, Z: 1}},
			// x' = x cos + z sin, z' = -x sin + z cos
			xz: [4]float64{-(c30 + 3*s30), c30 + 3*s30, -(s30 + 3*c30), s30 + 3*c30}, xy: [4]float64{-(c30 + 3*s30), c30 + 3*s30, -2, 2}},
		{name: "90 about z", trs: scene.TRS{Rotation: about(0, 0, 1, 90), Scale: scene.Vec3{X: 1, Y: 1, Z: 1}},
			// x' = -y, y' = x
			xz: [4]float64{-2, 2, -3, 3}, xy: [4]float64{-2, 2, -1, 1}},
		{name: "30 about z", trs: scene.TRS{Rotation: about(0, 0, 1, 30), Scale: scene.Vec3{X: 1, Y: 1, Z: 1}},
			// x' = x cos - y sin, y' = x sin + y cos
			xz: [4]float64{-(c30 + 2*s30), c30 + 2*s30, -3, 3}, xy: [4]float64{-(c30 + 2*s30), c30 + 2*s30, -(s30 + 2*c30), s30 + 2*c30}},
		{name: "30 about y, moved, z scaled", trs: scene.TRS{Position: scene.Vec3{X: 10, Y: 20, Z: 30}, Rotation: about(0, 1, 0, 30), Scale: scene.Vec3{X: 1, Y: 1, Z: 2}},
			// the z half extent is 6
			xz: [4]float64{10 - (c30 + 6*s30), 10 + c30 + 6*s30, 30 - (s30 + 6*c30), 30 + s30 + 6*c30}, xy: [4]float64{10 - (c30 + 6*s30), 10 + c30 + 6*s30, 18, 22}},
		{name: "off-centre box, 90 about y", trs: scene.TRS{Rotation: about(0, 1, 0, 90), Scale: scene.Vec3{X: 1, Y: 1, Z: 1}},
			// x in 0..2, z in 0..6: x' = z in 0..6, z' = -x in -2..0
			lo: scene.Vec3{}, hi: scene.Vec3{X: 2, Y: 4, Z: 6}, moved: true,
			xz: [4]float64{0, 6, -2, 0}, xy: [4]float64{0, 6, 0, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blo, bhi := lo, hi
			if tc.moved {
				blo, bhi = tc.lo, tc.hi
			}
			m := tc.trs.Matrix()
			for _, plane := range []struct {
				xy   bool
				want [4]float64
			}{{false, tc.xz}, {true, tc.xy}} {
				w := &placer{pl: &Placement{opts: Options{XY: plane.xy}}}
				u0, u1, v0, v1 := w.project(&m, blo, bhi)
				got := [4]float64{u0, u1, v0, v1}
				for k := range got {
					if math.Abs(got[k]-plane.want[k]) > 1e-9 {
						t.Errorf("xy=%v: projected to %v, want %v", plane.xy, got, plane.want)
						break
					}
				}
			}
		})
	}
}
