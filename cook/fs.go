package cook

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sync"
)

// FS is the output directory as a cook sees it. Every name is a
// slash-separated path relative to the directory, and an implementation
// must never reach outside it, whatever symbolic links the directory
// holds. Tests substitute a faulty one to prove that a failure halfway
// leaves the previous world.
type FS interface {
	// MkdirAll creates a folder and its parents; each must be a real
	// directory, not a link to one.
	MkdirAll(name string, perm fs.FileMode) error
	// ReadFile reads a regular file of at most limit bytes. Anything else
	// (a folder, a named pipe, a device, a link) is an error, and opening
	// it never blocks.
	ReadFile(name string, limit int64) ([]byte, error)
	// WriteFile creates name, which must not exist: what is there is
	// never opened, so a planted link cannot redirect the write.
	WriteFile(name string, data []byte, perm fs.FileMode) error
	// Rename replaces newname (the name itself, never what a link there
	// points to) with oldname.
	Rename(oldname, newname string) error
	Remove(name string) error
	RemoveAll(name string) error
	Lstat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
}

// RootFS is the real output directory, opened as an os.Root: no path
// under it, through any link, resolves outside it.
type RootFS struct {
	root *os.Root
	// dirs are the folders MkdirAll has proved to be real directories.
	dirs sync.Map
}

// OpenFS opens dir, which must exist, as the file system of a cook.
func OpenFS(dir string) (*RootFS, error) {
	if _, err := os.Lstat(dir); err != nil {
		return nil, fmt.Errorf("cannot open the output directory %s: %v", dir, cause(err))
	}
	if err := checkOutDir(dir); err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot open the output directory %s: %v", dir, cause(err))
	}
	return &RootFS{root: r}, nil
}

// checkOutDir refuses an output directory that is a link (what it points
// to would be written) or not a directory. A missing one is fine.
func checkOutDir(dir string) error {
	st, err := os.Lstat(dir)
	if err != nil {
		return nil
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("output directory %s is a symbolic link; cook into a real directory (pass its resolved path to --out)", dir)
	}
	if !st.IsDir() {
		return fmt.Errorf("output %s is not a directory; pass a directory to --out", dir)
	}
	return nil
}

// Close releases the directory.
func (r *RootFS) Close() error { return r.root.Close() }

func osName(name string) string { return filepath.FromSlash(name) }

func (r *RootFS) MkdirAll(name string, perm fs.FileMode) error {
	if _, ok := r.dirs.Load(name); ok {
		return nil
	}
	if err := r.root.MkdirAll(osName(name), perm); err != nil {
		return err
	}
	// os.Root keeps every link inside the directory, but a link between
	// two folders of it would still let one scene's files land among
	// another's: every folder on the way must be a real one.
	for d := name; d != "." && d != "/" && d != ""; d = path.Dir(d) {
		if _, ok := r.dirs.Load(d); ok {
			break
		}
		st, err := r.root.Lstat(osName(d))
		if err != nil {
			return err
		}
		if !st.IsDir() {
			return &fs.PathError{Op: "mkdir", Path: d, Err: errNotRealDir}
		}
		r.dirs.Store(d, true)
	}
	return nil
}

var errNotRealDir = errors.New("not a real directory (a symbolic link or a file is in the way); remove it")

func (r *RootFS) ReadFile(name string, limit int64) ([]byte, error) {
	st, err := r.root.Lstat(osName(name))
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errNotRegular(st.Mode())}
	}
	if st.Size() > limit {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%d bytes, more than the %d such a file may hold", st.Size(), limit)}
	}
	// O_NONBLOCK: if a pipe replaced the file since the Lstat, opening it
	// returns at once instead of waiting for a writer.
	f, err := r.root.OpenFile(osName(name), os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fst, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fst.Mode().IsRegular() || !os.SameFile(st, fst) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("replaced while it was opened")}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("more than %d bytes", limit)}
	}
	return data, nil
}

// WriteFile does not fsync: a cook is atomic against a killed or failed
// process (files are staged, then renamed), which is what CI meets; paying
// a disk flush per cell would not protect the previous world any better,
// only against power loss, which a re-cook repairs.
func (r *RootFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	f, err := r.root.OpenFile(osName(name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (r *RootFS) Rename(a, b string) error { return r.root.Rename(osName(a), osName(b)) }
func (r *RootFS) Remove(name string) error { return r.root.Remove(osName(name)) }
func (r *RootFS) RemoveAll(n string) error { return r.root.RemoveAll(osName(n)) }
func (r *RootFS) Lstat(n string) (fs.FileInfo, error) {
	return r.root.Lstat(osName(n))
}

func (r *RootFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return fs.ReadDir(r.root.FS(), name)
}

// errNotRegular says what a file that should be a plain one is instead.
func errNotRegular(m fs.FileMode) error {
	what := "not a regular file"
	switch {
	case m.IsDir():
		what = "a directory, not a regular file"
	case m&fs.ModeSymlink != 0:
		what = "a symbolic link, not a regular file"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe, not a regular file"
	case m&fs.ModeDevice != 0:
		what = "a device, not a regular file"
	case m&fs.ModeSocket != 0:
		what = "a socket, not a regular file"
	}
	return errors.New(what)
}
