// Package cook writes a validated plan as a streamed world: the persistent
// scene, one compact entity document per cell and the world manifest. It
// writes atomically (stage, then rename) and incrementally (a file whose
// bytes did not change is not rewritten), so a failed cook leaves the
// previous world intact and a repeated cook touches nothing.
package cook

import (
	"context"
	"encoding/hex"
	"fmt"
	"path"
	"runtime"
	"sync"

	"github.com/zeebo/blake3"

	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/validate"
)

// Output is one file of a cooked world, with its path relative to the
// output directory (slash-separated).
type Output struct {
	Path  string
	Bytes []byte
	// Digest is the lowercase hex blake3 of Bytes.
	Digest string
}

// World is a cooked scene held in memory: its files and manifest.
type World struct {
	Plan *validate.Plan
	// Manifest is nil for a scene that is not a streamed world.
	Manifest *manifest.Manifest
	// ManifestPath is where the manifest goes, or would have gone.
	ManifestPath string
	// Files are the persistent scene, the cells and the manifest, in that order.
	Files []Output
}

// Options tune how a world is rendered.
type Options struct {
	// Workers render and hash cells in parallel; 0 means GOMAXPROCS. The
	// result does not depend on it.
	Workers int
	// Progress, if set, is called as cells finish with the bytes done and
	// the bytes in all. It may be called from several goroutines.
	Progress func(done, total int64)
}

// PersistentPath is where a scene's persistent world goes inside the output
// directory: its runtime name plus ".esscene".
func PersistentPath(sceneName string) string { return sceneName + ".esscene" }

// ManifestPath is where a scene's world manifest goes.
func ManifestPath(sceneName string) string {
	return "world/" + validate.FileSafe(sceneName) + ".world.json"
}

// Build renders plan into memory. A scene that is not a streamed world
// becomes a byte-for-byte copy of its source.
func Build(ctx context.Context, plan *validate.Plan, opts Options) (*World, error) {
	w := &World{Plan: plan, ManifestPath: ManifestPath(plan.SceneName)}
	doc := plan.Doc
	if !plan.Streamed {
		w.Files = []Output{{Path: PersistentPath(plan.SceneName), Bytes: doc.Src, Digest: digest(doc.Src)}}
		return w, nil
	}
	writer := doc.NewWriter()
	n := len(plan.Cells)
	files := make([]Output, n+1)
	var total int64
	for _, c := range plan.Cells {
		total += int64(writer.Size(c.Name, c.Entities))
	}
	var done int64
	var mu sync.Mutex
	report := func(b int64) {
		if opts.Progress == nil {
			return
		}
		mu.Lock()
		done += b
		d := done
		mu.Unlock()
		opts.Progress(d, total)
	}
	render := func(k int) {
		if k == n {
			name := path.Base(plan.SceneName)
			buf := make([]byte, 0, writer.Size(name, plan.Persistent))
			buf = writer.Append(buf, name, plan.Persistent, plan.CutParent)
			files[n] = Output{Path: PersistentPath(plan.SceneName), Bytes: buf, Digest: digest(buf)}
			return
		}
		c := &plan.Cells[k]
		size := writer.Size(c.Name, c.Entities)
		buf := make([]byte, 0, size)
		buf = writer.Append(buf, c.Name, c.Entities, plan.CutParent)
		files[k] = Output{Path: "world/" + c.File, Bytes: buf, Digest: digest(buf)}
		report(int64(size))
	}
	if err := parallel(ctx, n+1, opts.Workers, render); err != nil {
		return nil, err
	}
	m := &manifest.Manifest{
		Version:        manifest.Version,
		Scene:          plan.SceneName,
		CellSize:       plan.CellSize,
		Plane:          plan.Plane,
		PersistentRefs: nonNil(plan.PersistentRefs),
		Persistent: manifest.Persistent{
			Path:        files[n].Path,
			Bytes:       int64(len(files[n].Bytes)),
			Blake3:      files[n].Digest,
			EntityCount: len(plan.Persistent),
		},
		Sources: plan.Sources,
		Cells:   make([]manifest.Cell, n),
	}
	if m.Sources == nil {
		m.Sources = []manifest.Source{}
	}
	for k, c := range plan.Cells {
		m.Cells[k] = manifest.Cell{
			Name: c.Name, Path: files[k].Path, X: c.X, Z: c.Z,
			MinX: c.Bounds.MinX, MinZ: c.Bounds.MinZ, MaxX: c.Bounds.MaxX, MaxZ: c.Bounds.MaxZ,
			EntityCount: len(c.Entities), RootCount: c.Roots,
			Bytes: int64(len(files[k].Bytes)), Blake3: files[k].Digest,
		}
	}
	mb, err := manifest.Encode(m)
	if err != nil {
		return nil, err
	}
	w.Manifest = m
	// The persistent scene first, then cells, then the manifest: the order
	// in which a commit renames them, so the index is always last.
	w.Files = make([]Output, 0, n+2)
	w.Files = append(w.Files, files[n])
	w.Files = append(w.Files, files[:n]...)
	w.Files = append(w.Files, Output{Path: w.ManifestPath, Bytes: mb, Digest: digest(mb)})
	return w, nil
}

func nonNil(ids []int64) []int64 {
	if ids == nil {
		return []int64{}
	}
	return ids
}

func digest(b []byte) string {
	sum := blake3.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// parallel runs fn(0..n-1) on up to workers goroutines, stopping early
// when ctx is cancelled.
func parallel(ctx context.Context, n, workers int, fn func(int)) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := 0; i < n; i++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			fn(i)
		}
		return nil
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	var err error
loop:
	for i := 0; i < n; i++ {
		select {
		case next <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break loop
		}
	}
	close(next)
	wg.Wait()
	if err != nil {
		return fmt.Errorf("cook cancelled: %w", err)
	}
	return nil
}
