package streaming

import (
	"fmt"
	"hash/fnv"
	"math"
	"time"
)

// Request asks the IO layer for one attempt at loading a cell.
type Request struct {
	// ID identifies this attempt; a Result answers it.
	ID uint64
	// Cell is the cell's index in the scheduler's world.
	Cell int
	Name string
	Path string
	// Bytes is the size of the representation chosen at dispatch.
	Bytes int64
	Proxy bool
	// Prefetch is true for a request dispatched for a prefetch radius only.
	Prefetch bool
	// Attempt counts from 1; a retry has Attempt > 1.
	Attempt int
	// Frame is the frame the request was dispatched in.
	Frame int
	// Distance is the squared distance to the nearest source at dispatch:
	// nearer requests are served first.
	Distance float64
	// Assets are the project paths of the asset files this attempt loads
	// besides the document: the cell's assets nothing else held at
	// dispatch (their sizes are part of Bytes).
	Assets []string
}

// Result answers a Request.
type Result struct {
	ID   uint64
	Cell int
	// Err is set when the attempt failed; the scheduler retries it.
	Err error
	// Entities is the number of entities decoded, or -1 when the IO layer
	// does not decode (modelled IO).
	Entities int
	// Read, Decode and Apply are the real times spent (disk IO only):
	// reading the file and decoding it on a worker, and applying the
	// result on the frame's thread.
	Read, Decode, Apply time.Duration
	// BytesRead is the size of the file read (disk IO only).
	BytesRead int64
}

// Loader is the IO layer under the scheduler. The scheduler calls it from
// one goroutine: Start and Cancel during a frame, Poll once at the start of
// each frame, Close when done.
type Loader interface {
	// Start begins an attempt.
	Start(r Request)
	// Cancel abandons an attempt; no Result for it is delivered after.
	Cancel(id uint64)
	// Poll returns the attempts that finished by the start of frame, in
	// the order they are to be applied.
	Poll(frame int) []Result
	// Close stops the IO layer and releases its resources.
	Close() error
}

// FailureModel injects load failures deterministically: whether attempt n
// of a cell fails depends only on the seed, the cell name and n, never on
// timing, so modelled runs stay reproducible.
type FailureModel struct {
	// Rate is the probability that an attempt fails, in [0, 1].
	Rate float64
	Seed uint64
}

// Fails reports whether the given attempt at the named cell fails.
func (f FailureModel) Fails(name string, attempt int) bool {
	if !(f.Rate > 0) {
		return false
	}
	if f.Rate >= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	x := h.Sum64() ^ f.Seed*0x9e3779b97f4a7c15 ^ uint64(attempt)*0xbf58476d1ce4e5b9
	// splitmix64 finaliser: spreads the bits so nearby inputs decorrelate.
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11)/float64(1<<53) < f.Rate
}

func (f FailureModel) err(attempt int) error {
	return fmt.Errorf("injected load failure (attempt %d, fail rate %v, seed %d)", attempt, f.Rate, f.Seed)
}

// ModelIO configures the deterministic IO model.
type ModelIO struct {
	// LatencyFrames is the number of frames from dispatch to completion: a
	// request dispatched in frame f completes at the start of frame
	// f+LatencyFrames (0 behaves like 1: a request never completes in the
	// frame that dispatched it).
	LatencyFrames int
	// BytesPerFrame, when set, is the bandwidth of one modelled device that
	// serves requests in dispatch order; a request completes once all its
	// bytes are through and its latency has passed.
	BytesPerFrame *int64
	Fail          FailureModel
}

// ModelLoader is the deterministic IO model: a fixed latency, an optional
// first-in-first-out bandwidth, and seeded failures.
type ModelLoader struct {
	cfg   ModelIO
	queue []*modelReq
	byID  map[uint64]*modelReq
}

type modelReq struct {
	req       Request
	remaining int64
	readyAt   int
	dead      bool
}

// NewModelLoader returns a modelled IO layer.
func NewModelLoader(cfg ModelIO) *ModelLoader {
	return &ModelLoader{cfg: cfg, byID: make(map[uint64]*modelReq)}
}

// Start implements Loader.
func (m *ModelLoader) Start(r Request) {
	q := &modelReq{req: r, remaining: r.Bytes, readyAt: r.Frame + m.cfg.LatencyFrames}
	if m.cfg.BytesPerFrame == nil {
		q.remaining = 0
	}
	m.queue = append(m.queue, q)
	m.byID[r.ID] = q
}

// Cancel implements Loader.
func (m *ModelLoader) Cancel(id uint64) {
	if q, ok := m.byID[id]; ok {
		q.dead = true
		delete(m.byID, id)
	}
}

// Poll implements Loader. Results come in dispatch order.
func (m *ModelLoader) Poll(frame int) []Result {
	if bw := m.cfg.BytesPerFrame; bw != nil {
		// The device worked through the frame that just ended: it moves
		// up to bw bytes of the requests dispatched before this frame.
		left := *bw
		for _, q := range m.queue {
			if left <= 0 {
				break
			}
			if q.dead || q.remaining == 0 || q.req.Frame >= frame {
				continue
			}
			n := min(left, q.remaining)
			q.remaining -= n
			left -= n
		}
	}
	var out []Result
	keep := m.queue[:0]
	for _, q := range m.queue {
		if q.dead {
			continue
		}
		if q.remaining > 0 || q.readyAt > frame || q.req.Frame >= frame {
			keep = append(keep, q)
			continue
		}
		delete(m.byID, q.req.ID)
		r := Result{ID: q.req.ID, Cell: q.req.Cell, Entities: -1}
		if m.cfg.Fail.Fails(q.req.Name, q.req.Attempt) {
			r.Err = m.cfg.Fail.err(q.req.Attempt)
		}
		out = append(out, r)
	}
	clear(m.queue[len(keep):])
	m.queue = keep
	return out
}

// Close implements Loader.
func (m *ModelLoader) Close() error { return nil }

// InFlight returns the number of attempts the model holds.
func (m *ModelLoader) InFlight() int { return len(m.byID) }

var _ Loader = (*ModelLoader)(nil)

// sq returns v*v, or +Inf for an infinite radius.
func sq(v float64) float64 {
	if math.IsInf(v, 1) {
		return v
	}
	return v * v
}
