package validate

import (
	"fmt"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/internal/world/place"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/scene"
)

// E is an entity of a test scene. Children are derived from the parents
// unless Kids is set.
type E struct {
	ID     int64
	Parent *int64
	Name   string
	C      []string // raw component objects
	Kids   []int64
	// Raw, when set, is the whole record (prefab entries, odd shapes).
	Raw string
}

func at(id int64) *int64 { return &id }

// sceneJSON renders entities one record per line, so entities[k] is on
// line k+5.
func sceneJSON(es ...E) string {
	kids := map[int64][]int64{}
	for _, e := range es {
		if e.Parent != nil && e.Raw == "" {
			kids[*e.Parent] = append(kids[*e.Parent], e.ID)
		}
	}
	var b strings.Builder
	b.WriteString("{\n\"version\": 1,\n\"name\": \"Test\",\n\"entities\": [\n")
	for k, e := range es {
		if k > 0 {
			b.WriteString(",\n")
		}
		if e.Raw != "" {
			b.WriteString(e.Raw)
			continue
		}
		parent := "null"
		if e.Parent != nil {
			parent = strconv.FormatInt(*e.Parent, 10)
		}
		ks := e.Kids
		if ks == nil {
			ks = kids[e.ID]
		}
		kt := make([]string, len(ks))
		for i, k := range ks {
			kt[i] = strconv.FormatInt(k, 10)
		}
		name := e.Name
		if name == "" {
			name = "E" + strconv.FormatInt(e.ID, 10)
		}
		fmt.Fprintf(&b, `{"id": %d, "name": %q, "parent": %s, "children": [%s], "components": [%s], "visible": true}`,
			e.ID, name, parent, strings.Join(kt, ", "), strings.Join(e.C, ", "))
	}
	b.WriteString("\n]\n}\n")
	return b.String()
}

func parse(t testing.TB, src string) *scene.Document {
	t.Helper()
	d, err := scene.Parse("test.esscene", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	return d
}

func check(t testing.TB, opts Options, es ...E) *Plan {
	t.Helper()
	if opts.SceneName == "" {
		opts.SceneName = "test"
	}
	p, err := Check(parse(t, sceneJSON(es...)), opts)
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	return withoutSetup(p)
}

// setupCodes are the warnings about a whole world's setup that nearly
// every fixture here earns (a world of a cell or two, without a streaming
// source): check leaves them out, and TestRules, which checks them,
// calls checkAll.
var setupCodes = map[string]bool{CodeNothingStreams: true, CodeNoStreamingSource: true}

// withoutSetup drops the setup warnings from p's findings.
func withoutSetup(p *Plan) *Plan {
	p.Findings = slices.DeleteFunc(p.Findings, func(f Finding) bool { return setupCodes[f.Code] })
	return p
}

// checkAll is check with every finding.
func checkAll(t testing.TB, opts Options, es ...E) *Plan {
	t.Helper()
	if opts.SceneName == "" {
		opts.SceneName = "test"
	}
	p, err := Check(parse(t, sceneJSON(es...)), opts)
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	return p
}

func tr(x, y, z float64) string {
	return fmt.Sprintf(`{"type": "Transform", "data": {"position": {"x": %v, "y": %v, "z": %v}}}`, x, y, z)
}

func comp(typ, data string) string {
	return fmt.Sprintf(`{"type": %q, "data": %s}`, typ, data)
}

func sw(cellSize string) string { return comp("StreamedWorld", `{"cellSize": `+cellSize+`}`) }

var persistent = comp("WorldPersistent", `{}`)

func joint(target string) string {
	return comp("RevoluteJoint", `{"connectedEntity": `+target+`}`)
}

// codes summarizes findings as "code@entity:field" strings, sorted.
// codes lists p's findings as code@entity:field, sorted, the setup
// warnings left out (see setupCodes); allCodes keeps them.
func codes(p *Plan) []string {
	return codesOf(p, false)
}

func allCodes(p *Plan) []string {
	return codesOf(p, true)
}

func codesOf(p *Plan, setup bool) []string {
	out := []string{}
	for _, f := range p.Findings {
		if !setup && setupCodes[f.Code] {
			continue
		}
		s := f.Code
		if f.Entity != nil {
			s += "@" + strconv.FormatInt(*f.Entity, 10)
		}
		if f.Field != "" {
			s += ":" + f.Field
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// cellOf returns the name of the cell holding entity id, or "persistent".
func cellOf(t testing.TB, p *Plan, id int64) string {
	t.Helper()
	i, ok := p.Doc.Lookup(id)
	if !ok {
		t.Fatalf("no entity %d", id)
	}
	for _, c := range p.Cells {
		for _, e := range c.Entities {
			if int(e) == i {
				return c.Name
			}
		}
	}
	for _, e := range p.Persistent {
		if int(e) == i {
			return "persistent"
		}
	}
	t.Fatalf("entity %d is in no document", id)
	return ""
}

// newPrefabs returns a Prefabs over the project at dirs[0] whose uuids
// resolve through the .meta files under dirs (recursively).
func newPrefabs(dirs []string) *Prefabs {
	root := "."
	if len(dirs) > 0 {
		root = dirs[0]
	}
	return NewPrefabsFor(assets.NewResolver(root, assets.NewIndex(dirs), assets.Rules{}))
}

// withPlacers has placement and the reads of the model spread over parts
// goroutines whatever the world's size, until restore: a test proves a
// result does not depend on how many ran.
func withPlacers(parts int) (restore func()) {
	savedParts, savedSplit := place.PlacerCount, world.SplitCount
	place.PlacerCount = func(int) int { return parts }
	world.SplitCount = place.PlacerCount
	return func() { place.PlacerCount, world.SplitCount = savedParts, savedSplit }
}
