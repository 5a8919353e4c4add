package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ParseExtent reads a width and a height written WxH (1280x720, 12.5X8),
// each a positive finite number.
func ParseExtent(text string) (w, h float64, err error) {
	a, b, ok := strings.Cut(strings.ToLower(strings.TrimSpace(text)), "x")
	if ok {
		w, err = strconv.ParseFloat(strings.TrimSpace(a), 64)
		if err == nil {
			h, err = strconv.ParseFloat(strings.TrimSpace(b), 64)
		}
	}
	if !ok || err != nil || !(w > 0) || !(h > 0) || math.IsInf(w, 0) || math.IsInf(h, 0) {
		return 0, 0, fmt.Errorf("%q is not a size; write a width and a height above 0, WxH, such as 1280x720", text)
	}
	return w, h, nil
}

// view reads simulate.view, the yaml spelling of --view-size and
// --view-distance: {width: W, height: H} or {distance: D}.
func (d *fileDecoder) view(n *yaml.Node) error {
	if isNull(n) {
		return nil
	}
	vals := map[string]*yaml.Node{}
	err := d.pairs(n, "simulate.view", func(k, v *yaml.Node) error {
		name := normalize(k.Value)
		switch name {
		case "width", "height", "distance":
		default:
			return d.errorf(k, "unknown key %q in simulate.view; use width and height (an orthographic camera's view) or distance (a perspective one's)", k.Value)
		}
		if v.Kind != yaml.ScalarNode {
			return d.errorf(v, "simulate.view.%s must be a number, not %s", name, kindName(v))
		}
		vals[name] = v
		return nil
	})
	if err != nil {
		return err
	}
	w, h, dist := vals["width"], vals["height"], vals["distance"]
	switch {
	case dist != nil && (w != nil || h != nil):
		return d.errorf(n, "simulate.view has a distance and a width or height: give width and height, or distance")
	case dist != nil:
		s := lookup("simulate", "viewDistance")
		return d.cfg.set(d.root, s, []string{dist.Value}, Origin{Kind: FromFile, Name: d.file, Line: dist.Line, Column: dist.Column, Key: "simulate.view.distance"})
	case w == nil || h == nil:
		return d.errorf(n, "simulate.view needs both width and height (or a distance)")
	}
	s := lookup("simulate", "viewSize")
	return d.cfg.set(d.root, s, []string{w.Value + "x" + h.Value}, Origin{Kind: FromFile, Name: d.file, Line: w.Line, Column: w.Column, Key: "simulate.view"})
}
