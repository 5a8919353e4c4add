// Package mapped reads large input files by mapping them into memory.
//
// A mapped scene costs no copy and no fresh memory: its pages come from
// the page cache, and once parsed they can be handed back (Release), so a
// cook's peak memory is its output and index rather than input plus
// output. The price of a mapping is that a file shrunk by another process
// while it is mapped faults on access; Guard turns such a fault into an
// error instead of a crash.
package mapped

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/worldcook/worldcook/internal/regular"
)

// ErrChanged reports that a mapped file changed while it was read: a
// fault on a page past a new, shorter end, or (File.Changed) a write.
var ErrChanged = errors.New("the file changed while it was read; cook again once it is saved")

// File is a read-only view of a regular file.
type File struct {
	// Data is the file's bytes. It must not be written, and must not be
	// used after Close.
	Data   []byte
	mapped bool
	// f stays open so that Changed can ask about the file that was
	// mapped, not whatever the path names now.
	f    *os.File
	stat os.FileInfo
}

// Open maps the regular file at path (see regular.Open; what names the
// file's role in errors). Files are mapped on Linux; elsewhere, or when
// mapping fails, the file is read into memory instead, and Release does
// nothing.
func Open(path, what string) (*File, error) {
	f, size, err := regular.Open(path, what)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot read %s %s: %w", what, path, err)
	}
	if data, ok := mmap(f, size); ok {
		return &File{Data: data, mapped: true, f: f, stat: st}, nil
	}
	f.Close()
	data, err := regular.ReadFile(path, what)
	if err != nil {
		return nil, err
	}
	return &File{Data: data}, nil
}

// Changed reports whether the mapped file was written since Open (its
// size or modification time moved). A mapping shows such writes, so what
// was read may mix old and new bytes. A file replaced by renaming another
// over it is not changed: the mapping still holds the old one. A copy
// read into memory never changes.
func (f *File) Changed() bool {
	if !f.mapped {
		return false
	}
	st, err := f.f.Stat()
	return err != nil || st.Size() != f.stat.Size() || !st.ModTime().Equal(f.stat.ModTime())
}

// Names reports whether path still names the file that was opened, as
// it was: a file renamed over it (an editor's save) or written meanwhile
// is another. For a copy read into memory it is unknown: ok is false.
func (f *File) Names(path string) (same, ok bool) {
	if !f.mapped {
		return false, false
	}
	st, err := os.Stat(path)
	return err == nil && os.SameFile(st, f.stat) && !f.Changed(), true
}

// Mapped reports whether Data is a mapping (rather than a copy).
func (f *File) Mapped() bool { return f.mapped }

// Release tells the system that Data[from:to] will not be needed soon:
// its pages leave the process's memory and are read again from the page
// cache if they are touched later. Only whole pages inside the range are
// released.
func (f *File) Release(from, to int) {
	if !f.mapped {
		return
	}
	from = min(max(from, 0), len(f.Data))
	to = min(max(to, from), len(f.Data))
	release(f.Data, from, to)
}

// Close unmaps the file. Data must not be used afterwards.
func (f *File) Close() error {
	if !f.mapped {
		f.Data = nil
		return nil
	}
	data := f.Data
	f.Data, f.mapped = nil, false
	err := unmap(data)
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Guard runs fn on the calling goroutine and returns its error, or
// ErrChanged if fn faulted on a mapped page (the file shrank under it).
// Any other panic is passed on. Every goroutine that reads a mapped file
// must read it under Guard: the runtime crashes the process on a fault
// it was not told to expect.
func Guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(runtime.Error); ok && isFault(e) {
				err = ErrChanged
				return
			}
			panic(r)
		}
	}()
	return fn()
}

// isFault tells a memory fault from other runtime errors: only faults
// carry the address they happened at.
func isFault(e runtime.Error) bool {
	_, ok := e.(interface{ Addr() uintptr })
	return ok
}
