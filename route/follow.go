package route

import (
	"math"

	"github.com/worldcook/worldcook/internal/scene"
)

// follower is a camera with a FollowTarget, moved each frame as the
// engine's follow system moves it: towards the target's position (its
// Transform's own position, as the engine reads it) plus the offset,
// only by the part of the gap beyond the dead zone, damped.
type follower struct {
	w      *world
	camera int
	local  scene.TRS
	offset scene.Vec3
	// followZ: a flat scene's camera keeps its own depth.
	followZ           bool
	deadzone, damping float64
}

func (m *maker) newFollower(camera, target int) (*follower, error) {
	w := m.w
	t, err := w.local(camera)
	if err != nil {
		return nil, err
	}
	f := &follower{w: w, camera: camera, local: t, damping: 0.25}
	data, _ := w.component(camera, "FollowTarget")
	num := func(key string, dst *float64) {
		if v, ok := scene.Field(data, key); ok {
			if x, err := scene.Float(v); err == nil {
				*dst = x
			}
		}
	}
	num("offsetX", &f.offset.X)
	num("offsetY", &f.offset.Y)
	num("offsetZ", &f.offset.Z)
	num("deadzone", &f.deadzone)
	num("damping", &f.damping)
	if v, ok := scene.Field(data, "followZ"); ok && scene.KindOf(v) == scene.Bool {
		f.followZ = v[0] == 't'
	}
	return f, nil
}

// step moves the camera one frame of dt seconds towards target.
func (f *follower) step(target scene.Vec3, dt float64) {
	cam := f.local.Position
	desired := scene.Vec3{X: target.X + f.offset.X, Y: target.Y + f.offset.Y, Z: cam.Z}
	if f.followZ {
		desired.Z = target.Z + f.offset.Z
	}
	f.local.Position = followStep(cam, desired, f.deadzone, f.damping, dt)
}

// world is where the camera is.
func (f *follower) world() scene.Vec3 {
	m, err := f.w.where(f.camera, func(i int) (scene.TRS, bool) { return f.local, i == f.camera })
	if err != nil {
		return f.local.Position
	}
	return m.Origin()
}

// followStep is the engine's damped follow step, in its arithmetic.
func followStep(cam, desired scene.Vec3, deadzone, damping, dt float64) scene.Vec3 {
	dx, dy, dz := desired.X-cam.X, desired.Y-cam.Y, desired.Z-cam.Z
	dist := math.Sqrt(float64(dx*dx) + float64(dy*dy) + float64(dz*dz))
	if dist == 0 || dist <= deadzone {
		return cam
	}
	beyond := 1 - deadzone/dist
	k := 1.0
	if damping > 0 {
		k = 1 - math.Exp(-dt/damping)
	}
	return scene.Vec3{
		X: cam.X + float64(float64(dx*beyond)*k),
		Y: cam.Y + float64(float64(dy*beyond)*k),
		Z: cam.Z + float64(float64(dz*beyond)*k),
	}
}
