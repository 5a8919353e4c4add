package report

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/worldcook/worldcook/internal/browser"
	"github.com/worldcook/worldcook/simulate"
)

// TestTimelineNamesThatAreJavaScriptKeys: cells named as the properties
// every JavaScript object has (__proto__, constructor, toString) are
// cells like any other to the page's worldcook.state and states, and a
// name the map does not draw reads absent, never a function's state.
func TestTimelineNamesThatAreJavaScriptKeys(t *testing.T) {
	b := browser.New(t)
	p, _ := gridRun(2, 3)
	names := []string{"__proto__", "constructor", "toString", "g.cell_1_1"}
	for i := range p.World.Cells {
		p.World.Cells[i].Name = names[i]
	}
	for i := range p.Frames {
		p.Frames[i].ResidentCells = []string{"__proto__", "constructor"}
		p.Frames[i].PreparedCells, p.Frames[i].LoadingCells = []string{}, []string{}
		p.Frames[i].Holes = []string{"toString"}
	}
	tl, err := NewTimeline(&simulate.Result{Runs: []*simulate.PolicyRun{p}}, simulate.Options{Route: "route.csv"})
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "page.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := tl.WriteHTML(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	pg := b.Open(t, page, "worldcook")
	for cell, want := range map[string]string{"__proto__": "resident", "constructor": "resident", "toString": "hole", "g.cell_1_1": "absent", "hasOwnProperty": "absent", "valueOf": "absent"} {
		if got := browser.Eval[string](pg, fmt.Sprintf("worldcook.state(%q)", cell)); got != want {
			t.Errorf("worldcook.state(%q) = %q, want %q", cell, got, want)
		}
	}
	if got := browser.Eval[string](pg, `(function () { var s = worldcook.states(); return Object.keys(s).sort().map(function (k) { return k + '=' + s[k]; }).join(' '); }())`); got != "__proto__=resident constructor=resident g.cell_1_1=absent toString=hole" {
		t.Errorf("worldcook.states() = %s", got)
	}
	if got := browser.Eval[bool](pg, `worldcook.state('__proto__', '__proto__') === null && worldcook.states('constructor') === null`); !got {
		t.Error("a policy named __proto__ or constructor is not null")
	}
	if errs := pg.Errors(); len(errs) > 0 {
		t.Errorf("the page's script failed: %v", errs)
	}
}
