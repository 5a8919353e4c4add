package scene

import (
	"runtime/debug"
	"sync"
)

// The parallel parse allocates its arenas at full size up front and fills
// them as it goes. A garbage collection during the parse scans the arenas
// (they hold pointers), and reading their untouched pages maps the shared
// zero page there; every later first write to such a page is then a
// copy-on-write fault with a TLB shootdown across all cores. On a
// 1M-entity world that cost more system time than the parse itself, and
// the parse makes no garbage to collect, so collection is paused while it
// runs. The pause is counted so that overlapping parses (a directory of
// scenes cooked in parallel) restore the setting only when the last ends.
// A memory limit (GOMEMLIMIT) still applies during the pause.
var gcPause struct {
	sync.Mutex
	n       int
	percent int
}

// pauseGC pauses garbage collection until the returned function is called.
func pauseGC() (resume func()) {
	gcPause.Lock()
	if gcPause.n == 0 {
		gcPause.percent = debug.SetGCPercent(-1)
	}
	gcPause.n++
	gcPause.Unlock()
	return func() {
		gcPause.Lock()
		gcPause.n--
		if gcPause.n == 0 {
			debug.SetGCPercent(gcPause.percent)
		}
		gcPause.Unlock()
	}
}
