package streaming

import (
	"container/heap"
	"sync"
)

// job is one unit of work for a Pool.
type job struct {
	ID uint64
	// Key identifies what the job loads; a job submitted while another
	// with the same key is still queued is merged into it.
	Key string
	// Bytes is the expected size, for progress by bytes.
	Bytes int64
	// Distance orders the queue: nearer jobs run first, ties in submission
	// order.
	Distance float64
	// Payload is carried to the worker untouched.
	Payload any
}

// progress is a snapshot of a Pool's work, counted in jobs and in bytes.
type progress struct {
	Done, Total           int
	BytesDone, BytesTotal int64
}

// Ratio is the fraction of bytes done, in [0, 1].
func (p progress) Ratio() float64 {
	if p.BytesTotal <= 0 {
		if p.Total == 0 || p.Done >= p.Total {
			return 1
		}
		return float64(p.Done) / float64(p.Total)
	}
	return float64(p.BytesDone) / float64(p.BytesTotal)
}

// pool runs jobs on a fixed number of goroutines, nearest first. Submitting
// a key that is already queued merges the two, keeping the nearer
// distance, so a cell asked for twice is read once.
type pool struct {
	mu sync.Mutex
	// more wakes workers when a job arrives; settled wakes Wait when the
	// pool runs dry. Two conditions, so a Signal meant for a worker is
	// never swallowed by a waiter.
	more, settled sync.Cond
	queue         jobHeap
	queued        map[string]*poolItem
	seq           uint64
	active        int
	closed        bool
	prog          progress
	work          func(job)
	wg            sync.WaitGroup
}

type poolItem struct {
	job   job
	seq   uint64
	index int
}

// newPool starts workers goroutines (at least one) that call work for each
// job. work may block, for instance on a full completion queue: that is
// how backpressure reaches the pool.
func newPool(workers int, work func(job)) *pool {
	p := &pool{queued: make(map[string]*poolItem), work: work}
	p.more.L, p.settled.L = &p.mu, &p.mu
	workers = max(workers, 1)
	p.wg.Add(workers)
	for range workers {
		go p.run()
	}
	return p
}

// Submit queues j. If a job with the same key is queued, the two merge:
// the queued job keeps its ID and takes the nearer distance, and Submit
// returns that ID with merged set. A closed pool drops the job.
func (p *pool) Submit(j job) (id uint64, merged bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return j.ID, false
	}
	if it, ok := p.queued[j.Key]; ok {
		if j.Distance < it.job.Distance {
			it.job.Distance = j.Distance
			heap.Fix(&p.queue, it.index)
		}
		return it.job.ID, true
	}
	p.seq++
	it := &poolItem{job: j, seq: p.seq}
	heap.Push(&p.queue, it)
	p.queued[j.Key] = it
	p.prog.Total++
	p.prog.BytesTotal += j.Bytes
	p.more.Signal()
	return j.ID, false
}

// Cancel removes the queued job with the given key, reporting whether it
// was still queued (a running job is not interrupted).
func (p *pool) Cancel(key string) bool {
	return p.cancel(key, nil)
}

// cancel removes the queued job with the given key, and the given ID if id
// is not nil, so that a stale cancellation never removes a newer job.
func (p *pool) cancel(key string, id *uint64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	it, ok := p.queued[key]
	if !ok || (id != nil && it.job.ID != *id) {
		return false
	}
	heap.Remove(&p.queue, it.index)
	delete(p.queued, key)
	p.prog.Total--
	p.prog.BytesTotal -= it.job.Bytes
	if p.idle() {
		p.settled.Broadcast()
	}
	return true
}

// Progress returns the work done so far against the work submitted.
func (p *pool) Progress() progress {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.prog
}

// Queued returns the number of jobs waiting for a worker.
func (p *pool) Queued() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queue)
}

// Wait blocks until no job is queued or running.
func (p *pool) Wait() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.idle() {
		p.settled.Wait()
	}
}

// Close drops the queued jobs and waits for the running ones to return.
func (p *pool) Close() {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		for _, it := range p.queue {
			delete(p.queued, it.job.Key)
			p.prog.Total--
			p.prog.BytesTotal -= it.job.Bytes
		}
		p.queue = nil
		p.more.Broadcast()
		p.settled.Broadcast()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

func (p *pool) idle() bool { return len(p.queue) == 0 && p.active == 0 }

func (p *pool) run() {
	defer p.wg.Done()
	p.mu.Lock()
	for {
		for len(p.queue) == 0 && !p.closed {
			p.more.Wait()
		}
		if p.closed {
			p.mu.Unlock()
			return
		}
		it := heap.Pop(&p.queue).(*poolItem)
		delete(p.queued, it.job.Key)
		p.active++
		p.mu.Unlock()

		p.work(it.job)

		p.mu.Lock()
		p.active--
		p.prog.Done++
		p.prog.BytesDone += it.job.Bytes
		if p.idle() {
			p.settled.Broadcast()
		}
	}
}

// jobHeap is a min-heap on (distance, submission order).
type jobHeap []*poolItem

func (h jobHeap) Len() int { return len(h) }
func (h jobHeap) Less(a, b int) bool {
	if h[a].job.Distance != h[b].job.Distance {
		return h[a].job.Distance < h[b].job.Distance
	}
	return h[a].seq < h[b].seq
}
func (h jobHeap) Swap(a, b int) {
	h[a], h[b] = h[b], h[a]
	h[a].index, h[b].index = a, b
}
func (h *jobHeap) Push(x any) {
	it := x.(*poolItem)
	it.index = len(*h)
	*h = append(*h, it)
}
func (h *jobHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return it
}
