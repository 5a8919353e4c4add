package initworld

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/testworld"
	"github.com/worldcook/worldcook/manifest"
)

// TestModelRoundsMatchEditRounds: Make, whose rounds check the scene's
// model as the edit would make it, gives the result it gives when every
// round writes the edit, parses it and checks it — on the real scenes,
// the corpus, this package's fixtures and generated worlds with
// references to mark, on both planes, with the cell size chosen and
// given.
func TestModelRoundsMatchEditRounds(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.esscene"))
	if !testing.Short() {
		files = append(files, projectScenes(t)...)
		files = append(files, corpus.Files(t, ".esscene")...)
	}
	type input struct {
		name string
		src  []byte
	}
	var inputs []input
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{f, src})
	}
	for seed := uint64(1); seed <= 6; seed++ {
		var buf bytes.Buffer
		o := testworld.DefaultOptions(300+int(seed)*150, seed)
		o.Authored, o.InvalidRefFraction = true, 0.05*float64(seed%3)
		if seed%2 == 0 {
			o.Plane = manifest.PlaneXY
		}
		if err := testworld.Write(&buf, o); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{fmt.Sprintf("generated-%d.esscene", seed), buf.Bytes()})
	}
	// Scenes written with CRLF line breaks, whose edits insert CRLF too.
	for _, in := range inputs[:min(len(inputs), 12)] {
		inputs = append(inputs, input{in.name + ".crlf", bytes.ReplaceAll(in.src, []byte("\n"), []byte("\r\n"))})
	}
	compared, marked := 0, 0
	for _, in := range inputs {
		for _, opts := range []Options{{}, {Plane: manifest.PlaneXY}, {CellSize: 500}} {
			got, gerr := Make(in.name, in.src, opts)
			modelRounds = false
			want, werr := Make(in.name, in.src, opts)
			modelRounds = true
			if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
				t.Fatalf("%s %+v: error %v, with the edit checked every round %v", in.name, opts, gerr, werr)
			}
			if gerr != nil {
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %+v: the result differs from the one with the edit checked every round\n got  %+v\n want %+v", in.name, opts, resultText(got), resultText(want))
				continue
			}
			// The diff counted from the records' lines is the diff
			// counted from the start of the file.
			if name, _ := DiffPath(in.name); !bytes.Equal(got.Diff, unifiedDiff(name, in.src, slices.Clone(got.ins))) {
				t.Errorf("%s %+v: the diff by the records' lines differs from the one counted through the file", in.name, opts)
			}
			compared++
			marked += len(got.Persistent)
		}
	}
	t.Logf("%d results compared, %d roots marked", compared, marked)
	if compared < 30 || marked < 20 {
		t.Fatalf("weak test: %d results compared, %d roots marked", compared, marked)
	}
}

func resultText(r *Result) string {
	return fmt.Sprintf("cell size %v chosen %v extent %+v view %+v persistent %+v source %+v notes %q errors %d diff %d bytes",
		r.CellSize, r.Chosen, r.Extent, r.View, r.Persistent, r.Source, r.Notes, r.Errors, len(r.Diff))
}
