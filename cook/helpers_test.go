package cook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/validate"
)

// cookTo cooks file into out and fails the test on any error.
func cookTo(t testing.TB, file, out string, vopts validate.Options, workers int) *Report {
	t.Helper()
	rep, err := run(context.Background(), sceneJob{File: file, Out: out, Validate: vopts, Workers: workers})
	if err != nil {
		t.Fatalf("cook %s: %v", file, err)
	}
	return rep
}

// readTree returns every regular file under dir by slash path.
func readTree(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || IsRecord(d.Name()) {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t testing.TB, got, want map[string][]byte) {
	t.Helper()
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected file %s", k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if g, ok := got[k]; !ok {
			t.Errorf("missing file %s", k)
		} else if !bytes.Equal(g, want[k]) {
			t.Errorf("file %s differs", k)
		}
	}
}

// record decodes one entity record keeping number literals as text.
func decodeRecord(t testing.TB, raw []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("decode record: %v", err)
	}
	return m
}

// uncook reads a cooked world back (persistent scene plus every cell the
// manifest lists), checks each file against the manifest's size and
// blake3, and returns the records by id with the document each came from.
func uncook(t testing.TB, dir string, m *manifest.Manifest) (map[int64]map[string]any, map[int64]string) {
	t.Helper()
	recs := map[int64]map[string]any{}
	where := map[int64]string{}
	load := func(rel string, size int64, sum string) {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(b)) != size || digest(b) != sum {
			t.Fatalf("%s does not match its manifest entry", rel)
		}
		d, err := scene.Parse(rel, b)
		if err != nil {
			t.Fatalf("cooked file %s does not parse: %v", rel, err)
		}
		for i := range d.Entities {
			id := d.Entities[i].ID
			if _, dup := recs[id]; dup {
				t.Fatalf("entity %d is in %s and %s", id, where[id], rel)
			}
			recs[id] = decodeRecord(t, d.Entities[i].Raw)
			where[id] = rel
		}
	}
	load(m.Persistent.Path, m.Persistent.Bytes, m.Persistent.Blake3)
	for _, c := range m.Cells {
		load(c.Path, c.Bytes, c.Blake3)
	}
	return recs, where
}

// streamedVariant inserts a StreamedWorld settings entity at the front of
// a scene's entities, with a cell size that spreads its roots over about
// three cells a side on the given plane. It returns the new bytes and the
// settings entity's id.
func streamedVariant(t testing.TB, src []byte, plane string) ([]byte, int64) {
	t.Helper()
	d, err := scene.Parse("variant", src)
	if err != nil {
		t.Fatal(err)
	}
	var maxID int64
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for i := range d.Entities {
		e := &d.Entities[i]
		maxID = max(maxID, e.ID)
		if e.HasParent {
			continue
		}
		trs, ok, _ := d.Transform(i)
		if !ok {
			continue
		}
		second := trs.Position.Z
		if plane == manifest.PlaneXY {
			second = trs.Position.Y
		}
		for k, v := range [2]float64{trs.Position.X, second} {
			lo[k], hi[k] = math.Min(lo[k], v), math.Max(hi[k], v)
		}
	}
	size := math.Max(hi[0]-lo[0], hi[1]-lo[1]) / 3
	if !(size >= 1) || math.IsInf(size, 0) {
		size = 100
	}
	ents, _ := d.Field("entities")
	at := cap(src) - cap(ents) + 1 // just after the entities '['
	id := maxID + 1
	rec := fmt.Sprintf(`{"id":%d,"name":"World Settings","parent":null,"children":[],"components":[{"type":"StreamedWorld","data":{"cellSize":%s}}]}`,
		id, strconv.FormatFloat(math.Round(size), 'f', -1, 64))
	if len(d.Entities) > 0 {
		rec += ","
	}
	out := append([]byte{}, src[:at]...)
	out = append(out, rec...)
	return append(out, src[at:]...), id
}
