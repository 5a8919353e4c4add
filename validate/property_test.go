package validate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// randomWorld is a generated scene plus what the oracle needs to know.
type randomWorld struct {
	es       []E
	cellSize float64
	// per entity id
	parent     map[int64]int64 // only entities with a parent
	pos        map[int64][2]float64
	hasT       map[int64]bool
	persistent map[int64]bool // carries WorldPersistent or StreamedWorld
	refs       []oracleRef
}

type oracleRef struct {
	from  int64
	field string
	value int64
}

// genWorld builds a random streamed world: a random hierarchy in a random
// authored order (children may come before parents), random positions,
// WorldPersistent marks and references of every kind — to entities in the
// same subtree, cell or not, to 0, -1, and to ids that do not exist.
func genWorld(r *rand.Rand) *randomWorld {
	w := &randomWorld{parent: map[int64]int64{}, pos: map[int64][2]float64{}, hasT: map[int64]bool{}, persistent: map[int64]bool{}}
	n := 2 + r.IntN(40)
	ids := r.Perm(80)[:n]
	w.cellSize = []float64{50, 100, 250, 1000}[r.IntN(4)]
	created := make([]int64, 0, n)
	comps := map[int64][]string{}
	for k, raw := range ids {
		id := int64(raw)
		if k == 0 {
			comps[id] = append(comps[id], sw(strconv.FormatFloat(w.cellSize, 'g', -1, 64)))
			w.persistent[id] = true
		} else if len(created) > 1 && r.IntN(3) == 0 {
			w.parent[id] = created[1+r.IntN(len(created)-1)]
		} else if r.IntN(25) == 0 {
			w.parent[id] = 900 + int64(r.IntN(50)) // missing parent
		}
		if r.IntN(8) != 0 {
			x, z := float64(r.IntN(1200)-600)/2, float64(r.IntN(1200)-600)/2
			w.pos[id] = [2]float64{x, z}
			w.hasT[id] = true
			rot := ""
			if r.IntN(4) == 0 {
				rot = `, "rotation": {"x": 0, "y": 0.6, "z": 0, "w": 0.8}, "scale": {"x": 2, "y": 1, "z": 0.5}`
			}
			comps[id] = append(comps[id], comp("Transform", fmt.Sprintf(`{"position": {"x": %v, "y": %d, "z": %v}%s}`, x, r.IntN(50), z, rot)))
		}
		if k > 0 && r.IntN(7) == 0 {
			comps[id] = append(comps[id], persistent)
			w.persistent[id] = true
		}
		created = append(created, id)
	}
	target := func() int64 {
		switch r.IntN(10) {
		case 0:
			return 0
		case 1:
			return -1
		case 2:
			return 500 + int64(r.IntN(10)) // dangling
		}
		return created[r.IntN(len(created))]
	}
	for _, id := range created {
		if r.IntN(3) == 0 {
			v := target()
			comps[id] = append(comps[id], joint(strconv.FormatInt(v, 10)))
			w.refs = append(w.refs, oracleRef{id, "RevoluteJoint.connectedEntity", v})
		}
		if r.IntN(5) == 0 {
			var list []string
			for e := 0; e < r.IntN(5); e++ {
				v := target()
				list = append(list, strconv.FormatInt(v, 10))
				w.refs = append(w.refs, oracleRef{id, "MeshSkin.joints[" + strconv.Itoa(e) + "]", v})
			}
			comps[id] = append(comps[id], comp("MeshSkin", `{"joints": [`+strings.Join(list, ", ")+`]}`))
		}
		if r.IntN(6) == 0 {
			v := target()
			comps[id] = append(comps[id], comp("FollowTarget", fmt.Sprintf(`{"target": %d}`, v)))
			w.refs = append(w.refs, oracleRef{id, "FollowTarget.target", v})
		}
	}
	order := r.Perm(n)
	for _, k := range order {
		id := created[k]
		e := E{ID: id, C: comps[id]}
		if p, ok := w.parent[id]; ok {
			e.Parent = at(p)
		}
		w.es = append(w.es, e)
	}
	return w
}

// oracle applies the rules of docs/validate.md ("How a world is partitioned", "Entity references") the obvious way: walk up to each
// entity's root, place roots by their own position, compare documents.
func (w *randomWorld) oracle() (docs map[int64]string, findings []string, prefs []int64) {
	exists := map[int64]bool{}
	for _, e := range w.es {
		exists[e.ID] = true
	}
	root := func(id int64) int64 {
		for {
			p, ok := w.parent[id]
			if !ok || !exists[p] {
				return id
			}
			id = p
		}
	}
	docs = map[int64]string{}
	for _, e := range w.es {
		r := root(e.ID)
		if w.persistent[r] || !w.hasT[r] {
			docs[e.ID] = "persistent"
			continue
		}
		p := w.pos[r]
		docs[e.ID] = fmt.Sprintf("t.cell_%d_%d", int(math.Floor(p[0]/w.cellSize)), int(math.Floor(p[1]/w.cellSize)))
	}
	findings = []string{}
	for _, e := range w.es {
		p, ok := w.parent[e.ID]
		switch {
		case ok && !exists[p]:
			findings = append(findings, fmt.Sprintf("missing-parent@%d:parent", e.ID))
		case ok && w.persistent[e.ID]:
			comp := "WorldPersistent"
			for _, c := range e.C {
				if c == sw(strconv.FormatFloat(w.cellSize, 'g', -1, 64)) {
					comp = "StreamedWorld"
				}
			}
			findings = append(findings, fmt.Sprintf("persistent-not-root@%d:%s", e.ID, comp))
		}
	}
	seen := map[int64]bool{}
	for _, ref := range w.refs {
		if ref.value <= 0 {
			continue
		}
		if !exists[ref.value] {
			findings = append(findings, fmt.Sprintf("dangling-ref@%d:%s", ref.from, ref.field))
			continue
		}
		from, to := docs[ref.from], docs[ref.value]
		switch {
		case root(ref.from) == root(ref.value) || from == to:
		case to == "persistent":
			if !seen[ref.value] {
				seen[ref.value] = true
				prefs = append(prefs, ref.value)
			}
		case from == "persistent":
			findings = append(findings, fmt.Sprintf("persistent-to-cell-ref@%d:%s", ref.from, ref.field))
		default:
			findings = append(findings, fmt.Sprintf("cross-cell-ref@%d:%s", ref.from, ref.field))
		}
	}
	sort.Strings(findings)
	sort.Slice(prefs, func(a, b int) bool { return prefs[a] < prefs[b] })
	return docs, findings, prefs
}

func TestPropertyAgainstOracle(t *testing.T) {
	opts := Options{SceneName: "t", Components: map[string]ComponentFields{"FollowTarget": {Entity: []string{"target"}}}}
	iterations := 400
	if testing.Short() {
		iterations = 50
	}
	for seed := 0; seed < iterations; seed++ {
		w := genWorld(rand.New(rand.NewPCG(uint64(seed), 7)))
		src := sceneJSON(w.es...)
		p, err := Check(parse(t, src), opts)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		docs, want, prefs := w.oracle()
		if got := codes(p); !slices.Equal(got, want) {
			t.Fatalf("seed %d findings\n got %v\nwant %v\n%s", seed, got, want, src)
		}
		for id, doc := range docs {
			if got := cellOf(t, p, id); got != doc {
				t.Fatalf("seed %d: entity %d in %s, oracle says %s\n%s", seed, id, got, doc, src)
			}
		}
		if len(prefs) == 0 {
			prefs = []int64{}
		}
		if fmt.Sprint(p.PersistentRefs) != fmt.Sprint(prefs) {
			t.Fatalf("seed %d: persistentRefs %v, oracle %v", seed, p.PersistentRefs, prefs)
		}
		checkPartition(t, p)
	}
}

// checkPartition asserts that the persistent world and the cells hold every
// entity exactly once, in authored order, with each subtree in one
// document, and that every cell's bounds contain its grid square.
func checkPartition(t *testing.T, p *Plan) {
	t.Helper()
	d := p.Doc
	where := make([]int, len(d.Entities))
	for k := range where {
		where[k] = -2
	}
	place := func(list []int32, doc int) {
		for k, i := range list {
			if k > 0 && list[k-1] >= i {
				t.Fatalf("document %d not in authored order", doc)
			}
			if where[i] != -2 {
				t.Fatalf("entity %d (index %d) in two documents", d.Entities[i].ID, i)
			}
			where[i] = doc
		}
	}
	if !p.Streamed {
		if len(p.Cells) != 0 {
			t.Fatal("cells in a scene that is not streamed")
		}
		return
	}
	place(p.Persistent, -1)
	for k, c := range p.Cells {
		place(c.Entities, k)
		if k > 0 {
			q := p.Cells[k-1]
			if q.Level > c.Level || q.Level == c.Level && (q.X > c.X || (q.X == c.X && q.Z >= c.Z)) {
				t.Fatalf("cells not sorted: %s before %s", q.Name, c.Name)
			}
		}
		g, b := c.Grid, c.Bounds
		if b.MinX > g.MinX || b.MinZ > g.MinZ || b.MaxX < g.MaxX || b.MaxZ < g.MaxZ {
			t.Fatalf("cell %s bounds %+v do not contain its grid %+v", c.Name, b, g)
		}
		if len(c.Entities) == 0 || c.Roots == 0 {
			t.Fatalf("empty cell %s", c.Name)
		}
	}
	for i, doc := range where {
		if doc == -2 {
			t.Fatalf("entity %d (index %d) in no document", d.Entities[i].ID, i)
		}
		e := &d.Entities[i]
		if !e.HasParent || p.CutParent(i) {
			continue
		}
		if j, ok := d.Lookup(e.Parent); ok && where[j] != doc {
			t.Fatalf("entity %d is not in the document of its parent %d", e.ID, e.Parent)
		}
	}
}
