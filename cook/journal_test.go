package cook

import (
	"strings"
	"testing"
)

// TestStaged pins what a journal may move from: a name of six digits or
// more directly inside the scene's own staging folder, and nothing that
// only starts like one.
func TestStaged(t *testing.T) {
	for _, tc := range []struct {
		scene, path string
		want        bool
	}{
		{"main", ".worldcook-staging-main/000000", true},
		{"main", ".worldcook-staging-main/000042", true},
		{"main", ".worldcook-staging-main/1234567890", true},
		{"levels/boss", ".worldcook-staging-levels_boss/000001", true},
		{"main", ".worldcook-staging-main/00000", false},
		{"main", ".worldcook-staging-main/", false},
		{"main", ".worldcook-staging-main/../x", false},
		{"main", ".worldcook-staging-main/../victim", false},
		{"main", ".worldcook-staging-main/../../etc/passwd", false},
		{"main", ".worldcook-staging-main/000000/x", false},
		{"main", ".worldcook-staging-main/00000a", false},
		{"main", ".worldcook-staging-main/-00001", false},
		{"main", ".worldcook-staging-main/ 00000", false},
		{"main", ".worldcook-staging-main/main.esscene", false},
		{"main", ".worldcook-staging-main000000", false},
		{"main", ".worldcook-staging-other/000000", false},
		{"main", "world/000000", false},
		{"main", "000000", false},
		{"levels/boss", ".worldcook-staging-levels/boss/000000", false},
	} {
		if got := layoutOf(tc.scene).staged(tc.path); got != tc.want {
			t.Errorf("scene %q: staged(%q) = %v, want %v", tc.scene, tc.path, got, tc.want)
		}
	}
}

// journalCases are what a journal may do: move staged files onto the
// scene's world, remove its cells and manifest, and never remove its
// persistent world (a commit replaces it, it never goes away) nor reach
// outside the scene's files. FuzzJournal starts from them too.
var journalCases = []struct {
	name, scene, doc string
	refused          string // "" = accepted
}{
	{"a whole commit", "main", `{"renames":[[".worldcook-staging-main/000000","main.esscene"],[".worldcook-staging-main/000001","world/main.cell_0_-1.json"],[".worldcook-staging-main/000002","world/main.world.json"]],"removes":["world/main.cell_3_3.json"]}`, ""},
	{"the manifest removed", "main", `{"renames":[],"removes":["world/main.world.json"]}`, ""},
	{"nothing", "main", `{}`, ""},
	{"the persistent world removed", "main", `{"removes":["main.esscene"]}`, `it removes "main.esscene"`},
	{"a nested persistent world removed", "levels/boss", `{"removes":["levels/boss.esscene"]}`, `it removes "levels/boss.esscene"`},
	{"the persistent world removed after a cell", "main", `{"removes":["world/main.cell_0_0.json","main.esscene"]}`, `it removes "main.esscene"`},
	{"a staged file removed", "main", `{"removes":[".worldcook-staging-main/000000"]}`, "it removes"},
	{"another scene's cell removed", "main", `{"removes":["world/other.cell_0_0.json"]}`, "it removes"},
	{"a file outside moved in", "main", `{"renames":[[".worldcook-staging-main/../victim","world/main.cell_0_0.json"]]}`, `it moves ".worldcook-staging-main/../victim"`},
	{"a file two levels up moved in", "main", `{"renames":[[".worldcook-staging-main/../../x","main.esscene"]]}`, "which is not a staged file"},
	{"a short staged name", "main", `{"renames":[[".worldcook-staging-main/00001","main.esscene"]]}`, "which is not a staged file"},
	{"another scene's staging", "main", `{"renames":[[".worldcook-staging-other/000000","main.esscene"]]}`, "which is not a staged file"},
	{"moved outside", "main", `{"renames":[[".worldcook-staging-main/000000","../victim"]]}`, `it moves a file to "../victim"`},
	{"moved onto another scene", "main", `{"renames":[[".worldcook-staging-main/000000","other.esscene"]]}`, "not a file of the world"},
}

func TestDecodeJournal(t *testing.T) {
	for _, tc := range journalCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeJournal(layoutOf(tc.scene), []byte(tc.doc))
			switch {
			case tc.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.refused != "" && err == nil:
				t.Fatalf("accepted, want a refusal saying %q", tc.refused)
			case tc.refused != "" && !strings.Contains(err.Error(), tc.refused):
				t.Fatalf("refused with %q, want it to say %q", err, tc.refused)
			}
		})
	}
}
