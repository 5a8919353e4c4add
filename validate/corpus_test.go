package validate

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/manifest"
)

// TestCorpus validates every scene of the Estella corpus as authored (none
// is a streamed world, and the corpus is clean: no findings at all) and as
// a streamed variant on both planes, with a StreamedWorld root added whose
// cellSize spreads the scene's roots over several cells. The variants must
// partition every entity exactly once and may only fail the rules that
// splitting a scene which was never meant to stream breaks: references
// between roots now in different cells, and prefab instances whose asset
// is not in the corpus.
func TestCorpus(t *testing.T) {
	files := corpus.Files(t, ".esscene")
	// Cameras, UI roots and instances of prefabs that are not in the
	// corpus are placed in cells once a scene is made streamed: their
	// warnings are expected there. plane-mismatch too: the corpus holds 2D
	// scenes, and each is cut on both planes here; it may fire on one
	// plane of a scene only.
	allowed := map[string]bool{CodeCrossCellRef: true, CodePersistentToCellRef: true, CodeUnplaceablePrefab: true,
		CodeCameraInCell: true, CodeUIRootInCell: true, CodeGlobalLightInCell: true, CodeUnresolvedPrefab: true, CodeMissingAsset: true, CodePlaneMismatch: true,
		// The variants add a StreamedWorld and no source.
		CodeNoStreamingSource: true, CodeNothingStreams: true}
	prefabs := newPrefabs([]string{corpus.Dir()})
	multi := 0
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			d, err := scene.Parse(file, src)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Check(d, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if p.Streamed || len(p.Findings) != 0 {
				t.Fatalf("authored scene: streamed %v, findings %v", p.Streamed, codes(p))
			}
			mismatched := 0
			for _, plane := range []string{manifest.PlaneXZ, manifest.PlaneXY} {
				streamed, cs := streamedVariant(t, d, plane)
				sd, err := scene.Parse(file, streamed)
				if err != nil {
					t.Fatalf("variant: %v", err)
				}
				sp, err := Check(sd, Options{Plane: plane, Prefabs: prefabs})
				if err != nil {
					t.Fatalf("%s variant: %v", plane, err)
				}
				if !sp.Streamed || sp.CellSize != cs {
					t.Fatalf("%s variant not streamed (cellSize %v)", plane, sp.CellSize)
				}
				for _, f := range sp.Findings {
					if !allowed[f.Code] {
						t.Errorf("%s variant: unexpected %s", plane, f.String())
					}
					if f.Code == CodePlaneMismatch {
						mismatched++
					}
					if f.Code == CodeNothingStreams && len(sp.Cells) > 1 {
						t.Errorf("%s variant: nothing-streams on %d cells", plane, len(sp.Cells))
					}
				}
				if len(sp.Cells) <= 1 && !slices.ContainsFunc(sp.Findings, func(f Finding) bool { return f.Code == CodeNothingStreams }) {
					t.Errorf("%s variant of %d cells: no nothing-streams", plane, len(sp.Cells))
				}
				checkPartition(t, sp)
				if len(sp.Cells) > 1 {
					multi++
				}
			}
			if mismatched > 1 {
				t.Error("plane-mismatch on both planes: a scene is laid out on at most one of them")
			}
		})
	}
	if multi < len(files)/2 {
		t.Errorf("only %d variants of %d scenes span several cells: the cell size is not spreading them", multi, len(files))
	}
}

// streamedVariant inserts a StreamedWorld root (with an unused id) at the
// head of the entities list. Its cellSize is a quarter of the spread of the
// top-level positions on the plane, so the roots land in several cells.
func streamedVariant(t *testing.T, d *scene.Document, plane string) ([]byte, float64) {
	t.Helper()
	next := int64(0)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, e := range d.Entities {
		next = max(next, e.ID+1)
		if e.HasParent {
			continue
		}
		tr, ok, err := d.Transform(i)
		if err != nil || !ok {
			continue
		}
		u, v := tr.Position.X, tr.Position.Z
		if plane == manifest.PlaneXY {
			v = tr.Position.Y
		}
		lo, hi = math.Min(lo, math.Min(u, v)), math.Max(hi, math.Max(u, v))
	}
	cs := 1.0
	if hi > lo {
		cs = math.Max(1, math.Round((hi-lo)/4))
	}
	at := bytes.Index(d.Src, []byte(`"entities"`))
	open := bytes.IndexByte(d.Src[at:], '[') + at + 1
	rec := fmt.Sprintf(`{"id": %d, "name": "Streamed World", "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {"cellSize": %s}}]}`,
		next, strconv.FormatFloat(cs, 'g', -1, 64))
	if len(d.Entities) > 0 {
		rec += ","
	}
	out := append([]byte(nil), d.Src[:open]...)
	out = append(out, rec...)
	return append(out, d.Src[open:]...), cs
}
