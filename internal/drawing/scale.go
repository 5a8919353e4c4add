package drawing

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ticks returns about n round tick values covering [lo, hi]: steps of 1, 2
// or 5 times a power of ten (of 1024 for byte axes, so ticks fall on whole
// KiB or MiB).
func ticks(lo, hi float64, n int, bytes bool) []float64 {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return []float64{lo}
	}
	span := hi - lo
	unit := 1.0
	if bytes {
		for unit*1024 <= span {
			unit *= 1024
		}
	}
	raw := span / unit / float64(max(n, 1))
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	step *= unit
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, v)
	}
	return out
}

// label renders a tick or value: plain numbers compactly (1.5k, 2M), bytes
// in binary units (4 KiB).
func label(v float64, bytes bool) string {
	if bytes {
		abs := math.Abs(v)
		for i, u := range []string{"B", "KiB", "MiB", "GiB", "TiB"} {
			scale := math.Pow(1024, float64(i))
			if abs < scale*1024 || u == "TiB" {
				return Short(v/scale) + " " + u
			}
		}
	}
	abs := math.Abs(v)
	switch {
	case abs >= 1e9:
		return Short(v/1e9) + "G"
	case abs >= 1e6:
		return Short(v/1e6) + "M"
	case abs >= 1e4:
		return Short(v/1e3) + "k"
	}
	return Short(v)
}

// Short writes a number with at most two decimals and no trailing zeros,
// the way drawings and reports show coordinates: routes step by fractions
// (x = f·1.2) whose exact binary values are noise to a reader.
func Short(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

// ramp is a sequential colour scale from pale yellow to deep red, after
// ColorBrewer's YlOrRd: light means few, dark means many.
var ramp = [][3]float64{
	{255, 255, 204}, {255, 237, 160}, {254, 217, 118}, {254, 178, 76},
	{253, 141, 60}, {252, 78, 42}, {227, 26, 28}, {177, 0, 38},
}

// rampColor returns the colour for t in [0, 1].
func rampColor(t float64) string {
	t = math.Max(0, math.Min(1, t))
	pos := t * float64(len(ramp)-1)
	i := int(math.Floor(pos))
	if i >= len(ramp)-1 {
		i = len(ramp) - 2
	}
	f := pos - float64(i)
	a, b := ramp[i], ramp[i+1]
	c := func(k int) int { return int(math.Round(a[k] + (b[k]-a[k])*f)) }
	return fmt.Sprintf("#%02x%02x%02x", c(0), c(1), c(2))
}

// greyColor is the neutral ramp, from near white to a mid grey: light
// enough that dark text and coloured marks read on every step.
func greyColor(t float64) string {
	t = math.Max(0, math.Min(1, t))
	v := int(math.Round(246 - t*(246-176)))
	return fmt.Sprintf("#%02x%02x%02x", v, v, v)
}

// textOn returns a readable text colour on a ramp colour.
func textOn(t float64) string {
	if t > 0.6 {
		return "#fff"
	}
	return "#333"
}

// mutedOn returns a quieter text colour on a ramp colour, for names.
func mutedOn(t float64) string {
	if t > 0.6 {
		return "#f0f0f0"
	}
	return "#666"
}

// Palette is a set of distinct colours for series and routes, readable on
// white and apart from the ramp.
var Palette = []string{"#1f5fa8", "#2a9d8f", "#7b3fa0", "#e07b00", "#444444", "#c2185b"}

// Ticks returns about n round tick values covering [lo, hi], as the
// chart's axes have them (binary steps for bytes), for drawings of other
// packages on a Canvas.
func Ticks(lo, hi float64, n int, bytes bool) []float64 { return ticks(lo, hi, n, bytes) }

// Label renders a tick or value as the chart's axes do.
func Label(v float64, bytes bool) string { return label(v, bytes) }
