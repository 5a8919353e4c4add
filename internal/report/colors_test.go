package report

import (
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/worldcook/worldcook/streaming"
)

// Colour vision deficiencies as Machado, Oliveira and Fernandes (2009)
// simulate them at full severity, on linear RGB; and normal vision.
var visions = []struct {
	name string
	m    [3][3]float64
}{
	{"normal", [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
	{"protanopia", [3][3]float64{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}},
	{"deuteranopia", [3][3]float64{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}},
	{"tritanopia", [3][3]float64{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}},
}

// paint is a colour laid over white at an opacity, as the page draws it.
type paint struct {
	hex   string
	alpha float64
}

func toLinear(c float64) float64 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

func fromLinear(c float64) float64 {
	c = max(0, min(1, c))
	if c <= 0.0031308 {
		return 12.92 * c
	}
	return 1.055*math.Pow(c, 1/2.4) - 0.055
}

// seen is the colour p gives over white, as the vision sees it, in CIE
// L*a*b*.
func seen(t *testing.T, p paint, m [3][3]float64) [3]float64 {
	t.Helper()
	v, err := strconv.ParseUint(p.hex[1:], 16, 32)
	if len(p.hex) != 7 || err != nil {
		t.Fatalf("colour %q is not #rrggbb", p.hex)
	}
	var rgb [3]float64
	for i := range 3 {
		c := float64(v>>(16-8*i)&0xff) / 255
		rgb[i] = toLinear(c*p.alpha + (1 - p.alpha))
	}
	var lin [3]float64
	for i := range 3 {
		for j := range 3 {
			lin[i] += m[i][j] * rgb[j]
		}
		lin[i] = toLinear(fromLinear(lin[i]))
	}
	x := (0.4124*lin[0] + 0.3576*lin[1] + 0.1805*lin[2]) / 0.95047
	y := 0.2126*lin[0] + 0.7152*lin[1] + 0.0722*lin[2]
	z := (0.0193*lin[0] + 0.1192*lin[1] + 0.9505*lin[2]) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

// checkApart fails when two of the paints, which a reader must tell apart,
// are closer than least (CIE76 ΔE) to any of the visions.
func checkApart(t *testing.T, what string, paints map[string]paint, least float64) {
	t.Helper()
	names := make([]string, 0, len(paints))
	for n := range paints {
		names = append(names, n)
	}
	for _, v := range visions {
		for i, a := range names {
			for _, b := range names[i+1:] {
				pa, pb := seen(t, paints[a], v.m), seen(t, paints[b], v.m)
				if d := math.Hypot(math.Hypot(pa[0]-pb[0], pa[1]-pb[1]), pa[2]-pb[2]); d < least {
					t.Errorf("%s: %s and %s are %.1f apart to %s, less than %.0f", what, a, b, d, v.name, least)
				}
			}
		}
	}
}

// cssVar reads a custom property of the page's style sheet.
func cssVar(t *testing.T, name string) string {
	t.Helper()
	m := regexp.MustCompile(`--` + regexp.QuoteMeta(name) + `:\s*(#[0-9a-fA-F]{6})`).FindStringSubmatch(timelineCSS)
	if m == nil {
		t.Fatalf("the page's style has no --%s", name)
	}
	return m[1]
}

// TestColoursApart checks that the states of the page's map, the series
// of its chart and those of --plot stay told apart with each common colour
// vision deficiency: a ΔE of at least 20 between map states (as the map
// lays them over white, at the page's opacities) and 30 between series.
func TestColoursApart(t *testing.T) {
	checkApart(t, "the map's states", map[string]paint{
		"hole":      {cssVar(t, "hole"), 0.85},
		"resident":  {cssVar(t, "resident"), 0.7},
		"unloading": {cssVar(t, "unloading"), 0.75},
		"prepared":  {cssVar(t, "prepared"), 0.8},
		"loading":   {cssVar(t, "loading"), 0.85},
		"absent":    {cssVar(t, "absent"), 1},
	}, 20)
	checkApart(t, "the page's chart", map[string]paint{
		"resident bytes":  {cssVar(t, "c-resident"), 0.35},
		"assets":          {cssVar(t, "c-assets"), 0.85},
		"prepared":        {cssVar(t, "c-prepared"), 1},
		"bytes requested": {cssVar(t, "c-requested"), 1},
	}, 30)
	checkApart(t, "the page's episode marks", map[string]paint{
		"holes":  {cssVar(t, "c-hole"), 0.8},
		"pop-in": {cssVar(t, "popin"), 0.8},
	}, 10)
	// --plot draws the same series in the same colours.
	ch := Chart("t", "s", []streaming.FrameReport{{Frame: 1}}, &streaming.Summary{Frames: 1, PeakPreparedBytes: 1, Assets: &streaming.AssetSummary{}}, streaming.Settings{})
	plot := map[string]string{}
	for _, p := range ch.Panels[:2] {
		for _, s := range p.Series {
			plot[s.Name] = s.Color
		}
	}
	want := map[string]string{"resident": cssVar(t, "c-resident"), "of which assets": cssVar(t, "c-assets"),
		"prepared (not in the world)": cssVar(t, "c-prepared"), "requested": cssVar(t, "c-requested")}
	for name, c := range want {
		if plot[name] != c {
			t.Errorf("--plot draws %s in %s, the page in %s", name, plot[name], c)
		}
	}
}
