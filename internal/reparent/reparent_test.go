package reparent

import (
	"math"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
)

func TestUnder(t *testing.T) {
	turn := func(axis scene.Vec3, deg float64) scene.Quat {
		s, c := math.Sincos(deg * math.Pi / 360)
		return scene.Quat{X: axis.X * s, Y: axis.Y * s, Z: axis.Z * s, W: c}
	}
	up := scene.Vec3{Y: 1}
	trs := func(p scene.Vec3, q scene.Quat, s scene.Vec3) scene.TRS {
		return scene.TRS{Position: p, Rotation: q, Scale: s}
	}
	one := scene.Vec3{X: 1, Y: 1, Z: 1}
	for _, c := range []struct {
		name          string
		parent, child scene.TRS
		want          scene.TRS // checked when refused is ""
		refused       string
	}{
		{name: "translation", parent: trs(scene.Vec3{X: 10, Z: 5}, scene.Quat{W: 1}, one), child: trs(scene.Vec3{X: 12, Y: 1, Z: 5}, scene.Quat{W: 1}, one),
			want: trs(scene.Vec3{X: 2, Y: 1}, scene.Quat{W: 1}, one)},
		{name: "quarter turn and double scale", parent: trs(scene.Vec3{}, turn(up, 90), scene.Vec3{X: 2, Y: 2, Z: 2}), child: trs(scene.Vec3{X: 4}, turn(up, 90), one),
			want: trs(scene.Vec3{Z: 2}, scene.Quat{W: 1}, scene.Vec3{X: 0.5, Y: 0.5, Z: 0.5})},
		{name: "non-uniform parent, aligned child", parent: trs(scene.Vec3{}, scene.Quat{W: 1}, scene.Vec3{X: 2, Y: 1, Z: 4}), child: trs(scene.Vec3{X: 2, Z: 8}, scene.Quat{W: 1}, scene.Vec3{X: 2, Y: 2, Z: 2}),
			want: trs(scene.Vec3{X: 1, Z: 2}, scene.Quat{W: 1}, scene.Vec3{X: 1, Y: 2, Z: 0.5})},
		{name: "non-uniform parent, turned child", parent: trs(scene.Vec3{}, scene.Quat{W: 1}, scene.Vec3{X: 2, Y: 1, Z: 4}), child: trs(scene.Vec3{}, turn(up, 30), one),
			refused: "not uniform"},
		{name: "flat parent", parent: trs(scene.Vec3{}, scene.Quat{W: 1}, scene.Vec3{X: 1, Y: 0, Z: 1}), child: trs(scene.Vec3{}, scene.Quat{W: 1}, one),
			refused: "zero"},
		{name: "unnormalised parent rotation", parent: trs(scene.Vec3{}, scene.Quat{W: 2}, one), child: trs(scene.Vec3{}, scene.Quat{W: 1}, one),
			refused: "unit quaternion"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Under(c.parent, c.child)
			if c.refused != "" {
				if err == nil || !strings.Contains(err.Error(), c.refused) {
					t.Fatalf("Under = %+v, %v; want refused with %q", got, err, c.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if dev := trsDeviation(got, c.want); dev > 1e-12 {
				t.Errorf("Under = %+v, want %+v", got, c.want)
			}
		})
	}
}
