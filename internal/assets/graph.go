package assets

import (
	"bytes"
	"encoding/hex"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/zeebo/blake3"
)

// MaxDocBytes bounds a document whose references are followed (a prefab,
// material, tileset or map): larger ones are still counted and hashed,
// but their references are not read.
const MaxDocBytes = 32 << 20

// Asset is one file of a project as a cook counts it.
type Asset struct {
	// Path is project-relative, slash-separated.
	Path  string
	Bytes int64
	// Blake3 is the lowercase hex digest of the file's bytes, so that a
	// change of content alone changes what a manifest records.
	Blake3 string
	// Missing says why the file cannot be used ("" when it can).
	Missing string
}

// Miss is a reference that leads to no usable file.
type Miss struct {
	// Ref is the reference as written.
	Ref string
	// Path is where it pointed ("" for an unknown uuid).
	Path string
	// Via is the asset whose document holds the reference ("" when the
	// entity holds it itself).
	Via    string
	Reason string
}

// Message says what is missing, for a finding.
func (m Miss) Message() string {
	what := strconv.Quote(m.Ref)
	if m.Path != "" && m.Path != m.Ref {
		what += " (" + m.Path + ")"
	}
	if m.Via != "" {
		what += ", referenced by " + m.Via + ","
	}
	return what + " " + m.Reason
}

// Graph is the asset graph of one project: every file it has looked at,
// with its size, digest and references, each read once. References are
// resolved by its Resolver, which the prefab expansion shares. It is safe
// for concurrent use.
type Graph struct {
	res   *Resolver
	rules compiled

	mu       sync.Mutex
	nodes    map[string]*node
	closures map[string]closure
}

type node struct {
	Asset
	deps   []string // project paths of the assets its document references
	misses []Miss   // its references that lead nowhere
	// parent is the project path of a material's instanceOf parent and
	// parentRef the reference as written ("" for none).
	parent, parentRef string
	// chain says whether the instanceOf chain from this material has
	// been walked; cycle is the cycle it runs into (Reason "" for none).
	chain bool
	cycle Miss
	// tex and texMisses are a material's textures and those of them that
	// lead nowhere: the engine loads them only when the material itself
	// loads, its whole instanceOf chain included (see loadsLocked).
	tex       []string
	texMisses []Miss
	// refused is set for a material document the engine's loader refuses
	// (its type is not "material").
	refused bool
	// loads caches loadsLocked: 0 not known yet, 1 loads, 2 does not.
	loads int8
}

// New returns the graph of the project at root, resolving uuids through
// index (nil: no uuid resolves) by rules.
func New(root string, index *Index, rules Rules) *Graph {
	return NewGraph(NewResolver(root, index, rules))
}

// NewGraph returns the graph of the project r resolves references in.
func NewGraph(r *Resolver) *Graph {
	return &Graph{res: r, rules: r.rules, nodes: make(map[string]*node)}
}

// Resolver is the resolver the graph resolves references with.
func (g *Graph) Resolver() *Resolver { return g.res }

// Root is the project folder paths are relative to, as it was given.
func (g *Graph) Root() string { return g.res.Root() }

// File is the path in the file system of the asset at project path p.
func (g *Graph) File(p string) string { return g.res.Abs(p) }

// Resolve turns a reference written in the document at from (a project
// path, or "" for a scene) into a project path. A reason is returned
// when it leads nowhere; ok is false when the text is not a file
// reference at all (a builtin: name, a URL, empty). See Resolver.
func (g *Graph) Resolve(ref, from string) (p, reason string, ok bool) {
	r := g.res.Resolve(ref, from)
	return r.Path, r.Reason, r.Ref
}

// Asset returns the file at project path p, reading it the first time.
func (g *Graph) Asset(p string) Asset {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.nodeLocked(p).Asset
}

func (g *Graph) nodeLocked(p string) *node {
	if n, ok := g.nodes[p]; ok {
		return n
	}
	n := g.load(p)
	g.nodes[p] = n
	return n
}

// load stats, hashes and, for kinds that are followed, reads the
// references of the file at project path p. It opens the file through an
// os.Root, so that neither "..", an absolute path nor a symbolic link can
// lead it out of the project, and reads regular files only.
func (g *Graph) load(p string) *node {
	n := &node{Asset: Asset{Path: p}}
	fail := func(reason string) *node { n.Missing = reason; return n }
	f, st, err := g.res.Open(p)
	if err != nil {
		return fail(Why(err))
	}
	defer f.Close()
	k := g.rules.kindOf(p)
	h := blake3.New()
	if k != nil && k.Follow && st.Size() <= MaxDocBytes {
		data, err := readOpen(f, MaxDocBytes)
		if err != nil {
			return fail("cannot be read: " + ErrText(err))
		}
		h.Write(data)
		n.Bytes = int64(len(data))
		g.follow(n, k, data)
	} else {
		size, err := io.Copy(h, f)
		if err != nil {
			return fail("cannot be read: " + ErrText(err))
		}
		n.Bytes = size
		if k != nil && k.Follow {
			n.misses = append(n.misses, Miss{Ref: p, Path: p, Reason: "is larger than " + strconv.Itoa(MaxDocBytes) + " bytes: its references are not followed"})
		}
	}
	n.Blake3 = hex.EncodeToString(h.Sum(nil))
	return n
}

// follow records the references of a followed document.
func (g *Graph) follow(n *node, k *compiledKind, data []byte) {
	if c, ok := containers[k.format]; ok {
		g.followContainer(n, c, data)
		return
	}
	var refs []Found
	var err error
	if k.Ext == materialExt {
		refs, err = g.materialRefs(n, k, data)
	} else {
		refs, err = Extract(data, g.rules.fields, k.fields)
	}
	if err != nil {
		n.misses = append(n.misses, Miss{Ref: n.Path, Path: n.Path, Reason: "is not valid JSON (" + err.Error() + "): its references are not followed"})
		return
	}
	seen := map[string]bool{}
	for _, ref := range refs {
		p, reason, ok := g.Resolve(ref.Value, n.Path)
		if !ok {
			continue
		}
		if ref.Field == "instanceOf" && n.parentRef == "" {
			n.parent, n.parentRef = p, ref.Value
		}
		deps, misses := &n.deps, &n.misses
		if k.Ext == materialExt && strings.HasPrefix(ref.Field, "properties.") {
			deps, misses = &n.tex, &n.texMisses
		}
		if reason != "" {
			*misses = append(*misses, Miss{Ref: ref.Value, Path: p, Via: n.Path, Reason: reason})
			continue
		}
		if p != n.Path && !seen[p] {
			seen[p] = true
			*deps = append(*deps, p)
		}
	}
}

// materialRefs lists what the engine's material loader loads besides the
// document: its instanceOf parent or else its shader, and every string of
// its properties as a texture, each resolved against the material (see
// DecodeMaterial). Other members are not read by the loader and name
// nothing, except the kind's own extra fields. A document whose type is
// not "material" is refused by the loader: it loads nothing more.
func (g *Graph) materialRefs(n *node, k *compiledKind, data []byte) ([]Found, error) {
	m, err := DecodeMaterial(data)
	if err != nil {
		return nil, err
	}
	if m.Type != "material" {
		n.misses = append(n.misses, Miss{Ref: n.Path, Path: n.Path,
			Reason: "is not a material (its \"type\" is " + strconv.Quote(m.Type) + ", not \"material\"): the engine refuses to load it, and nothing it names"})
		n.refused = true
		return nil, nil
	}
	refs := m.refs()
	if len(k.fields) > 0 {
		more, err := Extract(data, nil, k.fields)
		if err != nil {
			return nil, err
		}
		for _, f := range more {
			if !strings.HasPrefix(f.Value, "@uuid:") || k.fields[f.Field[strings.LastIndexByte(f.Field, '.')+1:]] {
				refs = append(refs, f)
			}
		}
	}
	return refs, nil
}

// MaxMaterialChain bounds the instanceOf chain worldcook walks from one
// material. The engine's loader has no bound (and never finishes on a
// cycle); a chain this long is reported rather than walked further.
const MaxMaterialChain = 64

// chainLocked walks the instanceOf chain from material p once, and
// returns the cycle it runs into, or a chain longer than
// MaxMaterialChain, as a miss (Reason "" when the chain ends). Every
// material on the way remembers the answer, so a world's materials are
// walked once in all. The miss names the cycle from its smallest path,
// whichever material the walk started from, so that it is reported once.
func (g *Graph) chainLocked(p string) Miss {
	var path []string
	at := map[string]int{}
	var found Miss
	for cur := p; ; {
		n := g.nodeLocked(cur)
		if n.chain {
			found = n.cycle
			break
		}
		if i, on := at[cur]; on {
			found = cycleMiss(g, path[i:])
			break
		}
		if len(path) == MaxMaterialChain {
			found = Miss{Ref: n.parentRef, Path: n.parent, Via: cur,
				Reason: "is more than " + strconv.Itoa(MaxMaterialChain) + " materials down an instanceOf chain from " + p + ": the chain is not followed further"}
			break
		}
		at[cur] = len(path)
		path = append(path, cur)
		if n.Missing != "" || n.parentRef == "" || n.parent == "" {
			break
		}
		cur = n.parent
	}
	for _, q := range path {
		n := g.nodes[q]
		n.chain, n.cycle = true, found
	}
	return found
}

// loadsLocked reports whether the engine's material loader finishes
// loading material p: every material up its instanceOf chain exists, is
// a material, and the chain ends (no cycle, within MaxMaterialChain).
// A material that does not load binds none of its textures: the loader
// loads the parent first and gives up on the instance when that fails.
func (g *Graph) loadsLocked(p string) bool {
	n := g.nodeLocked(p)
	if n.loads != 0 {
		return n.loads == 1
	}
	ok := n.Missing == "" && !n.refused
	if ok && n.parentRef != "" {
		switch {
		case n.parent == "" || n.parent == p:
			ok = false
		case g.chainLocked(p).Reason != "":
			ok = false
		default:
			// The chain ends within the bound (chainLocked said so), so
			// the recursion does too.
			ok = g.loadsLocked(n.parent)
		}
	}
	n.loads = 2
	if ok {
		n.loads = 1
	}
	return ok
}

// cycleMiss names an instanceOf cycle from its smallest path.
func cycleMiss(g *Graph, cyc []string) Miss {
	start := 0
	for i, q := range cyc {
		if q < cyc[start] {
			start = i
		}
	}
	order := append(append([]string(nil), cyc[start:]...), cyc[:start]...)
	first := g.nodes[order[0]]
	return Miss{Ref: first.parentRef, Path: first.parent, Via: order[0],
		Reason: "leads back to " + order[0] + " (instanceOf " + strings.Join(append(order, order[0]), " → ") + "): the engine's material loader never finishes loading a material on this cycle"}
}

// Closure returns the project paths reachable from roots (the roots
// included), sorted, and every reference on the way that leads nowhere:
// the roots themselves when they are missing, and what the documents
// among them reference in vain. Missing files are not in the paths.
func (g *Graph) Closure(roots []string) (paths []string, misses []Miss) {
	g.mu.Lock()
	defer g.mu.Unlock()
	seen := make(map[string]bool, len(roots))
	queue := append([]string(nil), roots...)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		n := g.nodeLocked(p)
		if n.Missing != "" {
			continue
		}
		paths = append(paths, p)
		misses = append(misses, n.misses...)
		if n.parentRef != "" {
			if m := g.chainLocked(p); m.Reason != "" {
				misses = append(misses, m)
			}
		}
		deps := n.deps
		if len(n.tex)+len(n.texMisses) > 0 && g.loadsLocked(p) {
			deps = append(deps[:len(deps):len(deps)], n.tex...)
			misses = append(misses, n.texMisses...)
		}
		for _, d := range deps {
			if !seen[d] {
				queue = append(queue, d)
			}
			if dn := g.nodeLocked(d); dn.Missing != "" {
				misses = append(misses, Miss{Ref: d, Path: d, Via: p, Reason: dn.Missing})
			}
		}
	}
	sort.Strings(paths)
	sort.Slice(misses, func(a, b int) bool {
		x, y := misses[a], misses[b]
		if x.Via != y.Via {
			return x.Via < y.Via
		}
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		return x.Ref < y.Ref
	})
	return paths, dedupMisses(misses)
}

func dedupMisses(ms []Miss) []Miss {
	out := ms[:0]
	for i, m := range ms {
		if i > 0 && m == ms[i-1] {
			continue
		}
		out = append(out, m)
	}
	return out
}

// MayRefer is a cheap test that a compact or pretty JSON value can hold a
// reference: it holds "@uuid:" or a key that is a reference field. It
// lets a cook skip decoding the records of a large world that reference
// nothing; a false positive costs only that decoding.
func (g *Graph) MayRefer(raw []byte) bool { return mayRefer(raw, g.rules.fields) }

func mayRefer(raw []byte, fields map[string]bool) bool {
	if bytes.Contains(raw, uuidMark) {
		return true
	}
	for i := 0; ; {
		j := bytes.Index(raw[i:], keyEnd)
		if j < 0 {
			return false
		}
		end := i + j
		start := bytes.LastIndexByte(raw[i:end], '"')
		if start >= 0 && (fields[string(raw[i+start+1:end])] || componentKeys[string(raw[i+start+1:end])]) {
			return true
		}
		i = end + len(keyEnd)
	}
}

var (
	uuidMark = []byte("@uuid:")
	keyEnd   = []byte(`":`)
)

// Refs lists the references in an entity record or component data by the
// graph's rules (see Extract).
func (g *Graph) Refs(data []byte) ([]Found, error) {
	return extractValid(data, g.rules.fields, nil), nil
}

// ClosureOf is Closure of one path, remembered: a world of many cells
// sharing a few prefabs and materials walks each asset's references once.
func (g *Graph) ClosureOf(p string) ([]string, []Miss) {
	g.mu.Lock()
	c, ok := g.closures[p]
	g.mu.Unlock()
	if ok {
		return c.paths, c.misses
	}
	paths, misses := g.Closure([]string{p})
	g.mu.Lock()
	if g.closures == nil {
		g.closures = make(map[string]closure)
	}
	g.closures[p] = closure{paths, misses}
	g.mu.Unlock()
	return paths, misses
}

type closure struct {
	paths  []string
	misses []Miss
}

// Cache hands out one Resolver and one Graph per project, asset folders
// and rules, so that a run over many scenes of one project resolves each
// reference and reads each asset and .meta once. It is safe for
// concurrent use.
type Cache struct {
	mu        sync.Mutex
	resolvers map[string]*Resolver
	graphs    map[*Resolver]*Graph
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{resolvers: make(map[string]*Resolver), graphs: make(map[*Resolver]*Graph)}
}

// Resolver returns the resolver of the project at root whose uuids
// resolve through the .meta files under dirs, made with index (when not
// nil) the first time.
func (c *Cache) Resolver(root string, dirs []string, index *Index, rules Rules) *Resolver {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = root
	}
	key := abs + "\x00" + strings.Join(dirs, "\x00") + "\x00" + rules.Key()
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.resolvers[key]; ok {
		return r
	}
	if index == nil {
		index = NewIndex(dirs)
	}
	r := NewResolver(root, index, rules)
	c.resolvers[key] = r
	return r
}

// Graph returns the graph over Resolver(root, dirs, index, rules).
func (c *Cache) Graph(root string, dirs []string, index *Index, rules Rules) *Graph {
	return c.GraphOf(c.Resolver(root, dirs, index, rules))
}

// GraphOf returns the one graph over r.
func (c *Cache) GraphOf(r *Resolver) *Graph {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g, ok := c.graphs[r]; ok {
		return g
	}
	g := NewGraph(r)
	c.graphs[r] = g
	return g
}
