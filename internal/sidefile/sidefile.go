// Package sidefile writes the files a command produces besides its main
// output (profiles, plots, maps): atomically, through a temporary file
// renamed into place, and never over a file the run reads. A plot path
// mistyped as the route, or a profile named like the scene, would
// otherwise destroy the input without a word.
package sidefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Guard knows the inputs of a run and the files it writes itself, and
// holds every file it writes besides them to one rule: never an input,
// never one of its own files, never two at one path. It is safe for
// concurrent use.
//
// A command claims its side outputs (Claim) before it reads anything,
// tells the guard what it reads and owns as it learns it (Inputs,
// Owned, OwnedIn) and asks again (Recheck) before it writes anything, so
// that a side output over a file found late (a texture, a cell) is
// refused before the world or the scene is written, not after.
type Guard struct {
	mu     sync.Mutex
	inputs []string
	seen   map[string]bool
	infos  []fs.FileInfo
	// owned are the names of files the run writes or reserves itself,
	// whether they exist yet or not (a journal, a record), by key;
	// ownedIn the folders some of whose names it owns (a world's cells).
	owned   map[string]string
	ownedIn []ownedFolder
	// written are the side outputs of the run so far, by key, with the
	// flag of each: two at one path would clobber each other; claims
	// lists them in the order they were claimed.
	written map[string]sideOutput
	claims  []sideOutput
}

type ownedFolder struct {
	key string // the folder's key
	dir string
	// match says what a file named base in the folder is, if the run
	// owns it under any case of its name; nil: every file in it.
	match func(base string) (what string, ok bool)
	// why says why no side output may take the name: "" for the run's
	// own files, else the rule that reserves it (ReservedIn).
	why string
}

type sideOutput struct{ path, flag string }

// key is how a path is compared with the names of owned and written
// files: absolute, its folder's links resolved as far as it exists, and
// case-folded, since on macOS and Windows names that differ only in case
// are one file.
func key(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = filepath.Clean(p)
	}
	dir, base := filepath.Split(abs)
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		abs = filepath.Join(r, base)
	}
	return strings.ToLower(abs)
}

// Owned adds files the run itself writes or reserves (its world, its
// journal), named whether they exist yet or not: no side output may take
// one of those names.
func (g *Guard) Owned(paths ...string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.owned == nil {
		g.owned = make(map[string]string)
	}
	for _, p := range paths {
		if p != "" {
			g.owned[key(p)] = p
			g.addInput(p)
		}
	}
}

// OwnedIn adds a folder some of whose files the run writes, named
// whether they exist yet or not: match tells them by their name, in any
// case (nil: every file in the folder is the run's).
func (g *Guard) OwnedIn(dir string, match func(base string) (what string, ok bool)) {
	k := key(filepath.Join(dir, "x"))
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ownedIn = append(g.ownedIn, ownedFolder{key: filepath.Dir(k), dir: dir, match: match})
}

// ReservedIn adds a folder whose files named as match tells (in any
// case) no side output may take though this run does not write them:
// names another run's files have there (another scene's journal in the
// output directory, which a depfile in its place would wedge), why says
// so in the refusal.
func (g *Guard) ReservedIn(dir, why string, match func(base string) (what string, ok bool)) {
	k := key(filepath.Join(dir, "x"))
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ownedIn = append(g.ownedIn, ownedFolder{key: filepath.Dir(k), dir: dir, match: match, why: why})
}

// ownerOf says which of the run's own files file is ("" when none), and
// why it is reserved when it is another run's. It must be called with
// g.mu held.
func (g *Guard) ownerOf(file string) (owner, why string) {
	k := key(file)
	if owner, ok := g.owned[k]; ok {
		return owner, ""
	}
	for _, o := range g.ownedIn {
		if filepath.Dir(k) != o.key {
			continue
		}
		if o.match == nil {
			return filepath.Join(o.dir, filepath.Base(file)), o.why
		}
		if what, ok := o.match(filepath.Base(file)); ok {
			return what, o.why
		}
	}
	return "", ""
}

func (g *Guard) addInput(p string) {
	if g.seen == nil {
		g.seen = make(map[string]bool)
	}
	if !g.seen[p] {
		g.seen[p] = true
		g.inputs = append(g.inputs, p)
	}
}

// New returns a guard over inputs ("" entries are ignored).
func New(inputs ...string) *Guard {
	g := &Guard{}
	g.Inputs(inputs...)
	return g
}

// Inputs adds files the run reads.
func (g *Guard) Inputs(paths ...string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, p := range paths {
		if p != "" {
			g.addInput(p)
		}
	}
}

// InputsIn adds files the run reads through fsys (a cooked world's
// folder), known by identity when fsys is the operating system's.
func (g *Guard) InputsIn(fsys fs.FS, names ...string) {
	if fsys == nil {
		return
	}
	var infos []fs.FileInfo
	for _, n := range names {
		if st, err := fs.Stat(fsys, n); err == nil {
			infos = append(infos, st)
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.infos = append(g.infos, infos...)
}

// Check refuses file, the value of flag, when it is an input of the run:
// the same file by identity (device and inode, links followed), so that
// another spelling, a linked folder or a hard link is caught too. A file
// that does not exist yet is no input.
func (g *Guard) Check(file, flag string) error {
	g.mu.Lock()
	owner, why := g.ownerOf(file)
	g.mu.Unlock()
	// A name reserved for another run's file is refused as such, unless
	// the file is an input of this one, which says more.
	reserved := func() error {
		if why != "" {
			return fmt.Errorf("%s %s is %s; write it somewhere else", flag, file, why)
		}
		return nil
	}
	if owner != "" && why == "" {
		return fmt.Errorf("%s %s is %s, a file this run writes itself; write it somewhere else", flag, file, owner)
	}
	st, err := os.Stat(file)
	if err != nil {
		return reserved()
	}
	if !st.Mode().IsRegular() {
		if err := reserved(); err != nil {
			return err
		}
		return fmt.Errorf("%s %s is not a regular file; pass a file name to write", flag, file)
	}
	g.mu.Lock()
	inputs := append([]string(nil), g.inputs...)
	infos := append([]fs.FileInfo(nil), g.infos...)
	g.mu.Unlock()
	for _, in := range inputs {
		if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
			g.mu.Lock()
			_, own := g.owned[key(in)]
			g.mu.Unlock()
			if own {
				return fmt.Errorf("%s %s is %s, a file this run writes itself; write it somewhere else", flag, file, in)
			}
			return fmt.Errorf("%s %s is %s, an input of this run; write it somewhere else", flag, file, in)
		}
	}
	for _, ist := range infos {
		if os.SameFile(st, ist) {
			return fmt.Errorf("%s %s is %s of the world being read, an input of this run; write it somewhere else", flag, file, ist.Name())
		}
	}
	return reserved()
}

// ReadOnly refuses to replace file, named by what, when nobody may write
// it (no write bit in its mode): a user's lock, as Perforce leaves a file
// that is not checked out. Replacing it by a rename would succeed in a
// writable folder, and lose the lock with the content. A file that is not
// there yet is no lock.
func ReadOnly(file, what string) error {
	st, err := os.Stat(file)
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o222 != 0 {
		return nil
	}
	return fmt.Errorf("%s %s is read-only (mode %04o); make it writable first (with Perforce: check it out), or write somewhere else", what, file, st.Mode().Perm())
}

// WriteFile writes what render produces to file, the value of flag.
func (g *Guard) WriteFile(file, flag string, render func(io.Writer) error) error {
	f, err := g.Create(file, flag)
	if err != nil {
		return err
	}
	if err := render(f); err != nil {
		f.Abort()
		return fmt.Errorf("%s %s: %v", flag, file, err)
	}
	return f.Commit()
}

// Claim reserves file for the side output of flag before the run writes
// anything, so that two side outputs given one path are refused at once
// rather than after the work ("" is no file).
func (g *Guard) Claim(file, flag string) error {
	if file == "" {
		return nil
	}
	return g.claim(file, flag)
}

// Recheck checks every side output claimed so far against the inputs
// and own files known now, in the order they were claimed, and returns
// the first refusal: called once a run knows what it reads, before it
// writes anything.
func (g *Guard) Recheck() error {
	g.mu.Lock()
	claims := append([]sideOutput(nil), g.claims...)
	g.mu.Unlock()
	for _, c := range claims {
		if err := g.Check(c.path, c.flag); err != nil {
			return err
		}
	}
	return nil
}

// claim records file as the side output of flag, refusing a second side
// output at the same path (however spelled or cased) or the same file.
func (g *Guard) claim(file, flag string) error {
	k := key(file)
	st, statErr := os.Stat(file)
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.written == nil {
		g.written = make(map[string]sideOutput)
	}
	for other, o := range g.written {
		same := other == k
		if !same && statErr == nil {
			if ost, err := os.Stat(o.path); err == nil {
				same = os.SameFile(st, ost)
			}
		}
		if same && o.flag != flag {
			return fmt.Errorf("%s %s is also the file of %s %s; give each its own file", flag, file, o.flag, o.path)
		}
	}
	if _, again := g.written[k]; !again {
		g.claims = append(g.claims, sideOutput{file, flag})
	}
	g.written[k] = sideOutput{file, flag}
	return nil
}

// File is a side output being written: a temporary file beside its final
// name until Commit.
type File struct {
	*os.File
	g     *Guard
	final string
	flag  string
}

// Create starts writing file, the value of flag. The inputs known now are
// checked at once, and all of them again at Commit.
func (g *Guard) Create(file, flag string) (*File, error) {
	if err := g.Check(file, flag); err != nil {
		return nil, err
	}
	if err := ReadOnly(file, flag); err != nil {
		return nil, err
	}
	if err := g.claim(file, flag); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s %s: %w", flag, file, cause(err))
	}
	// A file that is replaced keeps its permissions; a new one is made as
	// os.Create would, less the umask's say: it is meant to be read by
	// others (a plot, a profile, a game's configuration).
	mode := fs.FileMode(0o644)
	if st, err := os.Lstat(file); err == nil && st.Mode().IsRegular() {
		mode = st.Mode().Perm()
	}
	tmp.Chmod(mode)
	return &File{File: tmp, g: g, final: file, flag: flag}, nil
}

// Commit puts the file in place, unless it would replace an input. It is
// flushed first, so that a crash cannot leave an empty file under the
// name of the one it replaced.
func (f *File) Commit() error {
	err := f.Sync()
	if err == nil {
		err = f.Close()
	} else {
		f.Close()
	}
	if err == nil {
		err = f.g.Check(f.final, f.flag)
		if err != nil {
			os.Remove(f.Name())
			return err
		}
	}
	if err == nil {
		err = os.Rename(f.Name(), f.final)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cannot write %s %s: %v", f.flag, f.final, cause(err))
	}
	return nil
}

// Abort discards the file; whatever was at its final name stays.
func (f *File) Abort() {
	f.Close()
	os.Remove(f.Name())
}

func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
