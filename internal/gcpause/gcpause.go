// Package gcpause turns garbage collection off while a job builds a
// large heap that stays live until the job ends.
//
// Parsing a world fills arenas of entity records that hold pointers, and
// a cook keeps them until its last cell is written. A collection in the
// middle scans all of them to find almost nothing to free: on a
// 1M-entity world the one collection after the parse cost about 0.2 s of
// CPU. During the parse it was worse: reading the arenas' untouched
// pages maps the shared zero page there, and every later first write to
// such a page becomes a copy-on-write fault with a TLB shootdown across
// all cores.
//
// Pauses are counted, so that overlapping jobs (a directory of scenes
// cooked in parallel) restore the settings only when the last one ends.
// A job may give a memory budget: unless the program has a memory limit
// of its own (GOMEMLIMIT), a soft limit of the memory in use when the
// first pause began plus the budgets of the jobs running applies during
// the pause, so the garbage a job does make is still collected before
// memory runs short.
package gcpause

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

type pauses struct {
	sync.Mutex
	n       int
	percent int   // the GC percent before the first pause
	limit   int64 // the memory limit before the first pause
	base    int64 // memory in use when the first pause began
	budget  int64 // the budgets of the pauses running
}

var state pauses

// Pause turns garbage collection off until resume is called. budget is
// how much memory the paused job is expected to need at most, or 0 for
// no bound of its own.
func Pause(budget int64) (resume func()) {
	s := &state
	s.Lock()
	defer s.Unlock()
	if s.n == 0 {
		s.percent = debug.SetGCPercent(-1)
		s.limit = debug.SetMemoryLimit(-1)
		s.base = inUse()
	}
	s.n++
	s.budget += budget
	s.applyLimit()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.Lock()
			defer s.Unlock()
			s.n--
			s.budget -= budget
			if s.n == 0 {
				debug.SetGCPercent(s.percent)
				debug.SetMemoryLimit(s.limit)
				return
			}
			s.applyLimit()
		})
	}
}

// applyLimit sets the soft memory limit for the pauses running, leaving a
// limit the program set alone.
func (s *pauses) applyLimit() {
	switch {
	case s.limit != math.MaxInt64:
		// The program's own limit stands.
	case s.budget > 0:
		debug.SetMemoryLimit(s.base + s.budget)
	default:
		debug.SetMemoryLimit(math.MaxInt64)
	}
}

func inUse() int64 {
	m := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(m)
	if m[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(min(m[0].Value.Uint64(), math.MaxInt64))
}

// ForInput is the budget of a job that parses and checks a scene of n
// bytes: a cook's heap has measured at about the scene's size, and the
// budget allows twice that, plus room for the program itself.
func ForInput(n int) int64 { return 2*int64(n) + 256<<20 }

// Job pauses collection for a job that parses and checks a scene of n
// bytes (see ForInput): the policy the worldcook program gives the cook.
func Job(n int) (resume func()) { return Pause(ForInput(n)) }
