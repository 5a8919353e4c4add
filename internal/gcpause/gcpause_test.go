package gcpause

import (
	"math"
	"runtime/debug"
	"testing"
)

func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

func memoryLimit() int64 { return debug.SetMemoryLimit(-1) }

// TestPauseOverlapping: overlapping pauses (scenes cooked in parallel)
// keep collection off until the last one ends, then restore the setting
// that was there before the first.
func TestPauseOverlapping(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(77))
	first := Pause(0)
	second := Pause(0)
	if got := gcPercent(); got >= 0 {
		t.Fatalf("GC percent %d during a pause, want off", got)
	}
	first()
	first() // a second call changes nothing
	if got := gcPercent(); got >= 0 {
		t.Fatalf("GC percent %d after one of two pauses ended, want still off", got)
	}
	second()
	if got := gcPercent(); got != 77 {
		t.Fatalf("GC percent %d after both pauses, want 77", got)
	}
}

// TestPauseBudgets: without a limit of the program's own, the budgets of
// the running pauses set a soft memory limit above what was in use; a
// limit the program set is left alone.
func TestPauseBudgets(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	a := Pause(1 << 30)
	base := state.base
	if got := memoryLimit(); got != base+1<<30 {
		t.Fatalf("limit %d with one budget, want %d", got, base+1<<30)
	}
	b := Pause(2 << 30)
	if got := memoryLimit(); got != base+3<<30 {
		t.Fatalf("limit %d with two budgets, want %d", got, base+3<<30)
	}
	a()
	if got := memoryLimit(); got != base+2<<30 {
		t.Fatalf("limit %d after one ended, want %d", got, base+2<<30)
	}
	b()
	if got := memoryLimit(); got != math.MaxInt64 {
		t.Fatalf("limit %d after both ended, want none", got)
	}

	debug.SetMemoryLimit(5 << 30)
	c := Pause(1 << 30)
	if got := memoryLimit(); got != 5<<30 {
		t.Fatalf("limit %d during a pause, want the program's own 5 GiB", got)
	}
	c()
	if got := memoryLimit(); got != 5<<30 {
		t.Fatalf("limit %d after the pause, want the program's own 5 GiB", got)
	}
}
