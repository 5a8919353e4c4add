package validate

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/world/place"
)

func box3(hx, hz float64) string {
	return comp("BoxCollider3D", fmt.Sprintf(`{"halfExtents": {"x": %v, "y": 1, "z": %v}}`, hx, hz))
}

func TestLevelsPlacement(t *testing.T) {
	world := E{ID: 1, C: []string{sw("100"), persistent}}
	cases := []struct {
		name   string
		levels int
		es     []E
		cells  map[int64]string // entity → cell
		grids  map[string]Rect  // cell → grid square
		bounds map[string]Rect  // cell → bounds
		promos []string         // "id→cell@level(with)"
	}{
		{
			name: "off", levels: 0,
			es:     []E{{ID: 2, C: []string{tr(50, 0, 50), box3(400, 10)}}, {ID: 3, C: []string{tr(60, 0, 60)}}},
			cells:  map[int64]string{2: "test.cell_0_0", 3: "test.cell_0_0"},
			bounds: map[string]Rect{"test.cell_0_0": rect(-350, 0, 450, 100)},
		},
		{
			// 800 wide: ceil(log2(8)) = 3; the centre (50, 50) is in the
			// level-3 cell (0, 0), and the house stays with its own bounds.
			name: "bridge promoted", levels: 4,
			es:     []E{{ID: 2, C: []string{tr(50, 0, 50), box3(400, 10)}}, {ID: 3, C: []string{tr(60, 0, 60)}}},
			cells:  map[int64]string{2: "test.cell_L3_0_0", 3: "test.cell_0_0"},
			grids:  map[string]Rect{"test.cell_L3_0_0": rect(0, 0, 800, 800)},
			bounds: map[string]Rect{"test.cell_0_0": rect(0, 0, 100, 100), "test.cell_L3_0_0": rect(-350, 0, 800, 800)},
			promos: []string{"2→test.cell_L3_0_0@3"},
		},
		{
			name: "capped at the coarsest level", levels: 1,
			es:     []E{{ID: 2, C: []string{tr(-50, 0, 50), box3(400, 10)}}},
			cells:  map[int64]string{2: "test.cell_L1_-1_0"},
			grids:  map[string]Rect{"test.cell_L1_-1_0": rect(-200, 0, 0, 200)},
			bounds: map[string]Rect{"test.cell_L1_-1_0": rect(-450, 0, 350, 200)},
			promos: []string{"2→test.cell_L1_-1_0@1"},
		},
		{
			// Exactly one cell wide is not larger than a cell.
			name: "a cell wide stays", levels: 4,
			es:    []E{{ID: 2, C: []string{tr(50, 0, 50), box3(50, 50)}}},
			cells: map[int64]string{2: "test.cell_0_0"},
		},
		{
			// The lamp post references the bridge from the next cell: it
			// moves with it, and the cluster's union footprint decides.
			name: "cluster moves together", levels: 4,
			es: []E{
				{ID: 2, C: []string{tr(50, 0, 50), box3(150, 10)}},
				{ID: 3, C: []string{tr(450, 0, 50), joint("2")}},
				{ID: 4, C: []string{tr(150, 0, 50)}},
			},
			cells:  map[int64]string{2: "test.cell_L3_0_0", 3: "test.cell_L3_0_0", 4: "test.cell_1_0"},
			promos: []string{"2→test.cell_L3_0_0@3", "3→test.cell_L3_0_0@3(2)"},
		},
		{
			// A child's extent counts for its root, and the whole subtree
			// moves.
			name: "subtree", levels: 4,
			es: []E{
				{ID: 2, C: []string{tr(150, 0, 150)}},
				{ID: 3, Parent: at(2), C: []string{tr(0, 0, 0), box3(10, 200)}},
			},
			cells:  map[int64]string{2: "test.cell_L2_0_0", 3: "test.cell_L2_0_0"},
			bounds: map[string]Rect{"test.cell_L2_0_0": rect(0, -50, 400, 400)},
			promos: []string{"2→test.cell_L2_0_0@2"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := check(t, Options{Levels: c.levels}, append([]E{world}, c.es...)...)
			if len(p.Findings) != 0 {
				t.Fatalf("findings %v", codes(p))
			}
			for id, want := range c.cells {
				if got := cellOf(t, p, id); got != want {
					t.Errorf("entity %d in %s, want %s", id, got, want)
				}
			}
			byName := map[string]Cell{}
			for _, cl := range p.Cells {
				byName[cl.Name] = cl
				if want := "test" + cellSuffix(cl.Level, cl.X, cl.Z); cl.Name != want {
					t.Errorf("cell %s has level %d and indices %d, %d", cl.Name, cl.Level, cl.X, cl.Z)
				}
			}
			for name, want := range c.grids {
				if got := byName[name].Grid; got != want {
					t.Errorf("%s grid %+v, want %+v", name, got, want)
				}
			}
			for name, want := range c.bounds {
				if got := byName[name].Bounds; got != want {
					t.Errorf("%s bounds %+v, want %+v", name, got, want)
				}
			}
			var promos []string
			for _, pr := range p.Promotions {
				s := fmt.Sprintf("%d→%s@%d", pr.Entity, pr.Cell, pr.Level)
				if pr.With != nil {
					s += fmt.Sprintf("(%d)", *pr.With)
				}
				promos = append(promos, s)
			}
			if !slices.Equal(promos, c.promos) {
				t.Errorf("promotions %v, want %v", promos, c.promos)
			}
		})
	}
}

func rect(minX, minZ, maxX, maxZ float64) Rect {
	return Rect{MinX: minX, MinZ: minZ, MaxX: maxX, MaxZ: maxZ}
}

func cellSuffix(level, x, z int32) string {
	s := ".cell_"
	if level > 0 {
		s += "L" + strconv.Itoa(int(level)) + "_"
	}
	return s + strconv.Itoa(int(x)) + "_" + strconv.Itoa(int(z))
}

// TestLevelsProperty checks promotion on generated worlds with large
// content: it never creates an error, moves whole clusters, and leaves
// every level-0 cell as a cook of the scene without the promoted roots
// would cut it (bounds, overhang, roots, entities).
func TestLevelsProperty(t *testing.T) {
	opts := Options{SceneName: "t", Components: map[string]ComponentFields{"FollowTarget": {Entity: []string{"target"}}}}
	iterations := 300
	if testing.Short() {
		iterations = 40
	}
	promoted := 0
	for seed := 0; seed < iterations; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		w := genWorld(r)
		for k := range w.es {
			if r.IntN(4) == 0 {
				hx := w.cellSize * float64(r.IntN(40)) / 8
				w.es[k].C = append(w.es[k].C, box3(hx, w.cellSize*float64(r.IntN(20))/8))
			}
		}
		src := sceneJSON(w.es...)
		base, err := Check(parse(t, src), opts)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		lv := opts
		lv.Levels = 1 + r.IntN(5)
		p, err := Check(parse(t, src), lv)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkPartition(t, p)
		// No new finding of any kind: every finding of the levelled plan
		// is one of the plain plan's.
		left := codes(base)
		for _, f := range codes(p) {
			k := slices.Index(left, f)
			if k < 0 {
				t.Fatalf("seed %d: levels %d made %s (plain: %v)\n%s", seed, lv.Levels, f, codes(base), src)
			}
			left = slices.Delete(left, k, k+1)
		}
		if len(p.Promotions) == 0 {
			if fmt.Sprint(p.Cells) != fmt.Sprint(base.Cells) {
				t.Fatalf("seed %d: nothing promoted, cells differ", seed)
			}
			continue
		}
		promoted++
		// Every root of a cluster is in one document.
		moved := map[int64]bool{}
		for _, pr := range p.Promotions {
			moved[pr.Entity] = true
			if got := cellOf(t, p, pr.Entity); got != pr.Cell || pr.Level < 1 || int(pr.Level) > lv.Levels {
				t.Fatalf("seed %d: promoted %d in %s, listed in %s at level %d", seed, pr.Entity, got, pr.Cell, pr.Level)
			}
		}
		// The scene without the promoted subtrees, cut at level 0.
		d := p.Doc
		rootID := func(i int) int64 {
			for {
				e := &d.Entities[i]
				j, ok := d.Lookup(e.Parent)
				if !e.HasParent || p.CutParent(i) || !ok {
					return e.ID
				}
				i = j
			}
		}
		var rest []E
		for _, e := range w.es {
			i, _ := d.Lookup(e.ID)
			if !moved[rootID(i)] {
				rest = append(rest, e)
			}
		}
		q, err := Check(parse(t, sceneJSON(rest...)), opts)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		want := map[string]string{}
		for _, c := range q.Cells {
			want[c.Name] = levelCellText(q, c)
		}
		for _, c := range p.Cells {
			if c.Level != 0 {
				continue
			}
			if got := levelCellText(p, c); got != want[c.Name] {
				t.Fatalf("seed %d: level-0 cell\n got %s\nwant %s\n%s", seed, got, want[c.Name], src)
			}
			delete(want, c.Name)
		}
		if len(want) != 0 {
			t.Fatalf("seed %d: cells %v missing", seed, want)
		}
	}
	if promoted < iterations/10 {
		t.Fatalf("only %d of %d worlds promoted anything", promoted, iterations)
	}
}

func levelCellText(p *Plan, c Cell) string {
	ids := make([]string, len(c.Entities))
	for k, i := range c.Entities {
		ids[k] = strconv.FormatInt(p.Doc.Entities[i].ID, 10)
	}
	return fmt.Sprintf("%s roots=%d bounds=%+v over=%+v ids=%s", c.Name, c.Roots, c.Bounds, c.Overhang, strings.Join(ids, ","))
}

// TestLevelsReport checks what text and JSON reports say of promotions:
// each promoted root with its footprint, level and cell, and the roots
// per level; and nothing at all when no root was promoted.
func TestLevelsReport(t *testing.T) {
	es := []E{
		{ID: 1, C: []string{sw("100"), persistent}},
		{ID: 2, Name: "Bridge", C: []string{tr(50, 0, 50), box3(150, 10)}},
		{ID: 3, Name: "Lamp", C: []string{tr(450, 0, 50), joint("2")}},
		{ID: 4, C: []string{tr(150, 0, 50)}},
	}
	p := check(t, Options{Levels: 4}, es...)
	var text, js strings.Builder
	if err := Write(&text, FormatText, []*Plan{p}, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  levels: level 0: 1 root, level 3: 2 roots\n",
		`  promoted "Bridge" (2), footprint [-100, 200]x[40, 60], to level 3: test.cell_L3_0_0` + "\n",
		`  promoted "Lamp" (3), footprint [450, 450]x[50, 50], to level 3: test.cell_L3_0_0, with the cluster of 2` + "\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	if err := Write(&js, FormatJSON, []*Plan{p}, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"levels":{"promotions":[{"entity":2,"name":"Bridge","footprint":{"minX":-100,"minZ":40,"maxX":200,"maxZ":60},"level":3,"cell":"test.cell_L3_0_0"},`,
		`"rootsPerLevel":[1,0,0,2]}`,
		`{"name":"test.cell_L3_0_0","level":3,"x":0,"z":0,`,
	} {
		if !strings.Contains(js.String(), want) {
			t.Errorf("JSON report lacks %s:\n%s", want, js.String())
		}
	}
	plain := check(t, Options{}, es...)
	var a, b strings.Builder
	Write(&a, FormatJSON, []*Plan{plain}, ReportOptions{})
	Write(&b, FormatJSON, []*Plan{check(t, Options{Levels: 4}, es[0], es[3])}, ReportOptions{})
	if strings.Contains(a.String(), "level") || strings.Contains(b.String(), "level") {
		t.Errorf("a report without promotions mentions levels:\n%s\n%s", a.String(), b.String())
	}
}

// TestLevelsDroppedFootprints: the footprints placement drops (roots
// inside their cell's square, not bound to another root) change nothing:
// keeping every root's footprint gives the same plan, with one placer or
// several.
func TestLevelsDroppedFootprints(t *testing.T) {
	opts := Options{SceneName: "t", Components: map[string]ComponentFields{"FollowTarget": {Entity: []string{"target"}}}}
	check := func(src string, lv, parts int, all bool) *Plan {
		defer withPlacers(parts)()
		savedAll := place.KeepEveryFootprint
		place.KeepEveryFootprint = all
		defer func() { place.KeepEveryFootprint = savedAll }()
		o := opts
		o.Levels = lv
		p, err := Check(parse(t, src), o)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	promoted, with := 0, 0
	for seed := 0; seed < 150; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 12))
		w := genWorld(r)
		w.addBoxes(r)
		src := sceneJSON(w.es...)
		lv := 1 + r.IntN(5)
		want := check(src, lv, 1, true)
		for _, parts := range []int{1, 3} {
			got := check(src, lv, parts, false)
			if !reflect.DeepEqual(got.Cells, want.Cells) || !reflect.DeepEqual(got.Promotions, want.Promotions) ||
				!reflect.DeepEqual(got.Findings, want.Findings) || !reflect.DeepEqual(got.Persistent, want.Persistent) {
				t.Fatalf("seed %d, %d placers: the plan depends on the footprints dropped\n%s", seed, parts, src)
			}
		}
		if len(want.Promotions) > 0 {
			promoted++
		}
		for _, pr := range want.Promotions {
			if pr.With != nil {
				with++
				break
			}
		}
	}
	if promoted < 15 || with == 0 {
		t.Fatalf("weak test: %d worlds promoted, %d drew a bound root along", promoted, with)
	}
}

// addBoxes gives about a quarter of w's entities a box extent of up to
// five cells by two and a half: roots that overhang their cell, some far.
func (w *randomWorld) addBoxes(r *rand.Rand) {
	for k := range w.es {
		if r.IntN(4) == 0 {
			w.es[k].C = append(w.es[k].C, box3(w.cellSize*float64(r.IntN(40))/8, w.cellSize*float64(r.IntN(20))/8))
		}
	}
}
