package streaming

import (
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"sync/atomic"
	"time"

	json "github.com/goccy/go-json"
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
	pool *Pool
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

// NewDiskLoader starts the worker pool.
func NewDiskLoader(cfg DiskIO) (*DiskLoader, error) {
	if cfg.Files == nil {
		return nil, errors.New("disk IO needs the cooked files; simulate a cooked directory or manifest")
	}
	if cfg.Concurrency < 1 {
		return nil, fmt.Errorf("concurrency %d must be at least 1", cfg.Concurrency)
	}
	if cfg.FrameBudget < 0 {
		return nil, fmt.Errorf("frame budget %v must not be negative", cfg.FrameBudget)
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
	d.pool = NewPool(cfg.Concurrency, d.work)
	return d, nil
}

// Start implements Loader.
func (d *DiskLoader) Start(r Request) {
	d.keys[r.ID] = r.Name
	d.pool.Submit(Job{ID: r.ID, Key: r.Name, Bytes: r.Bytes, Distance: r.Distance, Payload: r})
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
func (d *DiskLoader) work(j Job) {
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
	data, err := fs.ReadFile(d.cfg.Files, req.Path)
	res.Read = time.Since(t0)
	res.BytesRead = int64(len(data))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cell file %s is missing; re-cook the world", req.Path)
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot read %s: %w", req.Path, err)
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
func (d *DiskLoader) Progress() Progress { return d.pool.Progress() }

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
	if err := json.Unmarshal(data, &doc); err != nil {
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
