package streaming

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/worldcook/worldcook/grid"
)

// HoleCause is the likely reason a hole is missing, as the scheduler saw
// it (see Scheduler.holeCause for the heuristic). Causes are ordered: a
// later one explains the earlier ones, so it wins when both apply.
type HoleCause uint8

const (
	// CauseNone: nothing held the cell back (internal).
	CauseNone HoleCause = iota
	// CauseUnknown: the policy did not say.
	CauseUnknown
	// CauseStart: requested in the first frame; nothing can be resident
	// before the route starts.
	CauseStart
	// CauseLatency: prefetched in time, but the load took longer than the
	// source took to come within the load radius.
	CauseLatency
	// CausePrefetchRadius: requested only when the source was already
	// within the load radius: the prefetch radius gave no lead.
	CausePrefetchRadius
	// CauseBudget: kept waiting by the per-frame byte budget.
	CauseBudget
	// CauseInFlight: kept waiting by the cap on requests in flight.
	CauseInFlight
	// CauseEviction: evicted by the resident-bytes cap while still wanted
	// (and possibly waiting out the eviction cooldown).
	CauseEviction
	// CauseFailure: a load of the cell failed.
	CauseFailure
	// CauseLoadRadius: a source's view shows the cell, but it lies beyond
	// every load radius, so nothing publishes it (pop-in only).
	CauseLoadRadius
	// CausePlane: the runtime, which samples the sources on x and z, does
	// not want the cell where a source stands on a world cut on x and y
	// (Estella's runtime only).
	CausePlane

	// NumCauses is the number of causes, CauseNone included.
	NumCauses
)

var causeNames = [NumCauses]string{"", "unknown", "start", "latency", "prefetch-radius", "budget", "in-flight", "eviction", "failure", "load-radius", "plane"}

func (c HoleCause) String() string {
	if c < NumCauses && c != CauseNone {
		return causeNames[c]
	}
	return "unknown"
}

// MarshalText writes the cause's name, for JSON.
func (c HoleCause) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a cause's name.
func (c *HoleCause) UnmarshalText(b []byte) error {
	for i, n := range causeNames {
		if n != "" && n == string(b) {
			*c = HoleCause(i)
			return nil
		}
	}
	return fmt.Errorf("unknown hole cause %q", b)
}

// Advice says in a sentence what the cause means and what helps.
func (c HoleCause) Advice() string {
	switch c {
	case CauseStart:
		return "the route starts here: nothing is resident before the first frame"
	case CauseLatency:
		return "prefetched in time, but the load took longer than the source took to reach the load radius: raise --prefetch-radius or speed up IO"
	case CausePrefetchRadius:
		return "requested only once the source was within the load radius: the prefetch radius gives no lead at this speed; raise --prefetch-radius"
	case CauseBudget:
		return "kept waiting by the per-frame --budget: raise it, or split the cells that fill it"
	case CauseInFlight:
		return "kept waiting by --max-in-flight: raise it"
	case CauseEviction:
		return "evicted by the --max-resident-bytes cap while still wanted: raise the cap or --pinned-radius"
	case CauseFailure:
		return "its load failed (see failures)"
	case CauseLoadRadius:
		return "the camera shows it, but it lies beyond every load radius, so it is never published while it shows: raise --load-radius to at least the view's reach (its half-diagonal, or a perspective camera's farPlane); worldcook tune finds the radii"
	case CausePlane:
		return "Estella's runtime samples the sources on X and Z, so on this world cut on X and Y it asks for the cells under (x, z), not where the source stands: no radius helps; the runtime streams a world laid out and cut on X and Z (--plane xz; in worldcook.yaml cook: {plane: xz})"
	}
	return "the policy does not say why"
}

// HoleEpisode is a run of consecutive frames with at least one hole.
type HoleEpisode struct {
	First int `json:"first"`
	Last  int `json:"last"`
	// MaxHoles is the most holes of any frame of the episode.
	MaxHoles int `json:"maxHoles"`
	// Sources are the stretches of the route the enabled sources covered.
	Sources []SourceSpan `json:"sources"`
	// Cells are the cells that were missing, in the order they first were.
	Cells []EpisodeCell `json:"cells"`
	// Cause is the cause of most of the episode's missing cell-frames
	// (ties: the later cause, which explains the earlier); Causes counts
	// the cell-frames of each, most first.
	Cause  HoleCause    `json:"cause"`
	Causes []CauseCount `json:"causes"`
}

// Frames is the number of frames the episode lasted.
func (e *HoleEpisode) Frames() int { return e.Last - e.First + 1 }

// SourceSpan is where a source went during an episode: from, to, and the
// box around every position in between.
type SourceSpan struct {
	Source string `json:"source"`
	From   XZ     `json:"from"`
	To     XZ     `json:"to"`
	Min    XZ     `json:"min"`
	Max    XZ     `json:"max"`
}

// XZ is a position on the partition plane.
type XZ = grid.Point

// EpisodeCell is a cell missing during an episode.
type EpisodeCell struct {
	Cell string `json:"cell"`
	// First is the first frame of the episode it was missing in; Frames
	// the number of frames it was.
	First  int `json:"first"`
	Frames int `json:"frames"`
	// Cause is its most frequent cause over those frames.
	Cause HoleCause `json:"cause"`
}

// CauseCount is how many missing cell-frames of an episode had a cause.
type CauseCount struct {
	Cause      HoleCause `json:"cause"`
	CellFrames int       `json:"cellFrames"`
}

// holeEpisodes finds the hole episodes of a run from its frame reports,
// whatever policy made them.
func holeEpisodes(frames []FrameReport) []HoleEpisode {
	e := episodes{missing: func(r *FrameReport) ([]string, []HoleCause) { return r.Holes, r.HoleCauses }}
	for i := range frames {
		e.add(&frames[i])
	}
	return e.list()
}

// episodes builds hole (or pop-in) episodes one frame at a time.
type episodes struct {
	// missing are the cells a frame misses, and their causes.
	missing func(*FrameReport) ([]string, []HoleCause)
	done    []HoleEpisode
	cur     *HoleEpisode
	// Per cell of the open episode: its index in cur.Cells and its
	// cell-frames by cause.
	index  map[string]int
	counts [][NumCauses]int
}

func (e *episodes) add(r *FrameReport) {
	holes, causes := e.missing(r)
	if len(holes) == 0 {
		e.close()
		return
	}
	if e.cur == nil {
		e.cur = &HoleEpisode{First: r.Frame}
		e.index = map[string]int{}
		e.counts = e.counts[:0]
		for _, p := range r.Positions {
			at := XZ{X: p.X, Z: p.Z}
			e.cur.Sources = append(e.cur.Sources, SourceSpan{Source: p.Source, From: at, To: at, Min: at, Max: at})
		}
	}
	ep := e.cur
	ep.Last = r.Frame
	ep.MaxHoles = max(ep.MaxHoles, len(holes))
	for _, p := range r.Positions {
		k := slices.IndexFunc(ep.Sources, func(s SourceSpan) bool { return s.Source == p.Source })
		if k < 0 {
			at := XZ{X: p.X, Z: p.Z}
			ep.Sources = append(ep.Sources, SourceSpan{Source: p.Source, From: at, Min: at, Max: at})
			k = len(ep.Sources) - 1
		}
		s := &ep.Sources[k]
		s.To = XZ{X: p.X, Z: p.Z}
		s.Min = XZ{X: math.Min(s.Min.X, p.X), Z: math.Min(s.Min.Z, p.Z)}
		s.Max = XZ{X: math.Max(s.Max.X, p.X), Z: math.Max(s.Max.Z, p.Z)}
	}
	for k, name := range holes {
		cause := CauseUnknown
		if k < len(causes) && causes[k] != CauseNone {
			cause = causes[k]
		}
		i, ok := e.index[name]
		if !ok {
			i = len(ep.Cells)
			e.index[name] = i
			ep.Cells = append(ep.Cells, EpisodeCell{Cell: name, First: r.Frame})
			e.counts = append(e.counts, [NumCauses]int{})
		}
		ep.Cells[i].Frames++
		e.counts[i][cause]++
	}
}

// close finishes the open episode, if any.
func (e *episodes) close() {
	if e.cur == nil {
		return
	}
	ep := e.cur
	var total [NumCauses]int
	for i := range ep.Cells {
		ep.Cells[i].Cause = strongest(&e.counts[i])
		for c, n := range e.counts[i] {
			total[c] += n
		}
	}
	ep.Cause = strongest(&total)
	for c, n := range total {
		if n > 0 {
			ep.Causes = append(ep.Causes, CauseCount{Cause: HoleCause(c), CellFrames: n})
		}
	}
	slices.SortStableFunc(ep.Causes, func(a, b CauseCount) int {
		if c := cmp.Compare(b.CellFrames, a.CellFrames); c != 0 {
			return c
		}
		return cmp.Compare(b.Cause, a.Cause)
	})
	e.done = append(e.done, *ep)
	e.cur = nil
}

// strongest is the cause with the most cell-frames; ties go to the later
// cause.
func strongest(counts *[NumCauses]int) HoleCause {
	best := CauseUnknown
	for c := CauseUnknown; c < NumCauses; c++ {
		if counts[c] > 0 && counts[c] >= counts[best] {
			best = c
		}
	}
	return best
}

// list closes the open episode and returns them all.
func (e *episodes) list() []HoleEpisode {
	e.close()
	if e.done == nil {
		return []HoleEpisode{}
	}
	return e.done
}
