package validate

import (
	"github.com/worldcook/worldcook/internal/camera"
	esproject "github.com/worldcook/worldcook/internal/project"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/manifest"
)

// Views: what each streaming source's camera shows (docs/simulate.md,
// "The view"). Package camera reads the cameras; this file says which
// camera a source rides on: the Camera on its own entity, else the one of
// its nearest ancestor, else the scene's main camera.

// collectViews gives each authored source its view and the plan the main
// camera's. A scene without a camera gets neither.
func (c *checker) collectViews() {
	d := c.d
	var cams []camera.Camera
	at := map[int32]int{} // entity index → index in cams
	for i, fl := range c.flags {
		if fl&fCamera == 0 || d.Entities[i].Hidden {
			continue // an entity with "visible": false is not spawned
		}
		at[int32(i)] = len(cams)
		cams = append(cams, camera.Read(d.Entities[i].ID, d.Entities[i].Name, c.componentField(int32(i), "Camera")))
	}
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
	for k, i := range c.sources {
		j, via := i, "own"
		for steps := 0; j >= 0 && steps <= len(d.Entities); steps++ {
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
	if c.flags[i]&fPrefab != 0 && c.instAt != nil && c.instAt[i] > 0 {
		in := &c.inst[c.instAt[i]-1]
		return func(key string) ([]byte, bool) { return in.field(typ, key) }
	}
	data, _ := c.d.Component(int(i), typ)
	return func(key string) ([]byte, bool) { return scene.Field(data, key) }
}

// screen is what the scene's cameras draw on: the design resolution of
// the project that holds the scene (none when its project file cannot be
// read: the view then assumes 16:9 and says so) and the scene's first
// Canvas.
func (c *checker) screen() camera.Screen {
	var s camera.Screen
	if dir, ok := esproject.Find(c.d.Path); ok {
		if p, err := esproject.Load(dir); err == nil {
			s.DesignWidth, s.DesignHeight = p.DesignWidth, p.DesignHeight
		}
	}
	if c.canvas >= 0 && !c.d.Entities[c.canvas].Hidden {
		cv := camera.ReadCanvas(c.d.Entities[c.canvas].ID, c.componentField(c.canvas, "Canvas"))
		s.Canvas = &cv
	}
	return s
}
