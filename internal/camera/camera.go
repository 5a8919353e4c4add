// Package camera reads what the cameras of an Estella scene show, the way
// the engine reads them: a Camera component with the engine's defaults
// filled in, which camera is the scene's main one, and the view of a
// camera on the world's plane — an orthographic camera's rectangle or a
// perspective camera's disc (docs/simulate.md, "The view").
//
// The engine's own code is camera/CameraPlugin.ts (buildCameraInfo: the
// projection, the Canvas fit), camera/CameraDirector.ts (pickActive: the
// main camera) and ecs/component.generated.ts (the defaults). This package
// knows nothing of hierarchies or prefabs: the caller hands it the fields
// of the components it found, and says which camera a source rides on.
package camera

import (
	"math"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/manifest"
)

// Fields reads one member of a component's data as JSON (an instance's
// field with its overrides applied, or the authored one); ok is false when
// the component does not set it.
type Fields func(key string) (value []byte, ok bool)

// The engine's defaults for a Camera field the scene leaves out: the C++
// defaults overlaid with the editor's (a scene is loaded with both), so an
// absent projectionType is orthographic and an absent orthoSize 540.
const (
	DefaultOrthoSize = 540
	DefaultFarPlane  = 1000
)

// Camera is one Camera component as the engine reads it.
type Camera struct {
	Entity int64
	Name   string
	// Orthographic is projectionType 1 (the default); anything else is the
	// perspective projection.
	Orthographic bool
	// OrthoSize is the half-height an orthographic camera shows, FarPlane
	// how far a perspective one sees.
	OrthoSize, FarPlane float64
	// AspectRatio is the width ÷ height the scene authors, 0 when it sets
	// none (or one of 0 or less). The runtime overwrites every camera's
	// aspectRatio with the screen's when it starts, so only a value the
	// scene writes says something about the screen: the editor's 1.77
	// placeholder for an absent field does not.
	AspectRatio float64
	// Active is isActive (default true); Priority orders cameras.
	Active   bool
	Priority float64
	// FullFrame is set when the viewport covers the whole screen (the
	// default {0, 0, 1, 1}): only such a camera can be the main one, the
	// others render overlays (minimaps).
	FullFrame bool
	// Angle is how far the camera's image is turned about the world
	// plane's normal, in radians counter-clockwise from x towards the
	// plane's second axis: what the caller reads from the camera's world
	// rotation (Turn), 0 for a camera that is not turned.
	Angle float64
}

// Turn is the angle a camera whose world rotation is r (columns: its
// right, up and back axes) turns its image by on the world's plane: the
// angle of its right axis from x towards the plane's second axis (y on
// an xy world, z on an xz one). On an xy world it is the engine's 2D
// camera rotation, the angle about z of the camera's world rotation; a
// camera tilted off the plane is taken by that turn alone.
func Turn(r [3][3]float64, xy bool) float64 {
	second := 2
	if xy {
		second = 1
	}
	x, v := r[0][0], r[second][0]
	if x == 0 && v == 0 {
		return 0 // the right axis stands on the plane's normal
	}
	return math.Atan2(v, x)
}

// Read reads a Camera component through get, as the engine fills it in:
// a field that is absent, of the wrong kind or below its minimum of 0
// takes its default (the engine drops invalid fields and warns).
func Read(entity int64, name string, get Fields) Camera {
	c := Camera{Entity: entity, Name: name, Orthographic: true,
		OrthoSize: DefaultOrthoSize, FarPlane: DefaultFarPlane, Active: true, FullFrame: true}
	if f, ok := number(get, "projectionType"); ok {
		c.Orthographic = f == 1
	}
	if f, ok := number(get, "orthoSize"); ok && f >= 0 {
		c.OrthoSize = f
	}
	if f, ok := number(get, "farPlane"); ok && f >= 0 {
		c.FarPlane = f
	}
	if f, ok := number(get, "aspectRatio"); ok && f > 0 {
		c.AspectRatio = f
	}
	if v, ok := get("isActive"); ok && scene.KindOf(v) == scene.Bool {
		c.Active = v[0] == 't'
	}
	if f, ok := number(get, "priority"); ok {
		c.Priority = f
	}
	if v, ok := get("viewport"); ok && scene.KindOf(v) == scene.Object {
		// One level of merge, as the engine's: a viewport that names only
		// some of x, y, z, w keeps the defaults of the others.
		full := map[string]float64{"x": 0, "y": 0, "z": 1, "w": 1}
		for k, want := range full {
			if f, ok := number(func(key string) ([]byte, bool) { return scene.Field(v, key) }, k); ok && f != want {
				c.FullFrame = false
			}
		}
	}
	return c
}

// number reads a finite JSON number field.
func number(get Fields, key string) (float64, bool) {
	v, ok := get(key)
	if !ok {
		return 0, false
	}
	f, err := scene.Float(v)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// Main returns the index in cams (the cameras the scene spawns, in spawn
// order) of the camera the engine makes the main one, -1 for none. The
// camera director chooses among the full-frame cameras: the first active
// one, else the one of highest priority (the first of those on a tie).
// With no full-frame camera the overlays render alone, sorted by
// priority, and the first, of the lowest, drives the screen.
func Main(cams []Camera) int {
	best := -1
	for k, c := range cams {
		if !c.FullFrame {
			continue
		}
		if c.Active {
			return k
		}
		if best < 0 || c.Priority > cams[best].Priority {
			best = k
		}
	}
	if best >= 0 {
		return best
	}
	for k, c := range cams {
		if best < 0 || c.Priority < cams[best].Priority {
			best = k
		}
	}
	return best
}

// Canvas is the design-resolution fit of a scene's UI Canvas: when a
// scene has one, the engine sets an orthographic camera's half-height
// from its design resolution, not from orthoSize.
type Canvas struct {
	Entity int64
	// Width and Height are the design resolution (default 1920 × 1080).
	Width, Height float64
	// ScaleMode is how the design resolution fits the screen: 0
	// FixedWidth, 1 FixedHeight (the default), 2 Expand, 3 Shrink, 4
	// Match, where Match blends width (0) and height (1).
	ScaleMode int
	Match     float64
}

// The Canvas scale modes.
const (
	FixedWidth = iota
	FixedHeight
	Expand
	Shrink
	Match
)

// ReadCanvas reads a Canvas component with the engine's defaults.
func ReadCanvas(entity int64, get Fields) Canvas {
	c := Canvas{Entity: entity, Width: 1920, Height: 1080, ScaleMode: FixedHeight, Match: 0.5}
	if v, ok := get("designResolution"); ok && scene.KindOf(v) == scene.Object {
		field := func(key string) ([]byte, bool) { return scene.Field(v, key) }
		if f, ok := number(field, "x"); ok {
			c.Width = f
		}
		if f, ok := number(field, "y"); ok {
			c.Height = f
		}
	}
	if f, ok := number(get, "scaleMode"); ok && f == math.Trunc(f) {
		c.ScaleMode = int(f)
	}
	if f, ok := number(get, "matchWidthOrHeight"); ok {
		c.Match = f
	}
	return c
}

// halfHeight is the engine's computeEffectiveOrthoSize: the half-height
// that fits the design resolution into a screen of the given aspect.
func (c Canvas) halfHeight(aspect float64) float64 {
	base := c.Height / 2
	forWidth := base * (c.Width / c.Height) / aspect
	switch c.ScaleMode {
	case FixedWidth:
		return forWidth
	case Expand:
		return math.Max(forWidth, base)
	case Shrink:
		return math.Min(forWidth, base)
	case Match:
		return math.Pow(forWidth, 1-c.Match) * math.Pow(base, c.Match)
	}
	return base
}

// usable reports whether the canvas has a design resolution to fit.
func (c Canvas) usable() bool {
	return c.Width > 0 && c.Height > 0 && !math.IsInf(c.Width, 0) && !math.IsInf(c.Height, 0)
}

// Screen is what a view's rectangle is drawn for: the project's design
// resolution (0 × 0 when the project gives none), the project's camera
// fit (nil when it sets none) and the scene's Canvas (nil when it has
// none).
type Screen struct {
	DesignWidth, DesignHeight float64
	ScreenFit                 *Canvas
	Canvas                    *Canvas
}

// ScreenFit is the project's camera fit as the engine's runtime builds
// it (resolveScreenFit): the design resolution, 1920 × 1080 when the
// project gives none, fitted by mode (a Canvas scale mode) with the match
// blend; nil for mode -1, no fit.
func ScreenFit(designWidth, designHeight float64, mode int, match float64) *Canvas {
	if mode < FixedWidth || mode > Match {
		return nil
	}
	c := &Canvas{Entity: -1, Width: designWidth, Height: designHeight, ScaleMode: mode, Match: match}
	if !(designWidth > 0 && designHeight > 0) {
		c.Width, c.Height = 1920, 1080
	}
	return c
}

// DefaultAspect is the aspect assumed when neither the camera nor the
// project says: 16:9.
const DefaultAspect = 16.0 / 9.0

// aspect is the width ÷ height of the screen camera c draws on, and where
// it came from: the camera's authored aspectRatio, else the project's
// design resolution, else 16:9.
func (s Screen) aspect(c Camera) (float64, string) {
	switch {
	case c.AspectRatio > 0:
		return c.AspectRatio, "aspectRatio"
	case s.DesignWidth > 0 && s.DesignHeight > 0:
		return s.DesignWidth / s.DesignHeight, "designResolution"
	}
	return DefaultAspect, "16:9"
}

// View is what camera c shows on screen s, centred on whatever carries
// it: an orthographic rectangle of height 2·orthoSize (or the fit of the
// design resolution: the project's camera fit when it sets one, which the
// engine then prefers to the Canvas, else the scene's Canvas) and width
// height × aspect, turned by the camera's Angle; or a perspective disc
// of radius farPlane. via says how the camera was found for the source
// ("own", "ancestor", "main").
func View(c Camera, s Screen, via string) manifest.View {
	v := manifest.View{Camera: c.Entity, CameraName: c.Name, Via: via}
	if !c.Orthographic {
		v.Projection, v.Distance = manifest.Perspective, c.FarPlane
		return v
	}
	aspect, from := s.aspect(c)
	half := c.OrthoSize
	fit, name := s.Canvas, "canvas"
	if s.ScreenFit != nil {
		fit, name = s.ScreenFit, "screenFit"
	}
	if fit != nil && fit.usable() {
		if h := fit.halfHeight(aspect); h > 0 && !math.IsInf(h, 0) && !math.IsNaN(h) {
			half, v.Fit = h, name
		}
	}
	v.Projection, v.Aspect, v.AspectFrom = manifest.Orthographic, aspect, from
	v.Height = 2 * half
	v.Width = v.Height * aspect
	v.Rotation = degrees(c.Angle)
	return v
}

// degrees is angle a (radians) in degrees from -180 to 180, rounded to a
// billionth of a degree so that the noise of a rotation's arithmetic does
// not turn an unturned camera.
func degrees(a float64) float64 {
	if math.IsNaN(a) || math.IsInf(a, 0) {
		return 0
	}
	d := math.Round(math.Remainder(a*180/math.Pi, 360)*1e9) / 1e9
	if d == -180 {
		d = 180
	}
	if d == 0 {
		return 0 // not -0
	}
	return d
}
