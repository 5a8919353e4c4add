package route

import (
	"fmt"
	"math"
)

// walk samples a walk along the polyline pts at speed units a second and
// fps frames a second: the first frame at the first point, each next one
// speed/fps further along, the last at the last point. It stops with an
// error before it makes more than MaxFrames.
func walk(pts []Point, speed, fps float64) ([]Point, error) {
	if len(pts) == 0 {
		return nil, nil
	}
	total := 0.0
	for i := 1; i < len(pts); i++ {
		total += math.Hypot(pts[i].X-pts[i-1].X, pts[i].Z-pts[i-1].Z)
	}
	step := speed / fps
	if n := math.Ceil(total / step); n+1 > MaxFrames || math.IsNaN(n) {
		return nil, fmt.Errorf("a walk of %s units at %s units a second and %s frames a second spans more than %d frames (MaxRouteFrames); raise --speed or lower --fps", num(total), num(speed), num(fps), MaxFrames)
	}
	// Frame k is k·step along the line, measured from the start (not
	// added up frame by frame, which would drift).
	cum := make([]float64, len(pts))
	for i := 1; i < len(pts); i++ {
		cum[i] = cum[i-1] + math.Hypot(pts[i].X-pts[i-1].X, pts[i].Z-pts[i-1].Z)
	}
	out := []Point{pts[0]}
	seg := 1
	for k := 1; ; k++ {
		d := float64(k) * step
		if d >= total {
			break
		}
		for seg < len(pts)-1 && cum[seg] <= d {
			seg++
		}
		a, b := pts[seg-1], pts[seg]
		l := cum[seg] - cum[seg-1]
		f := (d - cum[seg-1]) / l
		out = append(out, Point{a.X + (b.X-a.X)*f, a.Z + (b.Z-a.Z)*f})
	}
	if last := pts[len(pts)-1]; out[len(out)-1] != last {
		out = append(out, last)
	}
	return out, nil
}

// num writes a number for messages: shortest form.
func num(v float64) string { return fmt.Sprintf("%g", v) }
