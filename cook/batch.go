package cook

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/internal/project"
	"github.com/worldcook/worldcook/internal/sidefile"
	"github.com/worldcook/worldcook/validate"
)

// Scene is one scene of a run: its file, the folder its runtime name is
// relative to, and that name.
type Scene struct {
	File string
	Root string
	Name string
}

// Discover expands scene and directory arguments into scenes, sorted
// within each directory, so that a run's order never depends on the file
// system. A scene found under a directory argument is named relative to
// that directory (levels/town/market.esscene under levels/ is
// "town/market"), one given as a file relative to its own folder, unless
// root (--scenes-root) is set. Folders that are the directory exclude
// (a cook's output) are not searched: what a cook wrote is never read back
// as its input. Two scenes with one name are refused.
func Discover(args []string, root, exclude string) ([]Scene, error) {
	var skip fs.FileInfo
	if exclude != "" {
		skip, _ = os.Stat(exclude)
	}
	var out []Scene
	for _, arg := range args {
		st, err := os.Stat(arg)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %v", arg, cause(err))
		}
		if !st.IsDir() {
			out = append(out, Scene{File: arg, Root: root})
			continue
		}
		dirRoot := root
		if dirRoot == "" {
			dirRoot = arg
		}
		var found []string
		err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if skip != nil {
					if info, err := d.Info(); err == nil && os.SameFile(info, skip) {
						return fs.SkipDir
					}
				}
				return nil
			}
			if strings.HasSuffix(p, validate.SceneExt) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			if skip != nil && os.SameFile(st, skip) {
				return nil, fmt.Errorf("%s is the output directory; pass the folder of the authored scenes", arg)
			}
			return nil, fmt.Errorf("%s holds no .esscene files", arg)
		}
		sort.Strings(found)
		for _, f := range found {
			r := dirRoot
			if _, inProject := project.Find(f); root == "" && inProject {
				// Named as the engine names it (validate.SceneName),
				// whichever folder it was found under.
				r = ""
			}
			out = append(out, Scene{File: f, Root: r})
		}
	}
	return nameScenes(out)
}

// nameScenes gives each scene its runtime name, refusing two scenes with
// one name.
func nameScenes(out []Scene) ([]Scene, error) {
	seen := map[string]string{}
	for i, s := range out {
		name, err := validate.SceneName(s.File, s.Root)
		if err != nil {
			return nil, err
		}
		if other, dup := seen[name]; dup {
			return nil, fmt.Errorf("%s and %s are both named %q and would overwrite each other's output; pass --scenes-root with a folder that holds both", other, s.File, name)
		}
		seen[name] = s.File
		out[i].Name = name
	}
	return out, nil
}

// findCollisions refuses scenes whose outputs would share a path: names that
// differ but become the same file name ("a b" and "a_b", "town/x" and
// "town_x"), or one whose files would land among another's bookkeeping.
// Cooked together they would replace each other's files, or corrupt each
// other's commit when cooked in parallel.
func findCollisions(scenes []Scene) error { return collisions(scenes, nil) }

// collisions is Collisions with persistent worlds where persist puts them.
func collisions(scenes []Scene, persist map[string]string) error {
	bySafe := map[string]int{}
	for i, s := range scenes {
		// Folded: where file names ignore case (macOS, Windows) "Main"
		// and "main" are one file, and a world must cook the same there.
		safe := strings.ToLower(grid.FileSafe(s.Name))
		if j, dup := bySafe[safe]; dup {
			p, q := layoutOf(scenes[j].Name).manifest(), layoutOf(s.Name).manifest()
			if p != q {
				p += " and " + q + ", one file where names ignore case,"
			}
			return collision(scenes[j], s, p)
		}
		bySafe[safe] = i
	}
	// Other overlaps need one scene's name to start like another's
	// bookkeeping; the pairwise test is cheap next to a cook.
	for i := range scenes {
		for j := i + 1; j < len(scenes); j++ {
			if p, bad := clash(layoutAt(scenes[i].Name, persist[scenes[i].Name]), layoutAt(scenes[j].Name, persist[scenes[j].Name])); bad {
				return collision(scenes[i], scenes[j], p)
			}
		}
	}
	return nil
}

func collision(a, b Scene, p string) error {
	return fmt.Errorf("scenes %s (%q) and %s (%q) would both write %s; rename one of them, or cook them into different --out folders", a.File, a.Name, b.File, b.Name, p)
}

// Batch is a cook of scenes and folders of scenes into one output
// directory.
type Batch struct {
	// Args are scene files and folders holding them.
	Args []string
	// Out is the output directory.
	Out string
	// ScenesRoot is the folder scene names are relative to ("" = each
	// scene's folder, or the folder argument it was found under).
	ScenesRoot string
	// Validate configures partition and checks.
	Validate validate.Options
	// Check computes what would change without writing (and takes no lock).
	Check bool
	// Jobs is how many scenes (and cells of each) are cooked at once
	// (0 = GOMAXPROCS).
	Jobs int
	// LockTimeout is how long to wait for another cook of Out.
	LockTimeout time.Duration
	// Events, if set, is told what the run does, for a progress display.
	Events Events
	// FS replaces the output directory in tests (nil = Out as a RootFS).
	FS FS
	// GC tunes the garbage collector during each scene's cook.
	GC GCPolicy
	// PackageConfig, if set, is the game configuration the cooked worlds
	// will be listed in (PackageConfig writes them after the batch): it is
	// checked before anything is cooked, so that a run that could not list
	// its worlds where the runtime looks for them cooks nothing.
	PackageConfig string
	// PersistentAt is where each persistent world goes: PersistentAtName
	// ("" too) or PersistentAtRegistered.
	PersistentAt string
	// Side, if set, guards the files the run writes besides the worlds
	// (a depfile, a profile, the game configuration), claimed on it
	// before the batch: each is checked against every file of the worlds
	// (by name, whether it exists or not) and every scene before the
	// batch starts, and against the prefabs and assets each scene reads
	// before that scene is written. The guard then knows them all.
	Side *sidefile.Guard

	persist map[string]string // scene name → registered path
}

// The values of Batch.PersistentAt (--persist-at).
const (
	// PersistentAtName writes a scene's persistent world at PersistentPath.
	PersistentAtName = "name"
	// PersistentAtRegistered writes it at the path PackageConfig's scenes
	// list registers for the scene, as the engine's own export does, so
	// that the packaged runtime loads it (see RegisteredPaths).
	PersistentAtRegistered = "registered"
)

// Events are the callbacks of a batch. Each may be nil; Phase and
// Progress are called from several goroutines.
type Events struct {
	// Found is told the scenes to cook, before the first starts.
	Found func(scenes []Scene)
	// Waiting is told once that another cook holds the output directory.
	Waiting func()
	// Phase is told each phase of scene i as it begins.
	Phase func(i int, phase string)
	// Progress is told the rendered bytes of scene i.
	Progress func(i int, done, total int64)
}

// Outcome is what a batch did, scene by scene in argument order.
type Outcome struct {
	Scenes  []Scene
	Reports []*Report
	// Errs holds each scene's error (nil for a good cook).
	Errs []error
}

// Cook runs a batch: discovery (never inside Out), the collision checks,
// the check that no file the cooks would touch is one of their inputs,
// the lock on Out, the check that no world there belongs to another scene
// of the same file name (checkOwners), then every scene in parallel. An
// error returned is the whole run's, before any scene was cooked; each
// scene's own is in the outcome.
func Cook(ctx context.Context, b Batch) (*Outcome, error) {
	scenes, err := Discover(b.Args, b.ScenesRoot, b.Out)
	if err != nil {
		return nil, err
	}
	if err := checkOutDir(b.Out); err != nil {
		return nil, err
	}
	if err := checkPackageTarget(b.PackageConfig, b.Out, scenes); err != nil {
		return nil, err
	}
	var persist map[string]string
	switch b.PersistentAt {
	case "", PersistentAtName:
	case PersistentAtRegistered:
		if b.PackageConfig == "" {
			return nil, fmt.Errorf("--persist-at %s writes each persistent world where the game configuration registers its scene; pass --package-config with the game.config.json", PersistentAtRegistered)
		}
		names := make([]string, len(scenes))
		for i, s := range scenes {
			names[i] = s.Name
		}
		if persist, err = registeredPaths(b.PackageConfig, b.Out, names); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("--persist-at %q: want %s or %s", b.PersistentAt, PersistentAtName, PersistentAtRegistered)
	}
	b.persist = persist
	if err := collisions(scenes, persist); err != nil {
		return nil, err
	}
	// Nothing the cooks would write, rename or remove may be one of their
	// inputs. Checked before the lock, which creates the directory, so a
	// refused run writes nothing at all.
	var guard *claims
	if !b.Check {
		var err error
		if guard, err = batchClaims(b, scenes); err != nil {
			return nil, err
		}
	}
	if err := b.guardSide(scenes, guard); err != nil {
		return nil, err
	}
	if !b.Check {
		lock, err := LockDir(b.Out, b.LockTimeout, b.Events.Waiting)
		if err != nil {
			return nil, err
		}
		defer lock.Unlock()
	}
	fsys := b.FS
	if fsys == nil {
		out, err := openOut(b.Out, b.Check)
		if err != nil {
			return nil, err
		}
		if r, ok := out.(*RootFS); ok {
			defer r.Close()
		}
		fsys = out
	}
	// Under the lock, so that no cook of another scene is putting its
	// world in place meanwhile, and before any scene is cooked.
	if err := (&committer{FS: fsys, Dir: b.Out, Persist: persist}).checkOwners(scenes); err != nil {
		return nil, err
	}
	if b.Events.Found != nil {
		b.Events.Found(scenes)
	}
	jobs := b.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	o := &Outcome{Scenes: scenes, Reports: make([]*Report, len(scenes)), Errs: make([]error, len(scenes))}
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i, s := range scenes {
		job := sceneJob{
			File: s.File, Out: b.Out, ScenesRoot: s.Root,
			Validate: b.Validate, Check: b.Check, Workers: jobs, FS: fsys, GC: b.GC, inputs: guard, owned: true, side: b.Side,
			Persistent: persist[s.Name],
		}
		job.Validate.SceneName = s.Name
		if f := b.Events.Progress; f != nil {
			job.Progress = func(done, total int64) { f(i, done, total) }
		}
		if f := b.Events.Phase; f != nil {
			job.Starting = func(phase string) { f(i, phase) }
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			o.Reports[i], o.Errs[i] = run(ctx, job)
		}()
	}
	wg.Wait()
	return o, nil
}

// guardSide tells b.Side the scenes and every file of their worlds, by
// name whether it is there or not (the cells by their names' rule) and
// by identity where it is (claimed: a hard link of a cell is a cell), and
// refuses the batch if a side output claimed already is one of them.
func (b Batch) guardSide(scenes []Scene, claimed *claims) error {
	if b.Side == nil {
		return nil
	}
	ls := make([]layout, len(scenes))
	for i, s := range scenes {
		b.Side.Inputs(s.File)
		ls[i] = layoutAt(s.Name, b.persist[s.Name])
		for _, p := range ls[i].fixed() {
			b.Side.Owned(filepath.Join(b.Out, filepath.FromSlash(p)))
		}
		// Every file in the staging folder is the commit's.
		b.Side.OwnedIn(filepath.Join(b.Out, filepath.FromSlash(ls[i].staging())), nil)
	}
	b.Side.OwnedIn(filepath.Join(b.Out, worldDir), func(base string) (string, bool) {
		// Read in any case, as a case-folding file system would: the
		// tag and extension grid writes in lower case, a level's L in
		// upper.
		folded := strings.ToLower(base)
		if i := strings.LastIndex(folded, ".cell_l"); i >= 0 {
			folded = folded[:i] + ".cell_L" + folded[i+len(".cell_l"):]
		}
		_, k, ok := grid.ParseFile(folded)
		if !ok {
			return "", false
		}
		for _, l := range ls {
			if name := grid.File(grid.Name(l.scene, k)); strings.EqualFold(name, base) {
				return filepath.Join(b.Out, worldDir, name) + ", a cell of " + l.scene, true
			}
		}
		return "", false
	})
	// Names every cook into OUT keeps for its scene, whichever the
	// scene.
	Reserve(b.Side, b.Out)
	if claimed != nil {
		for _, c := range claimed.have {
			b.Side.Owned(claimed.c.abs(c.rel))
		}
	}
	return b.Side.Recheck()
}

// batchClaims finds what the batch's cooks may touch in the output
// directory and refuses the batch if a scene is one of those files.
func batchClaims(b Batch, scenes []Scene) (*claims, error) {
	fsys := b.FS
	if fsys == nil {
		dir := b.Out
		if _, err := os.Lstat(dir); err != nil {
			// "out/new/.." names a folder that exists once out/new is
			// made: look at that one.
			dir = filepath.Clean(dir)
		}
		if _, err := os.Lstat(dir); err != nil {
			return &claims{c: &committer{FS: missingFS{}, Dir: b.Out}}, nil
		}
		if err := checkOutDir(dir); err != nil {
			return nil, err
		}
		r, err := OpenFS(dir)
		if err != nil {
			return nil, err
		}
		defer r.Close()
		fsys = r
	}
	ls := make([]layout, len(scenes))
	for i, s := range scenes {
		ls[i] = layoutAt(s.Name, b.persist[s.Name])
	}
	guard, err := claimed(&committer{FS: fsys, Dir: b.Out}, ls)
	if err != nil {
		return nil, err
	}
	for _, s := range scenes {
		if err := guard.check(s.File, "scene"); err != nil {
			return nil, err
		}
	}
	return guard, nil
}

// Files returns every file the batch read or wrote: the scenes, the
// prefabs their instances were placed from, and the cooked worlds' files.
// A file a command writes besides the world must be none of them.
func (o *Outcome) Files() []string {
	var out []string
	for i, s := range o.Scenes {
		out = append(out, s.File)
		rep := o.Reports[i]
		if rep == nil {
			continue
		}
		if rep.Plan != nil {
			out = append(out, rep.Plan.PrefabFiles...)
			if rep.Plan.Assets != nil {
				out = append(out, rep.Plan.Assets.Files...)
			}
		}
		if rep.Result != nil {
			for _, list := range [][]string{rep.Result.Written, rep.Result.Unchanged} {
				for _, p := range list {
					out = append(out, filepath.Join(rep.Out, filepath.FromSlash(p)))
				}
			}
		}
	}
	return out
}

// Owned returns the files of each scene's world that a cook writes or
// reserves in its output directory, whether they exist now or not: the
// persistent world, the manifest, the staging folder, the journal and the
// record (and their temporaries), and every file it wrote or confirmed (a
// registered persistent world among them). A
// file written besides the world must be none of them.
func (o *Outcome) Owned() []string {
	var out []string
	for i, s := range o.Scenes {
		rep := o.Reports[i]
		if rep == nil || rep.Out == "" {
			continue
		}
		for _, p := range layoutAt(s.Name, "").fixed() {
			out = append(out, filepath.Join(rep.Out, filepath.FromSlash(p)))
		}
		if rep.Result != nil {
			for _, list := range [][]string{rep.Result.Written, rep.Result.Unchanged} {
				for _, p := range list {
					out = append(out, filepath.Join(rep.Out, filepath.FromSlash(p)))
				}
			}
		}
	}
	return out
}

// checkPackageTarget checks, before a batch cooks, that the game
// configuration file can list every scene's world: the world lands where
// the runtime looks for it, and the file is none of the run's inputs or
// outputs.
func checkPackageTarget(file, out string, scenes []Scene) error {
	if file == "" {
		return nil
	}
	inputs := make([]string, len(scenes))
	names := make([]string, len(scenes))
	for i, s := range scenes {
		inputs[i], names[i] = s.File, s.Name
		if _, err := PackageEntry(file, out, s.Name); err != nil {
			return err
		}
	}
	return checkPackageConfigTarget(file, out, inputs, names)
}
