// Package manifest defines the world manifest that cook writes beside the
// cell documents and that simulate reads back: the index of a streamed world.
//
// The field names follow the Estella runtime's residency loader, plus the
// fields worldcook adds (bytes, blake3, persistent, sources, plane), so one
// file serves both the engine and the simulator.
package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/internal/jsondoc"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/internal/regular"
)

// Version is the manifest format version written by this cook.
const Version = 1

// Limits on what a manifest may claim. Everything that reads a manifest
// sizes memory or sums counts from it, so a manifest beyond them (hand
// edited, damaged or hostile) is refused when it is decoded instead of
// wrapping a sum around or exhausting memory later.
const (
	// MaxManifestBytes bounds the manifest file itself: a world of a
	// million cells takes about 350 MB.
	MaxManifestBytes = 1 << 30
	// MaxCells bounds the cells of one world (four times a 1024×1024
	// grid).
	MaxCells = 1 << 22
	// MaxWorldBytes bounds the sum of every size the manifest gives (the
	// persistent scene, each cell's bytes and proxyBytes): 4 TiB. Any sum
	// a simulation forms (resident, prepared, requested bytes) is a part
	// of it, and even added up over a route's every frame it stays far
	// below what an int64 holds.
	MaxWorldBytes = 1 << 42
	// MaxEntityCount bounds one document's entityCount and rootCount.
	MaxEntityCount = math.MaxInt32
	// MaxSources bounds the authored streaming sources of one world.
	MaxSources = 1 << 16
	// maxObjects bounds the JSON objects in a manifest: one per cell,
	// two per source (the source and its position), room for as many
	// again, and a few for the top level.
	maxObjects = 2*MaxCells + 4*MaxSources + 64
)

// ReadSlack is how much larger than its manifest bytes a file may be read:
// 4 KiB plus a sixteenth. A cooked file has exactly its manifest size (and
// verification checks it when the manifest has digests); the slack leaves
// room for a manifest whose sizes were written by hand, while a file that
// is a device, or has grown without bound, is cut off at ReadLimit.
const ReadSlack = 4 << 10

// ReadLimit is the most bytes a reader takes from a file whose manifest
// entry says bytes.
func ReadLimit(bytes int64) int64 {
	return bytes + bytes/16 + ReadSlack
}

// Plane names the two world axes that cells partition.
const (
	PlaneXZ = "xz"
	PlaneXY = "xy"
)

// ParsePlane reads a plane's name; "" is the default, xz.
func ParsePlane(s string) (string, error) {
	switch s {
	case "", PlaneXZ:
		return PlaneXZ, nil
	case PlaneXY:
		return PlaneXY, nil
	}
	return "", fmt.Errorf("plane %q is not supported; use %q (3D worlds) or %q (2D worlds)", s, PlaneXZ, PlaneXY)
}

// SecondAxis names a plane's second axis, the one grid indices call z:
// "y" on an xy world, "z" otherwise.
func SecondAxis(plane string) string {
	if plane == PlaneXY {
		return "y"
	}
	return "z"
}

// WorldDir is the folder of a cooked world, inside the output directory,
// that holds its manifest and cell documents (world/main.world.json,
// world/main.cell_0_0.json), as the Estella runtime reads them.
const WorldDir = "world"

// Default radii of a WorldStreamingSource that does not set them (the
// engine's defaults), for the validator that reads them from a scene and
// the scheduler that fills them in for a route without authored sources.
const (
	DefaultPrefetchRadius = 3000
	DefaultLoadRadius     = 2000
	DefaultUnloadRadius   = 3000
)

// RadiusProblem is one way a source's radii break the rule every
// streaming source must keep: finite and not negative, prefetch ≥ load,
// unload > load (or a source on a cell's border loads and unloads it
// every frame). Field names the radius at fault.
type RadiusProblem struct {
	Field, Message string
	// NotADistance is set when the radius itself is not a finite
	// non-negative number, rather than in the wrong order to another.
	NotADistance bool
}

// CheckRadii applies that rule, returning every problem, in the order
// prefetch, load, unload.
func CheckRadii(prefetch, load, unload float64) []RadiusProblem {
	var out []RadiusProblem
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 }
	for _, r := range []struct {
		field string
		v     float64
	}{{"prefetchRadius", prefetch}, {"loadRadius", load}, {"unloadRadius", unload}} {
		if bad(r.v) {
			out = append(out, RadiusProblem{r.field, fmt.Sprintf("%s %v is not a finite non-negative distance", r.field, r.v), true})
		}
	}
	if len(out) > 0 {
		return out
	}
	if prefetch < load {
		out = append(out, RadiusProblem{Field: "prefetchRadius", Message: fmt.Sprintf("prefetchRadius %s is less than loadRadius %s", num(prefetch), num(load))})
	}
	if unload <= load {
		out = append(out, RadiusProblem{Field: "unloadRadius", Message: fmt.Sprintf("unloadRadius %s is not greater than loadRadius %s", num(unload), num(load))})
	}
	return out
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// XYRuntimeNote is what a world cut on X and Y means for Estella's own
// runtime: its residency system samples every streaming source on X and
// Z, whatever the manifest's plane, so such a world streams the wrong
// cells there.
const XYRuntimeNote = "Estella's runtime samples streaming sources on X and Z only, so a world cut on X and Y streams the wrong cells in it (see worldcook simulate --policy estella)"

// XYPlane is the xy-plane warning: what a world cut on x and y means for
// Estella's runtime, from says where the plane was set ("--plane",
// "WORLDCOOK_PLANE", "worldcook.yaml:1:8: plane", "the manifest"), and
// runtime says the run is of Estella's runtime itself (simulate and tune
// --policy estella), where it says plainly that no radius helps.
func XYPlane(from string, runtime bool) string {
	cut := "the world is cut on x and y"
	if from != "" {
		cut += " (plane xy, from " + from + ")"
	}
	if runtime {
		return cut + ", and Estella's runtime samples streaming sources on X and Z only: it wants the cells around each source's (x, z), not around where the source stands, so no radius makes it stream this world as cut (only one reaching the whole world avoids holes, by loading everything). The holes this run counts, cause plane, are what players would see; cut the world on x and z for Estella's runtime, or see how it would stream if the runtime sampled x and y with --policy budgeted"
	}
	return cut + ": " + XYRuntimeNote
}

// Manifest is the index of one cooked streamed world.
type Manifest struct {
	Version        int        `json:"version"`
	Scene          string     `json:"scene"`
	CellSize       float64    `json:"cellSize"`
	Plane          string     `json:"plane"`
	PersistentRefs []int64    `json:"persistentRefs"`
	Persistent     Persistent `json:"persistent"`
	Sources        []Source   `json:"sources"`
	// View is the scene's main camera's view, which a simulation gives
	// the sources it assumes for a world without authored ones; absent
	// when the scene has no camera.
	View *View `json:"view,omitempty"`
	// Layout is how the content lies in space, to tell a 2D scene from
	// a 3D one; absent when no top-level entity was measured.
	Layout *Layout `json:"layout,omitempty"`
	Cells  []Cell  `json:"cells"`
	// Assets lists every distinct asset file the world's entities load,
	// sorted by path; absent for a world that references none (or was
	// cooked outside a project), which simulates exactly as before assets
	// were counted.
	Assets []Asset `json:"assets,omitempty"`
	// Project is the folder the asset paths are relative to, as a slash
	// path relative to the manifest's own folder, so that a cooked folder
	// moved together with its project still finds it. Absent in a world
	// without assets (its manifest is as it was before the field).
	Project string `json:"project,omitempty"`
}

// Asset is one file a streamed world loads besides its entity documents.
// Path is relative to the project root (where project.esproject is), as
// the runtime's asset loader names it, not to the cooked directory.
type Asset struct {
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
	// Blake3 is the digest of the file's bytes, so that a change of an
	// asset's content alone changes the manifest.
	Blake3 string `json:"blake3"`
}

// Assets lists the assets a cell or the persistent world holds: the
// project paths, sorted, and their total size. Both are nil in a world
// without assets, so the fields are absent from its manifest.
type Assets struct {
	Assets     *[]string `json:"assets,omitempty"`
	AssetBytes *int64    `json:"assetBytes,omitempty"`
}

// List returns the asset paths (nil when none are recorded).
func (a Assets) List() []string {
	if a.Assets == nil {
		return nil
	}
	return *a.Assets
}

// SetAssets records paths and their total size.
func (a *Assets) SetAssets(paths []string, bytes int64) {
	if paths == nil {
		paths = []string{}
	}
	a.Assets, a.AssetBytes = &paths, &bytes
}

// Persistent describes the persistent scene: what residency never removes.
type Persistent struct {
	Path        string `json:"path"`
	Bytes       int64  `json:"bytes"`
	Blake3      string `json:"blake3"`
	EntityCount int    `json:"entityCount"`
	// SpawnCount is how many entities the engine spawns for the document,
	// prefab instances expanded; written only for worlds with instances
	// (it equals EntityCount otherwise).
	SpawnCount *int `json:"spawnCount,omitempty"`
	Assets
}

// Vec3 is a world-space position.
type Vec3 = grid.Vec3

// Source is an authored WorldStreamingSource: a place that asks cells to exist.
type Source struct {
	Entity         int64   `json:"entity"`
	Name           string  `json:"name"`
	Position       Vec3    `json:"position"`
	PrefetchRadius float64 `json:"prefetchRadius"`
	LoadRadius     float64 `json:"loadRadius"`
	UnloadRadius   float64 `json:"unloadRadius"`
	Enabled        bool    `json:"enabled"`
	// View is what the source's camera shows (docs/format.md, "Views"),
	// absent when the scene has no camera for it.
	View *View `json:"view,omitempty"`
}

// The projections a View is drawn with.
const (
	Orthographic = "orthographic"
	Perspective  = "perspective"
)

// View is what a streaming source's camera shows on the world's plane,
// centred on the source: a Width × Height rectangle (an orthographic
// camera) or a disc of radius Distance (a perspective one, which may turn
// every way). Camera names the entity it was read from and Via how it was
// found for the source: "own" (a Camera on the source's entity),
// "ancestor" or "main" (the scene's main camera). For a rectangle, Aspect
// is the width ÷ height it was drawn with and AspectFrom where that came
// from ("aspectRatio", "designResolution", "16:9"); Fit is "screenFit"
// when the project's camera fit (features.rendering.cameraScaleMode) and
// "canvas" when the scene's Canvas design resolution, not orthoSize, set
// its height; Rotation is how far the camera's image is turned about the
// plane's normal, in degrees counter-clockwise from x towards the plane's
// second axis (the engine's rotation of a 2D camera about z).
type View struct {
	Camera     int64   `json:"camera"`
	CameraName string  `json:"cameraName"`
	Via        string  `json:"via"`
	Projection string  `json:"projection"`
	Width      float64 `json:"width,omitempty"`
	Height     float64 `json:"height,omitempty"`
	Distance   float64 `json:"distance,omitempty"`
	Aspect     float64 `json:"aspect,omitempty"`
	AspectFrom string  `json:"aspectFrom,omitempty"`
	Fit        string  `json:"fit,omitempty"`
	Rotation   float64 `json:"rotation,omitempty"`
}

// Check reports the first way v is not a view a cook writes.
func (v *View) Check() error {
	bad := func(f float64) bool { return math.IsNaN(f) || math.IsInf(f, 0) || f < 0 }
	switch v.Projection {
	case Orthographic:
		if bad(v.Width) || bad(v.Height) || bad(v.Aspect) {
			return fmt.Errorf("orthographic view %v × %v must have finite sides of 0 or more", v.Width, v.Height)
		}
		if math.IsNaN(v.Rotation) || math.Abs(v.Rotation) > 180 {
			return fmt.Errorf("orthographic view rotation %v must be an angle from -180 to 180 degrees", v.Rotation)
		}
	case Perspective:
		if bad(v.Distance) {
			return fmt.Errorf("perspective view distance %v must be a finite distance of 0 or more", v.Distance)
		}
	default:
		return fmt.Errorf("view projection %q must be %q or %q", v.Projection, Orthographic, Perspective)
	}
	if strings.ContainsFunc(v.CameraName+v.Via+v.AspectFrom+v.Fit, isControl) {
		return errors.New("view names hold a control character")
	}
	return nil
}

// Cell is one grid cell's document. X and Z are grid indices on the world's
// plane (for plane "xy", Z holds the Y index, as the runtime reads it).
// MinX..MaxZ are the grown bounds: the grid square widened to cover content.
// Level is the cell's grid level, absent for 0: a level-L cell's square is
// cellSize·2^L wide and X, Z index that level's grid.
type Cell struct {
	Name        string  `json:"name"`
	Path        string  `json:"path"`
	Level       int32   `json:"level,omitempty"`
	X           int32   `json:"x"`
	Z           int32   `json:"z"`
	MinX        float64 `json:"minX"`
	MinZ        float64 `json:"minZ"`
	MaxX        float64 `json:"maxX"`
	MaxZ        float64 `json:"maxZ"`
	EntityCount int     `json:"entityCount"`
	RootCount   int     `json:"rootCount"`
	Bytes       int64   `json:"bytes"`
	Blake3      string  `json:"blake3"`
	ProxyBytes  *int64  `json:"proxyBytes,omitempty"`
	// SpawnCount is as Persistent.SpawnCount, for the cell.
	SpawnCount *int `json:"spawnCount,omitempty"`
	Assets
}

// Encode renders m as 2-space-indented JSON followed by a newline. The
// output depends only on m, so equal manifests encode to equal bytes.
func Encode(m *Manifest) ([]byte, error) {
	body, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	return append(body, '\n'), nil
}

// Decode parses and checks a manifest. name is used in error messages.
func Decode(name string, data []byte) (*Manifest, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%s: not a world manifest: the file is not valid UTF-8; re-cook the world", name)
	}
	// Decoding allocates a struct per JSON object, and a hostile
	// manifest's objects can be far smaller than cook's ("{}," is three
	// bytes, a decoded cell 128). Counting the braces first bounds what
	// decoding may allocate to what the largest honest world costs.
	if n := bytes.Count(data, []byte("{")); n > maxObjects {
		return nil, fmt.Errorf("%s: not a world manifest: it holds %d JSON objects, more than a world of %d cells and %d sources can (%d); re-cook the world", name, n, MaxCells, MaxSources, maxObjects)
	}
	var m Manifest
	if err := jsondoc.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: not a world manifest: %v", name, err)
	}
	if err := m.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &m, nil
}

// Load reads and decodes the manifest at path: a regular file of at most
// MaxManifestBytes.
func Load(file string) (*Manifest, error) {
	f, size, err := regular.Open(file, "manifest")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > MaxManifestBytes {
		return nil, fmt.Errorf("%s: %d bytes is more than a world manifest may hold (%d); pass the world's manifest (world/*.world.json)", file, size, MaxManifestBytes)
	}
	// The size was taken before the read: a file that grows meanwhile is
	// cut off at the limit and then fails to decode, it is never read on.
	data, err := io.ReadAll(io.LimitReader(f, MaxManifestBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read manifest %s: %w", file, err)
	}
	if len(data) > MaxManifestBytes {
		return nil, fmt.Errorf("%s: grew past %d bytes while it was read", file, MaxManifestBytes)
	}
	return Decode(file, data)
}

// Check reports the first way m is not a manifest that cook could have
// written: an unknown version, a bad cell size, unsafe paths, duplicate
// cells, inverted bounds, out-of-order cells, or counts and sizes beyond
// the limits above.
func (m *Manifest) Check() error {
	if m.Version != Version {
		return fmt.Errorf("manifest version %d is not supported (this worldcook reads version %d); re-cook the world", m.Version, Version)
	}
	if !(m.CellSize > 0) || math.IsInf(m.CellSize, 0) {
		return fmt.Errorf("manifest cellSize %v must be a positive finite number; re-cook the world", m.CellSize)
	}
	switch m.Plane {
	case PlaneXZ, PlaneXY, "":
	default:
		return fmt.Errorf("manifest plane %q must be %q or %q", m.Plane, PlaneXZ, PlaneXY)
	}
	if m.Persistent.Path != "" {
		if err := CheckPath(m.Persistent.Path); err != nil {
			return fmt.Errorf("persistent scene: %w", err)
		}
	}
	if m.Project != "" {
		if err := CheckProject(m.Project); err != nil {
			return err
		}
	}
	if strings.ContainsFunc(m.Scene, isControl) {
		return fmt.Errorf("manifest scene %q holds a control character; re-cook the world", m.Scene)
	}
	if m.View != nil {
		if err := m.View.Check(); err != nil {
			return fmt.Errorf("%w; re-cook the world", err)
		}
	}
	if m.Layout != nil {
		if err := m.Layout.Check(); err != nil {
			return fmt.Errorf("%w; re-cook the world", err)
		}
	}
	if len(m.Sources) > MaxSources {
		return fmt.Errorf("manifest lists %d streaming sources, more than the %d a world may have", len(m.Sources), MaxSources)
	}
	for i, src := range m.Sources {
		if strings.ContainsFunc(src.Name, isControl) {
			return fmt.Errorf("sources[%d] name %q holds a control character; rename the streaming source and re-cook the world", i, src.Name)
		}
		if src.View != nil {
			if err := src.View.Check(); err != nil {
				return fmt.Errorf("sources[%d]: %w; re-cook the world", i, err)
			}
		}
	}
	if err := checkCells(len(m.Cells)); err != nil {
		return err
	}
	total, err := addBytes(0, m.Persistent.Bytes)
	if err != nil {
		return fmt.Errorf("persistent scene: %w", err)
	}
	if err := checkCount("entityCount", m.Persistent.EntityCount); err != nil {
		return fmt.Errorf("persistent scene: %w", err)
	}
	seen := make(map[string]bool, len(m.Cells))
	for i, c := range m.Cells {
		if c.Name == "" {
			return fmt.Errorf("cells[%d] has no name", i)
		}
		// Names are printed in messages and reports, one line each.
		if strings.ContainsFunc(c.Name, isControl) {
			return fmt.Errorf("cells[%d] name %q holds a control character; re-cook the world", i, c.Name)
		}
		if seen[c.Name] {
			return fmt.Errorf("cell %s is listed twice", c.Name)
		}
		seen[c.Name] = true
		if err := CheckPath(c.Path); err != nil {
			return fmt.Errorf("cell %s: %w", c.Name, err)
		}
		if !strings.HasPrefix(c.Path, WorldDir+"/") {
			return fmt.Errorf("cell %s: path %q is not under %s/", c.Name, c.Path, WorldDir)
		}
		if !(c.MinX <= c.MaxX && c.MinZ <= c.MaxZ) {
			return fmt.Errorf("cell %s: bounds [%v,%v]x[%v,%v] are inverted or not numbers", c.Name, c.MinX, c.MaxX, c.MinZ, c.MaxZ)
		}
		if c.Bytes < 0 || (c.ProxyBytes != nil && *c.ProxyBytes < 0) {
			return fmt.Errorf("cell %s: negative byte size", c.Name)
		}
		if total, err = addBytes(total, c.Bytes); err != nil {
			return fmt.Errorf("cell %s: bytes: %w", c.Name, err)
		}
		if c.ProxyBytes != nil {
			if total, err = addBytes(total, *c.ProxyBytes); err != nil {
				return fmt.Errorf("cell %s: proxyBytes: %w", c.Name, err)
			}
		}
		if err := checkCount("entityCount", c.EntityCount); err != nil {
			return fmt.Errorf("cell %s: %w", c.Name, err)
		}
		if err := checkCount("rootCount", c.RootCount); err != nil {
			return fmt.Errorf("cell %s: %w", c.Name, err)
		}
		if c.Level < 0 || c.Level > grid.MaxLevel {
			return fmt.Errorf("cell %s: level %d is outside 0..%d; re-cook the world", c.Name, c.Level, grid.MaxLevel)
		}
		if i > 0 {
			p := m.Cells[i-1]
			if (grid.Key{Level: p.Level, X: p.X, Z: p.Z}).Compare(grid.Key{Level: c.Level, X: c.X, Z: c.Z}) >= 0 {
				return errors.New("cells are not sorted by level, then x, then z; re-cook the world")
			}
		}
	}
	return m.checkAssets()
}

// checkAssets reports assets that could not have been cooked: unsafe or
// repeated paths, negative sizes, cells naming assets the list lacks.
func (m *Manifest) checkAssets() error {
	known := make(map[string]bool, len(m.Assets))
	for i, a := range m.Assets {
		if err := CheckPath(a.Path); err != nil {
			return fmt.Errorf("assets[%d]: %w", i, err)
		}
		if a.Bytes < 0 {
			return fmt.Errorf("asset %s: negative byte size", a.Path)
		}
		if i > 0 && m.Assets[i-1].Path >= a.Path {
			return errors.New("assets are not sorted by path or repeat one; re-cook the world")
		}
		known[a.Path] = true
	}
	holds := func(who string, a Assets) error {
		for _, p := range a.List() {
			if !known[p] {
				return fmt.Errorf("%s lists asset %q that the manifest's assets do not; re-cook the world", who, p)
			}
		}
		return nil
	}
	if err := holds("persistent", m.Persistent.Assets); err != nil {
		return err
	}
	for _, c := range m.Cells {
		if err := holds("cell "+c.Name, c.Assets); err != nil {
			return err
		}
	}
	return nil
}

// addBytes adds a manifest size to the running total of the world's
// sizes, refusing a total above MaxWorldBytes. Both are at most
// MaxWorldBytes, so the sum never wraps.
func addBytes(total, n int64) (int64, error) {
	if n < 0 {
		return total, fmt.Errorf("negative byte size %d", n)
	}
	if n > MaxWorldBytes || total+n > MaxWorldBytes {
		return total, fmt.Errorf("%d bytes takes the world's sizes past %d bytes (4 TiB), more than a world may hold; re-cook the world", n, int64(MaxWorldBytes))
	}
	return total + n, nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

func checkCells(n int) error {
	if n > MaxCells {
		return fmt.Errorf("manifest lists %d cells, more than the %d a world may have", n, MaxCells)
	}
	return nil
}

func checkCount(field string, n int) error {
	if n < 0 || n > MaxEntityCount {
		return fmt.Errorf("%s %d must be from 0 to %d", field, n, MaxEntityCount)
	}
	return nil
}

// CheckPath reports whether p is a clean relative slash path that stays
// inside the cooked directory: no leading slash, no "." or ".." element,
// no empty element, and none of the forms another system would read as a
// different place (a backslash, a drive or stream colon, a control
// character).
func CheckPath(p string) error {
	if p == "" {
		return errors.New("empty path")
	}
	if strings.HasPrefix(p, "/") || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") || strings.HasSuffix(p, "/..") {
		return fmt.Errorf("path %q leaves the cooked directory", p)
	}
	if i := strings.IndexFunc(p, func(r rune) bool { return r == '\\' || r == ':' || isControl(r) }); i >= 0 {
		return fmt.Errorf("path %q holds %q at byte %d; cooked paths are relative slash paths inside the cooked directory, re-cook the world", p, p[i], i)
	}
	if !fs.ValidPath(p) {
		return fmt.Errorf("path %q is not clean (an empty, \".\" or trailing-slash element); re-cook the world", p)
	}
	return nil
}

// CheckProject checks a manifest's project: a relative slash path, which
// unlike the world's own paths may climb out of the cooked directory (the
// project usually holds it, or sits beside it), but names a folder
// relative to the manifest wherever the manifest is: no root, drive or
// backslash, no control character, no empty or "." element.
func CheckProject(p string) error {
	if strings.HasPrefix(p, "/") {
		return fmt.Errorf("manifest project %q is absolute; it must be relative to the manifest's folder, re-cook the world", p)
	}
	if i := strings.IndexFunc(p, func(r rune) bool { return r == '\\' || r == ':' || isControl(r) }); i >= 0 {
		return fmt.Errorf("manifest project %q holds %q at byte %d; it must be a relative slash path, re-cook the world", p, p[i], i)
	}
	for _, e := range strings.Split(p, "/") {
		if e == "" || e == "." {
			return fmt.Errorf("manifest project %q is not clean (an empty or \".\" element); re-cook the world", p)
		}
	}
	return nil
}

// CellByName returns the cell with the given name, if any.
func (m *Manifest) CellByName(name string) (Cell, bool) {
	for _, c := range m.Cells {
		if c.Name == name {
			return c, true
		}
	}
	return Cell{}, false
}
