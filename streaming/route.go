package streaming

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/internal/regular"

	"github.com/worldcook/worldcook/manifest"
)

// Limits of a route. A route is held in memory as every source's
// position in every frame, so its size, its frame count and frames ×
// sources are bounded: a typo in a frame column (frame 10000000000), or
// a frame far away with thousands of sources, fails clearly instead of
// exhausting memory.
const (
	// MaxRouteFrames bounds the frames a route may span.
	MaxRouteFrames = 1_000_000
	// MaxRoutePoints bounds frames × sources: the source positions the
	// frames hold (16 bytes each, 64 MiB in all). It also bounds the rows,
	// since each row places one source in one frame.
	MaxRoutePoints = 1 << 22
	// MaxRouteBytes bounds the route file: 4 Mi rows of 64 bytes.
	MaxRouteBytes = 256 << 20
)

// Route is a path for the streaming sources, read from CSV: a header, then
// x and z (y for a plane "xy" world) on every row, with optional frame and
// source columns.
type Route struct {
	File string
	// Columns present besides x.
	HasY, HasZ, HasFrame, HasSource bool
	Rows                            []RouteRow
}

// RouteRow is one row of a route.
type RouteRow struct {
	Line    int
	Frame   int64
	Source  string
	X, Y, Z float64
}

// routeError is a problem with a route file, located by line.
type routeError struct {
	File string
	Line int // 0 when the problem is the file as a whole
	Msg  string
}

func (e *routeError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

var routeColumns = []string{"x", "y", "z", "frame", "source"}

// ReadRoute reads the route CSV at path: a regular file (a named pipe or
// a device would block or never end), parsed as parseRouteOn does.
func ReadRoute(path string) (*Route, error) { return readRouteOn(path, "") }

// readRouteOn is ReadRoute for a world cut on plane: its messages name the
// columns that plane needs (x,y on an xy world). "" is a plane not yet
// known: the messages name both.
func readRouteOn(path, plane string) (*Route, error) {
	f, _, err := regular.Open(path, "route CSV")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseRouteOn(f, path, plane)
}

// parseRouteOn reads a route CSV of at most MaxRouteBytes and
// MaxRoutePoints rows, for a world cut on plane (see readRouteOn; "" is a
// plane not yet known). Lines starting with # are comments; blank lines
// are skipped. Errors name the file and line.
func parseRouteOn(r io.Reader, file, plane string) (*Route, error) {
	// The file is parsed as it is read, never held whole, and reading
	// stops one byte past the limit.
	lr := &io.LimitedReader{R: r, N: MaxRouteBytes + 1}
	rt, err := parseRoute(lr, file, plane)
	if lr.N <= 0 {
		return nil, &routeError{File: file, Msg: fmt.Sprintf("the route is larger than %d bytes (MaxRouteBytes); shorten it", MaxRouteBytes)}
	}
	return rt, err
}

// routeAxes are the columns a route on plane must have, as messages say
// them: "x,z", "x,y", or both while the plane is not known.
func routeAxes(plane string) (header, columns string) {
	switch plane {
	case manifest.PlaneXY:
		return "x,y", "x and y (frame and source are optional)"
	case manifest.PlaneXZ:
		return "x,z", "x and z (y, frame and source are optional)"
	}
	return "x,z (x,y for an xy world)", "x and z, or x and y for an xy world (frame and source are optional)"
}

func parseRoute(r io.Reader, file, plane string) (*Route, error) {
	header, columns := routeAxes(plane)
	fail := func(line int, format string, args ...any) error {
		return &routeError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	br := bufio.NewReader(r)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\xef\xbb\xbf")) { // spreadsheet BOM
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.Comment = '#'
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	csvErr := func(err error) error {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			if errors.Is(pe.Err, csv.ErrFieldCount) {
				return fail(pe.Line, "the row has a different number of fields from the header")
			}
			return fail(pe.Line, "%v", pe.Err)
		}
		return fail(0, "%v", err)
	}

	names, err := cr.Read()
	if err == io.EOF {
		return nil, fail(0, "empty route; the first line must be a header such as %s", header)
	}
	if err != nil {
		return nil, csvErr(err)
	}
	hline, _ := cr.FieldPos(0)
	col := map[string]int{}
	for i, h := range names {
		name := strings.ToLower(strings.TrimSpace(h))
		if !slices.Contains(routeColumns, name) {
			return nil, fail(hline, "unknown column %q; the header may name x, y, z, frame and source", strings.TrimSpace(h))
		}
		if _, dup := col[name]; dup {
			return nil, fail(hline, "column %q appears twice", name)
		}
		col[name] = i
	}
	rt := &Route{File: file}
	_, rt.HasY = col["y"]
	_, rt.HasZ = col["z"]
	_, rt.HasFrame = col["frame"]
	_, rt.HasSource = col["source"]
	if _, ok := col["x"]; !ok || !(rt.HasZ || rt.HasY) {
		return nil, fail(hline, "the header needs columns %s", columns)
	}

	num := func(rec []string, line int, name string, required bool) (float64, error) {
		i, ok := col[name]
		if !ok {
			return 0, nil
		}
		s := strings.TrimSpace(rec[i])
		if s == "" {
			if required {
				return 0, fail(line, "%s is empty", name)
			}
			return 0, nil
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !finite(v) {
			return 0, fail(line, "%s %q is not a finite number", name, s)
		}
		return v, nil
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(err)
		}
		line, _ := cr.FieldPos(0)
		if len(rt.Rows) == MaxRoutePoints {
			return nil, fail(line, "the route has more than %d rows (MaxRoutePoints, frames × sources); shorten it", MaxRoutePoints)
		}
		row := RouteRow{Line: line}
		if row.X, err = num(rec, line, "x", true); err != nil {
			return nil, err
		}
		// y is optional height on an xz world, so it may be left empty;
		// z is required whenever the column is there.
		if row.Y, err = num(rec, line, "y", false); err != nil {
			return nil, err
		}
		if row.Z, err = num(rec, line, "z", true); err != nil {
			return nil, err
		}
		if i, ok := col["frame"]; ok {
			s := strings.TrimSpace(rec[i])
			f, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, fail(line, "frame %q is not a whole number", s)
			}
			row.Frame = f
		}
		if i, ok := col["source"]; ok {
			row.Source = strings.TrimSpace(rec[i])
			if row.Source == "" {
				return nil, fail(line, "source is empty; name the streaming source this row moves")
			}
		}
		rt.Rows = append(rt.Rows, row)
	}
	if len(rt.Rows) == 0 {
		return nil, fail(0, "the route has a header but no rows")
	}
	return rt, nil
}

// Bind places the route on sources and returns the sources (with those the
// route drives enabled) and, for each frame, every source's position.
//
// Rows name their source in the source column; without it, the route moves
// the first enabled source. A world without authored sources gets one
// source per name in the route (or one, named after template, without a
// source column), each a copy of template. With a frame column, rows are
// grouped by frame number, in order, and a gap repeats the last positions;
// without it, a new frame starts when a source already placed in the
// current frame appears again (every row is a frame with one source).
// Sources the route does not place stay where they were.
func (rt *Route) Bind(sources []Source, plane string, template Source) ([]Source, [][]Point, error) {
	fail := func(line int, format string, args ...any) error {
		return &routeError{File: rt.File, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	xy := plane == manifest.PlaneXY
	if xy && !rt.HasY {
		return nil, nil, fail(1, "the world partitions on x and y; the header needs a y column")
	}
	if !xy && !rt.HasZ {
		return nil, nil, fail(1, "the world partitions on x and z; the header needs a z column")
	}
	at := func(row RouteRow) Point {
		if xy {
			return Point{X: row.X, Z: row.Y}
		}
		return Point{X: row.X, Z: row.Z}
	}
	out := slices.Clone(sources)
	authored := len(out) > 0
	find := func(name string) int {
		for i := range out {
			if out[i].Name == name {
				return i
			}
		}
		return -1
	}
	// Which source each row moves.
	who := make([]int, len(rt.Rows))
	driven := map[int]bool{}
	for k, row := range rt.Rows {
		i := 0
		switch {
		case rt.HasSource:
			if i = find(row.Source); i < 0 {
				if authored {
					names := make([]string, len(out))
					for j := range out {
						names[j] = out[j].Name
					}
					return nil, nil, fail(row.Line, "the world has no streaming source %q (it has %s)", row.Source, strings.Join(names, ", "))
				}
				s := template
				s.Name = row.Source
				p := at(row)
				s.X, s.Z = p.X, p.Z
				out = append(out, s)
				i = len(out) - 1
			}
		case len(out) == 0:
			s := template
			p := at(row)
			s.X, s.Z = p.X, p.Z
			out = append(out, s)
		default:
			i = routeDriven(out)
		}
		who[k] = i
		driven[i] = true
	}
	for i := range driven {
		out[i].Enabled = true
	}

	cur := make([]Point, len(out))
	for i, s := range out {
		cur[i] = Point{X: s.X, Z: s.Z}
	}
	var frames [][]Point
	emit := func() { frames = append(frames, slices.Clone(cur)) }
	// fits reports, before they are made, whether n frames of every
	// source stay within the limits. Sources are the authored ones (a
	// manifest bounds them) and at most one per row (parseRouteOn bounds
	// the rows), so the product cannot wrap.
	fits := func(line int, n uint64) error {
		if n > MaxRouteFrames {
			return fail(line, "the route spans more than %d frames (MaxRouteFrames); shorten it", MaxRouteFrames)
		}
		if n*uint64(len(out)) > MaxRoutePoints {
			return fail(line, "%d frames × %d sources is %d source positions, more than the %d a route may hold (MaxRoutePoints); shorten the route or drive fewer sources", n, len(out), n*uint64(len(out)), MaxRoutePoints)
		}
		return nil
	}
	placed := map[int]int{} // source -> line, within the current frame
	var frame, first int64
	for k, row := range rt.Rows {
		i := who[k]
		switch {
		case rt.HasFrame && k == 0:
			frame, first = row.Frame, row.Frame
		case rt.HasFrame && row.Frame < frame:
			return nil, nil, fail(row.Line, "frame %d comes after frame %d; rows must be in frame order", row.Frame, frame)
		case rt.HasFrame && row.Frame > frame:
			// first <= frame < row.Frame, so the distance fits a uint64
			// even from -2^63 to 2^63-1.
			if uint64(row.Frame)-uint64(first) >= MaxRouteFrames {
				return nil, nil, fail(row.Line, "frame %d is more than %d frames after the first", row.Frame, MaxRouteFrames)
			}
			if err := fits(row.Line, uint64(row.Frame-first)+1); err != nil {
				return nil, nil, err
			}
			for ; frame < row.Frame; frame++ {
				emit()
			}
			clear(placed)
		case rt.HasFrame:
			if prev, dup := placed[i]; dup {
				return nil, nil, fail(row.Line, "source %s is placed twice in frame %d (first on line %d)", out[i].Name, frame, prev)
			}
		default:
			if _, again := placed[i]; again || !rt.HasSource {
				if k > 0 {
					if err := fits(row.Line, uint64(len(frames))+2); err != nil {
						return nil, nil, err
					}
					emit()
				}
				clear(placed)
			}
		}
		placed[i] = row.Line
		cur[i] = at(row)
	}
	if err := fits(rt.Rows[len(rt.Rows)-1].Line, uint64(len(frames))+1); err != nil {
		return nil, nil, err
	}
	emit()
	return out, frames, nil
}

// FirstFrame is the number of the route's first frame: its first row's
// frame column, else 1 (the rows are then the frames, counted from 1).
// Every later frame is numbered one more than the one before, so none
// is numbered past the last row's frame.
func (rt *Route) FirstFrame() int {
	if rt.HasFrame && len(rt.Rows) > 0 {
		return int(rt.Rows[0].Frame)
	}
	return 1
}

// Outside warns when the route lies outside the world: no row of it
// stands within the union of the cells' grown bounds (a route drawn in
// another unit, or on the other plane). Every hole and pop-in count of
// such a run is about empty space: tune refuses it, simulate warns. The
// route's second axis is the world's plane's (y on an xy world).
func (rt *Route) Outside(w *World) *Warning {
	if len(w.Cells) == 0 || len(rt.Rows) == 0 {
		return nil
	}
	b := w.Cells[0].Bounds
	for _, c := range w.Cells[1:] {
		b = b.Union(c.Bounds)
	}
	axis := manifest.SecondAxis(w.Plane)
	lo, hi := math.Inf(1), math.Inf(-1)
	xlo, xhi := math.Inf(1), math.Inf(-1)
	for _, row := range rt.Rows {
		z := row.Z
		if w.Plane == manifest.PlaneXY {
			z = row.Y
		}
		if row.X >= b.MinX && row.X <= b.MaxX && z >= b.MinZ && z <= b.MaxZ {
			return nil
		}
		xlo, xhi, lo, hi = math.Min(xlo, row.X), math.Max(xhi, row.X), math.Min(lo, z), math.Max(hi, z)
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	return &Warning{Code: "route-outside-world", Severity: diag.SeverityWarning, Message: fmt.Sprintf(
		"%s: the route lies outside the world: it spans x %s..%s, %s %s..%s, the world's cells x %s..%s, %s %s..%s",
		rt.File, num(xlo), num(xhi), axis, num(lo), num(hi), num(b.MinX), num(b.MaxX), axis, num(b.MinZ), num(b.MaxZ)),
		Hint: "draw the route in the world's units, on its plane (x,y on a world cut on xy)"}
}

// routeDriven is the source a route without a source column moves: the
// first enabled one (the first of all when none is enabled).
func routeDriven(sources []Source) int {
	return max(slices.IndexFunc(sources, func(s Source) bool { return s.Enabled }), 0)
}

// Drives reports, for each of sources, whether the route moves it: the
// sources its source column names, or without one the first enabled
// source (as Bind binds them).
func (rt *Route) Drives(sources []Source) []bool {
	out := make([]bool, len(sources))
	if len(sources) == 0 {
		return out
	}
	if !rt.HasSource {
		out[routeDriven(sources)] = true
		return out
	}
	named := map[string]bool{}
	for _, row := range rt.Rows {
		named[row.Source] = true
	}
	for i, s := range sources {
		out[i] = named[s.Name]
	}
	return out
}

// Undriven warns about each enabled authored source that the route does
// not move (Bind says which it moves: those its source column names, or
// the first enabled one). Such a source stands at its authored position
// for the whole run and keeps the cells around it streamed, which the
// resident bytes count: a reader who thinks the route drives every source
// would misread them. plane names the position's second axis.
func (rt *Route) Undriven(sources []Source, plane string) []Warning {
	if len(sources) == 0 {
		return nil
	}
	driven := map[string]bool{}
	if rt.HasSource {
		for _, row := range rt.Rows {
			driven[row.Source] = true
		}
	} else {
		driven[sources[routeDriven(sources)].Name] = true
	}
	axis := "z"
	if plane == manifest.PlaneXY {
		axis = "y"
	}
	var ws []Warning
	for _, s := range sources {
		if !s.Enabled || driven[s.Name] {
			continue
		}
		how := "it moves only the sources its source column names"
		if !rt.HasSource {
			how = "without a source column it moves the first enabled source, " + strconv.Quote(sources[routeDriven(sources)].Name)
		}
		ws = append(ws, Warning{Code: "undriven-source", Severity: diag.SeverityWarning, Message: fmt.Sprintf(
			"the route does not drive streaming source %q (%s): it stays at its authored position (x %g, %s %g) for the whole run, and the cells around it stay streamed and count in resident bytes; give the route a source column with rows for %q, or disable the source",
			s.Name, how, s.X, axis, s.Z, s.Name)})
	}
	return ws
}
