package cook

import (
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"sync"

	json "github.com/goccy/go-json"
	"github.com/zeebo/blake3"

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

const recordSuffix = ".worldcook-record"

// IsRecord reports whether a file name (or slash path) is a cook record or
// one being written: bookkeeping beside a world, not part of it.
func IsRecord(name string) bool {
	return strings.HasSuffix(name, recordSuffix) || strings.HasSuffix(name, recordSuffix+".tmp")
}

func (c *Committer) recordPath(scene string) string {
	return c.abs("." + validate.FileSafe(scene) + recordSuffix)
}

// settingsKey digests everything besides the scene's bytes that decides
// the cooked output: the worldcook binary itself (a new build may cook
// differently) and the partition settings.
func settingsKey(opts validate.Options) string {
	comps := make([]string, 0, len(opts.Components))
	for name, f := range opts.Components {
		ent, soft := append([]string(nil), f.Entity...), append([]string(nil), f.Soft...)
		sort.Strings(ent)
		sort.Strings(soft)
		b, _ := json.Marshal([]any{name, ent, soft})
		comps = append(comps, string(b))
	}
	sort.Strings(comps)
	key, _ := json.Marshal(map[string]any{
		"binary": binaryDigest(), "scene": opts.SceneName, "plane": opts.Plane,
		"strict": opts.Strict, "assets": opts.Assets, "components": comps,
	})
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
func (c *Committer) unchanged(scene string, input func() string, key string) (*record, bool) {
	if binaryDigest() == "" {
		return nil, false
	}
	p := c.recordPath(scene)
	st, err := c.FS.Lstat(p)
	if err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	data, err := c.FS.ReadFile(p)
	if err != nil {
		return nil, false
	}
	var r record
	if json.Unmarshal(data, &r) != nil || r.Prefabs || r.Key != key || len(r.Files) != len(r.Sizes) || len(r.Files) == 0 {
		return nil, false
	}
	if r.Input != input() {
		return nil, false
	}
	for i, f := range r.Files {
		fst, err := c.FS.Lstat(c.abs(f))
		if err != nil || !fst.Mode().IsRegular() || fst.Size() != r.Sizes[i] || fst.ModTime().After(st.ModTime()) {
			return nil, false
		}
	}
	if r.Streamed {
		m, err := c.FS.ReadFile(c.abs(ManifestPath(scene)))
		if err != nil || digest(m) != r.Manifest {
			return nil, false
		}
	}
	return &r, true
}

// forget removes the record before the world changes.
func (c *Committer) forget(scene string) error {
	if err := c.FS.Remove(c.recordPath(scene)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// remember writes the record of a complete world.
func (c *Committer) remember(scene string, w *World, input func() string, key string) error {
	plan := w.Plan
	r := record{Input: input(), Key: key, Streamed: plan.Streamed, Entities: len(plan.Doc.Entities), Cells: len(plan.Cells)}
	for i := range plan.Doc.Entities {
		if plan.Doc.Entities[i].IsPrefab() {
			r.Prefabs = true
			break
		}
	}
	r.Prefabs = r.Prefabs || dependsOnAssets(plan)
	add := func(path string, size int64) {
		r.Files = append(r.Files, path)
		r.Sizes = append(r.Sizes, size)
	}
	if !plan.Streamed {
		add(PersistentPath(scene), int64(len(plan.Doc.Src)))
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
	p := c.recordPath(scene)
	err = c.FS.WriteFile(p+".tmp", data, 0o644)
	if err == nil {
		err = c.FS.Rename(p+".tmp", p)
	}
	if err != nil {
		c.FS.Remove(p + ".tmp")
	}
	return err
}
