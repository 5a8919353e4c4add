package tune

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/streaming"
)

// jsonCandidate is a candidate's object (docs/json.md#tune).
type jsonCandidate struct {
	MessageType string      `json:"message_type,omitempty"`
	Index       *int        `json:"index,omitempty"`
	Settings    Candidate   `json:"settings"`
	Feasible    bool        `json:"feasible"`
	Pruned      bool        `json:"pruned"`
	Figures     jsonFigures `json:"figures"`
	Routes      []jsonRoute `json:"routes"`
	// Held are the conditions that held on some route, in reporting order.
	Held []string `json:"held"`
}

// jsonFigures are the figures over the routes, as the objective reads
// them.
type jsonFigures struct {
	PeakResidentBytes int64   `json:"peakResidentBytes"`
	MeanResidentBytes float64 `json:"meanResidentBytes"`
	Loads             int     `json:"loads"`
	MaxRequestedBytes int64   `json:"maxRequestedBytes"`
	HoleFrames        int     `json:"holeFrames"`
	PopInFrames       int     `json:"popInFrames"`
}

type jsonRoute struct {
	Route string `json:"route"`
	Figures
}

type jsonPoint struct {
	Index             int   `json:"index"`
	PeakResidentBytes int64 `json:"peakResidentBytes"`
	Loads             int   `json:"loads"`
}

type jsonTune struct {
	MessageType  string         `json:"message_type"`
	Routes       []string       `json:"routes"`
	Minimize     string         `json:"minimize"`
	Require      []string       `json:"require"`
	Warmup       *int           `json:"warmup"`
	Total        int            `json:"total"`
	Skipped      int            `json:"skipped"`
	Uncovered    int            `json:"uncovered"`
	ViewReach    float64        `json:"viewReach"`
	Cover        float64        `json:"cover"`
	Evaluated    int            `json:"evaluated"`
	Feasible     int            `json:"feasible"`
	Pruned       int            `json:"pruned"`
	PrunedRuns   int            `json:"prunedRuns"`
	PrunedFrames int            `json:"prunedFrames"`
	Partial      bool           `json:"partial"`
	Dimensions   []Dimension    `json:"dimensions"`
	Best         *jsonCandidate `json:"best"`
	Top          []int          `json:"top"`
	Pareto       []jsonPoint    `json:"pareto"`
	Authored     *jsonCandidate `json:"authored"`
	// Infeasible is the explanation when no candidate is feasible.
	Infeasible string `json:"infeasible,omitempty"`
}

// jsonCandidateOf is out's object, its routes named.
func jsonCandidateOf(routes []string, out *Outcome) *jsonCandidate {
	c := &jsonCandidate{Settings: out.Candidate, Feasible: out.Feasible, Pruned: out.Pruned,
		Figures: jsonFigures{out.PeakResidentBytes(), out.MeanResidentBytes(), out.Loads(), out.MaxRequestedBytes(), out.HoleFrames(), out.PopInFrames()},
		Routes:  make([]jsonRoute, len(out.Routes)), Held: []string{}}
	if !out.Candidate.Authored {
		c.Index = &out.Candidate.Index
	}
	var held []string
	for k, f := range out.Routes {
		c.Routes[k] = jsonRoute{routes[k], f}
		for _, h := range f.Held {
			held = append(held, h.Condition)
		}
	}
	for _, cond := range streaming.FailConditions {
		if slices.Contains(held, cond) {
			c.Held = append(c.Held, cond)
		}
	}
	return c
}

// jsonStream writes the JSON report as a search goes (Options.JSON): the
// warnings first, each candidate's line as its batch finishes (flush),
// the tune object at the end. A write that fails ends the search with
// its error.
type jsonStream struct {
	bw     *bufio.Writer
	enc    *json.Encoder
	routes []string
	err    error
}

func newJSONStream(w io.Writer, routes []string) *jsonStream {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &jsonStream{bw: bw, enc: enc, routes: routes}
}

func (j *jsonStream) encode(v any) {
	if j.err == nil {
		j.err = j.enc.Encode(v)
	}
}

func (j *jsonStream) warnings(ws []streaming.Warning) {
	for i := range ws {
		j.encode(diag.ShortJSONLine("warning", ws[i]))
	}
}

func (j *jsonStream) candidate(out *Outcome) {
	c := jsonCandidateOf(j.routes, out)
	c.MessageType = "candidate"
	j.encode(c)
}

// flush writes out what is buffered; it returns the first error of any
// write so far.
func (j *jsonStream) flush() error {
	if j.err == nil {
		j.err = j.bw.Flush()
	}
	if j.err != nil {
		return fmt.Errorf("writing the report: %w", j.err)
	}
	return nil
}

// finish writes the tune object.
func (j *jsonStream) finish(r *Result) error {
	t := jsonTune{MessageType: "tune", Routes: r.Routes, Minimize: r.Objective.String(), Require: r.Require.FailOn,
		Warmup: r.Require.Warmup, Total: r.Total, Skipped: r.Skipped, Uncovered: r.Uncovered, ViewReach: r.ViewReach, Cover: r.Cover,
		Evaluated: r.Evaluated, Feasible: r.Feasible,
		Pruned: r.Pruned, PrunedRuns: r.PrunedRuns, PrunedFrames: r.PrunedFrames, Partial: r.Partial,
		Dimensions: r.Dimensions, Top: []int{}, Pareto: []jsonPoint{}, Infeasible: r.Infeasible()}
	if t.Require == nil {
		t.Require = []string{}
	}
	if r.Best != nil {
		t.Best = jsonCandidateOf(r.Routes, r.Best)
	}
	for _, out := range r.Top {
		t.Top = append(t.Top, out.Candidate.Index)
	}
	for _, out := range r.Pareto {
		t.Pareto = append(t.Pareto, jsonPoint{out.Candidate.Index, out.PeakResidentBytes(), out.Loads()})
	}
	if r.Authored != nil {
		t.Authored = jsonCandidateOf(r.Routes, r.Authored)
	}
	j.encode(t)
	return j.flush()
}
