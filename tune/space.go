package tune

import (
	"fmt"
	"iter"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/streaming"
)

// defaultMaxCandidates is the largest space a search accepts unless told
// otherwise (--max-candidates).
const defaultMaxCandidates = 100000

// MaxCandidatesCeiling is the most --max-candidates may allow. A search's
// memory does not grow with its candidates (it enumerates them, and keeps
// only what its outputs read), but its time does: such a search runs a
// simulation per candidate and route, hours on a real world, and the
// ceiling bounds it whatever the limit asked for.
const MaxCandidatesCeiling = 1000000

// The default dimensions, in cell sizes (docs/tune.md#the-space): load
// radii, and unload and prefetch radii above the load radius.
var (
	defaultLoad     = []float64{0.5, 1, 1.5, 2, 3}
	defaultUnload   = []float64{0.5, 1, 2}
	defaultPrefetch = []float64{0, 0.5, 1}
	// defaultLoadBeyondView are the load radii tried from a view's cover
	// on, in cell sizes above it.
	defaultLoadBeyondView = []float64{0, 0.5, 1, 1.5, 2}
)

// Spec is the space as given: each field the text of its flag, "" when
// the flag was not given.
type Spec struct {
	CellSize, Load, Unload, Prefetch, Budget, MaxResidentBytes string
}

// Space is the set of settings a search runs. A nil dimension takes its
// default: the world's cell size; radii from the cell size (load ∈
// {0.5, 1, 1.5, 2, 3}·cellSize, unload ∈ load + {0.5, 1, 2}·cellSize,
// prefetch ∈ load + {0, 0.5, 1}·cellSize); budget and cap unset.
type Space struct {
	CellSizes              []float64
	Load, Unload, Prefetch []float64
	// A nil element is the setting left unset.
	Budget, MaxResidentBytes []*int64
}

// ParseSpace reads each given flag of spec (ParseDistances,
// ParseSizes); an error names the flag.
func ParseSpace(spec Spec) (Space, error) {
	var sp Space
	for _, d := range []struct {
		flag, text string
		to         *[]float64
	}{
		{"--cell-size", spec.CellSize, &sp.CellSizes},
		{"--load-radius", spec.Load, &sp.Load},
		{"--unload-radius", spec.Unload, &sp.Unload},
		{"--prefetch-radius", spec.Prefetch, &sp.Prefetch},
	} {
		if d.text == "" {
			continue
		}
		vs, err := parseDistances(d.text)
		if err != nil {
			return Space{}, fmt.Errorf("%s: %v", d.flag, err)
		}
		*d.to = vs
	}
	for _, v := range sp.CellSizes {
		if v == 0 {
			return Space{}, fmt.Errorf("--cell-size: 0 is no cell size: a cell is larger than 0")
		}
	}
	for _, d := range []struct {
		flag, text string
		to         *[]*int64
	}{
		{"--budget", spec.Budget, &sp.Budget},
		{"--max-resident-bytes", spec.MaxResidentBytes, &sp.MaxResidentBytes},
	} {
		if d.text == "" {
			continue
		}
		vs, err := parseSizes(d.text)
		if err != nil {
			return Space{}, fmt.Errorf("%s: %v", d.flag, err)
		}
		*d.to = vs
	}
	return sp, nil
}

// world is what a search needs to know of the world it tunes.
type world struct {
	// CellSize is the world's own (authored) cell size.
	CellSize float64
	// Cooked says the world is already cut: its cell size is the only one.
	Cooked bool
	// Estella says the runtime policy runs, which has no budget and no cap.
	Estella bool
	// Cover, when set, is the least load radius that wants every cell a
	// source's view touches in a world of the given cell size: a smaller
	// one leaves the view uncovered, and is never run.
	Cover func(cellSize float64) float64
}

// searchPlan is a space laid out for a world: how many candidates it
// runs and what was skipped, and the dimensions to enumerate them from.
// The candidates are never listed: All and Ordered enumerate them, one
// at a time, so that a plan of a million candidates takes the memory of
// its dimensions, not of its candidates.
type searchPlan struct {
	// Count is the number of candidates run.
	Count int
	// Total is the number of combinations; Skipped of them break the radii
	// rule (manifest.CheckRadii) and Uncovered have a load radius under
	// which the view is not covered (world.Cover): neither is run.
	Total, Skipped, Uncovered int
	// Dimensions are the sizes of the dimensions, for the report.
	Dimensions []Dimension

	sp            Space
	cells         []planCell
	budgets, caps []*int64
	// list, when set, are the candidates instead of the dimensions
	// (tests of the search on candidates drawn by hand).
	list []Candidate
}

// planCell is one cell size of a plan: its load radii, the view's cover
// there, and where its candidates start in the enumeration.
type planCell struct {
	size, cover  float64
	loads        []float64
	first, count int
}

// Dimension is one axis of the space: its flag and how many values it has
// (per load radius, for unload and prefetch radii given relative to it).
type Dimension struct {
	Flag   string `json:"flag"`
	Values int    `json:"values"`
}

// Lay enumerates the space for w: cell sizes, load, unload and prefetch
// radii, budgets, caps, each ascending (unset last), the later ones
// varying fastest. It refuses a space that is empty or holds more than
// maxCandidates combinations (naming the product of the dimensions), a
// cell-size dimension on a cooked world, and a budget or cap dimension
// under the runtime policy.
func (sp Space) Lay(w world, maxCandidates int) (*searchPlan, error) {
	if sp.CellSizes != nil && w.Cooked {
		return nil, fmt.Errorf("--cell-size: a cooked world has its own cell size (%s); tune the scene to search cell sizes", num(w.CellSize))
	}
	if w.Estella {
		if sp.Budget != nil {
			return nil, fmt.Errorf("--budget: --policy estella has no budget to tune; drop --budget or use --policy budgeted")
		}
		if sp.MaxResidentBytes != nil {
			return nil, fmt.Errorf("--max-resident-bytes: --policy estella has no cap to tune; drop --max-resident-bytes or use --policy budgeted")
		}
	}
	cells := sp.CellSizes
	if cells == nil {
		if !(w.CellSize > 0) {
			return nil, fmt.Errorf("the world has no cell size to derive the radii from; give --cell-size")
		}
		cells = []float64{w.CellSize}
	}
	unset := []*int64{nil}
	budgets, caps := or(sp.Budget, unset), or(sp.MaxResidentBytes, unset)
	// The load radii of each cell size: given, or the defaults, which
	// with a view start where it is covered.
	loadsOf := make([][]float64, len(cells))
	most := 0
	for k, cs := range cells {
		loadsOf[k] = sp.Load
		if loadsOf[k] == nil {
			loadsOf[k] = defaultLoads(cs, w.cover(cs))
		}
		most = max(most, len(loadsOf[k]))
	}
	dims := []Dimension{
		{"--cell-size", len(cells)},
		{"--load-radius", most},
		{"--unload-radius", lenOr(sp.Unload, defaultUnload)},
		{"--prefetch-radius", lenOr(sp.Prefetch, defaultPrefetch)},
		{"--budget", len(budgets)},
		{"--max-resident-bytes", len(caps)},
	}
	total := big.NewInt(0)
	for k := range cells {
		n := big.NewInt(int64(len(loadsOf[k])))
		for _, d := range dims[2:] {
			n.Mul(n, big.NewInt(int64(d.Values)))
		}
		total.Add(total, n)
	}
	factors := make([]string, len(dims))
	for i, d := range dims {
		factors[i] = fmt.Sprintf("%d %s", d.Values, strings.TrimPrefix(d.Flag, "--"))
	}
	if total.Sign() == 0 {
		return nil, fmt.Errorf("the space is empty: every dimension needs a value")
	}
	if !total.IsInt64() || total.Int64() > int64(maxCandidates) {
		advice := "narrow a dimension or raise the limit"
		if maxCandidates >= MaxCandidatesCeiling {
			advice = fmt.Sprintf("narrow a dimension (%d is the most --max-candidates allows)", MaxCandidatesCeiling)
		}
		return nil, fmt.Errorf("the space holds %s = %s candidates, more than --max-candidates %d: %s",
			strings.Join(factors, " × "), total.String(), maxCandidates, advice)
	}
	p := &searchPlan{Total: int(total.Int64()), Dimensions: dims, sp: sp, budgets: budgets, caps: caps}
	bc := len(budgets) * len(caps)
	for k, cs := range cells {
		c := planCell{size: cs, cover: w.cover(cs), loads: loadsOf[k], first: p.Count}
		for _, load := range c.loads {
			for _, unload := range p.unloads(load, cs) {
				for _, prefetch := range p.prefetches(load, cs) {
					switch {
					case len(manifest.CheckRadii(prefetch, load, unload)) > 0:
						p.Skipped += bc
					case load < c.cover:
						p.Uncovered += bc
					default:
						c.count += bc
					}
				}
			}
		}
		p.Count += c.count
		p.cells = append(p.cells, c)
	}
	if p.Count == 0 && p.Uncovered > 0 {
		return nil, fmt.Errorf("--load-radius: every load radius tried is below %s, the least that covers what the camera shows (its view's reach), so none would be free of pop-in; try load radii from %s (or leave --load-radius out)",
			num(w.cover(cells[0])), num(w.cover(cells[0])))
	}
	return p, nil
}

// cover is the least load radius covering the view at cell size cs (0:
// no view).
func (w world) cover(cs float64) float64 {
	if w.Cover == nil {
		return 0
	}
	return w.Cover(cs)
}

// defaultLoads are the default load radii for cell size cs: {0.5, 1,
// 1.5, 2, 3}·cs, or with a view to cover, cover + {0, 0.5, 1, 1.5, 2}·cs
// (smaller ones would leave it uncovered).
func defaultLoads(cs, cover float64) []float64 {
	if cover > 0 {
		return scaled(defaultLoadBeyondView, cover, cs)
	}
	return scaled(defaultLoad, 0, cs)
}

// CellSizes are the plan's cell sizes, ascending: the worlds to open (or
// cook) before the search, once each.
func (p *searchPlan) CellSizes() []float64 {
	var out []float64
	for c := range p.All() {
		if n := len(out); n == 0 || out[n-1] != c.CellSize {
			out = append(out, c.CellSize)
		}
	}
	return out
}

// CheckRequire refuses constraints no candidate could break, as
// streaming.Gate.Check does for a run: over-budget when no candidate has a
// budget, over-cap when none has a cap. (A candidate without one simply
// cannot break it.)
func (p *searchPlan) CheckRequire(g streaming.Gate) error {
	some := func(get func(*Candidate) *int64) bool {
		for c := range p.All() {
			if get(&c) != nil {
				return true
			}
		}
		return false
	}
	if slices.Contains(g.FailOn, streaming.FailOverBudget) && !some(func(c *Candidate) *int64 { return c.Budget }) {
		return fmt.Errorf("--require over-budget needs a budget to check against: give --budget")
	}
	if slices.Contains(g.FailOn, streaming.FailOverCap) && !some(func(c *Candidate) *int64 { return c.MaxResidentBytes }) {
		return fmt.Errorf("--require over-cap needs a cap to check against: give --max-resident-bytes")
	}
	if g.Warmup != nil && *g.Warmup < 0 {
		return fmt.Errorf("--warmup %d must be 0 or more frames", *g.Warmup)
	}
	return nil
}

func or[T any](v, def []T) []T {
	if v == nil {
		return def
	}
	return v
}

func lenOr(v, def []float64) int { return len(or(v, def)) }

// scaled returns base + k·cellSize for each k, rounded as range values
// are, so that 1.5·8 reads 12.
func scaled(ks []float64, base, cellSize float64) []float64 {
	out := make([]float64, len(ks))
	for i, k := range ks {
		out[i] = round12(base + k*cellSize)
	}
	return out
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// unloads are the unload radii tried with load radius load at cell size
// cs: the given ones, or load + {0.5, 1, 2}·cs.
func (p *searchPlan) unloads(load, cs float64) []float64 {
	if p.sp.Unload != nil {
		return p.sp.Unload
	}
	return scaled(defaultUnload, load, cs)
}

// prefetches are the prefetch radii tried with load radius load at cell
// size cs: the given ones, or load + {0, 0.5, 1}·cs.
func (p *searchPlan) prefetches(load, cs float64) []float64 {
	if p.sp.Prefetch != nil {
		return p.sp.Prefetch
	}
	return scaled(defaultPrefetch, load, cs)
}

// runs says whether the radii are run at this cell size: within the
// radii rule, and covering the view.
func (c *planCell) runs(load, unload, prefetch float64) bool {
	return len(manifest.CheckRadii(prefetch, load, unload)) == 0 && load >= c.cover
}

// All enumerates the candidates in the plan's order (Index): cell sizes,
// load, unload and prefetch radii, budgets, caps, the later varying
// fastest.
func (p *searchPlan) All() iter.Seq[Candidate] {
	return func(yield func(Candidate) bool) {
		if p.list != nil {
			for _, c := range p.list {
				if !yield(c) {
					return
				}
			}
			return
		}
		i := 0
		for k := range p.cells {
			c := &p.cells[k]
			for _, load := range c.loads {
				us, ps := p.unloads(load, c.size), p.prefetches(load, c.size)
				for _, unload := range us {
					for _, prefetch := range ps {
						if !c.runs(load, unload, prefetch) {
							continue
						}
						for _, b := range p.budgets {
							for _, cp := range p.caps {
								if !yield(Candidate{Index: i, CellSize: c.size, Load: load, Unload: unload, Prefetch: prefetch, Budget: b, MaxResidentBytes: cp}) {
									return
								}
								i++
							}
						}
					}
				}
			}
		}
	}
}

// Ordered enumerates the candidates in the order they run (evalOrder's):
// at each cell size, by load, then prefetch, then unload radius, then
// budget and cap, which is the order of their radii in cells; the cell
// sizes merged on that order. Nothing is sorted, so the order costs no
// memory whatever the count.
func (p *searchPlan) Ordered() iter.Seq[Candidate] {
	if p.list != nil {
		return func(yield func(Candidate) bool) {
			for _, k := range evalOrder(p.list) {
				if !yield(p.list[k]) {
					return
				}
			}
		}
	}
	if len(p.cells) == 1 {
		return p.cellOrdered(&p.cells[0])
	}
	return func(yield func(Candidate) bool) {
		type head struct {
			c    Candidate
			next func() (Candidate, bool)
		}
		var heads []head
		for k := range p.cells {
			next, stop := iter.Pull(p.cellOrdered(&p.cells[k]))
			defer stop()
			if c, ok := next(); ok {
				heads = append(heads, head{c, next})
			}
		}
		for len(heads) > 0 {
			m := 0
			for k := 1; k < len(heads); k++ {
				if evalCompare(&heads[k].c, &heads[m].c) < 0 {
					m = k
				}
			}
			if !yield(heads[m].c) {
				return
			}
			c, ok := heads[m].next()
			if ok {
				heads[m].c = c
			} else {
				heads = slices.Delete(heads, m, m+1)
			}
		}
	}
}

// cellOrdered enumerates the candidates of one cell size in the order
// they run: load, prefetch, unload, budget, cap, each ascending; each with
// its Index in the plan's order (load, unload, prefetch, …), counted from
// how many candidates each unload radius of the load holds.
func (p *searchPlan) cellOrdered(c *planCell) iter.Seq[Candidate] {
	return func(yield func(Candidate) bool) {
		bc := len(p.budgets) * len(p.caps)
		first := c.first
		for _, load := range c.loads {
			us, ps := p.unloads(load, c.size), p.prefetches(load, c.size)
			// before[u] is how many radii of the load come before unload
			// u's first in the plan's order; seen[u] how many of u's have
			// been enumerated.
			before, seen := make([]int, len(us)), make([]int, len(us))
			n := 0
			for ui, unload := range us {
				before[ui] = n
				for _, prefetch := range ps {
					if c.runs(load, unload, prefetch) {
						n++
					}
				}
			}
			for _, prefetch := range ps {
				for ui, unload := range us {
					if !c.runs(load, unload, prefetch) {
						continue
					}
					i := first + (before[ui]+seen[ui])*bc
					seen[ui]++
					for _, b := range p.budgets {
						for _, cp := range p.caps {
							if !yield(Candidate{Index: i, CellSize: c.size, Load: load, Unload: unload, Prefetch: prefetch, Budget: b, MaxResidentBytes: cp}) {
								return
							}
							i++
						}
					}
				}
			}
			first += n * bc
		}
	}
}
