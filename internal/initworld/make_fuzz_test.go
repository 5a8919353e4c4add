package initworld

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/manifest"
)

// FuzzMake runs init on arbitrary scenes: an error or an edit that parses,
// never a panic, and the result of the rounds on the scene's model is the
// one the rounds on edited scenes give (TestModelRoundsMatchEditRounds),
// on either plane.
func FuzzMake(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.esscene"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte(`{"entities":[{"id":1,"parent":null,"components":[{"type":"Transform","data":{"position":{"x":1e300}}},{"type":"Camera","data":{"farPlane":1e308}}]}]}`))
	f.Add([]byte(`{"entities":[{"id":4,"parent":null,"children":[5],"components":[{"type":"Transform","data":{"scale":{"x":1e300}}},{"type":"BoxCollider3D","data":{"halfExtents":{"x":1e10}}}]},{"id":5,"parent":4,"components":[{"type":"Transform","data":{"position":{"x":-3}}},{"type":"FollowTarget","data":{"target":9}}]},{"id":9,"parent":null,"components":[{"type":"Transform","data":{"position":{"x":5000,"z":-7000}}}]}]}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		// One plane an input, the other for an input one byte longer:
		// each run makes the edit twice, not four times.
		opts := Options{}
		if len(src)%2 == 1 {
			opts.Plane = manifest.PlaneXY
		}
		got, gerr := Make("fuzz.esscene", src, opts)
		modelRounds = false
		want, werr := Make("fuzz.esscene", src, opts)
		modelRounds = true
		if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Fatalf("%+v: error %v, with the edit checked every round %v", opts, gerr, werr)
		}
		if gerr != nil {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%+v: the result differs from the one with the edit checked every round\n got  %s\n want %s", opts, resultText(got), resultText(want))
		}
		if _, err := scene.Parse("fuzz.esscene", got.After()); err != nil {
			t.Fatalf("%+v: the edit does not parse: %v", opts, err)
		}
	})
}
