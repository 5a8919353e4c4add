package assets

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/enginejs"
)

// TestSpineAtlasPagesAsTheEngine: the page names worldcook reads from a
// Spine atlas are the engine's, its atlasPages.ts run in Node, on the
// table's atlases, the repository's own, spine-demo's (with
// WORLDCOOK_ESTELLA) and generated ones full of the characters the two
// languages could trim or match differently.
func TestSpineAtlasPagesAsTheEngine(t *testing.T) {
	sdk := enginejs.Engine(t)
	bundle := enginejs.Bundle(t, sdk, filepath.Join("testdata", "engine.ts"))
	var atlases [][]byte
	for _, p := range append([]string{filepath.Join(containersProject, "assets", "spine", "hero.atlas")}, spineDemoAtlases()...) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		atlases = append(atlases, data)
	}
	pieces := []string{"a", "B", ".png", ".PNG", ".jpg", ".Jpg", ".jpeg", ".webp", ":", " ", "\t", "\r", "\n", "\r\n",
		"\v", "\f", "\u00a0", "\u0085", "\ufeff", "\u2028", "\u2029", "\u3000", "\u2007", "\u200b", "\u180e", "é", "/", "\\", "..", "size: 8, 8"}
	rng := rand.New(rand.NewPCG(7, 32))
	for range 2000 {
		var b strings.Builder
		for range 1 + rng.IntN(24) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		atlases = append(atlases, []byte(b.String()))
	}
	in := struct {
		Atlases [][]byte `json:"atlases"`
	}{atlases}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var want [][]string
	if err := json.Unmarshal(enginejs.Run(t, bundle, data), &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(atlases) {
		t.Fatalf("the engine read %d atlases of %d", len(want), len(atlases))
	}
	pages := 0
	for i, a := range atlases {
		got := SpineAtlasPages(a)
		if !slices.Equal(got, want[i]) && !(len(got) == 0 && len(want[i]) == 0) {
			t.Errorf("atlas %q: pages %q, the engine's %q", a, got, want[i])
		}
		pages += len(got)
	}
	if pages < 500 {
		t.Errorf("only %d pages in all: the generated atlases test little", pages)
	}
}
