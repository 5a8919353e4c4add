package cook

import (
	"io/fs"
	"os"
)

// FS is the slice of the file system a cook uses. Tests substitute a
// faulty one to prove that a failure halfway leaves the previous world.
type FS interface {
	MkdirAll(path string, perm fs.FileMode) error
	ReadFile(path string) ([]byte, error)
	// WriteFile creates path with data.
	WriteFile(path string, data []byte, perm fs.FileMode) error
	Rename(oldpath, newpath string) error
	Remove(path string) error
	RemoveAll(path string) error
	Stat(path string) (fs.FileInfo, error)
	Lstat(path string) (fs.FileInfo, error)
	ReadDir(path string) ([]fs.DirEntry, error)
}

// OSFS is the real file system.
type OSFS struct{}

func (OSFS) MkdirAll(p string, perm fs.FileMode) error { return os.MkdirAll(p, perm) }
func (OSFS) ReadFile(p string) ([]byte, error)         { return os.ReadFile(p) }
func (OSFS) Rename(a, b string) error                  { return os.Rename(a, b) }
func (OSFS) Remove(p string) error                     { return os.Remove(p) }
func (OSFS) RemoveAll(p string) error                  { return os.RemoveAll(p) }
func (OSFS) Stat(p string) (fs.FileInfo, error)        { return os.Stat(p) }
func (OSFS) Lstat(p string) (fs.FileInfo, error)       { return os.Lstat(p) }
func (OSFS) ReadDir(p string) ([]fs.DirEntry, error)   { return os.ReadDir(p) }

// WriteFile does not fsync: a cook is atomic against a killed or failed
// process (files are staged, then renamed), which is what CI meets; paying
// a disk flush per cell would not protect the previous world any better,
// only against power loss, which a re-cook repairs.
func (OSFS) WriteFile(p string, data []byte, perm fs.FileMode) error {
	return os.WriteFile(p, data, perm)
}
