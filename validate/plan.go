// Package validate partitions a parsed scene into its persistent world and
// grid cells, grows each cell's bounds to cover its content, and checks the
// rules a streamed world must keep. Its result, a Plan, is everything cook
// needs to write the world, and everything validate reports.
package validate

import (
	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/manifest"
)

// Options configure partitioning and checking.
type Options struct {
	// SceneName is the scene's name as the Estella runtime registers it:
	// its path under the scenes root without ".esscene" ("main",
	// "levels/boss"). Cell names derive from it.
	SceneName string
	// Plane is manifest.PlaneXZ (default) or manifest.PlaneXY.
	Plane string
	// PlaneFrom says where Plane was set, for messages ("--plane",
	// "worldcook.yaml:1:8: plane"); "" when it was not (the default).
	PlaneFrom string
	// Strict turns warnings into errors.
	Strict bool
	// Components declares project components' entity-reference fields, in
	// addition to the engine's built-in table.
	Components map[string]ComponentFields
	// Assets are the asset folders: the .meta sidecars under them resolve
	// @uuid: references, and the first is the project when the scene lies
	// in none. Empty means the Estella project holding the scene (the
	// nearest parent directory with a project.esproject), else the
	// scene's own directory. See AssetResolver.
	Assets []string
	// AssetRules extend the default asset reference rules (worldcook.yaml).
	AssetRules assets.Rules
	// AssetGraph, when set, lists the assets and resolves every asset
	// reference of the check (a cook of many scenes of one project reads
	// each asset once); nil builds one per Check over the scene's project.
	AssetGraph *assets.Graph
	// AssetCache, when set (and AssetGraph is not), shares one graph per
	// project between Check calls: a run over many scenes of a project
	// reads each asset once.
	AssetCache *assets.Cache
	// Levels is the coarsest level a large root may be promoted to (0:
	// every root stays in the level-0 grid). See docs/format.md, "Levels".
	Levels int
	// Prefabs, when set, is a prefab reader shared between Check calls (a
	// run over many scenes reads each prefab once); its resolver then
	// resolves every reference of the check. Nil builds one per call over
	// the check's resolver, lazily, only if a prefab is placed.
	Prefabs *Prefabs
	// CellSize, when above 0, cuts the scene in cells of this size instead
	// of its StreamedWorld.cellSize (worldcook tune tries cell sizes
	// without editing the scene).
	CellSize float64
}

// Rect is an axis-aligned rectangle on the partition plane. For plane "xy"
// the Z fields hold Y.
type Rect = grid.Rect

// Plan is the partition of one scene and the findings about it.
type Plan struct {
	Doc *scene.Document
	// Streamed is false for a scene without StreamedWorld: it is cooked
	// as a byte-for-byte copy and has no cells.
	Streamed  bool
	SceneName string
	CellSize  float64
	Plane     string
	// Persistent holds the entity indices of the persistent world, in
	// authored order.
	Persistent []int32
	// Cells are the non-empty cells sorted by level, then X, then Z.
	Cells []Cell
	// Promotions are the roots placed at a coarser level, in authored
	// order; nil when none is.
	Promotions []Promotion
	// PersistentRefs are the sorted, distinct ids of persistent entities
	// that cell entities reference.
	PersistentRefs []int64
	// Sources are the authored WorldStreamingSources, in authored order.
	Sources []manifest.Source
	// View is what the scene's main camera shows (nil without a camera):
	// the view a simulation gives the sources it assumes for a world
	// without authored ones. Each source's own is its Source.View.
	View *manifest.View
	// Layout is how the content lies in space (cameras, the extent of the
	// top-level entities), measured for plane-mismatch; cook writes it in
	// the manifest.
	Layout *manifest.Layout
	// Findings are in a stable order: by entity position, then code.
	Findings []Finding
	// Assets are the asset files each cell and the persistent world
	// load; nil for a scene that is not a streamed world.
	Assets *AssetPlan
	// PrefabFiles are the prefab documents read to place instances (with
	// a shared Options.Prefabs, every one it has read so far).
	PrefabFiles []string
	// Instances is set when the scene holds prefab instances; spawn
	// counts are then worth reporting. PersistentSpawnCount counts the
	// entities the engine spawns for the persistent world.
	Instances            bool
	PersistentSpawnCount int

	// world is the model of the scene the plan was made from; nil for a
	// plan of findings only or once released (ReleaseWorld), when cut
	// keeps its CutParent.
	world *world.World
	cut   []bool
	// fents is the entity index of each finding (Relocate).
	fents []int32
}

// Cell is one grid cell with content.
type Cell struct {
	// Level is the cell's grid level (0 for the ordinary grid); X and Z
	// are its indices in that level's grid.
	Level int32
	X, Z  int32
	// Name is "<scene>.cell_<x>_<z>" ("<scene>.cell_L<level>_<x>_<z>" above
	// level 0); File is its file name inside world/.
	Name string
	File string
	// Entities are the cell's entity indices in authored order.
	Entities []int32
	Roots    int
	// SpawnCount is how many entities the engine spawns for the cell:
	// prefab instances expanded, those whose prefab is missing dropped.
	SpawnCount int
	Grid       Rect
	Bounds     Rect
	Overhang   Overhang
	// maxID is the highest id in the cell's document, above which the
	// engine numbers the ids it generates for the cell's instances.
	maxID int64
}

// Overhang names the entity that reaches farthest outside the grid square.
type Overhang struct {
	Entity int64   `json:"entity"`
	Name   string  `json:"name"`
	By     float64 `json:"by"`
}

// Severity of a finding.
const (
	SeverityError   = diag.SeverityError
	SeverityWarning = diag.SeverityWarning
)

// Finding is one problem found in a scene: a diagnostic whose File is the
// scene file, whose Line and Column (1-based) are where the offending
// field's key starts (its list element for a list field), or, when the
// field is not in the entity's own record (prefab content, a missing
// member), where the record starts, and whose Subject names the entity,
// its field and, for a reference, the target and cells either side.
// Its JSON is the Diagnostic's (docs/validate.md).
type Finding struct {
	diag.Diagnostic
	// Arrow locates a rejected reference on the partition plane, from the
	// referencing entity to its target, for drawing; nil when either end
	// has no place in the world.
	Arrow *Arrow `json:"-"`
}

// CutParent reports whether entity i's parent link must be written as null.
func (p *Plan) CutParent(i int) bool {
	if p.world != nil {
		return p.world.CutParent(i)
	}
	return i < len(p.cut) && p.cut[i]
}

// ReleaseWorld lets the model of the world go (World is nil afterwards),
// keeping what writing the plan needs (CutParent): a cook holds its plan
// while it writes every entity, and its model would stay live beside it
// for nothing (docs/benchmarks.md, the memory guard).
func (p *Plan) ReleaseWorld() {
	if p.world != nil {
		p.cut = p.world.Cuts()
		p.world = nil
	}
}

// World is the model of the world the plan was made from (nil for a
// plan of findings only, FindingsOnly): its entities, hierarchy,
// instances, transforms and extents, for what reads the world beside
// the plan (init, route).
func (p *Plan) World() *world.World { return p.world }

// Errors counts error findings; with strict, warnings count too.
func (p *Plan) Errors(strict bool) int {
	if strict {
		return len(p.Findings)
	}
	errors, _ := p.Counts()
	return errors
}

// FindingsOnly keeps what a report needs of a plan, letting the document's
// bytes and the partition go: a run over many scenes reports each when all
// are checked, without holding every scene's document.
func FindingsOnly(p *Plan) *Plan {
	return &Plan{
		Doc:       &scene.Document{Path: p.Doc.Path},
		Streamed:  p.Streamed,
		SceneName: p.SceneName,
		CellSize:  p.CellSize,
		Plane:     p.Plane,
		Findings:  p.Findings,
	}
}
