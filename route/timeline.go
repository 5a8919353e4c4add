package route

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/timeline"
	"github.com/worldcook/worldcook/validate"
)

// player is a TimelinePlayer and its clip.
type player struct {
	at    int // the entity
	asset *timeline.Asset
	file  string // the asset's project path, for messages
	speed float64
	wrap  timeline.Wrap
	// moving are the tracks that move an entity and the entity each moves.
	moving []movingTrack
}

type movingTrack struct {
	track  *timeline.Track
	target int
}

// timelines makes a route for every source a timeline moves: a source
// that an animated entity is or carries, or a camera following one.
func (m *maker) timelines() ([]*Route, string, error) {
	w := m.w
	var players []*player
	var why []string
	for i := 0; i < w.len(); i++ {
		if !w.has(i, "TimelinePlayer") {
			continue
		}
		p, err := m.player(i)
		if err != nil {
			return nil, "", err
		}
		if p == nil {
			why = append(why, fmt.Sprintf("the TimelinePlayer of %s names no timeline", w.label(i)))
			continue
		}
		if len(p.moving) == 0 {
			why = append(why, fmt.Sprintf("%s (on %s) moves no entity's Transform", p.file, w.label(i)))
			continue
		}
		players = append(players, p)
	}
	if w.len() > 0 && len(players) == 0 && len(why) == 0 {
		return nil, "the scene has no TimelinePlayer", nil
	}
	sources := w.sourceIndex()
	var out []*Route
	for _, p := range players {
		moved := false
		for i := 0; i < w.len(); i++ {
			// A source the clip moves: an animated entity, or one below it.
			if _, ok := sources[i]; ok && p.moves(w, i) {
				r, err := m.timelineRoute(p, i, -1)
				if err != nil {
					return nil, "", err
				}
				out = append(out, r)
				moved = true
			}
		}
		for c := 0; c < w.len(); c++ {
			t, ok := m.followed(c)
			if !ok || !p.moves(w, t) {
				continue
			}
			if _, src := sources[c]; src && p.moves(w, c) {
				continue // the camera is moved by the clip itself: done above
			}
			r, err := m.timelineRoute(p, t, c)
			if err != nil {
				return nil, "", err
			}
			out = append(out, r)
			moved = true
		}
		if !moved {
			var names []string
			for _, mt := range p.moving {
				names = append(names, w.label(mt.target))
			}
			why = append(why, fmt.Sprintf("%s (on %s) moves %s, which is no streaming source, carries none and is followed by no camera; if the streaming follows it, give it a WorldStreamingSource, or have the streaming camera follow it (FollowTarget)", p.file, w.label(p.at), strings.Join(dedupe(names), ", ")))
		}
	}
	return out, strings.Join(why, "; "), nil
}

func dedupe(s []string) []string {
	var out []string
	for _, v := range s {
		if len(out) == 0 || out[len(out)-1] != v {
			out = append(out, v)
		}
	}
	return out
}

// moves reports whether the clip moves entity i: animates it or one of
// its ancestors.
func (p *player) moves(w *world, i int) bool {
	for _, mt := range p.moving {
		if w.ancestorOf(mt.target, i) {
			return true
		}
	}
	return false
}

// followed is the entity camera c follows (its FollowTarget's target),
// if it has one in the scene.
func (m *maker) followed(c int) (int, bool) {
	data, ok := m.w.component(c, "FollowTarget")
	if !ok {
		return 0, false
	}
	v, ok := scene.Field(data, "target")
	if !ok {
		return 0, false
	}
	id, err := scene.Int(v)
	if err != nil || id < 0 {
		return 0, false
	}
	return m.w.lookup(id)
}

// player reads the TimelinePlayer of entity i and its clip; nil when the
// player names none.
func (m *maker) player(i int) (*player, error) {
	w := m.w
	data, _ := w.component(i, "TimelinePlayer")
	field := func(key string) []byte { v, _ := scene.Field(data, key); return v }
	bad := func(key, msg, fix string) error { return w.entityError(i, "TimelinePlayer."+key, msg, fix) }
	ref := ""
	if v := field("timeline"); v != nil && scene.KindOf(v) != scene.Null {
		s, err := scene.Str(v)
		if err != nil {
			return nil, bad("timeline", err.Error(), "name the .estimeline asset")
		}
		ref = s
	}
	if ref == "" {
		return nil, nil
	}
	p := &player{at: i, speed: 1}
	if v := field("speed"); v != nil && scene.KindOf(v) != scene.Null {
		f, err := scene.Float(v)
		if err != nil {
			return nil, bad("speed", err.Error(), "write the playback speed as a number, 1 for real time")
		}
		p.speed = f
	}
	if !(p.speed > 0) {
		return nil, bad("speed", fmt.Sprintf("is %v: the clip never moves forward", p.speed), "give the playback speed a number above 0")
	}
	if v := field("wrapMode"); v != nil {
		s, _ := scene.Str(v)
		p.wrap = timeline.WrapFromName(s)
	}
	res := validate.AssetResolver(w.file(), m.o.Validate)
	r := res.Resolve(ref, "")
	if r.Path == "" {
		why := r.Reason
		if why == "" {
			why = "is not a file reference"
		}
		return nil, bad("timeline", fmt.Sprintf("%q %s", ref, why), "name the clip's .estimeline file in the project")
	}
	p.file = r.Path
	f, _, err := res.Open(r.Path)
	if err != nil {
		return nil, bad("timeline", fmt.Sprintf("%q: %s %s", ref, res.Name(r.Path), assets.Why(err)), "restore the clip, or point the player at one that exists")
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, timeline.MaxBytes+1))
	if err != nil {
		return nil, bad("timeline", fmt.Sprintf("%q: %s cannot be read: %v", ref, res.Name(r.Path), err), "restore the clip")
	}
	m.res.Inputs = append(m.res.Inputs, res.Abs(r.Path))
	if p.asset, err = timeline.Parse(res.Name(r.Path), src); err != nil {
		return nil, err
	}
	if !(p.asset.Duration > 0) {
		return nil, fmt.Errorf("%s: the clip has no duration (%v), so it never plays; give it its length in seconds", res.Name(r.Path), p.asset.Duration)
	}
	for k := range p.asset.Tracks {
		t := &p.asset.Tracks[k]
		if !t.Moves() {
			continue
		}
		if target, ok := m.child(i, t.ChildPath); ok {
			p.moving = append(p.moving, movingTrack{t, target})
		}
	}
	return p, nil
}

// child is the entity a track's childPath names below root, as the
// engine resolves it: each segment the first child of that name.
func (m *maker) child(root int, path string) (int, bool) {
	if path == "" {
		return root, true
	}
	cur := root
	for _, seg := range strings.Split(path, "/") {
		found := -1
		for _, k := range m.w.children(cur) {
			if m.w.name(k) == seg {
				found = k
				break
			}
		}
		if found < 0 {
			return 0, false
		}
		cur = found
	}
	return cur, true
}

// timelineRoute samples the clip of p frame by frame as the engine's
// timeline drive plays it (the clock advanced by 1/fps × speed, then
// wrapped), and follows subject: a source the clip moves (camera < 0), or
// the entity camera follows, the camera damped towards it as the
// engine's follow step does.
func (m *maker) timelineRoute(p *player, subject, camera int) (*Route, error) {
	w := m.w
	dt := 1 / m.o.FPS
	step := dt * p.speed
	span := p.asset.Duration
	if p.wrap != timeline.Once {
		span *= float64(m.o.Loops)
	}
	if n := span/step + 2; n > MaxFrames {
		return nil, fmt.Errorf("%s: playing %s at %s frames a second spans more than %d frames (MaxRouteFrames); lower --fps or --loops", w.file(), p.file, num(m.o.FPS), MaxFrames)
	}
	poses := map[int]*timeline.Pose{}
	for _, mt := range p.moving {
		if poses[mt.target] == nil {
			t, err := w.local(mt.target)
			if err != nil {
				return nil, err
			}
			poses[mt.target] = toPose(t)
		}
	}
	pose := func(i int) (scene.TRS, bool) {
		if q := poses[i]; q != nil {
			return fromPose(q), true
		}
		return scene.TRS{}, false
	}
	sample := func(at float64) {
		for _, mt := range p.moving {
			mt.track.Apply(at, poses[mt.target])
		}
	}

	var follow *follower
	var err error
	name := w.name(subject)
	source := name
	what := fmt.Sprintf("%s, moved by %s", w.label(subject), p.file)
	if camera >= 0 {
		if follow, err = m.newFollower(camera, subject); err != nil {
			return nil, err
		}
		if _, src := w.sourceIndex()[camera]; src {
			source = w.name(camera)
		} else if source, err = m.driven(); err != nil {
			return nil, err
		}
		what = fmt.Sprintf("camera %s following %s, moved by %s", w.label(camera), w.label(subject), p.file)
		name = w.name(camera) + "-" + name
	}
	r := m.newRoute(FromTimeline, fileName("timeline", w.name(p.at), name), what+fmt.Sprintf(" on %s (%s, %s s)", w.label(p.at), p.wrap, num(p.asset.Duration)), source)

	clock, played := 0.0, 0.0
	for frame := 0; ; frame++ {
		stopped := false
		if frame > 0 {
			clock, stopped = timeline.WrapTime(clock+step, p.asset.Duration, p.wrap)
			played += step
		}
		sample(clock)
		var at scene.Vec3
		if follow != nil {
			// The engine's follow step reads the target's own position.
			target, ok := pose(subject)
			if !ok {
				if target, err = w.local(subject); err != nil {
					return nil, err
				}
			}
			if frame > 0 {
				follow.step(target.Position, dt)
			}
			at = follow.world()
		} else {
			mat, err := w.where(subject, pose)
			if err != nil {
				return nil, err
			}
			at = mat.Origin()
		}
		if !finite3(at) {
			return nil, fmt.Errorf("%s: %s is at a position that is not a finite number in frame %d; check its Transform and its parents'", w.file(), w.label(subject), frame)
		}
		r.Frames = append(r.Frames, m.onPlane(at.X, at.Y, at.Z))
		if stopped || (p.wrap != timeline.Once && played >= span) || len(r.Frames) > MaxFrames {
			break
		}
	}
	return r, nil
}

func finite3(v scene.Vec3) bool {
	return !math.IsNaN(v.X+v.Y+v.Z) && !math.IsInf(v.X+v.Y+v.Z, 0)
}

func toPose(t scene.TRS) *timeline.Pose {
	return &timeline.Pose{
		Position: [3]float64{t.Position.X, t.Position.Y, t.Position.Z},
		Rotation: [4]float64{t.Rotation.X, t.Rotation.Y, t.Rotation.Z, t.Rotation.W},
		Scale:    [3]float64{t.Scale.X, t.Scale.Y, t.Scale.Z},
	}
}

func fromPose(p *timeline.Pose) scene.TRS {
	return scene.TRS{
		Position: scene.Vec3{X: p.Position[0], Y: p.Position[1], Z: p.Position[2]},
		Rotation: scene.Quat{X: p.Rotation[0], Y: p.Rotation[1], Z: p.Rotation[2], W: p.Rotation[3]},
		Scale:    scene.Vec3{X: p.Scale[0], Y: p.Scale[1], Z: p.Scale[2]},
	}
}
