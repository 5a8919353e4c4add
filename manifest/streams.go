package manifest

import (
	"fmt"
	"math"
	"strconv"
)

// NothingStreams says why a world of the given cells streams nothing, as
// validate and cook say it of a scene and simulate and tune of a world:
// with no cell every entity stays in the persistent world, and with one
// cell the content loads whole or not at all, which is what an unstreamed
// scene does. only names the one cell; the layout (nil when unknown) says
// how far the content spans on the plane, for the cell size to advise.
// The message is "" for a world of two cells or more.
func NothingStreams(cells int, only string, l *Layout, plane string, cellSize float64) (message, hint string) {
	switch cells {
	case 0:
		return "the world has no cell: every top-level entity stays in the persistent world (WorldPersistent, StreamedWorld or no Transform), so nothing streams",
			"streaming moves what the scene places outside WorldPersistent roots; a scene that creates its content at run time has nothing for worldcook to cut"
	case 1:
		message = fmt.Sprintf("all of the world's content is in one cell, %s: it loads whole or not at all, as if the scene were not streamed", only)
		if l != nil && l.Roots == 1 {
			// A top-level entity goes whole into the cell of its
			// position: no cell size splits one (a tilemap scene).
			return message, "its content is one top-level entity, and an entity goes whole into one cell whatever the cell size: split it into several top-level entities (a tilemap into chunks, each its own entity) for the world to stream"
		}
		if l != nil && l.Roots > 1 {
			second := 2
			if plane == PlaneXY {
				second = 1
			}
			if span := math.Max(l.Span(0), l.Span(second)); span > 0 {
				return message, fmt.Sprintf("its top-level entities span %s × %s (x × %s) and cellSize is %s: a cellSize near %s cuts that into about 8×8 cells",
					short(l.Span(0)), short(l.Span(second)), SecondAxis(plane), short(cellSize), short(span/8))
			}
		}
		return message, "lower StreamedWorld.cellSize so that the content spans several cells"
	}
	return "", ""
}

// short writes x with at most two significant digits, for advice.
func short(x float64) string {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 2, 64), 64)
	return strconv.FormatFloat(v, 'f', -1, 64)
}
