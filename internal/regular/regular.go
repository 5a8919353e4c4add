// Package regular opens input files only when they are regular files. A
// named pipe or a device given where a scene, manifest or route belongs
// would block a build forever (opening a FIFO waits for a writer) or never
// end, so it is refused before it is opened.
package regular

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
)

// Open opens path for reading if it is a regular file (symbolic links
// are followed). what names the file's role in the error ("scene").
func Open(path, what string) (*os.File, int64, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, 0, fmt.Errorf("cannot read %s %s: %w", what, path, unwrapPath(err))
	}
	if !st.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s is not a regular file (%s); pass a %s file", path, kind(st.Mode()), what)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("cannot read %s %s: %w", what, path, unwrapPath(err))
	}
	return f, st.Size(), nil
}

// ReadFile reads the whole regular file at path in one allocation.
func ReadFile(path, what string) ([]byte, error) {
	f, size, err := Open(path, what)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, size)
	if err := readAll(f, buf); err != nil {
		return nil, fmt.Errorf("cannot read %s %s: %w (was it changed while being read?)", what, path, err)
	}
	return buf, nil
}

// parallelRead is the size from which a file is read by several
// goroutines at once.
var parallelRead = 64 << 20

// readAll fills buf from the start of f. A large file is read in as many
// parts as there are CPUs: most of the time of reading a gigabyte into
// fresh memory goes to page faults, which the kernel serves on every core
// at once.
func readAll(f *os.File, buf []byte) error {
	parts := runtime.GOMAXPROCS(0)
	if len(buf) < parallelRead || parts < 2 {
		_, err := io.ReadFull(f, buf)
		return err
	}
	step := (len(buf)/parts + 4095) &^ 4095
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for k := 0; k < parts; k++ {
		lo, hi := k*step, min((k+1)*step, len(buf))
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[k] = f.ReadAt(buf[lo:hi], int64(lo))
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}
