package cook

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/zeebo/blake3"

	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/internal/regular"
	"github.com/worldcook/worldcook/manifest"
)

// pending reports, as an error, a commit of scene into dir that a killed
// cook decided (its journal is in place) but did not finish. Until the next
// cook into dir finishes it, the directory holds a mix of two worlds: some
// files already new, the manifest still old. With scene "" any scene's
// journal counts, for a directory whose manifest is not there yet.
func pending(dir, scene string) error {
	var found []string
	if scene != "" {
		p := filepath.Join(dir, "."+grid.FileSafe(scene)+journalSuffix)
		if _, err := os.Lstat(p); err == nil {
			found = append(found, p)
		}
	} else {
		found, _ = filepath.Glob(filepath.Join(dir, ".*"+journalSuffix))
	}
	if len(found) == 0 {
		return nil
	}
	return fmt.Errorf("%s: an interrupted cook left %s mid-commit; run worldcook cook again to finish it", found[0], dir)
}

// verify checks that the files a manifest lists are the ones cook wrote:
// each cell file (and the persistent scene) exists in dir with the
// manifest's byte size and blake3. Files are hashed in parallel. The error
// names the first bad file in manifest order and says to re-cook.
//
// An entry without a blake3 is not checked: cook always writes one, so
// such a manifest was written by hand to model sizes (simulate's modelled
// IO reads no files), and its files need not exist.
func verify(dir string, m *manifest.Manifest) error {
	type entry struct {
		path, blake3 string
		bytes        int64
	}
	var todo []entry
	if m.Persistent.Blake3 != "" {
		todo = append(todo, entry{m.Persistent.Path, m.Persistent.Blake3, m.Persistent.Bytes})
	}
	for _, c := range m.Cells {
		if c.Blake3 != "" {
			todo = append(todo, entry{c.Path, c.Blake3, c.Bytes})
		}
	}
	if len(todo) == 0 {
		return nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("cannot open cooked world %s: %v", dir, cause(err))
	}
	defer root.Close()
	errs := make([]error, len(todo))
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		next int
	)
	workers := min(runtime.GOMAXPROCS(0), len(todo))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 256<<10)
			for {
				mu.Lock()
				k := next
				next++
				mu.Unlock()
				if k >= len(todo) {
					return
				}
				e := todo[k]
				errs[k] = verifyFile(root, filepath.Join(dir, filepath.FromSlash(e.path)), e.path, e.bytes, e.blake3, buf)
			}
		}()
	}
	wg.Wait()
	var first error
	bad := 0
	for _, err := range errs {
		if err != nil {
			if first == nil {
				first = err
			}
			bad++
		}
	}
	if first == nil {
		return nil
	}
	more := ""
	if bad > 1 {
		more = fmt.Sprintf(" (and %d more file(s))", bad-1)
	}
	return fmt.Errorf("%v%s; the cooked world is damaged: re-cook the world (worldcook cook SCENE --out %s)", first, more, dir)
}

// verifyFile checks one file: name is its path for messages, rel its
// manifest path inside root.
func verifyFile(root *os.Root, name, rel string, size int64, sum string, buf []byte) error {
	// Opened without blocking and refused unless regular: a named pipe
	// planted as a cell would otherwise hang the check.
	f, st, err := regular.OpenIn(root, filepath.FromSlash(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s is missing", name)
	}
	if errors.Is(err, regular.ErrNotRegular) {
		return fmt.Errorf("%s is %v", name, err)
	}
	if err != nil {
		return fmt.Errorf("%s: %v", name, cause(err))
	}
	defer f.Close()
	if st.Size() != size {
		what := "changed"
		if st.Size() < size {
			what = "truncated"
		}
		return fmt.Errorf("%s is %d bytes, the manifest says %d (%s since the cook)", name, st.Size(), size, what)
	}
	h := blake3.New()
	n, err := io.CopyBuffer(h, io.LimitReader(f, size+1), buf)
	if err != nil {
		return fmt.Errorf("%s: %v", name, cause(err))
	}
	if n != size {
		return fmt.Errorf("%s changed while it was read", name)
	}
	if hex.EncodeToString(h.Sum(nil)) != sum {
		return fmt.Errorf("%s does not match its blake3 in the manifest (changed since the cook)", name)
	}
	return nil
}

// cause is the reason inside a *fs.PathError, whose path the message
// already names.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
