package tune

import (
	"fmt"
	"slices"
	"strings"

	"github.com/worldcook/worldcook/internal/english"

	"github.com/worldcook/worldcook/streaming"
)

// conclude counts the outcomes and ranks the feasible ones.
func (r *Result) conclude(top int) {
	routeFrames := make([]int, len(r.Routes))
	known := func(out *Outcome) {
		if out.Pruned {
			return
		}
		for i, f := range out.Routes {
			routeFrames[i] = f.Frames
		}
	}
	if r.Authored != nil {
		known(r.Authored)
	}
	var feasible []int
	for i := range r.Outcomes {
		out := &r.Outcomes[i]
		if !out.Run {
			continue
		}
		known(out)
		r.Evaluated++
		if out.Pruned {
			r.Pruned++
		}
		if out.Feasible {
			r.Feasible++
			feasible = append(feasible, i)
		}
	}
	for i := range r.Outcomes {
		out := &r.Outcomes[i]
		if !out.Run || !out.Pruned {
			continue
		}
		for k := range r.Routes {
			if k >= len(out.Routes) {
				r.PrunedRuns++
				r.PrunedFrames += routeFrames[k]
			} else {
				r.PrunedFrames += routeFrames[k] - out.Routes[k].Frames
			}
		}
	}
	slices.SortFunc(feasible, func(a, b int) int { return r.Objective.compare(&r.Outcomes[a], &r.Outcomes[b]) })
	r.Top = feasible[:min(top, len(feasible))]
	if r.Top == nil {
		r.Top = []int{}
	}
	if len(r.Top) > 0 {
		r.Best = r.Top[0]
	}
	r.Pareto = r.front(feasible)
}

// front returns the Pareto front of the feasible outcomes on (peak
// resident, loads), by increasing peak: the outcomes no other one beats on
// one figure without losing on the other. Of outcomes with the same two
// figures only the first in rank order is on it.
func (r *Result) front(feasible []int) []int {
	byPeak := slices.Clone(feasible)
	slices.SortStableFunc(byPeak, func(a, b int) int {
		x, y := &r.Outcomes[a], &r.Outcomes[b]
		if c := cmpFloat(float64(x.PeakResidentBytes()), float64(y.PeakResidentBytes())); c != 0 {
			return c
		}
		return sign(x.Loads() - y.Loads())
	})
	out := []int{}
	for _, i := range byPeak {
		if n := len(out); n == 0 || r.Outcomes[i].Loads() < r.Outcomes[out[n-1]].Loads() {
			out = append(out, i)
		}
	}
	return out
}

// Describe names a candidate's settings in one line.
func (c *Candidate) Describe() string {
	parts := []string{
		"cell size " + num(c.CellSize),
		"load " + num(c.Load), "unload " + num(c.Unload), "prefetch " + num(c.Prefetch),
	}
	if c.Budget != nil {
		parts = append(parts, "budget "+bytesText(*c.Budget))
	}
	if c.MaxResidentBytes != nil {
		parts = append(parts, "cap "+bytesText(*c.MaxResidentBytes))
	}
	return strings.Join(parts, ", ")
}

// Infeasible explains a search that found no feasible candidate: how often
// each required condition held, the one that held least often, and where
// it held for the nearest candidate (the best ranked of those it alone
// failed, else of those it failed). It is "" when a candidate is feasible.
// shortRoute is the length under which a route whose every frame fails
// is called too short: a load takes a frame at least, so a route of a
// frame or two is its cold start alone.
const shortRoute = 2

func (r *Result) Infeasible() string {
	if r.Best >= 0 {
		return ""
	}
	if r.Evaluated == 0 {
		return "no candidate was run"
	}
	counts := map[string]int{}
	held := func(out *Outcome, cond string) bool {
		for _, f := range out.Routes {
			for _, h := range f.Held {
				if h.Condition == cond {
					return true
				}
			}
		}
		return false
	}
	only := func(out *Outcome, cond string) bool {
		for _, f := range out.Routes {
			for _, h := range f.Held {
				if h.Condition != cond {
					return false
				}
			}
		}
		return true
	}
	var least string
	var parts []string
	for _, cond := range streaming.FailConditions {
		if !slices.Contains(r.Require.FailOn, cond) {
			continue
		}
		for i := range r.Outcomes {
			if out := &r.Outcomes[i]; out.Run && held(out, cond) {
				counts[cond]++
			}
		}
		if counts[cond] == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s held in %d", cond, counts[cond]))
		if least == "" || counts[cond] < counts[least] {
			least = cond
		}
	}
	msg := fmt.Sprintf("no candidate is feasible: of %d candidates, %s", r.Evaluated, strings.Join(parts, ", "))
	if r.EstellaXY {
		msg = fmt.Sprintf("no candidate is feasible: Estella's runtime samples the streaming sources on X and Z, so on this world cut on X and Y it wants the cells under (x, z), not those around where the sources stand, and no radius changes that (simulate --policy estella names the cause plane); cut the world on X and Z for Estella's runtime, or tune --policy budgeted. Of %d candidates, %s",
			r.Evaluated, strings.Join(parts, ", "))
	}
	if least == "" {
		return msg
	}
	var nearest *Outcome
	for _, alone := range []bool{true, false} {
		for i := range r.Outcomes {
			out := &r.Outcomes[i]
			if !out.Run || !held(out, least) || alone && !only(out, least) {
				continue
			}
			if nearest == nil || r.Objective.Better(out, nearest) {
				nearest = out
			}
		}
		if nearest != nil {
			break
		}
	}
	var where []string
	for k, f := range nearest.Routes {
		for _, h := range f.Held {
			if h.Condition == least {
				w := fmt.Sprintf("on %s in %d %s from frame %d", r.Routes[k], h.FrameCount, english.Plural(h.FrameCount, "frame"), h.FirstFrame)
				if h.FrameCount == f.Frames && f.Frames <= shortRoute {
					// A route over before anything loads: the start's
					// cold frames are all it has, and no setting helps.
					w += fmt.Sprintf(", every frame of a route of %d: it ends before the first load is resident; give a longer route (a tour of a one-cell world is one frame)", f.Frames)
				}
				where = append(where, w)
			}
		}
	}
	return fmt.Sprintf("%s; %s held least often, nearest: %s (%s)", msg, least, nearest.Candidate.Describe(), strings.Join(where, ", "))
}
