package timeline

import (
	"math"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
	"os"
)

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"not object", `[1]`, "not a JSON object"},
		{"syntax", `{"tracks": [}`, "x.estimeline: "},
		{"null track", `{"tracks": [null]}`, "track 0 is null"},
		{"number time", `{"tracks": [{"type": "property", "channels": [{"property": "position.x", "keyframes": [{"time": "1", "value": 2}]}]}]}`, "track 0"},
		{"no value", `{"tracks": [{"type": "property", "name": "Walk", "channels": [{"property": "position.x", "keyframes": [{"time": 1}]}]}]}`, `track 0 ("Walk") channel 0 (position.x) keyframe 0 has no time or no value`},
		{"duration", `{"duration": "3"}`, "duration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("x.estimeline", []byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line with %q", err, tc.want)
			}
		})
	}
}

func TestMigrate(t *testing.T) {
	a, err := Parse("x", []byte(`{"tracks": [{"type": "property", "component": "Transform", "channels": [
		{"property": "rotation.z", "keyframes": [{"time": 0, "value": 1, "outTangent": 200000}, {"time": 1, "value": 2}]}]},
		{"type": "audio", "events": []}]}`))
	if err != nil {
		t.Fatal(err)
	}
	ch := a.Tracks[0].Channels[0]
	if len(a.Tracks) != 1 || ch.Property != "rotation.angle" || ch.Keyframes[0].Interp != Step || ch.Keyframes[0].OutTangent != 0 || a.Version != CurrentVersion {
		t.Fatalf("migrated to %+v", a)
	}
	if v := ch.At(0.99); v != 1 {
		t.Fatalf("a step holds its value: %v", v)
	}
	b, _ := Parse("x", []byte(`{"version": "1.2", "tracks": [{"type": "property", "channels": [{"property": "rotation.z", "keyframes": [{"time": 0, "value": 1, "outTangent": 200000}]}]}]}`))
	if c := b.Tracks[0].Channels[0]; c.Property != "rotation.z" || c.Keyframes[0].Interp != "" {
		t.Fatalf("a 1.2 document is not migrated: %+v", c)
	}
}

func TestAt(t *testing.T) {
	ch := Channel{Keyframes: []Keyframe{{Time: 0, Value: 0, Interp: Linear}, {Time: 2, Value: 10, Interp: EaseIn}, {Time: 4, Value: 20}}}
	for _, tc := range []struct{ at, want float64 }{{-1, 0}, {0, 0}, {1, 5}, {3, 12.5}, {4, 20}, {9, 20}} {
		if v := ch.At(tc.at); v != tc.want {
			t.Errorf("At(%v) = %v, want %v", tc.at, v, tc.want)
		}
	}
	if v := (&Channel{}).At(1); v != 0 {
		t.Errorf("no keys: %v", v)
	}
}

func TestWrapTime(t *testing.T) {
	for _, tc := range []struct {
		t, d float64
		m    Wrap
		want float64
		stop bool
	}{{5, 2, Once, 2, true}, {5, 2, Loop, 1, false}, {5, 2, PingPong, 1, false}, {3, 2, PingPong, 1, false}, {-1, 2, Loop, 0, false}, {1, 0, Loop, 0, true}} {
		got, stop := WrapTime(tc.t, tc.d, tc.m)
		if got != tc.want || stop != tc.stop {
			t.Errorf("WrapTime(%v, %v, %v) = %v %v", tc.t, tc.d, tc.m, got, stop)
		}
	}
}

func TestHypot(t *testing.T) {
	if h := hypot4(3, 4, 0, 0); h != 5 {
		t.Fatal(h)
	}
	if h := hypot4(0, 0, 0, 0); h != 0 {
		t.Fatal(h)
	}
	if q := normalize([4]float64{0, 0, 0, 0}); q != [4]float64{0, 0, 0, 1} {
		t.Fatal(q)
	}
	if h := hypot4(math.Inf(-1), 1, 0, 0); !math.IsInf(h, 1) {
		t.Fatal(h)
	}
}

// FuzzParse: any bytes are a timeline or a one-line error, never a panic,
// and a parsed one evaluates to finite numbers everywhere.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"duration": 3, "tracks": [{"type": "property", "childPath": "Hero", "component": "Transform", "channels": [{"property": "position.x", "keyframes": [{"time": 0, "value": -380, "interpolation": "easeInOut"}, {"time": 2.4, "value": 0}]}]}]}`))
	f.Add([]byte(`{"tracks": [{"type": "property", "channels": [{"property": "rotation.z", "keyframes": [{"time": 0, "value": 1, "outTangent": 200000}]}]}]}`))
	for _, file := range corpus.ProjectFiles(".estimeline") {
		if b, err := readSeed(file); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Parse("f.estimeline", data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		p := Pose{Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}
		for _, tr := range a.Tracks {
			for _, tm := range []float64{-1, 0, 0.5, a.Duration, a.Duration + 1} {
				tr.Apply(tm, &p)
				for _, ch := range tr.Channels {
					if v := ch.At(tm); math.IsNaN(v) {
						t.Fatalf("NaN from %+v at %v", ch, tm)
					}
				}
			}
		}
	})
}

func readSeed(file string) ([]byte, error) { return os.ReadFile(file) }
