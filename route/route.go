// Package route makes the camera routes worldcook simulate and tune
// replay from what the scene already holds: the paths its timelines move
// a streaming source along (as the engine's timeline sampler moves it),
// walks between its markers (along the engine's grid path on a tiled 2D
// scene), a tour of every cell with content, and jumps between its spawn
// points. Each route is one CSV file in the format simulate reads.
package route

import (
	"bufio"

	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/streaming"
	"github.com/worldcook/worldcook/validate"
)

// The kinds of route, in the order a run makes them.
const (
	FromTimeline = "timeline"
	FromMarkers  = "markers"
	FromTour     = "tour"
	FromTeleport = "teleport"
)

// Kinds are the route kinds, as --from names them.
var Kinds = []string{FromTimeline, FromMarkers, FromTour, FromTeleport}

// Defaults of the settings.
const (
	DefaultFPS   = 60
	DefaultSpeed = 300 // units a second, when the scene has no NavAgent
	DefaultHold  = 5   // seconds at each spawn point
)

// MaxFrames bounds a route: what simulate replays.
const MaxFrames = streaming.MaxRouteFrames

// Options say which routes to make and how.
type Options struct {
	// From are the kinds to make (default: every kind). Explicit says the
	// user named them: a kind with nothing to follow is then an error,
	// instead of a note.
	From     []string
	Explicit bool
	// FPS is the frames a second the routes are sampled at (> 0).
	FPS float64
	// Speed is the walking speed of markers and tour routes, units a
	// second; 0 takes a NavAgent's speed, else DefaultSpeed.
	Speed float64
	// Source names the streaming source markers, tour and teleport routes
	// drive ("" the first enabled one).
	Source string
	// Loops is how many times a looping timeline is played (≥ 1).
	Loops int
	// Hold is the seconds a teleport route stays at each spawn point.
	Hold float64
	// Points are component types whose entities join the Marker entities
	// as points of the markers route (worldcook.yaml route.points).
	Points []string
	// Validate reads and checks the scene (plane, assets, levels).
	Validate validate.Options
	// ScenesRoot is the root of scene names (see validate.SceneName).
	ScenesRoot string
}

// Point is a position on the world's plane: X and, in Z, the second axis
// (Y on an xy world).
type Point struct{ X, Z float64 }

// Route is one route: a source's position in each frame.
type Route struct {
	// Name is the file's name without .csv.
	Name string
	Kind string
	// Follows says what the route follows, for the line a run prints.
	Follows string
	// Source is the streaming source the route drives ("" when the scene
	// has none); Column says whether the CSV names it (the scene has
	// several sources).
	Source string
	Column bool
	// Plane is the world's plane: the CSV's second axis is z, or y.
	Plane  string
	Frames []Point
	// Jumps are the frames reached by a jump, not a walk (teleport).
	Jumps []int
}

// Length is the distance the route travels, jumps included.
func (r *Route) Length() float64 {
	l := 0.0
	for i := 1; i < len(r.Frames); i++ {
		l += math.Hypot(r.Frames[i].X-r.Frames[i-1].X, r.Frames[i].Z-r.Frames[i-1].Z)
	}
	return l
}

// WriteCSV writes the route as simulate reads it: a header frame,x,z (x,y
// on an xy world, then source when the scene has several sources) and a
// row a frame, each coordinate in the shortest form that reads back to
// the same number.
func (r *Route) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	axis := "z"
	if r.Plane == manifest.PlaneXY {
		axis = "y"
	}
	bw.WriteString("frame,x," + axis)
	if r.Column {
		bw.WriteString(",source")
	}
	bw.WriteByte('\n')
	src := ""
	if r.Column {
		src = "," + csvField(r.Source)
	}
	var b []byte
	for f, p := range r.Frames {
		b = strconv.AppendInt(b[:0], int64(f), 10)
		b = append(b, ',')
		b = strconv.AppendFloat(b, p.X, 'g', -1, 64)
		b = append(b, ',')
		b = strconv.AppendFloat(b, p.Z, 'g', -1, 64)
		b = append(b, src...)
		b = append(b, '\n')
		bw.Write(b)
	}
	return bw.Flush()
}

// csvField quotes a source name when CSV needs it to.
func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\r\n") || strings.TrimSpace(s) != s || strings.HasPrefix(s, "#") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// Result is what a run made.
type Result struct {
	Routes []*Route
	// Notes say what was left out and why, a line each: a kind with
	// nothing to follow, a timeline that moves no source.
	Notes []string
	// Plan is the scene's partition, for drawing the routes on its map.
	Plan *validate.Plan
	// Inputs are the files read besides the scene (timeline assets).
	Inputs []string
}

// Make reads the scene at file and makes the routes opts asks for. Bad
// input (a missing timeline asset, a marker that cannot be reached, a
// route longer than MaxFrames) is an error of one line naming what is
// wrong; nothing is half made.
func Make(file string, opts Options) (*Result, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	w, err := readWorld(file, opts.Validate, opts.ScenesRoot)
	if err != nil {
		return nil, err
	}
	m := &maker{w: w, o: opts, res: &Result{Plan: w.plan}}
	m.res.Notes = append(m.res.Notes, w.notes()...)
	for _, k := range Kinds {
		if len(opts.From) > 0 && !slices.Contains(opts.From, k) {
			continue
		}
		var made []*Route
		var none string
		switch k {
		case FromTimeline:
			made, none, err = m.timelines()
		case FromMarkers:
			made, none, err = m.markers()
		case FromTour:
			made, none, err = m.tour()
		case FromTeleport:
			made, none, err = m.teleport()
		}
		if err != nil {
			return nil, err
		}
		if len(made) == 0 {
			if opts.Explicit {
				return nil, fmt.Errorf("%s: no %s route: %s", file, k, none)
			}
			m.res.Notes = append(m.res.Notes, fmt.Sprintf("no %s route: %s", k, none))
			continue
		}
		for _, r := range made {
			if err := m.add(r); err != nil {
				return nil, err
			}
		}
	}
	return m.res, nil
}

func (o *Options) check() error {
	if !(o.FPS > 0) || math.IsInf(o.FPS, 0) {
		return fmt.Errorf("--fps %v is not a positive number of frames a second", o.FPS)
	}
	if o.Speed < 0 || math.IsNaN(o.Speed) || math.IsInf(o.Speed, 0) {
		return fmt.Errorf("--speed %v is negative; give the walking speed in units a second", o.Speed)
	}
	if o.Loops < 1 {
		return fmt.Errorf("--loops %d: a looping timeline plays at least once", o.Loops)
	}
	if o.Hold < 0 || math.IsNaN(o.Hold) || math.IsInf(o.Hold, 0) {
		return fmt.Errorf("--hold %v is not a number of seconds", o.Hold)
	}
	for _, k := range o.From {
		if !slices.Contains(Kinds, k) {
			return fmt.Errorf("--from %q is not a kind of route; use %s", k, strings.Join(Kinds, ", "))
		}
	}
	return nil
}

// maker carries one run.
type maker struct {
	w   *world
	o   Options
	res *Result
}

// add takes a route into the result under a name no other route has.
func (m *maker) add(r *Route) error {
	if len(r.Frames) > MaxFrames {
		return fmt.Errorf("%s: the %s route %s would span %d frames, more than %d (MaxRouteFrames); lower --fps or raise --speed", m.w.file(), r.Kind, r.Name, len(r.Frames), MaxFrames)
	}
	base := r.Name
	for n := 2; slices.ContainsFunc(m.res.Routes, func(o *Route) bool { return strings.EqualFold(o.Name, r.Name) }); n++ {
		r.Name = fmt.Sprintf("%s-%d", base, n)
	}
	r.Plane = m.w.plan.Plane
	m.res.Routes = append(m.res.Routes, r)
	return nil
}

// driven is the source markers, tour and teleport routes drive: the one
// Options.Source names, else the first enabled one; "" when the scene has
// none.
func (m *maker) driven() (string, error) {
	srcs := m.w.plan.Sources
	if m.o.Source != "" {
		var names []string
		for _, s := range srcs {
			if s.Name == m.o.Source {
				return s.Name, nil
			}
			names = append(names, strconv.Quote(s.Name))
		}
		if len(names) == 0 {
			return "", fmt.Errorf("%s: --source %q: the scene has no streaming source (WorldStreamingSource); run worldcook init to add one, or drop --source", m.w.file(), m.o.Source)
		}
		return "", fmt.Errorf("%s: --source %q: the scene has no streaming source of that name (it has %s)", m.w.file(), m.o.Source, strings.Join(names, ", "))
	}
	for _, s := range srcs {
		if s.Enabled {
			return s.Name, nil
		}
	}
	if len(srcs) > 0 {
		return srcs[0].Name, nil
	}
	return "", nil
}

// newRoute is a route of kind driving source.
func (m *maker) newRoute(kind, name, follows, source string) *Route {
	return &Route{Name: name, Kind: kind, Follows: follows, Source: source, Column: len(m.w.plan.Sources) > 1}
}

// onPlane is a world position on the partition plane.
func (m *maker) onPlane(x, y, z float64) Point {
	if m.w.plan.Plane == manifest.PlaneXY {
		return Point{x, y}
	}
	return Point{x, z}
}

// fileName makes a name safe as a file name: letters, digits, '-', '_'
// and '.' kept, everything else '-'.
func fileName(parts ...string) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('-')
		}
		for _, r := range p {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '.':
				b.WriteRune(r)
			default:
				b.WriteByte('-')
			}
		}
	}
	s := strings.Trim(b.String(), "-.")
	if len(s) > 100 {
		s = s[:100]
	}
	if s == "" {
		s = "route"
	}
	return s
}

func stringsJoin(s []string) string { return strings.Join(s, ", ") }
