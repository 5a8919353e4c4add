package cook

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/worldcook/worldcook/internal/jsondoc"

	json "github.com/goccy/go-json"
	"github.com/zeebo/blake3"

	"github.com/worldcook/worldcook/internal/mapped"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/validate"
)

// A record is what a cook remembers about the world it wrote, so that the
// next cook of the same bytes with the same settings and the same
// worldcook can confirm the world with a few stat calls instead of
// parsing, validating and rendering it again.
//
// It is kept correct by its order of writes: a commit that changes the
// world removes the record before its journal, and the record is written
// only after the world is complete. A record on disk therefore always
// describes the world beside it. Scenes with prefab instances never use
// it: their cells also depend on prefab assets the record does not cover.
type record struct {
	Input    string   `json:"input"`    // fingerprint of the scene file (internal/fingerprint)
	Key      string   `json:"key"`      // blake3 of worldcook and the settings
	Manifest string   `json:"manifest"` // blake3 of the manifest ("" when copied)
	Files    []string `json:"files"`    // the world's files, relative to OUT
	Sizes    []int64  `json:"sizes"`
	Streamed bool     `json:"streamed"`
	Prefabs  bool     `json:"prefabs"`
	Entities int      `json:"entities"`
	Cells    int      `json:"cells"`
}

// IsRecord reports whether a file name (or slash path) is a cook record or
// one being written: bookkeeping beside a world, not part of it.
func IsRecord(name string) bool {
	return strings.HasSuffix(name, recordSuffix) || strings.HasSuffix(name, recordSuffix+tmpSuffix)
}

func (c *committer) recordPath(scene string) string { return c.abs(layoutOf(scene).record()) }

// decodeRecord reads a record and checks that every file it names is a
// file of the scene's world, so that a damaged or planted record can at
// most cost a full cook.
func decodeCookRecord(l layout, data []byte) (*record, error) {
	var r record
	if err := jsondoc.UnmarshalStrict(data, &r); err != nil {
		return nil, err
	}
	if len(r.Files) != len(r.Sizes) || len(r.Files) == 0 {
		return nil, errors.New("files and sizes do not pair up")
	}
	for i, f := range r.Files {
		if !l.target(f) {
			return nil, fmt.Errorf("%q is not a file of the world of scene %q", f, l.scene)
		}
		if r.Sizes[i] < 0 {
			return nil, fmt.Errorf("%q has a negative size", f)
		}
	}
	return &r, nil
}

// settingsKey digests everything besides the scene's bytes that decides
// the cooked output: the worldcook binary itself (a new build may cook
// differently) and the partition settings.
func settingsKey(opts validate.Options, persistent string) string {
	comps := make([]string, 0, len(opts.Components))
	for name, f := range opts.Components {
		ent, soft := append([]string(nil), f.Entity...), append([]string(nil), f.Soft...)
		sort.Strings(ent)
		sort.Strings(soft)
		b, _ := json.Marshal([]any{name, ent, soft})
		comps = append(comps, string(b))
	}
	sort.Strings(comps)
	settings := map[string]any{
		"binary": binaryDigest(), "scene": opts.SceneName, "plane": opts.Plane,
		"strict": opts.Strict, "assets": opts.Assets, "components": comps,
	}
	if persistent != "" {
		// Absent by default, as levels below.
		settings["persistent"] = persistent
	}
	if opts.Levels != 0 {
		// Absent at 0, so a record written before levels existed still
		// matches a cook without them.
		settings["levels"] = opts.Levels
	}
	key, _ := json.Marshal(settings)
	return digest(key)
}

var (
	binaryOnce sync.Once
	binaryHash string
)

// binaryDigest is the blake3 of the running executable, or "" when it
// cannot be read (then every key differs from the last: no record is
// trusted, which is the safe side).
func binaryDigest() string {
	binaryOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			return
		}
		f, err := os.Open(exe)
		if err != nil {
			return
		}
		defer f.Close()
		h := blake3.New()
		if _, err := io.Copy(h, f); err == nil {
			binaryHash = hex.EncodeToString(h.Sum(nil))
		}
	})
	return binaryHash
}

// unchanged reports whether the world in the directory is, by its record,
// exactly what cooking src with key would write: same input, same key, and
// every file still there with its size, none modified after the record.
func (c *committer) unchanged(scene string, input func() string, key string) (*record, bool) {
	if binaryDigest() == "" {
		return nil, false
	}
	l := c.layout(scene)
	st, err := c.FS.Lstat(l.record())
	if err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	data, err := c.FS.ReadFile(l.record(), maxRecordBytes)
	if err != nil {
		return nil, false
	}
	r, err := decodeCookRecord(l, data)
	if err != nil || r.Prefabs || r.Key != key {
		return nil, false
	}
	if r.Input != input() {
		return nil, false
	}
	for i, f := range r.Files {
		fst, err := c.FS.Lstat(f)
		if err != nil || !fst.Mode().IsRegular() || fst.Size() != r.Sizes[i] || fst.ModTime().After(st.ModTime()) {
			return nil, false
		}
	}
	if r.Streamed {
		m, err := c.FS.ReadFile(l.manifest(), maxManifestBytes)
		if err != nil || digest(m) != r.Manifest {
			return nil, false
		}
	}
	return r, true
}

// forget removes the record before the world changes.
func (c *committer) forget(l layout) error {
	if err := c.FS.Remove(l.record()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// remember writes the record of a complete world.
func (c *committer) remember(scene string, w *World, input func() string, key string) error {
	plan := w.Plan
	if dependsOnAssets(plan) {
		return c.forget(layoutOf(scene)) // see dependsOnAssets
	}
	r := record{Input: input(), Key: key, Streamed: plan.Streamed, Entities: len(plan.Doc.Entities), Cells: len(plan.Cells)}
	for i := range plan.Doc.Entities {
		if plan.Doc.Entities[i].IsPrefab() {
			r.Prefabs = true
			break
		}
	}
	add := func(path string, size int64) {
		r.Files = append(r.Files, path)
		r.Sizes = append(r.Sizes, size)
	}
	if !plan.Streamed {
		add(c.layout(scene).persistent(), int64(len(plan.Doc.Src)))
	} else {
		m := w.Manifest
		add(m.Persistent.Path, m.Persistent.Bytes)
		for _, cell := range m.Cells {
			add(cell.Path, cell.Bytes)
		}
		add(w.ManifestPath, w.manifestSize)
		r.Manifest = w.manifestDigest
	}
	data, err := json.Marshal(&r)
	if err != nil {
		return err
	}
	// Written even when the same record is there: this cook compared every
	// file, so files touched since the old record are now confirmed too.
	p := layoutOf(scene).record()
	err = c.writeNew(p+tmpSuffix, data)
	if err == nil {
		err = c.FS.Rename(p+tmpSuffix, p)
	}
	if err != nil {
		c.FS.Remove(p + tmpSuffix)
	}
	return err
}

// confirm hashes the world that a record vouches for: every file's bytes
// against the manifest's blake3 (or, for a copied scene, against the
// scene's bytes). A check (cook --check) asks whether the world on disk
// is exactly what the input gives, so sizes and times are not enough: a
// file edited by hand or rotted on disk keeps both.
func (c *committer) confirm(ctx context.Context, l layout, r *record, src []byte, workers int) bool {
	if !r.Streamed {
		if len(r.Files) != 1 || r.Files[0] != l.persistent() {
			return false
		}
		data, err := c.FS.ReadFile(l.persistent(), int64(len(src)))
		if err != nil {
			return false
		}
		same := false
		err = mapped.Guard(func() error {
			same = bytes.Equal(data, src)
			return nil
		})
		return err == nil && same
	}
	data, err := c.FS.ReadFile(l.manifest(), maxManifestBytes)
	if err != nil || digest(data) != r.Manifest {
		return false
	}
	m, err := manifest.Decode(l.manifest(), data)
	if err != nil {
		return false
	}
	type entry struct {
		path, sum string
		size      int64
	}
	todo := []entry{{m.Persistent.Path, m.Persistent.Blake3, m.Persistent.Bytes}}
	for _, cell := range m.Cells {
		todo = append(todo, entry{cell.Path, cell.Blake3, cell.Bytes})
	}
	err = parallel(ctx, len(todo), workers, func(k int) error {
		e := todo[k]
		if !l.target(e.path) {
			return errors.New("not the scene's file")
		}
		b, err := c.FS.ReadFile(e.path, e.size)
		if err != nil {
			return err
		}
		if int64(len(b)) != e.size || digest(b) != e.sum {
			return errors.New("changed")
		}
		return nil
	})
	return err == nil
}
