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
	// Files are the persistent scene, the cells and the manifest, in that
	// order. Only Build fills them in; a cook that writes to disk streams
	// each file to the commit instead of holding the world in memory.
	Files []Output

	// The encoded manifest's size and digest, for the cook record.
	manifestSize   int64
	manifestDigest string
}

// options tune how a world is rendered.
type options struct {
	// Workers render and hash cells in parallel; 0 means GOMAXPROCS. The
	// result does not depend on it.
	Workers int
	// Progress, if set, is called as cells finish with the bytes done and
	// the bytes in all. It may be called from several goroutines.
	Progress func(done, total int64)
	// Persistent, if set, is the persistent world's path in the output
	// directory instead of PersistentPath.
	Persistent string
}

// buildWorld renders plan into memory: the files a cook would write, for
// callers that use a world without writing it (simulate on a scene, tests).
// A scene that is not a streamed world becomes a byte-for-byte copy.
func buildWorld(ctx context.Context, plan *validate.Plan, opts options) (*World, error) {
	w := &World{Plan: plan, ManifestPath: ManifestPath(plan.SceneName)}
	if !plan.Streamed {
		src := plan.Doc.Src
		w.Files = []Output{{Path: PersistentPath(plan.SceneName), Bytes: src, Digest: digest(src)}}
		return w, nil
	}
	files := make([]Output, len(plan.Cells)+1)
	m, err := render(ctx, plan, opts, func(k int, f Output) error {
		f.Bytes = append([]byte(nil), f.Bytes...)
		files[k] = f
		return nil
	})
	if err != nil {
		return nil, err
	}
	mf, err := manifestFile(w.ManifestPath, m)
	if err != nil {
		return nil, err
	}
	w.Manifest, w.manifestSize, w.manifestDigest = m, int64(len(mf.Bytes)), mf.Digest
	w.Files = append(files, mf)
	return w, nil
}

func manifestFile(p string, m *manifest.Manifest) (Output, error) {
	b, err := manifest.Encode(m)
	if err != nil {
		return Output{}, err
	}
	return Output{Path: p, Bytes: b, Digest: digest(b)}, nil
}

// render renders the persistent scene (index 0) and every cell (index
// k+1) on parallel workers and hands each document to put, which must not
// keep f.Bytes after it returns: the buffer is reused, so a large world
// never holds more than one document per worker besides its input. It
// returns the manifest, complete but for nothing: sizes and digests are
// filled in as documents are rendered.
func render(ctx context.Context, plan *validate.Plan, opts options, put func(k int, f Output) error) (*manifest.Manifest, error) {
	doc := plan.Doc
	writer := doc.NewWriter()
	n := len(plan.Cells)
	m := &manifest.Manifest{
		Version:        manifest.Version,
		Scene:          plan.SceneName,
		CellSize:       plan.CellSize,
		Plane:          plan.Plane,
		PersistentRefs: nonNil(plan.PersistentRefs),
		Persistent:     manifest.Persistent{Path: layoutAt(plan.SceneName, opts.Persistent).persistent(), EntityCount: len(plan.Persistent)},
		Sources:        plan.Sources,
		View:           plan.View,
		Cells:          make([]manifest.Cell, n),
	}
	if plan.Layout != nil && plan.Layout.Roots > 0 {
		m.Layout = plan.Layout
	}
	if m.Sources == nil {
		m.Sources = []manifest.Source{}
	}
	if plan.Instances {
		m.Persistent.SpawnCount = &plan.PersistentSpawnCount
	}
	// The total reads every record's length, scattered over the arenas:
	// tens of milliseconds on one core for a large world, spent only when
	// someone watches the bar.
	var total int64
	if opts.Progress != nil {
		for _, c := range plan.Cells {
			total += int64(writer.Size(c.Name, c.Entities))
		}
	}
	var done int64
	var mu sync.Mutex
	progress := func(b int64) {
		if opts.Progress == nil {
			return
		}
		mu.Lock()
		done += b
		d := done
		mu.Unlock()
		opts.Progress(d, total)
	}
	pool := sync.Pool{New: func() any { return new([]byte) }}
	err := parallel(ctx, n+1, opts.Workers, func(k int) error {
		name, ents, p := "", plan.Persistent, m.Persistent.Path
		if k > 0 {
			c := &plan.Cells[k-1]
			name, ents, p = c.Name, c.Entities, worldDir+"/"+c.File
		}
		bp := pool.Get().(*[]byte)
		defer pool.Put(bp)
		size := writer.Size(name, ents)
		if cap(*bp) < size {
			*bp = make([]byte, 0, size)
		}
		var buf []byte
		if k == 0 {
			// The persistent world is the package's entry scene: it keeps
			// its authored name, as the engine's own cook leaves it.
			buf = writer.AppendAuthored((*bp)[:0], ents, plan.CutParent)
		} else {
			buf = writer.Append((*bp)[:0], name, ents, plan.CutParent)
		}
		*bp = buf
		f := Output{Path: p, Bytes: buf, Digest: digest(buf)}
		if k == 0 {
			m.Persistent.Bytes, m.Persistent.Blake3 = int64(len(buf)), f.Digest
		} else {
			c := &plan.Cells[k-1]
			m.Cells[k-1] = manifest.Cell{
				Name: c.Name, Path: p, Level: c.Level, X: c.X, Z: c.Z,
				MinX: c.Bounds.MinX, MinZ: c.Bounds.MinZ, MaxX: c.Bounds.MaxX, MaxZ: c.Bounds.MaxZ,
				EntityCount: len(c.Entities), RootCount: c.Roots,
				Bytes: int64(len(buf)), Blake3: f.Digest,
			}
			if plan.Instances {
				m.Cells[k-1].SpawnCount = &c.SpawnCount
			}
			progress(int64(size))
		}
		return put(k, f)
	})
	if err != nil {
		return nil, err
	}
	addAssets(m, plan)
	return m, nil
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

// parallel runs fn(0..n-1) on up to workers goroutines and returns the
// first error, after which no new calls start. It stops early when ctx is
// cancelled.
func parallel(ctx context.Context, n, workers int, fn func(int) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	var (
		mu   sync.Mutex
		next int
		fail error
		wg   sync.WaitGroup
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if fail == nil && ctx.Err() != nil {
			fail = fmt.Errorf("cook cancelled: %w", ctx.Err())
		}
		if fail != nil || next >= n {
			return 0, false
		}
		next++
		return next - 1, true
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i, ok := take()
				if !ok {
					return
				}
				if err := fn(i); err != nil {
					mu.Lock()
					if fail == nil {
						fail = err
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return fail
}
