package validate

import (
	"github.com/worldcook/worldcook/internal/camera"
	esproject "github.com/worldcook/worldcook/internal/project"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/internal/world/geometry"
	"github.com/worldcook/worldcook/manifest"
)

// Views: what each streaming source's camera shows (docs/simulate.md,
// "The view"). Package camera reads the cameras; this file says which
// camera a source rides on: the Camera on its own entity, else the one of
// its nearest ancestor, else the scene's main camera.

// collectViews gives each authored source its view and the plan the main
// camera's. A scene without a camera gets neither. The cameras are those
// the engine spawns, in spawn order: a Camera inside a prefab instance
// counts where its expansion puts it, and each is turned on the plane as
// its world rotation turns it.
func (c *checker) collectViews() {
	w := c.w
	var cams []camera.Camera
	at := map[int32]int{} // scene entity index → index in cams
	w.Spawned(func(e world.Ent) bool {
		if w.Hidden(e) {
			return true // an entity with "visible": false is not spawned
		}
		var get camera.Fields
		if e.Sub == 0 {
			if c.flags[e.I]&fCamera == 0 {
				return true
			}
			get = c.componentField(e.I, "Camera")
			at[e.I] = len(cams)
		} else {
			data, ok := w.Component(e, "Camera")
			if !ok {
				return true
			}
			get = func(key string) ([]byte, bool) { return scene.Field(data, key) }
		}
		cam := camera.Read(w.ID(e), w.Name(e), get)
		if m, ok, err := w.WorldOf(e, nil); ok && err == nil {
			if r, ok := geometry.RotationOf(&m); ok {
				cam.Angle = camera.Turn(r, c.xy)
			}
		}
		cams = append(cams, cam)
		return true
	})
	c.cams = cams
	if len(cams) == 0 {
		return
	}
	screen := c.screen()
	main := camera.Main(cams)
	if main >= 0 {
		v := camera.View(cams[main], screen, "main")
		c.plan.View = &v
	}
	for k, i := range w.Sources() {
		j, via := i, "own"
		for steps := 0; j >= 0 && steps <= w.Len(); steps++ {
			if _, ok := at[j]; ok {
				break
			}
			j, via = c.parent[j], "ancestor"
		}
		var v manifest.View
		switch {
		case j >= 0:
			if _, ok := at[j]; !ok {
				continue // a parent cycle: reported as such
			}
			v = camera.View(cams[at[j]], screen, via)
		case main >= 0:
			v = camera.View(cams[main], screen, "main")
		default:
			continue
		}
		c.plan.Sources[k].View = &v
	}
}

// componentField reads the fields of entity i's component typ: an
// expanded instance root's, overrides applied, or the authored data.
func (c *checker) componentField(i int32, typ string) camera.Fields {
	return c.w.Field(i, typ)
}

// screen is what the scene's cameras draw on: the design resolution and
// camera fit of the project that holds the scene (none when its project
// file cannot be read: the view then assumes 16:9 and says so) and the
// scene's first Canvas.
func (c *checker) screen() camera.Screen {
	var s camera.Screen
	if dir, ok := esproject.Find(c.d.Path); ok {
		if p, err := esproject.Load(dir); err == nil {
			s.DesignWidth, s.DesignHeight = p.DesignWidth, p.DesignHeight
			s.ScreenFit = camera.ScreenFit(p.DesignWidth, p.DesignHeight, p.CameraFit, p.CameraMatch)
		}
	}
	if c.w.Canvas() >= 0 && !c.d.Entities[c.w.Canvas()].Hidden {
		cv := camera.ReadCanvas(c.d.Entities[c.w.Canvas()].ID, c.componentField(c.w.Canvas(), "Canvas"))
		s.Canvas = &cv
	}
	return s
}
