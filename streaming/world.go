// Package streaming models the Estella runtime's world streamer: a scheduler
// that decides, one frame at a time, which cells of a streamed world are
// requested, prepared, published, unloaded, evicted or cancelled for a set of
// streaming sources, and the IO it runs on (a deterministic model, or real
// reads and decodes of the cooked cell files).
//
// A frame runs in the order of the reference StreamingManager — finish,
// evict, unload/cancel, publish, dispatch — extended with prefetch, several
// sources, distance to grown bounds, retries and a spatial index, so that a
// frame costs time in proportion to the cells near the sources rather than
// to the size of the world.
package streaming

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strconv"

	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/manifest"
)

// Bounds is an axis-aligned rectangle on the world's partition plane. Z is
// the plane's second axis (world Y for a plane "xy" world).
type Bounds = grid.Rect

// Cell is one streamed cell as the scheduler sees it.
type Cell struct {
	Name string
	// Level is the cell's grid level (docs/format.md, "Levels"): 0 for the
	// ordinary grid, L for a square cellSize·2^L wide. X and Z are the
	// cell's indices in its level's grid.
	Level int32
	X, Z  int32
	// Bounds are the grown bounds: the grid square widened to cover the
	// cell's content. Distance is measured to them.
	Bounds Bounds
	// Bytes is the size of the full representation, ProxyBytes the size of
	// the far one (used beyond Settings.LODRadius when HasProxy is set).
	Bytes      int64
	ProxyBytes int64
	HasProxy   bool
	// EntityCount is the number of entities the cell brings into the world.
	EntityCount int
	// Path locates the cell document in World.Files (disk IO only).
	Path string
	// Assets index World.Assets: the asset files the cell's entities load
	// besides its document.
	Assets []int32
}

// Source is a streaming source: a place that asks cells to exist.
type Source struct {
	Name string
	// Entity is the id of the scene entity that carries it (0 for a
	// source a route makes in a world without authored ones).
	Entity int64
	// X and Z are the source's position on the partition plane.
	X, Z float64
	// Prefetch, Load and Unload are the radii: cells within Prefetch are
	// prepared, within Load published, and resident cells stay until they
	// are beyond Unload.
	Prefetch, Load, Unload float64
	// Enabled is false for a source that asks for nothing.
	Enabled bool
	// View is what the source's camera shows, centred on it; nil when
	// nothing says (no camera, no view setting): pop-in is then not
	// counted around it.
	View *View
}

// Point is a position on the partition plane.
type Point = grid.Point

// World is a streamed world: its cells, its authored sources and, for disk
// IO, the files the cells are read from.
type World struct {
	// Scene is the scene's registered name (main, levels/boss).
	Scene string
	// CellSize is the width of a grid square; the spatial index uses it.
	CellSize float64
	// Plane is manifest.PlaneXZ or manifest.PlaneXY.
	Plane   string
	Cells   []Cell
	Sources []Source
	// View is the scene's main camera's view (nil: none), for the sources
	// a route is given in a world without authored ones.
	View *View
	// RuntimeSources are the sources as the Estella runtime samples them:
	// on X and Z whatever the plane (for an xz world, Sources).
	RuntimeSources []Source
	// Layout is how the content lies in space, as cook measured it (nil
	// for a manifest without one): what tells a 2D scene from a 3D one.
	Layout *manifest.Layout
	// Files holds the cooked documents, addressed by Cell.Path. It may be
	// nil for a world that is only simulated with modelled IO.
	Files fs.FS
	// Assets are the distinct asset files of the world, shared by the
	// cells that list them; PersistentAssets index them for what the
	// persistent world holds. A world without assets simulates by its
	// documents alone.
	Assets           []Asset
	PersistentAssets []int32
	// AssetFiles holds the asset files, addressed by Asset.Path (the
	// project's folder; disk IO only).
	AssetFiles fs.FS

	// frozen is what Freeze shares between schedulers (nil: not frozen).
	frozen *frozen
}

// cellsFromManifest returns the manifest's cells, in manifest order.
func cellsFromManifest(m *manifest.Manifest) []Cell {
	cells := make([]Cell, len(m.Cells))
	for i, c := range m.Cells {
		cells[i] = Cell{
			Name:        c.Name,
			Level:       c.Level,
			X:           c.X,
			Z:           c.Z,
			Bounds:      Bounds{MinX: c.MinX, MinZ: c.MinZ, MaxX: c.MaxX, MaxZ: c.MaxZ},
			Bytes:       c.Bytes,
			EntityCount: c.EntityCount,
			Path:        c.Path,
		}
		if c.ProxyBytes != nil {
			cells[i].ProxyBytes = *c.ProxyBytes
			cells[i].HasProxy = true
		}
	}
	return cells
}

// sourcesFromManifest returns the manifest's authored streaming sources.
// A source without a name, or whose name another source shares, is named
// "Name#entity" so that a route can address each one.
func sourcesFromManifest(m *manifest.Manifest) []Source {
	count := make(map[string]int, len(m.Sources))
	for _, s := range m.Sources {
		count[s.Name]++
	}
	out := make([]Source, len(m.Sources))
	for i, s := range m.Sources {
		name := s.Name
		if name == "" || count[name] > 1 {
			name += "#" + strconv.FormatInt(s.Entity, 10)
		}
		z := s.Position.Z
		if m.Plane == manifest.PlaneXY {
			z = s.Position.Y
		}
		out[i] = Source{
			Name:     name,
			Entity:   s.Entity,
			X:        s.Position.X,
			Z:        z,
			Prefetch: s.PrefetchRadius,
			Load:     s.LoadRadius,
			Unload:   s.UnloadRadius,
			Enabled:  s.Enabled,
			View:     ViewOf(s.View),
		}
	}
	return out
}

// WorldFromManifest builds the world a manifest describes; files holds the
// cooked directory the manifest's paths are relative to (or nil).
func WorldFromManifest(m *manifest.Manifest, files fs.FS) *World {
	plane := m.Plane
	if plane == "" {
		plane = manifest.PlaneXZ
	}
	w := &World{
		Scene:    m.Scene,
		CellSize: m.CellSize,
		Plane:    plane,
		Cells:    cellsFromManifest(m),
		Sources:  sourcesFromManifest(m),
		View:     ViewOf(m.View),
		Layout:   m.Layout,
		// The runtime's view of the sources, for --policy estella.
		RuntimeSources: runtimeSources(m),
		Files:          files,
	}
	assetsFromManifest(m, w)
	return w
}

// check reports the first way w cannot be simulated. Manifests are checked
// when decoded; this guards worlds built in code.
func (w *World) check() error {
	if w == nil {
		return errors.New("no world")
	}
	if !(w.CellSize > 0) || math.IsInf(w.CellSize, 0) {
		return fmt.Errorf("cell size %v must be a positive finite number", w.CellSize)
	}
	seen := make(map[string]bool, len(w.Cells))
	// The sizes must add up within manifest.MaxWorldBytes, as a
	// manifest's must: every byte count the scheduler keeps is a part of
	// that sum, so none can wrap around.
	var total int64
	for _, c := range w.Cells {
		b := c.Bounds
		if !finite(b.MinX, b.MinZ, b.MaxX, b.MaxZ) || b.MinX > b.MaxX || b.MinZ > b.MaxZ {
			return fmt.Errorf("cell %s: bounds [%v,%v]x[%v,%v] are inverted or not finite", c.Name, b.MinX, b.MaxX, b.MinZ, b.MaxZ)
		}
		if c.Bytes < 0 || c.ProxyBytes < 0 {
			return fmt.Errorf("cell %s: negative byte size", c.Name)
		}
		if c.Bytes > manifest.MaxWorldBytes || c.ProxyBytes > manifest.MaxWorldBytes {
			total = manifest.MaxWorldBytes + 1
		} else {
			total += c.Bytes + c.ProxyBytes
		}
		if total > manifest.MaxWorldBytes {
			return fmt.Errorf("cell %s: the cells' sizes add up past %d bytes, more than a world may hold", c.Name, int64(manifest.MaxWorldBytes))
		}
		if seen[c.Name] {
			return fmt.Errorf("cell %s is listed twice", c.Name)
		}
		seen[c.Name] = true
	}
	if !w.checkAssets() {
		return errors.New("the world's asset lists name assets it does not have, or negative sizes")
	}
	return nil
}

// CheckSources reports the first source whose radii the runtime would
// refuse: negative or non-finite radii, prefetch below load, or an unload
// radius that leaves no hysteresis band above load.
func CheckSources(sources []Source) error {
	for _, s := range sources {
		if !finite(s.X, s.Z) {
			return fmt.Errorf("source %s: position (%v, %v) is not finite", s.Name, s.X, s.Z)
		}
		// The rule is the validator's too (manifest.CheckRadii); the
		// messages speak of the flags a simulation sets them with.
		ps := manifest.CheckRadii(s.Prefetch, s.Load, s.Unload)
		switch {
		case len(ps) == 0:
		case ps[0].NotADistance:
			return fmt.Errorf("source %s: radii must be finite and not negative (prefetch %v, load %v, unload %v)", s.Name, s.Prefetch, s.Load, s.Unload)
		case ps[0].Field == "prefetchRadius":
			return fmt.Errorf("source %s: prefetch radius %v is below load radius %v; raise the prefetch radius to at least %v", s.Name, s.Prefetch, s.Load, s.Load)
		default:
			return fmt.Errorf("source %s: unload radius %v must exceed load radius %v, or a source on the border loads and unloads every frame; half again above load is a good start", s.Name, s.Unload, s.Load)
		}
	}
	return nil
}

func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
