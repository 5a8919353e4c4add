package streaming

import (
	"strings"
	"testing"

	"github.com/worldcook/worldcook/manifest"
)

// TestRouteMessagesNameThePlanesColumns: a route for a world cut on X and
// Y is told about x,y, never x,z.
func TestRouteMessagesNameThePlanesColumns(t *testing.T) {
	for _, tc := range []struct {
		plane, csv, want string
	}{
		{manifest.PlaneXY, "", "route.csv: empty route; the first line must be a header such as x,y"},
		{manifest.PlaneXZ, "", "route.csv: empty route; the first line must be a header such as x,z"},
		{"", "", "route.csv: empty route; the first line must be a header such as x,z (x,y for an xy world)"},
		{manifest.PlaneXY, "x,frame\n1,0\n", "route.csv:1: the header needs columns x and y (frame and source are optional)"},
		{manifest.PlaneXZ, "x,frame\n1,0\n", "route.csv:1: the header needs columns x and z (y, frame and source are optional)"},
		{"", "x,frame\n1,0\n", "route.csv:1: the header needs columns x and z, or x and y for an xy world (frame and source are optional)"},
	} {
		_, err := parseRouteOn(strings.NewReader(tc.csv), "route.csv", tc.plane)
		if err == nil || err.Error() != tc.want {
			t.Errorf("plane %q, %q: got %v, want %s", tc.plane, tc.csv, err, tc.want)
		}
	}
	// Binding an x,z route to an xy world names the missing y.
	rt, err := parseRouteOn(strings.NewReader("x,z\n1,2\n"), "route.csv", manifest.PlaneXY)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = rt.Bind(nil, manifest.PlaneXY, Source{Name: "camera", Enabled: true})
	if want := "route.csv:1: the world partitions on x and y; the header needs a y column"; err == nil || err.Error() != want {
		t.Errorf("bind: got %v, want %s", err, want)
	}
}
