package cook

import (
	"bytes"
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

// inside is an independent statement of where a journal may reach: a
// clean relative path, not leaving the directory, under world/, the
// staging folder of the scene, or the scene's persistent world.
func inside(l layout, p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, `\`) || path.Clean(p) != p {
		return false
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return false
	}
	if p == l.persistent() {
		return true
	}
	if rest, ok := strings.CutPrefix(p, stagingPrefix+l.safe+"/"); ok {
		return !strings.Contains(rest, "/")
	}
	base, ok := strings.CutPrefix(p, "world/")
	if !ok || strings.Contains(base, "/") || !strings.HasSuffix(base, ".json") {
		return false
	}
	return base == l.safe+".world.json" || strings.HasPrefix(base, cellPrefix(l.scene)+".cell_")
}

func checkJournal(t *testing.T, l layout, data []byte) {
	j, err := decodeJournal(l, data)
	if err != nil {
		if strings.Contains(err.Error(), "\n") {
			t.Fatalf("a message of two lines: %q", err)
		}
		return
	}
	for _, r := range j.Renames {
		if !inside(l, r[0]) || !inside(l, r[1]) || !strings.HasPrefix(r[0], l.staging()+"/") {
			t.Fatalf("accepted a rename %q -> %q", r[0], r[1])
		}
	}
	for _, p := range j.Removes {
		if !inside(l, p) || p == l.persistent() || strings.HasPrefix(p, l.staging()) {
			t.Fatalf("accepted a removal of %q", p)
		}
	}
}

func FuzzJournal(f *testing.F) {
	for _, s := range []string{
		`{"renames":[[".worldcook-staging-main/000000","world/main.cell_0_0.json"],[".worldcook-staging-main/000001","world/main.world.json"]],"removes":["world/main.cell_1_1.json"]}`,
		`{"renames":[],"removes":["../victim"]}`,
		`{"renames":[[".worldcook-staging-main/000000","../victim"]],"removes":[]}`,
		`{"renames":[["../victim","main.esscene"]]}`,
		`{"renames":[[".worldcook-staging-main/000000","main.esscene","x"]]}`,
		`{"renames":null,"removes":["world/main.cell_-1_-2.json"]}`,
		`{"removes":["world/main.cell_01_2.json"]}`,
		`{"removes":["world/../main.esscene"]}`,
		`{"renames":[], "extra": 1}`,
		`{} {}`,
		"n\n",
		"{\"removes\":[\"\x00\"]}",
	} {
		f.Add("main", []byte(s))
	}
	f.Add("levels/boss", []byte(`{"renames":[[".worldcook-staging-levels_boss/000000","levels/boss.esscene"]]}`))
	f.Add("..", []byte(`{"removes":["world/...cell_0_0.json"]}`))
	for _, tc := range journalCases {
		f.Add(tc.scene, []byte(tc.doc))
	}
	f.Fuzz(func(t *testing.T, scene string, data []byte) {
		if scene == "" || strings.ContainsAny(scene, "\x00") {
			return
		}
		checkJournal(t, layoutOf(scene), data)
	})
}

func FuzzRecord(f *testing.F) {
	for _, s := range []string{
		`{"input":"a","key":"b","manifest":"c","files":["main.esscene","world/main.cell_0_0.json","world/main.world.json"],"sizes":[1,2,3],"streamed":true,"prefabs":false,"entities":3,"cells":1}`,
		`{"files":["../victim"],"sizes":[8]}`,
		`{"files":["main.esscene"],"sizes":[-1]}`,
		`{"files":["main.esscene"],"sizes":[]}`,
		`{"files":[],"sizes":[]}`,
		`{"files":["/etc/passwd"],"sizes":[1]}`,
	} {
		f.Add([]byte(s))
	}
	l := layoutOf("main")
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := decodeCookRecord(l, data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a message of two lines: %q", err)
			}
			return
		}
		if len(r.Files) == 0 || len(r.Files) != len(r.Sizes) {
			t.Fatalf("accepted files %v with sizes %v", r.Files, r.Sizes)
		}
		for i, p := range r.Files {
			if !inside(l, p) || strings.HasPrefix(p, stagingPrefix) || r.Sizes[i] < 0 {
				t.Fatalf("accepted %q of %d bytes", p, r.Sizes[i])
			}
		}
		// What was accepted encodes and decodes to the same record.
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := decodeCookRecord(l, b); err != nil {
			t.Fatalf("re-encoded record refused: %v", err)
		}
	})
}

func TestLayoutCells(t *testing.T) {
	for _, tc := range []struct {
		scene, path string
		want        bool
	}{
		{"main", "world/main.cell_0_0.json", true},
		{"main", "world/main.cell_-3_12.json", true},
		{"main", "world/main.cell_01_2.json", false},
		{"main", "world/main.cell_+1_2.json", false},
		{"main", "world/main.cell_1.json", false},
		{"main", "world/main.cell_1_2_3.json", false},
		{"main", "world/other.cell_0_0.json", false},
		{"main", "world/main.world.json", false},
		{"main", "main.cell_0_0.json", false},
		{"main", "world/sub/main.cell_0_0.json", false},
		{"levels/boss", "world/levels_boss.cell_4_-4.json", true},
		{"a b", "world/a_b.cell_0_0.json", true},
		{"a", "world/a.cell_1_2.cell_3_4.json", false},
		{"a.cell_1_2", "world/a.cell_1_2.cell_3_4.json", true},
		{".", "world/..cell_0_0.json", true},
		{"main", "world/main.cell_99999999999_0.json", false},
	} {
		if got := layoutOf(tc.scene).cell(tc.path); got != tc.want {
			t.Errorf("scene %q: cell(%q) = %v, want %v", tc.scene, tc.path, got, tc.want)
		}
	}
}

func TestCollisions(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want string // "" = no collision
	}{
		{"a b", "a_b", "world/a_b.world.json"},
		{"town/x", "town_x", "world/town_x.world.json"},
		{"a?", "a*", "world/a_.world.json"},
		{"main", ".worldcook-staging-main/000001", ".worldcook-staging-main/000001.esscene"},
		{"main", "main.esscene/x", "main.esscene/x.esscene"},
		{"main", "town/main", ""},
		{"a", "a.cell_1_2", ""},
		{"Main", "main", "world/Main.world.json and world/main.world.json, one file where names ignore case"},
	} {
		err := findCollisions([]Scene{{File: tc.a + ".esscene", Name: tc.a}, {File: tc.b + ".esscene", Name: tc.b}})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q and %q: %v", tc.a, tc.b, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.a+".esscene") || !strings.Contains(err.Error(), tc.b+".esscene")):
			t.Errorf("%q and %q: %v, want a refusal naming both and %s", tc.a, tc.b, err, tc.want)
		}
	}
}

// TestRunRefusesItsInput: a job run on its own (not in a batch) checks
// its scene against what it would write, too, and writes nothing.
func TestRunRefusesItsInput(t *testing.T) {
	in, _, src := demoCopy(t)
	dir := filepath.Dir(in)
	_, err := run(context.Background(), sceneJob{File: in, Out: dir, Validate: demoOptions()})
	if err == nil || !strings.Contains(err.Error(), "is also "+in) {
		t.Fatalf("got %v", err)
	}
	if b, _ := os.ReadFile(in); !bytes.Equal(b, src) {
		t.Fatal("the scene was written")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("the refused cook left %d entries", len(entries))
	}
}
