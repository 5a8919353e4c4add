package scene

import (
	"runtime/debug"
	"testing"
)

func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// TestPauseGCOverlapping: overlapping pauses (scenes parsed in parallel)
// keep collection off until the last one ends, then restore the setting
// that was there before the first.
func TestPauseGCOverlapping(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(77))
	first := pauseGC()
	second := pauseGC()
	if got := gcPercent(); got >= 0 {
		t.Fatalf("GC percent %d during a pause, want off", got)
	}
	first()
	if got := gcPercent(); got >= 0 {
		t.Fatalf("GC percent %d after one of two pauses ended, want still off", got)
	}
	second()
	if got := gcPercent(); got != 77 {
		t.Fatalf("GC percent %d after both pauses, want 77", got)
	}
}
