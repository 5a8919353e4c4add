package streaming

import (
	"slices"
	"strings"
	"testing"
)

func TestParseRouteErrors(t *testing.T) {
	for _, tc := range []struct {
		name, csv, want string
	}{
		{"empty", "", "route.csv: empty route"},
		{"header only", "x,z\n", "route.csv: the route has a header but no rows"},
		{"no z", "x,frame\n1,2\n", "route.csv:1: the header needs columns x and z"},
		{"unknown column", "x,z,speed\n1,2,3\n", `route.csv:1: unknown column "speed"`},
		{"duplicate column", "x,z,X\n1,2,3\n", `route.csv:1: column "x" appears twice`},
		{"not a number", "x,z\n1,2\n3,abc\n", `route.csv:3: z "abc" is not a finite number`},
		{"infinite", "x,z\n1,2\nInf,2\n", `route.csv:3: x "Inf" is not a finite number`},
		{"empty x", "x,z\n,2\n", "route.csv:2: x is empty"},
		{"short row", "x,z\n1,2\n3\n", "route.csv:3: the row has a different number of fields"},
		{"fractional frame", "frame,x,z\n1.5,0,0\n", `route.csv:2: frame "1.5" is not a whole number`},
		{"empty source", "source,x,z\n,0,0\n", "route.csv:2: source is empty"},
		{"bad quote", "x,z\n\"1,2\n", "route.csv:"},
		{"comments keep line numbers", "# a path\nx,z\n# start\n1,2\n1,?\n", `route.csv:5: z "?" is not a finite number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseRouteOn(strings.NewReader(tc.csv), "route.csv", "")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v, want one starting %q", err, tc.want)
			}
		})
	}
}

func bind(t *testing.T, csv string, sources []Source, plane string) ([]Source, [][]Point, error) {
	t.Helper()
	rt, err := parseRouteOn(strings.NewReader(csv), "route.csv", "")
	if err != nil {
		t.Fatal(err)
	}
	return rt.Bind(sources, plane, Source{Name: "camera", Prefetch: 3, Load: 2, Unload: 3, Enabled: true})
}

func TestRouteBind(t *testing.T) {
	authored := []Source{
		{Name: "player", X: 1, Z: 1, Load: 2, Prefetch: 2, Unload: 3, Enabled: true},
		{Name: "cctv", X: 50, Z: 50, Load: 2, Prefetch: 2, Unload: 3, Enabled: false},
	}
	for _, tc := range []struct {
		name    string
		csv     string
		sources []Source
		plane   string
		names   []string
		frames  [][]Point
	}{
		{"one row a frame moves the first enabled source", "x,y,z\n1,9,2\n3,9,4\n", authored, "xz",
			[]string{"player", "cctv"}, [][]Point{{{X: 1, Z: 2}, {X: 50, Z: 50}}, {{X: 3, Z: 4}, {X: 50, Z: 50}}}},
		{"no authored source: one from the template", "x,z\n1,2\n3,4\n", nil, "xz",
			[]string{"camera"}, [][]Point{{{X: 1, Z: 2}}, {{X: 3, Z: 4}}}},
		{"xy plane reads y", "x,y\n1,2\n", nil, "xy", []string{"camera"}, [][]Point{{{X: 1, Z: 2}}}},
		{"source column: a frame ends when a source repeats", "source,x,z\nplayer,1,1\ncctv,2,2\nplayer,3,3\ncctv,4,4\nplayer,5,5\n", authored, "xz",
			[]string{"player", "cctv"}, [][]Point{{{X: 1, Z: 1}, {X: 2, Z: 2}}, {{X: 3, Z: 3}, {X: 4, Z: 4}}, {{X: 5, Z: 5}, {X: 4, Z: 4}}}},
		{"frame column: gaps hold the last position", "frame,source,x,z\n0,player,1,1\n0,cctv,2,2\n3,player,9,9\n", authored, "xz",
			[]string{"player", "cctv"}, [][]Point{{{X: 1, Z: 1}, {X: 2, Z: 2}}, {{X: 1, Z: 1}, {X: 2, Z: 2}}, {{X: 1, Z: 1}, {X: 2, Z: 2}}, {{X: 9, Z: 9}, {X: 2, Z: 2}}}},
		{"names create sources when the world has none", "source,x,z\na,1,1\nb,2,2\n", nil, "xz",
			[]string{"a", "b"}, [][]Point{{{X: 1, Z: 1}, {X: 2, Z: 2}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sources, frames, err := bind(t, tc.csv, tc.sources, tc.plane)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range sources {
				names = append(names, s.Name)
			}
			if !slices.Equal(names, tc.names) {
				t.Errorf("sources %v, want %v", names, tc.names)
			}
			if len(frames) != len(tc.frames) {
				t.Fatalf("%d frames, want %d: %v", len(frames), len(tc.frames), frames)
			}
			for i := range frames {
				if !slices.Equal(frames[i], tc.frames[i]) {
					t.Errorf("frame %d: %v, want %v", i+1, frames[i], tc.frames[i])
				}
			}
		})
	}
	// A source the route drives is enabled: the route says it is active.
	sources, _, _ := bind(t, "source,x,z\ncctv,1,1\n", authored, "xz")
	if !sources[1].Enabled {
		t.Error("driven source cctv not enabled")
	}
}

func TestRouteBindErrors(t *testing.T) {
	authored := []Source{{Name: "player", Load: 2, Prefetch: 2, Unload: 3, Enabled: true}}
	for _, tc := range []struct {
		name, csv, plane, want string
	}{
		{"unknown source", "source,x,z\nplayer,1,1\nghost,2,2\n", "xz", `route.csv:3: the world has no streaming source "ghost" (it has player)`},
		{"frames out of order", "frame,x,z\n5,0,0\n4,0,0\n", "xz", "route.csv:3: frame 4 comes after frame 5"},
		{"placed twice in a frame", "frame,x,z\n1,0,0\n1,1,1\n", "xz", "route.csv:3: source player is placed twice in frame 1 (first on line 2)"},
		{"too many frames", "frame,x,z\n0,0,0\n99999999999,0,0\n", "xz", "route.csv:3: frame 99999999999 is more than"},
		{"xy needs y", "x,z\n0,0\n", "xy", "route.csv:1: the world partitions on x and y"},
		{"xz needs z", "x,y\n0,0\n", "xz", "route.csv:1: the world partitions on x and z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := bind(t, tc.csv, authored, tc.plane)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v, want one starting %q", err, tc.want)
			}
		})
	}
}

// FuzzParseRoute: any bytes either parse into rows that bind, or give a
// located error; never a panic.
func FuzzParseRoute(f *testing.F) {
	for _, s := range []string{"x,z\n1,2\n", "frame,source,x,y,z\n0,a,1,2,3\n0,b,1,2,3\n2,a,0,0,0\n", "x,z\n\"1\",2\n", "\xef\xbb\xbfx,z\n1,2",
		"frame,x,z\n-9223372036854775808,0,0\n9223372036854775807,1,1\n", "frame,x,z\n0,0,0\n999999,1,1\n",
		"frame,source,x,z\n0,a,0,0\n0,b,0,0\n0,c,0,0\n0,d,0,0\n0,e,0,0\n999999,a,1,1\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rt, err := parseRouteOn(strings.NewReader(string(data)), "fuzz.csv", "")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if len(rt.Rows) == 0 {
			t.Fatal("parsed a route without rows")
		}
		if len(rt.Rows) > MaxRoutePoints {
			t.Fatalf("%d rows", len(rt.Rows))
		}
		authored := []Source{{Name: "a", Load: 1, Prefetch: 1, Unload: 2}, {Name: "b", Load: 1, Prefetch: 1, Unload: 2}}
		for _, sources := range [][]Source{nil, authored} {
			out, frames, err := rt.Bind(sources, "xz", Source{Name: "c", Load: 1, Prefetch: 1, Unload: 2, Enabled: true})
			if err != nil {
				if !strings.HasPrefix(err.Error(), "fuzz.csv") {
					t.Fatalf("error without the file name: %v", err)
				}
				continue
			}
			// What binds stays within the limits, every frame placing
			// every source.
			if len(frames) == 0 || len(frames) > MaxRouteFrames || len(frames)*len(out) > MaxRoutePoints {
				t.Fatalf("%d frames × %d sources", len(frames), len(out))
			}
			for _, f := range frames {
				if len(f) != len(out) {
					t.Fatalf("a frame places %d of %d sources", len(f), len(out))
				}
			}
		}
	})
}
