package streaming

import (
	"errors"
	"fmt"
	"math"
)

// DistanceMode says what a source's distance to a cell is measured to.
type DistanceMode int

const (
	// DistanceBounds measures to the cell's grown bounds (0 inside). A
	// source standing in the corner of a cell and one a whole cell away
	// read differently, which a centre distance cannot tell apart.
	DistanceBounds DistanceMode = iota
	// DistanceCenter measures to the centre of the cell's grid square, as
	// the reference scheduler does.
	DistanceCenter
)

func (d DistanceMode) String() string {
	if d == DistanceCenter {
		return "center"
	}
	return "bounds"
}

// ParseDistance reads "bounds" (or "") and "center".
func ParseDistance(s string) (DistanceMode, error) {
	switch s {
	case "", "bounds":
		return DistanceBounds, nil
	case "center", "centre":
		return DistanceCenter, nil
	}
	return 0, fmt.Errorf("distance %q must be bounds or center", s)
}

// Settings are the scheduler's rules. A nil pointer means "not set" (no
// limit, no cap, no pinning, no LOD), which differs from 0: a budget of 0
// still admits the first request of each frame, a cap of 0 evicts every
// unpinned cell, a pinned radius of 0 pins only cells at distance 0, and a
// LOD radius of 0 gives proxies to every cell not at distance 0.
type Settings struct {
	Distance DistanceMode
	// Budget is the number of bytes that may start loading per frame. The
	// first request of a frame is always admitted, so a cell larger than
	// the budget still loads, alone.
	Budget *int64
	// MaxInFlight caps the requests at the IO layer at once.
	MaxInFlight *int
	// LODRadius chooses a cell's representation at dispatch: within it the
	// full Bytes, beyond it ProxyBytes (for cells that have a proxy).
	LODRadius *float64
	// MaxResidentBytes is the resident-bytes cap that eviction enforces.
	MaxResidentBytes *int64
	// PinnedRadius protects cells this close to a source from eviction.
	PinnedRadius *float64
	// EvictCooldown is the number of frames, counting the frame of the
	// eviction, during which an evicted cell is not dispatched again. With
	// 0 an evicted cell that a source still wants is dispatched again in
	// the same frame, as in the reference scheduler.
	EvictCooldown int
	// Retry is the policy for failed loads.
	Retry RetryPolicy
	// IgnoreAssets leaves the world's assets out: requests and resident
	// bytes count the cell documents only, as for a world without assets.
	// (The runtime model's counterpart is EstellaHost.IgnoreAssets.)
	IgnoreAssets bool
}

// RetryPolicy bounds how a failed or hung load is retried, so that no cell
// stays in loading forever.
type RetryPolicy struct {
	// Retries is the number of attempts after the first failure before the
	// cell is given up (until every source has left it behind).
	Retries int
	// TimeoutFrames abandons an attempt that has not finished this many
	// frames after dispatch and counts it as a failure; 0 means no timeout.
	TimeoutFrames int
	// BackoffFrames is the wait after the first failure; it doubles after
	// each further failure, up to MaxBackoffFrames (0: no cap). A retry is dispatched
	// like any request, so it spends the frame's byte budget: a storm of
	// retries cannot break the budget.
	BackoffFrames    int
	MaxBackoffFrames int
}

// DefaultRetry is the policy the simulate command uses: three retries,
// waiting 2, 4 and 8 frames, and a 300-frame (5 s at 60 Hz) timeout.
func DefaultRetry() RetryPolicy {
	return RetryPolicy{Retries: 3, TimeoutFrames: 300, BackoffFrames: 2, MaxBackoffFrames: 64}
}

// backoff returns the wait after the given number of failed attempts.
func (r RetryPolicy) backoff(failures int) int {
	wait := r.BackoffFrames
	for i := 1; i < failures && wait > 0 && wait < 1<<20; i++ {
		wait *= 2
	}
	if r.MaxBackoffFrames > 0 && wait > r.MaxBackoffFrames {
		wait = r.MaxBackoffFrames
	}
	return wait
}

// MaxFrameSetting bounds settings counted in frames (evict cooldown,
// retry timeout and backoff): about a year at 60 Hz, far past any route
// (MaxRouteFrames), and small enough that adding one to a frame number
// never wraps.
const MaxFrameSetting = math.MaxInt32

// Check reports the first setting that cannot be used.
func (s Settings) Check() error {
	if s.Budget != nil && *s.Budget < 0 {
		return fmt.Errorf("budget %d must not be negative", *s.Budget)
	}
	if s.MaxInFlight != nil && *s.MaxInFlight < 0 {
		return fmt.Errorf("max in flight %d must not be negative", *s.MaxInFlight)
	}
	if s.MaxResidentBytes != nil && *s.MaxResidentBytes < 0 {
		return fmt.Errorf("max resident bytes %d must not be negative", *s.MaxResidentBytes)
	}
	for _, r := range []struct {
		name string
		v    *float64
	}{{"LOD radius", s.LODRadius}, {"pinned radius", s.PinnedRadius}} {
		if r.v != nil && (*r.v < 0 || !finite(*r.v)) {
			return fmt.Errorf("%s %v must be a finite number, not negative", r.name, *r.v)
		}
	}
	if s.EvictCooldown < 0 {
		return fmt.Errorf("evict cooldown %d must not be negative", s.EvictCooldown)
	}
	if s.EvictCooldown > MaxFrameSetting {
		return fmt.Errorf("evict cooldown %d must be at most %d frames", s.EvictCooldown, MaxFrameSetting)
	}
	if s.Distance != DistanceBounds && s.Distance != DistanceCenter {
		return errors.New("unknown distance mode")
	}
	r := s.Retry
	if r.Retries < 0 || r.TimeoutFrames < 0 || r.BackoffFrames < 0 || r.MaxBackoffFrames < 0 {
		return errors.New("retry settings must not be negative")
	}
	if max(r.TimeoutFrames, r.BackoffFrames, r.MaxBackoffFrames) > MaxFrameSetting {
		return fmt.Errorf("retry timeout and backoff must be at most %d frames", MaxFrameSetting)
	}
	return nil
}

// Int64 returns a pointer to v, for optional settings.
func Int64(v int64) *int64 { return &v }

// Int returns a pointer to v, for optional settings.
func Int(v int) *int { return &v }

// Float returns a pointer to v, for optional settings.
func Float(v float64) *float64 { return &v }
