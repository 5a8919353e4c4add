package streaming

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The conditions a run can be failed on (simulate --fail-on).
const (
	// FailHoles: a hole after the warm-up.
	FailHoles = "holes"
	// FailPopIn: a cell some source's view shows not resident, after the
	// pop-in warm-up (until the first frame without pop-in).
	FailPopIn = "pop-in"
	// FailOverBudget: a frame dispatched more bytes than the budget. The
	// first request of a frame always goes, so one request larger than
	// the budget is enough.
	FailOverBudget = "over-budget"
	// FailOverCap: a frame ended with more resident bytes than the cap,
	// eviction notwithstanding.
	FailOverCap = "over-cap"
	// FailFailures: a load was given up after its retries.
	FailFailures = "failures"
)

// FailConditions are the conditions in the order they are reported.
var FailConditions = []string{FailHoles, FailPopIn, FailOverBudget, FailOverCap, FailFailures}

// Gate is what fails a run: the conditions, and the warm-up whose holes
// do not count.
type Gate struct {
	FailOn []string
	// Warmup, when set, is the number of frames at the start whose holes
	// do not count. Unset, the warm-up lasts until the first frame at which
	// every source's position is fully resident (the first frame without
	// holes): the world streaming in at the start is what a loading screen
	// hides, not pop-in.
	//
	// The warm-up excuses holes only, and pop-in its own warm-up, until
	// the first frame without pop-in (a loading screen hides the world
	// streaming in under the camera; it does not hide a budget overrun, a
	// resident peak over the cap or a load given up).
	Warmup *int
}

// ParseFailOn reads condition names, given as a list or comma-separated
// (as a flag, an environment variable or YAML gives them), into the
// reporting order without repeats.
func ParseFailOn(list []string) ([]string, error) {
	seen := map[string]bool{}
	for _, item := range list {
		for _, name := range strings.Split(item, ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			if !slices.Contains(FailConditions, name) {
				return nil, fmt.Errorf("%q is not a condition: use %s", name, strings.Join(FailConditions, ", "))
			}
			seen[name] = true
		}
	}
	var out []string
	for _, c := range FailConditions {
		if seen[c] {
			out = append(out, c)
		}
	}
	return out, nil
}

// Check reports a gate that could never fail as asked: over-budget
// without a budget, over-cap without a cap. Such a gate would pass a CI
// job that meant to check something.
func (g Gate) Check(set Settings) error {
	if slices.Contains(g.FailOn, FailOverBudget) && set.Budget == nil {
		return fmt.Errorf("over-budget needs a budget to check against: set --budget")
	}
	if slices.Contains(g.FailOn, FailOverCap) && set.MaxResidentBytes == nil {
		return fmt.Errorf("over-cap needs a cap to check against: set --max-resident-bytes")
	}
	if g.Warmup != nil && *g.Warmup < 0 {
		return fmt.Errorf("warm-up %d must be 0 or more frames", *g.Warmup)
	}
	return nil
}

// GateResult is the verdict of a gate on a run.
type GateResult struct {
	FailOn []string `json:"failOn"`
	// Warmup is the number of frames at the start whose holes did not
	// count (the last of them is frame Summary.FirstFrame+Warmup-1);
	// WarmupAuto says it was found (the first frame without holes)
	// rather than given, and WarmupEnded whether such a frame came.
	Warmup      int  `json:"warmup"`
	WarmupAuto  bool `json:"warmupAuto"`
	WarmupEnded bool `json:"warmupEnded"`
	Failed      bool `json:"failed"`
	// Breaches are the conditions that held, in reporting order.
	Breaches []Breach `json:"breaches"`
	// PopInWarmup and PopInWarmupEnded are pop-in's warm-up, when pop-in
	// is a condition: the frames until the first without pop-in (or
	// --warmup), and whether such a frame came. Pop-in is counted where
	// its own start ends, not the holes': the load radius may reach far
	// past the view, and a hole out of sight is no pop-in.
	PopInWarmup      int  `json:"popInWarmup,omitempty"`
	PopInWarmupEnded bool `json:"popInWarmupEnded,omitempty"`
}

// Breach is a condition that held: where, and what it was.
type Breach struct {
	Condition string `json:"condition"`
	// Frames are the frames it held in, as ranges.
	Frames     []FrameRange `json:"frames"`
	FrameCount int          `json:"frameCount"`
	// Cells are the cells involved, in the order they first were: the
	// missing cells (holes), the requests of the frames over the budget
	// (over-budget), the cells that entered the world in the frames over
	// the cap (over-cap), the cells given up (failures).
	Cells  []string `json:"cells"`
	Detail string   `json:"detail"`
}

// FrameRange is a run of consecutive frames.
type FrameRange struct {
	First int `json:"first"`
	Last  int `json:"last"`
}

func (r FrameRange) String() string {
	if r.First == r.Last {
		return strconv.Itoa(r.First)
	}
	return fmt.Sprintf("%d-%d", r.First, r.Last)
}

// evaluateGate judges a run by its frame reports and summary (which holds
// the budget, the cap and the cells given up), so that it works for any
// policy that fills them.
func evaluateGate(frames []FrameReport, sum *Summary, g Gate) GateResult {
	w := newGateWatch(g, sum.Budget, sum.MaxResidentBytes)
	for i := range frames {
		w.add(&frames[i])
	}
	return w.verdict(sum)
}

// cellSet collects names in first-seen order without repeats.
type cellSet struct {
	seen  map[string]bool
	names []string
}

func (c *cellSet) add(names ...string) {
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	for _, n := range names {
		if !c.seen[n] {
			c.seen[n] = true
			c.names = append(c.names, n)
		}
	}
}

func (c *cellSet) list() []string {
	if c.names == nil {
		return []string{}
	}
	return c.names
}

// ranges adds frame f to a list of ranges built in increasing order.
func ranges(rs []FrameRange, f int) []FrameRange {
	if n := len(rs); n > 0 && rs[n-1].Last == f-1 {
		rs[n-1].Last = f
		return rs
	}
	return append(rs, FrameRange{f, f})
}

// frameWord is "frame" or "frames" for n.
func frameWord(n int) string {
	if n == 1 {
		return "frame"
	}
	return "frames"
}

// warmupSpan names the frames a warm-up of n frames covered, the first
// numbered first.
func warmupSpan(n, first int) string {
	switch n {
	case 0:
		return "no frame"
	case 1:
		return fmt.Sprintf("frame %d", first)
	}
	return fmt.Sprintf("frames %s", FrameRange{first, first + n - 1})
}

// shortRoute is the length under which a route whose every frame fails
// is called too short: a load takes a frame at least, so a route of a
// frame or two is its cold start alone.
const shortRoute = 2

func failureBreach(sum *Summary) Breach {
	var b Breach
	var cells cellSet
	frames := make([]int, 0, len(sum.GaveUp))
	for _, g := range sum.GaveUp {
		frames = append(frames, g.Frame)
		cells.add(g.Cell)
	}
	slices.Sort(frames)
	frames = slices.Compact(frames)
	for _, f := range frames {
		b.Frames = ranges(b.Frames, f)
	}
	b.FrameCount = len(frames)
	b.Cells = cells.list()
	if b.FrameCount > 0 {
		b.Detail = fmt.Sprintf("%d cells given up after their retries", len(b.Cells))
	}
	return b
}

// Message is the verdict in one line, for the exit status's error
// message: each condition that held, with its first frames and cells.
func (g *GateResult) Message() string {
	if !g.Failed {
		return "no --fail-on condition held"
	}
	parts := make([]string, len(g.Breaches))
	for i, b := range g.Breaches {
		parts[i] = fmt.Sprintf("%s in frames %s (%s)", b.Condition, FrameList(b.Frames, 4), NameList(b.Cells, 4))
	}
	return strings.Join(parts, "; ")
}

// FrameList renders at most n ranges: "40-42, 90 and 3 more ranges".
func FrameList(rs []FrameRange, n int) string {
	parts := make([]string, 0, min(len(rs), n))
	for i, r := range rs {
		if i == n {
			break
		}
		parts = append(parts, r.String())
	}
	s := strings.Join(parts, ", ")
	if len(rs) > n {
		s += fmt.Sprintf(" and %d more ranges", len(rs)-n)
	}
	return s
}

// NameList renders at most n names: "a, b and 3 more".
func NameList(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}
