package cook

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/worldcook/worldcook/validate"
)

// TestCookRefusesWhatBreaksTheShippedGame: a misspelt StreamedWorld is
// not copied byte for byte as an unstreamed scene, and a world whose
// player (its streaming source) would go to a cell is not cut; neither
// run writes anything.
func TestCookRefusesWhatBreaksTheShippedGame(t *testing.T) {
	const player = `{"id": 2, "name": "Player", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 5, "y": 0, "z": 5}}}, {"type": "WorldStreamingSource", "data": {}}]}`
	cases := []struct {
		name, settings, code string
	}{
		{"misspelt StreamedWorld", `{"type": "StreamWorld", "data": {"cellSize": 100}}`, "misspelt-streaming-component"},
		{"source in a cell", `{"type": "StreamedWorld", "data": {"cellSize": 100}}`, "source-in-cell"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "main.esscene")
			src := `{"version": 1, "name": "Main", "entities": [
{"id": 1, "name": "Settings", "parent": null, "children": [], "components": [` + tc.settings + `]},
` + player + `
]}
`
			if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			rep, err := run(context.Background(), sceneJob{File: in, Out: out, Validate: validate.Options{}})
			if !errors.Is(err, ErrFindings) {
				t.Fatalf("cook: %v, want ErrFindings", err)
			}
			found := false
			for _, f := range rep.Plan.Findings {
				found = found || f.Code == tc.code
			}
			if !found {
				t.Errorf("no %s finding in %+v", tc.code, rep.Plan.Findings)
			}
			if ents, _ := os.ReadDir(out); len(ents) != 0 {
				t.Errorf("a refused cook wrote %d files", len(ents))
			}
		})
	}
}
