package cook

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/worldcook/worldcook/internal/jsondoc"
	"github.com/worldcook/worldcook/manifest"
)

// A world in an output directory belongs to the scene its manifest
// names: the manifest's "scene" member is the runtime name the game
// loads the world by, and the one fact about its owner a cook writes
// down. The scene's file is not: a scene moved to another folder, or
// cooked from another checkout, keeps its runtime name and so its world,
// and cooking it again is the ordinary incremental cook.
//
// Two scenes whose names differ but become one file name ("a b" and
// "a_b"), or file names that differ only in case, would share a manifest
// path, and the cook of one would replace the other's world: its
// manifest, its cells, and, when the second scene is not streamed, remove
// them outright. Within a run Collisions refuses such scenes; across
// runs checkOwners refuses a scene whose manifest path holds another
// scene's manifest, before anything is written.
//
// A manifest that is not JSON or names no scene cannot be told apart
// from a damaged one of the scene's own, so it is cooked over as before;
// its contents are never trusted either way (stale removes only the
// scene's own cells, whatever a manifest lists).

// checkOwners refuses to cook any of scenes into c's directory when a
// world manifest there at its manifest path, or at one that differs only
// in case (one file where names ignore case), belongs to another scene.
// world/ is listed once for all of them.
func (c *committer) checkOwners(scenes []Scene) error {
	if st, err := c.FS.Lstat(worldDir); err != nil || !st.IsDir() {
		return nil // nothing there, or not a folder: Prepare says so
	}
	entries, err := c.FS.ReadDir(worldDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot list %s: %v", c.abs(worldDir), cause(err))
	}
	// The scenes' manifest names, folded; of world/ (cells, mostly) only
	// the entries that fold to one of them are looked at.
	want := make(map[string][]int, len(scenes))
	for i, s := range scenes {
		k := strings.ToLower(strings.TrimPrefix(layoutOf(s.Name).manifest(), worldDir+"/"))
		want[k] = append(want[k], i)
	}
	for _, e := range entries {
		for _, i := range want[strings.ToLower(e.Name())] {
			s, p := scenes[i], worldDir+"/"+e.Name()
			if other, ok := c.manifestScene(p); ok && other != s.Name {
				return c.ownerErr(s.File, s.Name, p, other)
			}
		}
	}
	return nil
}

// manifestScene reads the "scene" member of the manifest at p, or
// reports that it has none: a missing or unreadable file, a document
// that is not JSON, a scene that is not a non-empty string.
func (c *committer) manifestScene(p string) (string, bool) {
	data, err := c.FS.ReadFile(p, maxManifestBytes)
	if err != nil {
		return "", false
	}
	var head struct {
		Scene any `json:"scene"`
	}
	if jsondoc.Unmarshal(data, &head) != nil {
		return "", false
	}
	s, ok := head.Scene.(string)
	return s, ok && s != ""
}

// ownerErr words the refusal: one line naming both scenes, why they
// meet, and the two ways out. The other scene's name comes from a file
// worldcook does not control: it is quoted, cut short, and its files are
// named only where a cook of it could have written them, so the advice
// never points outside the directory.
func (c *committer) ownerErr(file, scene, p, other string) error {
	shown := other
	if len(shown) > 200 {
		shown = shown[:200] + "..."
	}
	l, theirs := layoutOf(scene), layoutOf(other)
	// A manifest that names a scene of another file name was put there
	// by hand: it alone is in the way.
	why, files := `by its "scene" member`, c.abs(p)
	if strings.EqualFold(theirs.safe, l.safe) {
		why = fmt.Sprintf("both names become the file name %q", l.safe)
		if theirs.safe != l.safe {
			why = fmt.Sprintf("their file names %q and %q are one where names ignore case, as on macOS and Windows", theirs.safe, l.safe)
		}
		files += ", " + c.abs(worldDir+"/"+cellPrefix(other)+".cell_*.json")
		if pp := PersistentPath(other); manifest.CheckPath(pp) == nil && c.exists(pp) {
			files = c.abs(pp) + ", " + files
		}
	}
	return fmt.Errorf("%s (scene %q) would overwrite the world of scene %q in %s: %s is that scene's manifest (%s); cook one of them into another --out, or, if scene %q is gone (renamed to %q), delete its files (%s) and cook again",
		jsondoc.OneLine(file), scene, shown, c.Dir, c.abs(p), why, shown, scene, files)
}
