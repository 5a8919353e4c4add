package cook

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/internal/sidefile"
	"github.com/worldcook/worldcook/manifest"
)

// Reserve tells g the names every cook into out keeps, whichever the
// scene, so that no side output takes one (a cook's own --depfile, or
// simulate's --html over a cooked world): a side output taking a scene's
// journal or staging folder would wedge that scene's next cook, one
// taking its record would be read as one, one taking a cell, a manifest
// or a persistent world be removed or overwritten by the next cook, and
// make the world read as damaged until then. It is the one rule for
// every command (docs/hardening.md).
func Reserve(g *sidefile.Guard, out string) {
	g.ReservedIn(out, "a name cooks into "+out+" keep for a scene's journal, record or staging folder", func(base string) (string, bool) {
		folded := strings.ToLower(base)
		folded = strings.TrimSuffix(folded, tmpSuffix)
		ok := strings.HasPrefix(folded, stagingPrefix) ||
			strings.HasPrefix(folded, ".") && (strings.HasSuffix(folded, journalSuffix) || strings.HasSuffix(folded, recordSuffix))
		return base, ok
	})
	g.ReservedIn(filepath.Join(out, worldDir), "a name cooks into "+out+" keep for a scene's cells and manifest", func(base string) (string, bool) {
		folded := strings.ToLower(base)
		if i := strings.LastIndex(folded, ".cell_l"); i >= 0 {
			folded = folded[:i] + ".cell_L" + folded[i+len(".cell_l"):]
		}
		_, _, cell := grid.ParseFile(folded)
		return base, cell || strings.HasSuffix(folded, ".world.json")
	})
	// The persistent world of each scene cooked there, where its
	// manifest says it is.
	manifests, _ := filepath.Glob(filepath.Join(out, worldDir, "*.world.json"))
	for _, m := range manifests {
		p, ok := persistentPath(m)
		if !ok {
			continue
		}
		file := filepath.Join(out, filepath.FromSlash(p))
		g.ReservedIn(filepath.Dir(file), "the persistent world of a scene cooked into "+out, func(base string) (string, bool) {
			return file, strings.EqualFold(base, filepath.Base(file))
		})
	}
}

// persistentPath is the path of the persistent world the manifest at
// file names, relative to the output folder; ok is false when it cannot
// be read (a damaged manifest is reported where the world is read).
func persistentPath(file string) (string, bool) {
	f, err := os.Open(file)
	if err != nil {
		return "", false
	}
	defer f.Close()
	var m struct {
		Persistent struct {
			Path string `json:"path"`
		} `json:"persistent"`
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	if err := json.NewDecoder(io.LimitReader(f, maxManifestRead)).Decode(&m); err != nil || manifest.CheckPath(m.Persistent.Path) != nil {
		return "", false
	}
	return m.Persistent.Path, true
}

// maxManifestRead bounds what is read of a manifest to find its
// persistent world: far more than any world's manifest holds.
const maxManifestRead = 256 << 20

// ReserveAround reserves (Reserve) the cooked world a run reads, world
// when it is a folder, and every folder a side output among files may
// take a cook's name in: its own folder and, when that is a world folder,
// the output folder above it, whether they hold a cooked world yet or
// not; and every folder above that holds one (a manifest in its world
// folder), whose persistent worlds may lie in subfolders ("levels/boss").
// A side output of simulate or tune is then held to the names any cook
// keeps there.
func ReserveAround(g *sidefile.Guard, world string, files ...string) {
	if st, err := os.Stat(world); err == nil && st.IsDir() {
		Reserve(g, world)
	}
	for _, f := range files {
		if f == "" {
			continue
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			abs = f
		}
		dir := filepath.Dir(abs)
		Reserve(g, dir)
		if strings.EqualFold(filepath.Base(dir), worldDir) {
			Reserve(g, filepath.Dir(dir))
		}
		for a := filepath.Dir(dir); a != filepath.Dir(a); a = filepath.Dir(a) {
			if m, _ := filepath.Glob(filepath.Join(a, worldDir, "*.world.json")); len(m) > 0 {
				Reserve(g, a)
			}
		}
	}
}
