package cmd

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	goldenfile "github.com/worldcook/worldcook/internal/golden"
	"github.com/worldcook/worldcook/internal/testworld"
)

// TestSimulateMapManyCells draws a route over a generated world of 400
// cells, tight enough on latency to leave holes: the picture of where
// streaming fails that must stay readable at scale (episodes badged on
// the route, missing cells outlined, frame ticks thinned). It is a golden:
// go test ./cmd -run MapManyCells -update rewrites it.
func TestSimulateMapManyCells(t *testing.T) {
	dir := t.TempDir()
	o := testworld.DefaultOptions(4000, 7)
	o.Pretty = false
	o.Sources = -1
	scene := filepath.Join(dir, "w400.esscene")
	f, err := os.Create(scene)
	if err != nil {
		t.Fatal(err)
	}
	if err := testworld.Write(f, o); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// A figure eight over the world, 400 frames.
	var route strings.Builder
	route.WriteString("frame,x,z\n")
	for k := 1; k <= 400; k++ {
		a := 2 * math.Pi * float64(k) / 400
		fmt.Fprintf(&route, "%d,%.1f,%.1f\n", k, 10000+8000*math.Sin(a), 10000+6000*math.Sin(2*a))
	}
	path := filepath.Join(dir, "route.csv")
	if err := os.WriteFile(path, []byte(route.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	svg := filepath.Join(dir, "map.svg")
	code, _, errs := run(t, "simulate", "-q", "--path", path, "--map", svg,
		"--load-radius", "1500", "--unload-radius", "2600", "--prefetch-radius", "2000", "--latency-frames", "5", scene)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "hole episode") {
		t.Fatal("the route has no hole episodes to draw")
	}
	got := strings.ReplaceAll(string(b), dir+string(filepath.Separator), "")
	goldenfile.Compare(t, filepath.Join("..", "testdata", "simulate", "many-cells.map.svg"), []byte(got))
}
