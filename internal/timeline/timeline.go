// Package timeline reads Estella's .estimeline assets and evaluates their
// property tracks at a time the way the engine's timeline sampler does:
// the same keyframe search, the same interpolation arithmetic (hermite
// with tangents, linear, step and the three eases), clamped ends, and the
// same wrap of a playback clock (once, loop, ping-pong). Only property
// tracks are kept: they are what moves entities; audio, activation and
// the like change nothing a route follows.
package timeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/worldcook/worldcook/internal/jsondoc"
)

// Limits of an asset: a timeline is hand-authored or exported by the
// editor, so these are far above any real one and only stop a damaged or
// hostile file from exhausting memory.
const (
	// MaxBytes bounds the asset file.
	MaxBytes = 64 << 20
	// MaxKeyframes bounds the keyframes of all channels together.
	MaxKeyframes = 1 << 21
)

// Interp is a keyframe's interpolation towards the next one, as the
// asset spells it. Anything the engine does not know (or none) is
// hermite, its default.
type Interp string

// The interpolations the engine evaluates.
const (
	Hermite   Interp = "hermite"
	Linear    Interp = "linear"
	Step      Interp = "step"
	EaseIn    Interp = "easeIn"
	EaseOut   Interp = "easeOut"
	EaseInOut Interp = "easeInOut"
)

// Wrap is what a playback clock does at the end of the clip.
type Wrap int

// The wrap modes, numbered as the engine numbers them.
const (
	Once Wrap = iota
	Loop
	PingPong
)

// WrapFromName reads a wrap mode as an asset or a TimelinePlayer spells
// it; an unknown or empty name is Once, as in the engine.
func WrapFromName(s string) Wrap {
	switch s {
	case "loop":
		return Loop
	case "pingPong":
		return PingPong
	}
	return Once
}

// String is the wrap mode as assets spell it.
func (w Wrap) String() string {
	switch w {
	case Loop:
		return "loop"
	case PingPong:
		return "pingPong"
	}
	return "once"
}

// Keyframe is one key of a channel.
type Keyframe struct {
	Time, Value           float64
	InTangent, OutTangent float64
	Interp                Interp
}

// Channel is one animated number of a component ("position.x").
type Channel struct {
	Property  string
	Keyframes []Keyframe
}

// Track is a property track: channels of one component of the entity
// ChildPath names under the player ("" for the player itself, names
// joined by "/").
type Track struct {
	Name      string
	ChildPath string
	Component string
	Channels  []Channel
}

// Asset is a parsed timeline: its property tracks in authored order.
type Asset struct {
	// Version is the format version the document was written at ("1.0"
	// when it says none); Parse migrates it to the current one.
	Version  string
	Duration float64
	// Wrap is the asset's own wrap mode. A TimelinePlayer plays the clip
	// with the component's wrapMode, not this one.
	Wrap   Wrap
	Tracks []Track
}

// Raw shapes: pointers tell an absent member from a zero.
type rawAsset struct {
	Version  *string           `json:"version"`
	Duration *float64          `json:"duration"`
	WrapMode *string           `json:"wrapMode"`
	Tracks   []json.RawMessage `json:"tracks"`
}

type rawTrack struct {
	Type      string       `json:"type"`
	Name      *string      `json:"name"`
	ChildPath *string      `json:"childPath"`
	Component *string      `json:"component"`
	Channels  []rawChannel `json:"channels"`
}

type rawChannel struct {
	Property  string        `json:"property"`
	Keyframes []rawKeyframe `json:"keyframes"`
}

type rawKeyframe struct {
	Time          *float64 `json:"time"`
	Value         *float64 `json:"value"`
	InTangent     *float64 `json:"inTangent"`
	OutTangent    *float64 `json:"outTangent"`
	Interpolation *string  `json:"interpolation"`
}

// stepTangent is the out-tangent at or above which a keyframe of a 1.0
// document, which had no interpolation field, meant a step (the engine's
// migration to 1.1).
const stepTangent = 1e5

// CurrentVersion is the format version Parse migrates documents to.
const CurrentVersion = "1.2"

// Parse reads an .estimeline document. Its errors are one line saying
// where the document is wrong; file names it.
func Parse(file string, data []byte) (*Asset, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s", file, fmt.Sprintf(format, args...))
	}
	if len(data) > MaxBytes {
		return nil, fail("the timeline is larger than %d bytes (timeline.MaxBytes)", MaxBytes)
	}
	if k := firstByte(data); k != '{' {
		return nil, fail("is not a timeline: the document is not a JSON object")
	}
	if err := jsondoc.Check(data); err != nil {
		return nil, fail("%s", jsondoc.Describe(data, err))
	}
	var raw rawAsset
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fail("%s", shortJSON(err))
	}
	a := &Asset{Version: "1.0"}
	if raw.Version != nil {
		a.Version = *raw.Version
	}
	if raw.Duration != nil {
		a.Duration = *raw.Duration
	}
	if raw.WrapMode != nil {
		a.Wrap = WrapFromName(*raw.WrapMode)
	}
	if !finite(a.Duration) {
		return nil, fail("duration is not a finite number")
	}
	keys := 0
	for ti, rt := range raw.Tracks {
		if t := firstByte(rt); t != '{' {
			if t == 'n' { // null: the engine's map would throw; say so
				return nil, fail("track %d is null, not an object", ti)
			}
			return nil, fail("track %d is not an object", ti)
		}
		var tr rawTrack
		if err := json.Unmarshal(rt, &tr); err != nil {
			return nil, fail("track %d: %v", ti, shortJSON(err))
		}
		if tr.Type != "property" {
			continue
		}
		t := Track{}
		if tr.Name != nil {
			t.Name = *tr.Name
		}
		if tr.ChildPath != nil {
			t.ChildPath = *tr.ChildPath
		}
		if tr.Component != nil {
			t.Component = *tr.Component
		}
		for ci, rc := range tr.Channels {
			ch := Channel{Property: rc.Property}
			for ki, rk := range rc.Keyframes {
				if keys++; keys > MaxKeyframes {
					return nil, fail("more than %d keyframes (timeline.MaxKeyframes)", MaxKeyframes)
				}
				where := func() string {
					return fmt.Sprintf("track %d (%q) channel %d (%s) keyframe %d", ti, t.Name, ci, rc.Property, ki)
				}
				if rk.Time == nil || rk.Value == nil {
					return nil, fail("%s has no time or no value; give every keyframe both", where())
				}
				k := Keyframe{Time: *rk.Time, Value: *rk.Value}
				if rk.InTangent != nil {
					k.InTangent = *rk.InTangent
				}
				if rk.OutTangent != nil {
					k.OutTangent = *rk.OutTangent
				}
				if rk.Interpolation != nil {
					k.Interp = Interp(*rk.Interpolation)
				}
				for _, v := range []float64{k.Time, k.Value, k.InTangent, k.OutTangent} {
					if !finite(v) {
						return nil, fail("%s holds a number that is not finite", where())
					}
				}
				ch.Keyframes = append(ch.Keyframes, k)
			}
			t.Channels = append(t.Channels, ch)
		}
		a.Tracks = append(a.Tracks, t)
	}
	migrate(a)
	return a, nil
}

// migrate brings a document to CurrentVersion as the engine's loader does,
// one step after the other: 1.0 → 1.1 turns a huge out-tangent on a
// keyframe without interpolation into a step, 1.1 → 1.2 renames the Z
// Euler angle rotation.z to rotation.angle.
func migrate(a *Asset) {
	v := a.Version
	if v == "1.0" {
		for ti := range a.Tracks {
			for ci := range a.Tracks[ti].Channels {
				for ki := range a.Tracks[ti].Channels[ci].Keyframes {
					k := &a.Tracks[ti].Channels[ci].Keyframes[ki]
					if k.Interp == "" && math.Abs(k.OutTangent) >= stepTangent {
						k.Interp, k.OutTangent = Step, 0
					}
				}
			}
		}
		v = "1.1"
	}
	if v == "1.1" {
		for ti := range a.Tracks {
			for ci := range a.Tracks[ti].Channels {
				if c := &a.Tracks[ti].Channels[ci]; c.Property == "rotation.z" {
					c.Property = "rotation.angle"
				}
			}
		}
	}
	a.Version = CurrentVersion
}

// At is the channel's value at time (seconds), as the engine evaluates it:
// no keyframes is 0, one is its value, before the first or after the last
// the end's value, and between two keys the first key's interpolation.
func (c *Channel) At(time float64) float64 {
	kfs := c.Keyframes
	switch len(kfs) {
	case 0:
		return 0
	case 1:
		return kfs[0].Value
	}
	if time <= kfs[0].Time {
		return kfs[0].Value
	}
	if time >= kfs[len(kfs)-1].Time {
		return kfs[len(kfs)-1].Value
	}
	i := 0
	for i < len(kfs)-1 && kfs[i+1].Time <= time {
		i++
	}
	k0, k1 := kfs[i], kfs[i+1]
	dt := k1.Time - k0.Time
	if dt <= 0 {
		return k0.Value
	}
	t := (time - k0.Time) / dt
	// Each product is rounded on its own, as JavaScript rounds it: the
	// conversions forbid fused multiply-adds, which would change the last
	// bit on some CPUs and part from the engine's numbers.
	d := k1.Value - k0.Value
	switch k0.Interp {
	case Linear:
		return k0.Value + float64(d*t)
	case Step:
		return k0.Value
	case EaseIn:
		return k0.Value + float64(d*float64(t*t))
	case EaseOut:
		u := 1 - t
		return k0.Value + float64(d*(1-float64(u*u)))
	case EaseInOut:
		var e float64
		if t < 0.5 {
			e = float64(2*t) * t
		} else {
			u := 1 - t
			e = 1 - float64(float64(2*u)*u)
		}
		return k0.Value + float64(d*e)
	}
	return hermite(k0.Value, k1.Value, float64(k0.OutTangent*dt), float64(k1.InTangent*dt), t)
}

// hermite is the cubic Hermite basis, term for term as the engine writes it.
func hermite(p0, p1, m0, m1, t float64) float64 {
	t2 := float64(t * t)
	t3 := float64(t2 * t)
	h00 := float64(2*t3) - float64(3*t2) + 1
	h10 := t3 - float64(2*t2) + t
	h01 := float64(-2*t3) + float64(3*t2)
	h11 := t3 - t2
	return float64(h00*p0) + float64(h10*m0) + float64(h01*p1) + float64(h11*m1)
}

// WrapTime maps a playback clock's time through the clip's wrap mode, as
// the engine does each frame; stopped is true when a Once clip reached its
// end (or the clip has no duration).
func WrapTime(time, duration float64, mode Wrap) (t float64, stopped bool) {
	if duration <= 0 {
		return 0, true
	}
	if time < 0 {
		return 0, false
	}
	if time < duration {
		return time, false
	}
	switch mode {
	case Loop:
		return math.Mod(time, duration), false
	case PingPong:
		cycle := 2 * duration
		t := math.Mod(time, cycle)
		if t <= duration {
			return t, false
		}
		return cycle - t, false
	}
	return duration, true
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// firstByte is the first byte of data that is not white space, 0 for none.
func firstByte(data []byte) byte {
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) == 0 {
		return 0
	}
	return data[0]
}

// shortJSON says what a member of the wrong type is, without Go's type names.
func shortJSON(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("%s is a JSON %s, not what a timeline holds there", jsondoc.OneLine(te.Field), te.Value)
	}
	return err.Error()
}
