// Package manifest defines the world manifest that cook writes beside the
// cell documents and that simulate reads back: the index of a streamed world.
//
// The field names follow the Estella runtime's residency loader, plus the
// fields worldcook adds (bytes, blake3, persistent, sources, plane), so one
// file serves both the engine and the simulator.
package manifest

import (
	"errors"
	"fmt"
	"math"
	"path"
	"strings"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/internal/regular"
)

// Version is the manifest format version written by this cook.
const Version = 1

// Plane names the two world axes that cells partition.
const (
	PlaneXZ = "xz"
	PlaneXY = "xy"
)

// Manifest is the index of one cooked streamed world.
type Manifest struct {
	Version        int        `json:"version"`
	Scene          string     `json:"scene"`
	CellSize       float64    `json:"cellSize"`
	Plane          string     `json:"plane"`
	PersistentRefs []int64    `json:"persistentRefs"`
	Persistent     Persistent `json:"persistent"`
	Sources        []Source   `json:"sources"`
	Cells          []Cell     `json:"cells"`
	// Assets lists every distinct asset file the world's entities load,
	// sorted by path; absent for a world that references none (or was
	// cooked outside a project), which simulates exactly as before assets
	// were counted.
	Assets []Asset `json:"assets,omitempty"`
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
	Assets
}

// Vec3 is a world-space position.
type Vec3 struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	Z float64 `json:"z"`
}

// Source is an authored WorldStreamingSource: a place that asks cells to exist.
type Source struct {
	Entity         int64   `json:"entity"`
	Name           string  `json:"name"`
	Position       Vec3    `json:"position"`
	PrefetchRadius float64 `json:"prefetchRadius"`
	LoadRadius     float64 `json:"loadRadius"`
	UnloadRadius   float64 `json:"unloadRadius"`
	Enabled        bool    `json:"enabled"`
}

// Cell is one grid cell's document. X and Z are grid indices on the world's
// plane (for plane "xy", Z holds the Y index, as the runtime reads it).
// MinX..MaxZ are the grown bounds: the grid square widened to cover content.
type Cell struct {
	Name        string  `json:"name"`
	Path        string  `json:"path"`
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
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: not a world manifest: %v", name, err)
	}
	if err := m.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &m, nil
}

// Load reads and decodes the manifest at path.
func Load(file string) (*Manifest, error) {
	data, err := regular.ReadFile(file, "manifest")
	if err != nil {
		return nil, err
	}
	return Decode(file, data)
}

// Check reports the first way m is not a manifest that cook could have
// written: an unknown version, a bad cell size, unsafe paths, duplicate
// cells, inverted bounds or out-of-order cells.
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
	seen := make(map[string]bool, len(m.Cells))
	for i, c := range m.Cells {
		if c.Name == "" {
			return fmt.Errorf("cells[%d] has no name", i)
		}
		if seen[c.Name] {
			return fmt.Errorf("cell %s is listed twice", c.Name)
		}
		seen[c.Name] = true
		if err := CheckPath(c.Path); err != nil {
			return fmt.Errorf("cell %s: %w", c.Name, err)
		}
		if !strings.HasPrefix(c.Path, "world/") {
			return fmt.Errorf("cell %s: path %q is not under world/", c.Name, c.Path)
		}
		if !(c.MinX <= c.MaxX && c.MinZ <= c.MaxZ) {
			return fmt.Errorf("cell %s: bounds [%v,%v]x[%v,%v] are inverted or not numbers", c.Name, c.MinX, c.MaxX, c.MinZ, c.MaxZ)
		}
		if c.Bytes < 0 || (c.ProxyBytes != nil && *c.ProxyBytes < 0) {
			return fmt.Errorf("cell %s: negative byte size", c.Name)
		}
		if i > 0 {
			p := m.Cells[i-1]
			if p.X > c.X || (p.X == c.X && p.Z >= c.Z) {
				return errors.New("cells are not sorted by x then z; re-cook the world")
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

// CheckPath reports whether p is a clean relative slash path that stays
// inside the cooked directory.
func CheckPath(p string) error {
	if p == "" {
		return errors.New("empty path")
	}
	if strings.Contains(p, "\\") || strings.HasPrefix(p, "/") || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") {
		return fmt.Errorf("path %q leaves the cooked directory", p)
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
