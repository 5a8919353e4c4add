package english

import "testing"

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n          int
		word, want string
	}{
		{1, "entity", "entity"},
		{0, "entity", "entities"},
		{2, "entity", "entities"},
		{2, "key", "keys"},
		{2, "cell", "cells"},
		{2, "dangling reference", "dangling references"},
		{-1, "frame", "frames"},
		{0, "miss", "misses"},
		{2, "box", "boxes"},
		{2, "patch", "patches"},
	} {
		if got := Plural(tc.n, tc.word); got != tc.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", tc.n, tc.word, got, tc.want)
		}
	}
	if got := Count(1, "cell"); got != "1 cell" {
		t.Errorf("Count(1, cell) = %q", got)
	}
	if got := Count(28, "entity"); got != "28 entities" {
		t.Errorf("Count(28, entity) = %q", got)
	}
}
