package camera

import (
	"math"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/manifest"
)

// fields reads a component's data given as JSON text.
func fields(data string) Fields {
	return func(key string) ([]byte, bool) { return scene.Field([]byte(data), key) }
}

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		want       Camera
	}{
		{"absent fields take the engine's defaults", `{}`,
			Camera{Orthographic: true, OrthoSize: 540, FarPlane: 1000, Active: true, FullFrame: true}},
		{"perspective", `{"projectionType": 0, "farPlane": 2000, "fov": 45}`,
			Camera{OrthoSize: 540, FarPlane: 2000, Active: true, FullFrame: true}},
		{"orthographic as the examples write it", `{"projectionType": 1, "orthoSize": 360, "isActive": true, "priority": 0}`,
			Camera{Orthographic: true, OrthoSize: 360, FarPlane: 1000, Active: true, FullFrame: true}},
		{"an authored aspect ratio counts, 0 does not", `{"aspectRatio": 0}`,
			Camera{Orthographic: true, OrthoSize: 540, FarPlane: 1000, Active: true, FullFrame: true}},
		{"aspect ratio", `{"aspectRatio": 1.5}`,
			Camera{Orthographic: true, OrthoSize: 540, FarPlane: 1000, AspectRatio: 1.5, Active: true, FullFrame: true}},
		{"invalid fields take their defaults", `{"orthoSize": -3, "farPlane": "far", "isActive": 1, "projectionType": null}`,
			Camera{Orthographic: true, OrthoSize: 540, FarPlane: 1000, Active: true, FullFrame: true}},
		{"inactive, prioritised", `{"isActive": false, "priority": 7}`,
			Camera{Orthographic: true, OrthoSize: 540, FarPlane: 1000, Priority: 7, FullFrame: true}},
		{"a sub-viewport is an overlay", `{"viewport": {"x": 0.75, "y": 0.75, "z": 0.25, "w": 0.25}}`,
			Camera{Orthographic: true, OrthoSize: 540, FarPlane: 1000, Active: true}},
		{"a partial viewport keeps the other defaults", `{"viewport": {"x": 0}}`,
			Camera{Orthographic: true, OrthoSize: 540, FarPlane: 1000, Active: true, FullFrame: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Read(0, "", fields(tc.data)); got != tc.want {
				t.Errorf("Read(%s) = %+v, want %+v", tc.data, got, tc.want)
			}
		})
	}
}

func TestMainCamera(t *testing.T) {
	cam := func(active bool, pri float64, full bool) Camera {
		return Camera{Active: active, Priority: pri, FullFrame: full}
	}
	for _, tc := range []struct {
		name string
		cams []Camera
		want int
	}{
		{"none", nil, -1},
		{"the first active camera, whatever the priorities", []Camera{cam(false, 9, true), cam(true, 0, true), cam(true, 5, true)}, 1},
		{"no active camera: the highest priority", []Camera{cam(false, 1, true), cam(false, 3, true), cam(false, 3, true)}, 1},
		{"an overlay is never the main camera while a full-frame one exists", []Camera{cam(true, 0, false), cam(false, -2, true)}, 1},
		{"only overlays: the lowest priority", []Camera{cam(true, 4, false), cam(true, 2, false), cam(true, 2, false)}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Main(tc.cams); got != tc.want {
				t.Errorf("Main = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestView(t *testing.T) {
	ortho := func(size, aspect float64) Camera {
		return Camera{Entity: 3, Name: "Cam", Orthographic: true, OrthoSize: size, AspectRatio: aspect, FarPlane: 1000, Active: true, FullFrame: true}
	}
	expand := &Canvas{Width: 800, Height: 600, ScaleMode: Expand, Match: 0.5}
	for _, tc := range []struct {
		name   string
		cam    Camera
		screen Screen
		want   manifest.View
	}{
		{"perspective: a disc of farPlane", Camera{Entity: 3, Name: "Cam", FarPlane: 2000}, Screen{},
			manifest.View{Camera: 3, CameraName: "Cam", Via: "own", Projection: "perspective", Distance: 2000}},
		{"orthographic, no project: 16:9", ortho(360, 0), Screen{},
			manifest.View{Camera: 3, CameraName: "Cam", Via: "own", Projection: "orthographic", Width: 1280, Height: 720, Aspect: 16.0 / 9, AspectFrom: "16:9"}},
		{"the project's design resolution", ortho(300, 0), Screen{DesignWidth: 800, DesignHeight: 600},
			manifest.View{Camera: 3, CameraName: "Cam", Via: "own", Projection: "orthographic", Width: 800, Height: 600, Aspect: 800.0 / 600, AspectFrom: "designResolution"}},
		{"an authored aspect ratio wins", ortho(100, 2), Screen{DesignWidth: 800, DesignHeight: 600},
			manifest.View{Camera: 3, CameraName: "Cam", Via: "own", Projection: "orthographic", Width: 400, Height: 200, Aspect: 2, AspectFrom: "aspectRatio"}},
		{"a Canvas sets the height from its design resolution", ortho(350, 0), Screen{DesignWidth: 800, DesignHeight: 600, Canvas: expand},
			manifest.View{Camera: 3, CameraName: "Cam", Via: "own", Projection: "orthographic", Width: 800, Height: 600, Aspect: 800.0 / 600, AspectFrom: "designResolution", Fit: "canvas"}},
		{"Expand on a narrower screen shows more height", ortho(350, 1), Screen{Canvas: expand},
			manifest.View{Camera: 3, CameraName: "Cam", Via: "own", Projection: "orthographic", Width: 800, Height: 800, Aspect: 1, AspectFrom: "aspectRatio", Fit: "canvas"}},
		{"the project's screen fit wins over the Canvas", ortho(350, 1), Screen{Canvas: expand, ScreenFit: ScreenFit(1280, 720, FixedWidth, 0.5)},
			manifest.View{Camera: 3, CameraName: "Cam", Via: "own", Projection: "orthographic", Width: 1280, Height: 1280, Aspect: 1, AspectFrom: "aspectRatio", Fit: "screenFit"}},
		{"a screen fit without a design resolution fits 1920 × 1080", ortho(350, 0), Screen{ScreenFit: ScreenFit(0, 0, FixedHeight, 0.5)},
			manifest.View{Camera: 3, CameraName: "Cam", Via: "own", Projection: "orthographic", Width: 1920, Height: 1080, Aspect: 16.0 / 9, AspectFrom: "16:9", Fit: "screenFit"}},
		{"a turned camera turns its rectangle", func() Camera { c := ortho(360, 0); c.Angle = -math.Pi / 2; return c }(), Screen{},
			manifest.View{Camera: 3, CameraName: "Cam", Via: "own", Projection: "orthographic", Width: 1280, Height: 720, Aspect: 16.0 / 9, AspectFrom: "16:9", Rotation: -90}},
		{"a half turn is 180°", func() Camera { c := ortho(360, 0); c.Angle = -math.Pi; return c }(), Screen{},
			manifest.View{Camera: 3, CameraName: "Cam", Via: "own", Projection: "orthographic", Width: 1280, Height: 720, Aspect: 16.0 / 9, AspectFrom: "16:9", Rotation: 180}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := View(tc.cam, tc.screen, "own")
			if !same(got, tc.want) {
				t.Errorf("View = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// same compares views, the sizes to a relative 1e-12 (a product of
// ratios).
func same(a, b manifest.View) bool {
	near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-12*math.Max(1, math.Abs(y)) }
	if !near(a.Width, b.Width) || !near(a.Height, b.Height) || !near(a.Aspect, b.Aspect) || !near(a.Distance, b.Distance) {
		return false
	}
	a.Width, a.Height, a.Aspect, a.Distance = b.Width, b.Height, b.Aspect, b.Distance
	return a == b
}

func TestCanvasHalfHeight(t *testing.T) {
	// The engine's computeEffectiveOrthoSize for a 1280 × 720 design on
	// a 4:3 and a 21:9 screen.
	for _, tc := range []struct {
		mode           int
		aspect, want   float64
		matchWidthOrHt float64
	}{
		{FixedHeight, 4.0 / 3, 360, 0.5},
		{FixedWidth, 4.0 / 3, 480, 0.5},
		{Expand, 4.0 / 3, 480, 0.5},
		{Expand, 21.0 / 9, 360, 0.5},
		{Shrink, 4.0 / 3, 360, 0.5},
		{Shrink, 21.0 / 9, 360 * (16.0 / 9) / (21.0 / 9), 0.5},
		{Match, 4.0 / 3, math.Sqrt(480 * 360), 0.5},
		{Match, 4.0 / 3, 360, 1},
		{9, 4.0 / 3, 360, 0.5}, // an unknown mode is FixedHeight, as the engine's default branch
	} {
		c := Canvas{Width: 1280, Height: 720, ScaleMode: tc.mode, Match: tc.matchWidthOrHt}
		if got := c.halfHeight(tc.aspect); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("mode %d aspect %.3f: half-height %v, want %v", tc.mode, tc.aspect, got, tc.want)
		}
	}
}

func TestReadCanvas(t *testing.T) {
	got := ReadCanvas(12, fields(`{"designResolution": {"x": 800, "y": 600}, "scaleMode": 2}`))
	if want := (Canvas{Entity: 12, Width: 800, Height: 600, ScaleMode: Expand, Match: 0.5}); got != want {
		t.Errorf("ReadCanvas = %+v, want %+v", got, want)
	}
	if got, want := ReadCanvas(1, fields(`{}`)), (Canvas{Entity: 1, Width: 1920, Height: 1080, ScaleMode: FixedHeight, Match: 0.5}); got != want {
		t.Errorf("ReadCanvas of defaults = %+v, want %+v", got, want)
	}
}

// TestTurn: the turn of a camera's image on the plane, from its world
// rotation: about z on an xy world (the engine's 2D camera rotation),
// about y on an xz world; none for a tilt alone.
func TestTurn(t *testing.T) {
	rot := func(q scene.Quat) [3][3]float64 {
		m := scene.TRS{Rotation: q, Scale: scene.Vec3{X: 1, Y: 1, Z: 1}}.Matrix()
		return [3][3]float64{{m[0][0], m[0][1], m[0][2]}, {m[1][0], m[1][1], m[1][2]}, {m[2][0], m[2][1], m[2][2]}}
	}
	about := func(ax, ay, az, deg float64) scene.Quat {
		h := deg * math.Pi / 360
		return scene.Quat{X: ax * math.Sin(h), Y: ay * math.Sin(h), Z: az * math.Sin(h), W: math.Cos(h)}
	}
	for _, tc := range []struct {
		name string
		q    scene.Quat
		xy   bool
		want float64
	}{
		{"none", scene.Quat{W: 1}, true, 0},
		{"30° about z on xy", about(0, 0, 1, 30), true, 30},
		{"-120° about z on xy", about(0, 0, 1, -120), true, -120},
		{"a tilt about x on xy does not turn it", about(1, 0, 0, 40), true, 0},
		{"about z on xz does not turn it", about(0, 0, 1, 30), false, 0},
		{"45° about y on xz: right goes towards -z", about(0, 1, 0, 45), false, -45},
	} {
		got := Turn(rot(tc.q), tc.xy) * 180 / math.Pi
		if math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: turn %v°, want %v°", tc.name, got, tc.want)
		}
	}
}
