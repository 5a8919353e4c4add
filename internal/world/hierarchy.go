package world

// The hierarchy of a scene: parents resolved to indices, children lists
// compared with them, cycles cut, an order that puts parents first, and
// each entity's root. What is wrong on the way is kept as a Fault, for
// the rules to report.

// FaultKind is what is wrong with an entity's place in the hierarchy.
type FaultKind uint8

const (
	// MissingParent: entity I names parent ID, which is not in the scene;
	// it is taken as a top-level entity.
	MissingParent FaultKind = iota
	// ChildMissing: entity I lists child ID, which is not in the scene.
	ChildMissing
	// ChildElsewhere: entity I lists child J (id ID), whose parent is
	// another: P, -1 when J has none or its parent is not in the scene.
	ChildElsewhere
	// Unlisted: entity I has parent P, whose children list does not name
	// it.
	Unlisted
	// Cycle: entity I is its own ancestor. Cycle holds the members
	// following parent links from I, at most nine; I's parent link is cut
	// (I is the cycle's first member in authored order).
	Cycle
)

// Fault is one thing wrong with the hierarchy.
type Fault struct {
	Kind  FaultKind
	I, J  int32
	P     int32
	ID    int64
	Cycle []int32
}

// cycleShown is how many members of a cycle a Fault keeps (and one more,
// to tell that there are more).
const cycleShown = 8

// hierarchy resolves the parents, checks the children lists and orders
// the entities parents first.
func (w *World) hierarchy() {
	w.parents()
	w.topology()
	w.sortTopologically()
}

// parents resolves parent ids to indices.
func (w *World) parents() {
	d := w.d
	for i := range d.Entities {
		e := &d.Entities[i]
		w.parent[i] = -1
		if !e.HasParent {
			continue
		}
		p, ok := d.Lookup(e.Parent)
		if !ok {
			w.cut[i] = true
			w.faults = append(w.faults, Fault{Kind: MissingParent, I: int32(i), J: -1, P: -1, ID: e.Parent})
			continue
		}
		w.parent[i] = int32(p)
		w.flags[p] |= HasKids
	}
}

// topology checks that every children list names exactly the entities
// whose parent it is: the parent links are what the loader uses.
func (w *World) topology() {
	d := w.d
	for p := range d.Entities {
		kids, _ := d.Children(p)
		for _, id := range kids {
			j, ok := d.Lookup(id)
			switch {
			case !ok:
				w.faults = append(w.faults, Fault{Kind: ChildMissing, I: int32(p), J: -1, P: -1, ID: id})
			case w.parent[j] != int32(p):
				w.faults = append(w.faults, Fault{Kind: ChildElsewhere, I: int32(p), J: int32(j), P: w.parent[j], ID: id})
			default:
				w.flags[j] |= listed
			}
		}
	}
	for j := range d.Entities {
		p := w.parent[j]
		if p < 0 || w.flags[j]&listed != 0 {
			continue
		}
		w.faults = append(w.faults, Fault{Kind: Unlisted, I: int32(j), J: -1, P: p})
	}
}

// sortTopologically orders entities parents first, finds each one's root,
// and breaks parent cycles. It walks each parent chain once with an
// explicit stack: hierarchies may be deep, and a cycle must end the walk.
// A cycle is cut at its first member in authored order, which becomes a
// top-level entity, so that everything after sees a forest.
func (w *World) sortTopologically() {
	n := len(w.parent)
	w.order = make([]int32, 0, n)
	w.root = make([]int32, n)
	flags, parent := w.flags, w.parent
	stack := make([]int32, 0, 64)
	for i := 0; i < n; i++ {
		if flags[i]&done != 0 {
			continue
		}
		for {
			stack = stack[:0]
			j := int32(i)
			for j >= 0 && flags[j]&(done|onPath) == 0 {
				flags[j] |= onPath
				stack = append(stack, j)
				j = parent[j]
			}
			if j >= 0 && flags[j]&onPath != 0 {
				k := len(stack) - 1
				for stack[k] != j {
					k--
				}
				m := j
				for _, s := range stack[k:] {
					m = min(m, s)
				}
				w.cycle(m)
				parent[m] = -1
				w.cut[m] = true
				for _, s := range stack {
					flags[s] &^= onPath
				}
				continue
			}
			for k := len(stack) - 1; k >= 0; k-- {
				s := stack[k]
				flags[s] = flags[s]&^onPath | done
				if p := parent[s]; p >= 0 {
					w.root[s] = w.root[p]
				} else {
					w.root[s] = s
				}
				w.order = append(w.order, s)
			}
			break
		}
	}
}

// cycle records the parent cycle through m, before it is cut.
func (w *World) cycle(m int32) {
	members := []int32{m}
	for j := w.parent[m]; j != m && len(members) <= cycleShown; j = w.parent[j] {
		members = append(members, j)
	}
	w.faults = append(w.faults, Fault{Kind: Cycle, I: m, J: -1, P: -1, Cycle: members})
}
