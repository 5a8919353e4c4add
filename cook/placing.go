package cook

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/worldcook/worldcook/internal/english"
	"github.com/worldcook/worldcook/internal/mapped"
	"github.com/worldcook/worldcook/internal/project"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/validate"
)

// PrefabUse is what a prefab argument stood for: the scenes of its
// project that place it.
type PrefabUse struct {
	// Prefab is the argument.
	Prefab string
	// Project is the folder searched for scenes, the prefab's Estella
	// project, named from the argument (relative when it is).
	Project string
	// Scenes are the scenes placing the prefab, in file order.
	Scenes []string
}

// DiscoverPlacing expands validate's arguments as Discover does, except
// that a prefab (.esprefab) stands for the scenes of its Estella project
// that place it, directly, nested in another prefab or as the base of a
// variant (validate.Prefabs.Places): a prefab is checked through the
// worlds its edit changes. The prefab itself must read as one (an error
// says why not). A scene that cannot be read well enough to tell is
// counted as placing it, so that its own error is reported rather than
// hidden. The project's scenes are every .esscene under it but in
// node_modules, hidden folders and what a build wrote (a folder holding a
// game.config.json or a cooked world). A scene given twice is checked
// once.
func DiscoverPlacing(args []string, root string, opts validate.Options) ([]Scene, []PrefabUse, error) {
	var out []Scene
	var uses []PrefabUse
	for _, arg := range args {
		if !strings.HasSuffix(arg, validate.PrefabExt) {
			found, err := Discover([]string{arg}, root, "")
			if err != nil {
				return nil, nil, err
			}
			out = append(out, found...)
			continue
		}
		use, err := placing(arg, opts)
		if err != nil {
			return nil, nil, err
		}
		for _, f := range use.Scenes {
			out = append(out, Scene{File: f, Root: root})
		}
		uses = append(uses, use)
	}
	out = distinctScenes(out)
	named, err := nameScenes(out)
	return named, uses, err
}

// placing finds the scenes of the prefab's project that place it.
func placing(prefab string, opts validate.Options) (PrefabUse, error) {
	use := PrefabUse{Prefab: prefab}
	st, err := os.Stat(prefab)
	if err != nil {
		return use, fmt.Errorf("cannot read %s: %v", prefab, cause(err))
	}
	if st.IsDir() {
		return use, fmt.Errorf("%s is a folder, not a prefab; pass the prefab document, or the folder of the scenes", prefab)
	}
	abs, ok := project.Find(prefab)
	if !ok {
		return use, fmt.Errorf("%s is a prefab: validate checks the scenes that place it, which it looks for in the prefab's Estella project, but no folder at or above %s holds %s; pass the scenes that use it instead", prefab, filepath.Dir(prefab), project.File)
	}
	use.Project = namedFrom(prefab, abs)
	prefabs := validate.NewPrefabsFor(validate.AssetResolver(prefab, opts))
	if err := prefabs.Read(prefab); err != nil {
		return use, err
	}
	scenes, err := projectScenes(use.Project)
	if err != nil {
		return use, err
	}
	for _, f := range scenes {
		if places(f, prefab, prefabs) {
			use.Scenes = append(use.Scenes, f)
		}
	}
	return use, nil
}

// places reports whether the scene at file places the prefab, or cannot
// be read well enough to tell.
func places(file, prefab string, prefabs *validate.Prefabs) bool {
	in, err := mapped.Open(file, "scene")
	if err != nil {
		return true
	}
	defer in.Close()
	yes := true
	err = mapped.Guard(func() error {
		d, err := scene.Parse(file, in.Data)
		if err != nil {
			return err
		}
		yes = prefabs.Places(d, prefab)
		return nil
	})
	return err != nil || yes || in.Changed()
}

// namedFrom names the folder abs, which holds file, as file is named: the
// same number of levels up from file's folder, so that a relative
// argument gives relative scene paths.
func namedFrom(file, abs string) string {
	if filepath.IsAbs(file) {
		return abs
	}
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return abs
	}
	rel, err := filepath.Rel(abs, dir)
	if err != nil {
		return abs
	}
	up := filepath.Dir(file)
	if rel != "." {
		for range strings.Split(rel, string(filepath.Separator)) {
			up = filepath.Join(up, "..")
		}
	}
	return filepath.Clean(up)
}

// buildOutput reports whether the folder dir holds what a build wrote
// rather than authored content: a packaged game's configuration (the
// engine's export writes it, as does cook --package-config) or a cooked
// world (its manifests, or a cook's record).
func buildOutput(dir string) bool {
	if _, err := os.Lstat(filepath.Join(dir, "game.config.json")); err == nil {
		return true
	}
	if ms, _ := filepath.Glob(filepath.Join(dir, worldDir, "*.world.json")); len(ms) > 0 {
		return true
	}
	rs, _ := filepath.Glob(filepath.Join(dir, ".*"+recordSuffix))
	return len(rs) > 0
}

// projectScenes lists the authored scenes of the project at root, sorted.
func projectScenes(root string) ([]string, error) {
	var found []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") || buildOutput(p)) {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, validate.SceneExt) {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot list the scenes of the project %s: %v", root, cause(err))
	}
	sort.Strings(found)
	return found, nil
}

// distinctScenes keeps the first of scenes naming one file (by its
// absolute path).
func distinctScenes(scenes []Scene) []Scene {
	var out []Scene
	seen := make(map[string]bool, len(scenes))
	for _, s := range scenes {
		key := s.File
		if abs, err := filepath.Abs(s.File); err == nil {
			key = abs
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, s)
		}
	}
	return out
}

// maxListed is how many scenes Note names before counting the rest.
const maxListed = 5

// Note says in one line what the prefab stood for.
func (u PrefabUse) Note() string {
	if len(u.Scenes) == 0 {
		return fmt.Sprintf("%s reads as a prefab, and no scene of the project %s places or names it (one the game spawns from code is not seen): no world to check", u.Prefab, u.Project)
	}
	listed := u.Scenes[:min(len(u.Scenes), maxListed)]
	s := fmt.Sprintf("%s is used by %s of the project %s: %s", u.Prefab, english.Count(len(u.Scenes), "scene"), u.Project, strings.Join(listed, ", "))
	if rest := len(u.Scenes) - len(listed); rest > 0 {
		s += fmt.Sprintf(" and %d more", rest)
	}
	return s
}
