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
	out := []Point{pts[0]}
	seg, at := 1, 0.0 // the segment being walked, and how far along it
	for seg < len(pts) {
		a, b := pts[seg-1], pts[seg]
		l := math.Hypot(b.X-a.X, b.Z-a.Z)
		next := at + step
		if next < l {
			f := next / l
			out = append(out, Point{a.X + (b.X-a.X)*f, a.Z + (b.Z-a.Z)*f})
			at = next
			continue
		}
		// The frame lies past this segment's end: carry the rest on.
		at = next - l
		seg++
		for seg < len(pts) {
			a, b = pts[seg-1], pts[seg]
			l = math.Hypot(b.X-a.X, b.Z-a.Z)
			if at < l {
				break
			}
			at -= l
			seg++
		}
		if seg == len(pts) {
			break
		}
		f := at / l
		out = append(out, Point{a.X + (b.X-a.X)*f, a.Z + (b.Z-a.Z)*f})
	}
	if last := pts[len(pts)-1]; out[len(out)-1] != last {
		out = append(out, last)
	}
	return out, nil
}

// num writes a number for messages: shortest form.
func num(v float64) string { return fmt.Sprintf("%g", v) }
