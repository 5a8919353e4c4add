package streaming

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/worldcook/worldcook/internal/jsondoc"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/internal/regular"
	"github.com/worldcook/worldcook/manifest"
)

// Limits of disk IO's settings. Each worker is a goroutine and the
// completion queue holds two results per worker, so the worker count
// bounds memory (and a count from a typo would fail to allocate the
// queue). The frame budget is bounded so that one given in milliseconds
// converts to a time.Duration without wrapping; any budget above a frame
// (16.7 ms at 60 Hz) already means "apply everything".
const (
	MaxConcurrency   = 256
	maxFrameBudget   = time.Hour
	MaxFrameBudgetMS = float64(maxFrameBudget / time.Millisecond)
)

// DiskIO configures real IO: cooked cell documents read and decoded by a
// bounded pool of goroutines.
type DiskIO struct {
	// Files holds the cooked documents, addressed by Cell.Path.
	Files fs.FS
	// Concurrency is the number of reading and decoding goroutines.
	Concurrency int
	// QueueDepth is the capacity of the completion queue; workers block
	// when it is full, which bounds the decoded documents held in memory
	// to QueueDepth + Concurrency (+1 being applied). 0 means
	// 2 × Concurrency.
	QueueDepth int
	// FrameBudget is the time a frame may spend applying finished loads;
	// the rest wait for the next frame. The first result of a frame is
	// always applied, so progress never stops.
	FrameBudget time.Duration
	Fail        FailureModel
	// Assets holds the project's asset files, addressed by Asset.Path;
	// a request's assets are read by the same worker as its document. Nil
	// when the world's assets are not read.
	Assets fs.FS
}

// DiskLoader is the real IO layer. Workers read and decode cell documents
// nearest first and hand them back through a bounded completion queue; the
// frame's goroutine applies them in Poll within the frame time budget, as a
// game's main thread would.
type DiskLoader struct {
	cfg  DiskIO
	pool *pool
	done chan diskResult
	quit chan struct{}
	once sync.Once

	// cancelled holds attempts cancelled while a worker had them: the
	// worker or Poll, whichever sees the attempt next, drops it.
	mu        sync.Mutex
	cancelled map[uint64]bool
	keys      map[uint64]string

	// live counts decoded documents not yet applied or dropped; peak is
	// its high-water mark. Backpressure bounds both.
	live, peak atomic.Int64

	lastApply   time.Duration
	lastBacklog int
}

type diskResult struct {
	res Result
	doc *cellDoc
}

// Check reports the first setting of cfg out of range: the worker count
// from 1 to MaxConcurrency, the frame budget from 0 to maxFrameBudget.
func (cfg DiskIO) Check() error {
	if cfg.Concurrency < 1 || cfg.Concurrency > MaxConcurrency {
		return fmt.Errorf("concurrency %d must be from 1 to %d disk IO workers", cfg.Concurrency, MaxConcurrency)
	}
	if cfg.FrameBudget < 0 || cfg.FrameBudget > maxFrameBudget {
		return fmt.Errorf("frame budget %v must be from 0 to %v", cfg.FrameBudget, maxFrameBudget)
	}
	return nil
}

// checkFrameBudgetMS reports a frame budget in milliseconds (as simulate
// takes it) that is not a number from 0 to MaxFrameBudgetMS, before it
// is converted to a duration, which a huge value would wrap around.
func checkFrameBudgetMS(ms float64) error {
	if !(ms >= 0 && ms <= MaxFrameBudgetMS) {
		return fmt.Errorf("frame budget %v ms must be from 0 to %v ms", ms, MaxFrameBudgetMS)
	}
	return nil
}

// NewDiskLoader starts the worker pool.
func NewDiskLoader(cfg DiskIO) (*DiskLoader, error) {
	if cfg.Files == nil {
		return nil, errors.New("disk IO needs the cooked files; simulate a cooked directory or manifest")
	}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if cfg.QueueDepth <= 0 {
		cfg.QueueDepth = 2 * cfg.Concurrency
	}
	d := &DiskLoader{
		cfg:       cfg,
		done:      make(chan diskResult, cfg.QueueDepth),
		quit:      make(chan struct{}),
		cancelled: make(map[uint64]bool),
		keys:      make(map[uint64]string),
	}
	d.pool = newPool(cfg.Concurrency, d.work)
	return d, nil
}

// Start implements Loader.
func (d *DiskLoader) Start(r Request) {
	d.keys[r.ID] = r.Name
	d.pool.Submit(job{ID: r.ID, Key: r.Name, Bytes: r.Bytes, Distance: r.Distance, Payload: r})
}

// Cancel implements Loader.
func (d *DiskLoader) Cancel(id uint64) {
	key, ok := d.keys[id]
	if !ok {
		return
	}
	delete(d.keys, id)
	if d.pool.cancel(key, &id) {
		return // never started
	}
	d.mu.Lock()
	d.cancelled[id] = true
	d.mu.Unlock()
}

// takeCancelled reports whether id was cancelled, forgetting it: exactly
// one of the worker and Poll sees a cancelled attempt.
func (d *DiskLoader) takeCancelled(id uint64) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cancelled[id] {
		delete(d.cancelled, id)
		return true
	}
	return false
}

// work runs on a pool goroutine: read, decode, queue the result.
func (d *DiskLoader) work(j job) {
	req := j.Payload.(Request)
	if d.takeCancelled(req.ID) {
		return
	}
	res := Result{ID: req.ID, Cell: req.Cell, Entities: -1}
	doc, err := d.load(req, &res)
	res.Err = err
	if doc != nil {
		n := d.live.Add(1)
		for p := d.peak.Load(); n > p && !d.peak.CompareAndSwap(p, n); p = d.peak.Load() {
		}
	}
	if d.takeCancelled(req.ID) {
		d.drop(doc)
		return
	}
	select {
	case d.done <- diskResult{res, doc}:
	case <-d.quit:
		d.drop(doc)
	}
}

func (d *DiskLoader) load(req Request, res *Result) (*cellDoc, error) {
	t0 := time.Now()
	data, err := readFile(d.cfg.Files, req.Path)
	res.Read = time.Since(t0)
	res.BytesRead = int64(len(data))
	var big *tooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("cell file %s is missing; re-cook the world", req.Path)
	case errors.As(err, &big):
		return nil, fmt.Errorf("cell file %s is %d bytes, more than the %d bytes its manifest size allows (%d + slack); re-cook the world", req.Path, big.Size, big.Limit, big.Bytes)
	case errors.Is(err, regular.ErrNotRegular):
		return nil, fmt.Errorf("cell file %s is %v; re-cook the world", req.Path, cause(err))
	case err != nil:
		return nil, fmt.Errorf("cannot read %s: %w", req.Path, cause(err))
	}
	if err := d.readAssets(req, res); err != nil {
		return nil, err
	}
	if d.cfg.Fail.Fails(req.Name, req.Attempt) {
		return nil, d.cfg.Fail.err(req.Attempt)
	}
	t1 := time.Now()
	doc, err := decodeCell(data)
	res.Decode = time.Since(t1)
	if err != nil {
		return nil, fmt.Errorf("%s is not a cell document: %v", req.Path, err)
	}
	return doc, nil
}

// readFile reads a cell document from fsys: only a regular file, and
// never more than the size it had when it was opened (one byte more
// tells that it grew). An fs.ReadFileFS (DirFiles, MemFiles) reads for
// itself, with its own bounds.
func readFile(fsys fs.FS, name string) ([]byte, error) {
	if rf, ok := fsys.(fs.ReadFileFS); ok {
		return rf.ReadFile(name)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: regular.ErrNotRegular}
	}
	return readAtMost(f, name, st.Size())
}

// readAtMost reads r to its end, refusing more than size bytes.
func readAtMost(r io.Reader, name string, size int64) ([]byte, error) {
	buf := make([]byte, size+1)
	n, err := io.ReadFull(r, buf)
	switch err {
	case io.EOF, io.ErrUnexpectedEOF:
		return buf[:n], nil
	case nil:
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("the file grew while it was read")}
	}
	return nil, err
}

// DirFiles serves a cooked folder to disk IO, reading only what the
// world's manifest lists, and only as the manifest has it: through an
// os.Root on the folder, so that no path and no symbolic link leads out
// of it; only regular files, opened without blocking (a named pipe
// planted as a cell would hang a worker for good); and no file larger
// than manifest.ReadLimit of its manifest size (a link to a device, or a
// file that grew, is cut off there).
type DirFiles struct {
	root  *os.Root
	bytes map[string]int64
}

// OpenDir serves the cooked folder dir, whose files m lists. The folder
// stays open for as long as the DirFiles is in use.
func OpenDir(dir string, m *manifest.Manifest) (*DirFiles, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot open cooked world %s: %v", dir, cause(err))
	}
	d := &DirFiles{root: root, bytes: make(map[string]int64, len(m.Cells)+1)}
	if m.Persistent.Path != "" {
		d.bytes[m.Persistent.Path] = m.Persistent.Bytes
	}
	for _, c := range m.Cells {
		d.bytes[c.Path] = c.Bytes
	}
	return d, nil
}

// Close releases the folder. (A DirFiles left open is released when it is
// garbage collected.)
func (d *DirFiles) Close() error { return d.root.Close() }

// tooLargeError is a file larger than its manifest size allows.
type tooLargeError struct {
	// Size is the file's size, Bytes its manifest size and Limit the
	// most that is read (manifest.ReadLimit(Bytes)).
	Size, Bytes, Limit int64
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%d bytes, more than the %d bytes its manifest size allows (%d + slack)", e.Size, e.Limit, e.Bytes)
}

// Open implements fs.FS: the file, checked as DirFiles says.
func (d *DirFiles) Open(name string) (fs.File, error) {
	f, _, err := d.open(name)
	return f, err
}

func (d *DirFiles) open(name string) (*os.File, int64, error) {
	bytes, ok := d.bytes[name]
	if !ok || !fs.ValidPath(name) {
		return nil, 0, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	f, st, err := regular.OpenIn(d.root, name)
	if err != nil {
		return nil, 0, &fs.PathError{Op: "open", Path: name, Err: cause(err)}
	}
	if limit := manifest.ReadLimit(bytes); st.Size() > limit {
		f.Close()
		return nil, 0, &fs.PathError{Op: "open", Path: name, Err: &tooLargeError{Size: st.Size(), Bytes: bytes, Limit: limit}}
	}
	return f, st.Size(), nil
}

// ReadFile implements fs.ReadFileFS: the whole file, checked as DirFiles
// says, never more than its size when opened.
func (d *DirFiles) ReadFile(name string) ([]byte, error) {
	f, size, err := d.open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAtMost(f, name, size)
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

func (d *DiskLoader) drop(doc *cellDoc) {
	if doc != nil {
		d.live.Add(-1)
	}
}

// Poll implements Loader: it applies finished loads until the frame time
// budget is spent, leaving the rest queued for the next frame.
func (d *DiskLoader) Poll(frame int) []Result {
	start := time.Now()
	var out []Result
	for {
		var r diskResult
		select {
		case r = <-d.done:
		default:
			d.lastApply, d.lastBacklog = time.Since(start), len(d.done)
			return out
		}
		delete(d.keys, r.res.ID)
		if d.takeCancelled(r.res.ID) {
			d.drop(r.doc)
			continue
		}
		if r.doc != nil {
			t := time.Now()
			r.res.Entities = r.doc.instantiate()
			r.res.Apply = time.Since(t)
			d.drop(r.doc)
		}
		out = append(out, r.res)
		if time.Since(start) >= d.cfg.FrameBudget {
			d.lastApply, d.lastBacklog = time.Since(start), len(d.done)
			return out
		}
	}
}

func (d *DiskLoader) frameTiming() (time.Duration, int, time.Duration) {
	return d.lastApply, d.lastBacklog, d.cfg.FrameBudget
}

// Progress reports the pool's work in jobs and bytes.
func (d *DiskLoader) Progress() progress { return d.pool.Progress() }

// Peak returns the most decoded documents held at once (read, decoded and
// not yet applied): what the completion queue's backpressure bounds.
func (d *DiskLoader) Peak() int64 { return d.peak.Load() }

// Live returns the decoded documents held now.
func (d *DiskLoader) Live() int64 { return d.live.Load() }

// Close implements Loader: queued reads are dropped, running ones finish
// and are discarded.
func (d *DiskLoader) Close() error {
	d.once.Do(func() {
		close(d.quit)
		d.pool.Close()
		for {
			select {
			case r := <-d.done:
				d.drop(r.doc)
			default:
				return
			}
		}
	})
	return nil
}

var _ Loader = (*DiskLoader)(nil)

// cellDoc is a cooked cell document as the runtime decodes it: the entity
// records, each with its components; component data stays raw, as the
// runtime hands it to each component's own deserialiser.
type cellDoc struct {
	Name     string      `json:"name"`
	Entities []docEntity `json:"entities"`
}

type docEntity struct {
	ID         json.RawMessage `json:"id"`
	Name       string          `json:"name"`
	Parent     json.RawMessage `json:"parent"`
	Prefab     json.RawMessage `json:"prefab"`
	Components []struct {
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	} `json:"components"`
}

func decodeCell(data []byte) (*cellDoc, error) {
	var doc cellDoc
	if err := jsondoc.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Entities == nil {
		return nil, errors.New(`no "entities" array`)
	}
	return &doc, nil
}

// instantiate does the frame-thread part of bringing a cell in: it builds
// the table from authored ids to entities and counts what exists.
func (doc *cellDoc) instantiate() int {
	ids := make(map[string]int, len(doc.Entities))
	for i := range doc.Entities {
		ids[string(doc.Entities[i].ID)] = i
	}
	return len(doc.Entities)
}
