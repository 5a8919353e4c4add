package initworld

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/worldcook/worldcook/internal/gcpause"
	"github.com/worldcook/worldcook/internal/mapped"
	"github.com/worldcook/worldcook/internal/regular"
	"github.com/worldcook/worldcook/internal/sidefile"
)

// Run reads the scene at file and returns the edit that makes it a
// streamed world (Make); with write it also replaces the file by the
// result (Write). It is the one call `worldcook init` makes. The scene
// is mapped and read as validate reads it (internal/mapped), and its text
// goes with Run: the result's Before and After are nil.
func Run(file string, opts Options, write bool) (*Result, error) {
	if write {
		if err := writable(file); err != nil {
			return nil, err
		}
	}
	in, err := mapped.Open(file, "scene")
	if err != nil {
		return nil, err
	}
	defer in.Close()
	// The scene's model stays live until the edit is made.
	resume := gcpause.Job(len(in.Data))
	var r *Result
	opts.release = in.Release
	err = mapped.Guard(func() (err error) {
		r, err = Make(file, in.Data, opts)
		return err
	})
	resume()
	if errors.Is(err, mapped.ErrChanged) || err == nil && in.Changed() {
		return nil, fmt.Errorf("%s changed while init read it; run worldcook init again", file)
	}
	if err != nil {
		return nil, err
	}
	if write && len(r.Diff) > 0 {
		beforeReplace(file)
		err := mapped.Guard(func() error {
			return replace(r, func() (bool, error) {
				if same, ok := in.Names(file); ok {
					return same, nil
				}
				return holds(file, r.Before)
			})
		})
		if errors.Is(err, mapped.ErrChanged) {
			err = fmt.Errorf("%s changed while init read it; run worldcook init again", file)
		}
		if err != nil {
			return nil, err
		}
	}
	r.Before, r.ins = nil, nil
	return r, nil
}

// beforeReplace runs between making the edit and writing it: a test
// saves the scene there, as an editor would while init runs.
var beforeReplace = func(file string) {}

// writable refuses a scene that cannot be replaced as a plain file: a
// symbolic link (replacing it would cut the link, not edit what it names),
// a named pipe, a device or a folder.
func writable(file string) error {
	st, err := os.Lstat(file)
	if err != nil {
		return fmt.Errorf("cannot read scene %s: %v", file, errors.Unwrap(err))
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link; pass the file it points to, so that --write edits the scene itself", file)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file; pass a .esscene file", file)
	}
	return sidefile.ReadOnly(file, "scene")
}

// tempPattern names the temporary file Write puts beside the scene.
func tempPattern(file string) string { return "." + filepath.Base(file) + ".init-*" }

// removeLeftovers removes the temporaries an earlier Write of file left
// when it was killed: regular files of tempPattern beside it (a link of
// that name is removed, never followed). Each is a whole copy of the scene.
func removeLeftovers(file string) {
	dir := filepath.Dir(file)
	entries, _ := os.ReadDir(dir)
	prefix := strings.TrimSuffix(tempPattern(file), "*")
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) && (e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// Write replaces r.File by r.After atomically: the new text goes to a
// temporary file in the same folder, with the scene's mode, and is
// renamed over the scene only if the scene still holds r.Before, so that
// an edit made meanwhile is never lost. Nothing else is written.
func Write(r *Result) error {
	return replace(r, func() (bool, error) { return holds(r.File, r.Before) })
}

// replace is Write, with unchanged saying whether the scene on disk is
// still the one r was made from.
func replace(r *Result, unchanged func() (bool, error)) error {
	file := r.File
	if err := writable(file); err != nil {
		return err
	}
	st, err := os.Stat(file)
	if err != nil {
		return fmt.Errorf("cannot read scene %s: %v", file, errors.Unwrap(err))
	}
	removeLeftovers(file)
	tmp, err := os.CreateTemp(filepath.Dir(file), tempPattern(file))
	if err != nil {
		return fmt.Errorf("cannot write beside %s: %v", file, errors.Unwrap(err))
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	buf := bufio.NewWriterSize(tmp, 1<<20)
	if err := r.WriteAfter(buf); err != nil {
		return fmt.Errorf("cannot write beside %s: %v", file, err)
	}
	if err := buf.Flush(); err != nil {
		return fmt.Errorf("cannot write beside %s: %v", file, err)
	}
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		return fmt.Errorf("cannot keep the mode of %s: %v", file, errors.Unwrap(err))
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("cannot write beside %s: %v", file, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write beside %s: %v", file, err)
	}
	same, err := unchanged()
	if err != nil {
		return err
	}
	if !same {
		return fmt.Errorf("%s changed while init read it; run worldcook init again", file)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("cannot replace %s: %v", file, errors.Unwrap(err))
	}
	done = true
	return nil
}

// Writable refuses a scene an edit cannot replace as a plain file (a
// link, a special file) or that is read-only, as init --write does.
func Writable(file string) error { return writable(file) }

// holds reports whether file holds want, read a piece at a time rather
// than whole beside it.
func holds(file string, want []byte) (bool, error) {
	f, size, err := regular.Open(file, "scene")
	if err != nil {
		return false, err
	}
	defer f.Close()
	if size != int64(len(want)) {
		return false, nil
	}
	buf := make([]byte, 1<<20)
	for off := 0; ; {
		n, err := f.Read(buf)
		if n > len(want)-off || !bytes.Equal(buf[:n], want[off:off+n]) {
			return false, nil
		}
		off += n
		if err == io.EOF {
			return off == len(want), nil
		}
		if err != nil {
			return false, fmt.Errorf("cannot read scene %s: %v", file, errors.Unwrap(err))
		}
	}
}
