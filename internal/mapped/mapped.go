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
	"runtime"
	"runtime/debug"

	"github.com/worldcook/worldcook/internal/regular"
)

// ErrChanged reports a fault on a mapped file: it was truncated while
// being read.
var ErrChanged = errors.New("the file was truncated or replaced while being read; cook again once it is saved")

// File is a read-only view of a regular file.
type File struct {
	// Data is the file's bytes. It must not be written, and must not be
	// used after Close.
	Data   []byte
	mapped bool
}

// Open maps the regular file at path (see regular.Open; what names the
// file's role in errors). Where mapping is not available, or fails, the
// file is read into memory instead, and Release does nothing.
func Open(path, what string) (*File, error) {
	f, size, err := regular.Open(path, what)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if data, ok := mmap(f, size); ok {
		return &File{Data: data, mapped: true}, nil
	}
	data, err := regular.ReadFile(path, what)
	if err != nil {
		return nil, err
	}
	return &File{Data: data}, nil
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
	return unmap(data)
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
