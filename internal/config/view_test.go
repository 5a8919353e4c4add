package config

import (
	"strings"
	"testing"
)

func TestParseExtent(t *testing.T) {
	for _, tc := range []struct {
		text string
		w, h float64
		ok   bool
	}{
		{"1280x720", 1280, 720, true},
		{" 12.5X8 ", 12.5, 8, true},
		{"1280 x 720", 1280, 720, true},
		{"1280", 0, 0, false},
		{"0x720", 0, 0, false},
		{"-5x5", 0, 0, false},
		{"1e400x5", 0, 0, false},
		{"axb", 0, 0, false},
		{"", 0, 0, false},
	} {
		w, h, err := ParseExtent(tc.text)
		if (err == nil) != tc.ok || w != tc.w || h != tc.h {
			t.Errorf("ParseExtent(%q) = %v, %v, %v", tc.text, w, h, err)
		}
	}
}

// TestViewInTheFile: simulate.view is the file's spelling of --view-size
// and --view-distance, each named by its key in messages.
func TestViewInTheFile(t *testing.T) {
	cfg := resolve(t, writeConfig(t, "simulate:\n  view: {width: 1280, height: 720}\n"))
	if s := cfg.Simulate; s.ViewSize == nil || *s.ViewSize != "1280x720" || s.ViewDistance != nil {
		t.Errorf("view {width, height}: size %v, distance %v", s.ViewSize, s.ViewDistance)
	}
	if o := cfg.Simulate.Name(&cfg.Simulate.ViewSize); !strings.HasSuffix(o, ":2:17: simulate.view") {
		t.Errorf("origin %q", o)
	}
	cfg = resolve(t, writeConfig(t, "simulate:\n  view:\n    distance: 2000\n"))
	if s := cfg.Simulate; s.ViewDistance == nil || *s.ViewDistance != 2000 || s.ViewSize != nil {
		t.Errorf("view {distance}: size %v, distance %v", s.ViewSize, s.ViewDistance)
	}
	cfg = resolve(t, writeConfig(t, "simulate:\n  viewSize: 800x600\n"))
	if s := cfg.Simulate; s.ViewSize == nil || *s.ViewSize != "800x600" {
		t.Errorf("viewSize: %v", s.ViewSize)
	}
	for body, want := range map[string]string{
		"simulate:\n  view: {width: 1280}\n":                      "needs both width and height",
		"simulate:\n  view: {width: 1, height: 1, distance: 3}\n": "give width and height, or distance",
		"simulate:\n  view: {depth: 3}\n":                         `unknown key "depth" in simulate.view`,
		"simulate:\n  view: {width: [1], height: 2}\n":            "simulate.view.width must be a number",
		"simulate:\n  view: {width: 0, height: 2}\n":              "is not a size",
		"simulate:\n  view: {distance: -2}\n":                     "must be a finite distance",
		"simulate:\n  view: 12\n":                                 "simulate.view",
	} {
		l := NewLoader()
		_, err := l.Resolve(writeConfig(t, body))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", body, err, want)
		}
	}
}
