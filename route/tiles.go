package route

import (
	"fmt"
	"math"
	"strings"

	"github.com/worldcook/worldcook/internal/navgrid"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/tilemap"
)

// tileGrid is the engine's nav grid of a tilemap, as a game builds it with
// navGridFromTilemapLayer: a cell per tile, blocked where a collidable
// tile is painted (flip flags masked off), walkable elsewhere, unpainted
// tiles included, row 0 at the bottom. It spans the painted chunks and
// the markers: beyond them is off the grid, where the engine's search
// does not go (a game builds its grid over its map).
type tileGrid struct {
	name             string
	grid             *navgrid.Grid
	cs               float64
	originU, originV float64 // world centre of grid cell (0, 0)
}

// layerGeometry is a tilemap layer's placement: its tile size and where
// the top-left corner of tile (0, 0) is.
type layerGeometry struct {
	cs, ox, oy float64
}

func (m *maker) buildTileGrid(layers []int, pts []marker) (*tileGrid, string, error) {
	w := m.w
	type painted struct {
		chunks  []tilemap.Chunk
		blocked map[int]bool
	}
	var geo layerGeometry
	var use []painted
	var names, skipped []string
	for _, i := range layers {
		data, _ := w.component(i, "TilemapLayer")
		g, why, err := m.layerGeometry(i, data)
		if err != nil {
			return nil, "", err
		}
		if why != "" {
			skipped = append(skipped, w.label(i)+" "+why)
			continue
		}
		if len(use) > 0 && g != geo {
			skipped = append(skipped, w.label(i)+" lies on another grid than "+names[0])
			continue
		}
		if len(use) == 0 {
			geo = g
		}
		p := painted{blocked: map[int]bool{}}
		ids, _ := scene.Field(data, "collidableTileIds")
		var bad error
		scene.Each(ids, func(el []byte) bool {
			id, err := scene.Int(el)
			if err != nil {
				bad = w.entityError(i, "TilemapLayer.collidableTileIds", "holds "+string(el)+", not a tile id", "list the ids of the tiles that block, as whole numbers")
				return false
			}
			p.blocked[int(id)] = true
			return true
		})
		if bad != nil {
			return nil, "", bad
		}
		if v, ok := scene.Field(data, "chunks"); ok && scene.KindOf(v) == scene.String {
			blob, _ := scene.Str(v)
			var cut bool
			p.chunks, cut = tilemap.Decode(blob)
			if cut {
				m.res.Notes = append(m.res.Notes, fmt.Sprintf("the tiles of %s are cut short: the engine, and this route, read only the whole chunks", w.label(i)))
			}
		}
		use = append(use, p)
		names = append(names, w.label(i))
	}
	note := ""
	if len(skipped) > 0 {
		note = "markers walk straight over " + strings.Join(skipped, "; ")
	}
	if len(use) == 0 {
		return nil, note, nil
	}
	// The tiles the grid spans.
	minX, minY, maxX, maxY := math.MaxInt32, math.MaxInt32, math.MinInt32, math.MinInt32
	span := func(tx, ty int) {
		minX, maxX = min(minX, tx), max(maxX, tx)
		minY, maxY = min(minY, ty), max(maxY, ty)
	}
	for _, p := range use {
		for _, c := range p.chunks {
			span(int(c.X)*tilemap.ChunkSize, int(c.Y)*tilemap.ChunkSize)
			span(int(c.X)*tilemap.ChunkSize+tilemap.ChunkSize-1, int(c.Y)*tilemap.ChunkSize+tilemap.ChunkSize-1)
		}
	}
	for _, p := range pts {
		tx, ty := math.Floor((p.pos.X-geo.ox)/geo.cs), math.Floor((geo.oy-p.pos.Z)/geo.cs)
		if math.Abs(tx) > 1<<30 || math.Abs(ty) > 1<<30 {
			return nil, "", fmt.Errorf("%s: marker %s is %s tiles off the tilemap %s; move it onto the map", w.file(), w.label(p.at), num(math.Max(math.Abs(tx), math.Abs(ty))), names[0])
		}
		span(int(tx), int(ty))
	}
	width, height := maxX-minX+1, maxY-minY+1
	if int64(width)*int64(height) > navgrid.MaxCells {
		return nil, "", fmt.Errorf("%s: the tilemap %s and the markers span %d×%d tiles, more than the %d a walk's grid may hold (navgrid.MaxCells); bring the markers closer to the painted tiles", w.file(), names[0], width, height, navgrid.MaxCells)
	}
	g := navgrid.New(width, height)
	for _, p := range use {
		for ci := range p.chunks {
			c := &p.chunks[ci]
			for y := 0; y < tilemap.ChunkSize; y++ {
				for x := 0; x < tilemap.ChunkSize; x++ {
					if p.blocked[int(c.Tile(x, y)&tilemap.IDMask)] {
						tx, ty := int(c.X)*tilemap.ChunkSize+x, int(c.Y)*tilemap.ChunkSize+y
						g.Walkable[(maxY-ty)*width+(tx-minX)] = 0
					}
				}
			}
		}
	}
	// Unpainted tiles are tile 0: blocked too if the layer says 0 blocks.
	for _, p := range use {
		if p.blocked[0] {
			for y := 0; y < height; y++ {
				for x := 0; x < width; x++ {
					if !paintedAt(p.chunks, minX+x, maxY-y) {
						g.Walkable[y*width+x] = 0
					}
				}
			}
		}
	}
	return &tileGrid{
		name:    strings.Join(names, ", "),
		grid:    g,
		cs:      geo.cs,
		originU: geo.ox + float64(minX)*geo.cs + geo.cs/2,
		originV: geo.oy - float64(maxY)*geo.cs - geo.cs/2,
	}, note, nil
}

func paintedAt(chunks []tilemap.Chunk, tx, ty int) bool {
	cx, cy := int32(math.Floor(float64(tx)/tilemap.ChunkSize)), int32(math.Floor(float64(ty)/tilemap.ChunkSize))
	for i := range chunks {
		if chunks[i].X == cx && chunks[i].Y == cy {
			return true
		}
	}
	return false
}

// layerGeometry reads where a layer's tiles are; why says why the layer
// cannot be walked as a grid (not orthogonal, tiles not square, turned or
// scaled), "" when it can.
func (m *maker) layerGeometry(i int, data []byte) (layerGeometry, string, error) {
	w := m.w
	size, err := scene.Vec2(fieldOf(data, "cellSize"), [2]float64{32, 32})
	if err != nil {
		return layerGeometry{}, "", w.entityError(i, "TilemapLayer.cellSize", err.Error(), "write the tile size as {x, y} numbers")
	}
	off, err := scene.Vec2(fieldOf(data, "originOffset"), [2]float64{0, 0})
	if err != nil {
		return layerGeometry{}, "", w.entityError(i, "TilemapLayer.originOffset", err.Error(), "write the offset as {x, y} numbers")
	}
	if v := fieldOf(data, "orientation"); v != nil {
		if o, err := scene.Float(v); err == nil && o != 0 {
			return layerGeometry{}, "(its tiles are not orthogonal)", nil
		}
	}
	if size[0] != size[1] || !(size[0] > 0) || math.IsInf(size[0], 0) {
		return layerGeometry{}, fmt.Sprintf("(its tiles are %s×%s, and the engine's nav grid has square cells)", num(size[0]), num(size[1])), nil
	}
	if off != [2]float64{0, 0} {
		return layerGeometry{}, "(it has an originOffset)", nil
	}
	mat, err := w.where(i, nil)
	if err != nil {
		return layerGeometry{}, "", err
	}
	if mat[0][0] != 1 || mat[0][1] != 0 || mat[1][0] != 0 || mat[1][1] != 1 {
		return layerGeometry{}, "(it is turned or scaled)", nil
	}
	o := mat.Origin()
	return layerGeometry{cs: size[0], ox: o.X, oy: o.Y}, "", nil
}

func fieldOf(data []byte, key string) []byte {
	v, _ := scene.Field(data, key)
	return v
}

// path is the walk from a to b: a, the centres of the grid path's cells
// between, b.
func (t *tileGrid) path(a, b Point) ([]Point, error) {
	cell := func(p Point) navgrid.Cell {
		return navgrid.Cell{X: int(navgrid.Round((p.X - t.originU) / t.cs)), Y: int(navgrid.Round((p.Z - t.originV) / t.cs))}
	}
	ca, cb := cell(a), cell(b)
	cells := t.grid.FindPath(ca, cb)
	if cells == nil {
		for _, c := range []navgrid.Cell{ca, cb} {
			if _, ok := t.grid.NearestWalkable(c.X, c.Y, navgrid.Snap); !ok {
				return nil, fmt.Errorf("one of them stands on collidable tiles of %s with no walkable tile within %d tiles", t.name, navgrid.Snap)
			}
		}
		return nil, fmt.Errorf("the collidable tiles of %s wall one off from the other (8-connected, no corner cutting); open a way between them or move the marker", t.name)
	}
	out := []Point{a}
	for k := 1; k < len(cells)-1; k++ {
		out = append(out, Point{t.originU + float64(cells[k].X)*t.cs, t.originV + float64(cells[k].Y)*t.cs})
	}
	return append(out, b), nil
}
