package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/corpus"
)

// cookedWorld is what these tests read of a manifest.
type cookedWorld struct {
	Cells []struct {
		Name       string   `json:"name"`
		Assets     []string `json:"assets"`
		AssetBytes int64    `json:"assetBytes"`
		MinX       float64  `json:"minX"`
		MinZ       float64  `json:"minZ"`
		MaxX       float64  `json:"maxX"`
		MaxZ       float64  `json:"maxZ"`
	} `json:"cells"`
}

// cookAssets cooks scene (a copy, inside its project) into out with a
// depfile and a metafile, and returns the manifest of the world named
// name and both files' text.
func cookAssets(t *testing.T, scene, name, out string) (cookedWorld, string, string) {
	t.Helper()
	dir := t.TempDir()
	dep, meta := filepath.Join(dir, "world.d"), filepath.Join(dir, "world.json")
	if code, _, errs := run(t, "cook", scene, "--out", out, "--depfile", dep, "--metafile", meta); code != 0 {
		t.Fatalf("cook %s: exit %d: %s", scene, code, errs)
	}
	var m cookedWorld
	data, err := os.ReadFile(filepath.Join(out, "world", name+".world.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	d, err := os.ReadFile(dep)
	if err != nil {
		t.Fatal(err)
	}
	j, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	return m, string(d), string(j)
}

// peakAssets simulates the route over the cooked world and returns the
// summary's peak resident asset bytes.
func peakAssets(t *testing.T, world, route string) int64 {
	t.Helper()
	code, out, errs := run(t, "--json", "simulate", "--path", route, world, "--summary-only")
	if code != 0 {
		t.Fatalf("simulate: exit %d: %s", code, errs)
	}
	m := regexp.MustCompile(`"peakResidentAssetBytes":\s*(\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no peakResidentAssetBytes in %s", out)
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	return n
}

func fileSize(t *testing.T, p string) int64 {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

func writeRoute(t *testing.T, rows string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "route.csv")
	if err := os.WriteFile(p, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestContainerAssetsCounted: the files a Spine atlas, a DragonBones atlas
// and a bitmap font name are in the cells' asset lists and bytes, the
// depfile, the metafile and simulate's asset bytes (the repository's own
// project, testdata/containers).
func TestContainerAssetsCounted(t *testing.T) {
	proj := t.TempDir()
	corpus.CopyTree(t, "../testdata/containers", proj)
	out := filepath.Join(t.TempDir(), "out")
	m, dep, meta := cookAssets(t, filepath.Join(proj, "assets", "scenes", "main.esscene"), "main", out)
	want := map[string][]string{
		"main.cell_0_0": {"assets/spine/hero.atlas", "assets/spine/hero.png", "assets/spine/hero.skel", "assets/spine/hero_2.PNG", "assets/spine/pages/hero_3.png"},
		"main.cell_1_0": {"assets/dragonbones/Blank_tex.json", "assets/dragonbones/Boy_ske.json", "assets/dragonbones/Boy_tex.json", "assets/dragonbones/Boy_tex.png"},
		"main.cell_2_0": {"assets/fonts/label.bmfont", "assets/fonts/label.fnt", "assets/fonts/label.png", "assets/fonts/text.bmfont", "assets/fonts/title.fnt", "assets/fonts/title.png"},
	}
	if len(m.Cells) != len(want) {
		t.Fatalf("%d cells, want %d", len(m.Cells), len(want))
	}
	var total int64
	for _, c := range m.Cells {
		if !slices.Equal(c.Assets, want[c.Name]) {
			t.Errorf("%s: assets %q, want %q", c.Name, c.Assets, want[c.Name])
		}
		var sum int64
		for _, a := range want[c.Name] {
			sum += fileSize(t, filepath.Join(proj, filepath.FromSlash(a)))
		}
		if c.AssetBytes != sum {
			t.Errorf("%s: %d asset bytes, want %d", c.Name, c.AssetBytes, sum)
		}
		total += sum
	}
	for _, page := range []string{"assets/spine/hero.png", "assets/spine/hero_2.PNG", "assets/spine/pages/hero_3.png", "assets/dragonbones/Boy_tex.png", "assets/fonts/title.png", "assets/fonts/label.png", "assets/fonts/label.fnt"} {
		if !strings.Contains(dep, filepath.Join(proj, filepath.FromSlash(page))) {
			t.Errorf("the depfile leaves out %s:\n%s", page, dep)
		}
		if !strings.Contains(meta, page) {
			t.Errorf("the metafile leaves out %s", page)
		}
	}
	// Every cell is resident at the second frame: the peak is every file.
	if got := peakAssets(t, out, writeRoute(t, "x,z\n50,50\n150,50\n250,50\n")); got != total {
		t.Errorf("simulate: peak resident assets %d B, want %d (every cell's files)", got, total)
	}
}

// TestSpineDemoPages: on the engine's spine-demo, each skeleton's cell
// counts the page images its atlas names, as the engine's Spine loader
// loads them: aran's 14 pages (about 7 MB) and spineboy's one, in the
// manifest, the depfile and simulate. The same for dragonbones-demo's
// atlas image.
func TestSpineDemoPages(t *testing.T) {
	examples := filepath.Join(corpus.Estella(t), "examples")
	for _, tc := range []struct {
		project, scene, atlas string
		pages                 int
	}{
		{"spine-demo", "aran", "assets/spine/aran/aran.atlas", 14},
		{"spine-demo", "main", "assets/spine/spineboy.atlas", 1},
		{"dragonbones-demo", "main", "assets/dragonbones/DragonBoy_tex.json", 1},
	} {
		t.Run(tc.project+"/"+tc.scene, func(t *testing.T) {
			proj := t.TempDir()
			corpus.CopyTree(t, filepath.Join(examples, tc.project), proj)
			scene := filepath.Join(proj, "assets", "scenes", tc.scene+".esscene")
			if code, _, errs := run(t, "init", "--write", scene); code != 0 {
				t.Fatalf("init: exit %d: %s", code, errs)
			}
			// The pages as the engine's reader finds them, joined to the
			// atlas's folder.
			atlas, err := os.ReadFile(filepath.Join(proj, filepath.FromSlash(tc.atlas)))
			if err != nil {
				t.Fatal(err)
			}
			var pages []string
			if strings.HasSuffix(tc.atlas, ".atlas") {
				pages = assets.SpineAtlasPages(atlas)
			} else {
				var db struct{ ImagePath string }
				json.Unmarshal(atlas, &db)
				pages = []string{db.ImagePath}
			}
			if len(pages) != tc.pages {
				t.Fatalf("%s names %d pages %q, want %d", tc.atlas, len(pages), pages, tc.pages)
			}
			var pageBytes int64
			for i, p := range pages {
				pages[i] = filepath.ToSlash(filepath.Join(filepath.Dir(tc.atlas), p))
				pageBytes += fileSize(t, filepath.Join(proj, filepath.FromSlash(pages[i])))
			}
			out := filepath.Join(t.TempDir(), "out")
			m, dep, _ := cookAssets(t, scene, tc.scene, out)
			var held []string
			var heldBytes int64
			var at string
			for _, c := range m.Cells {
				if slices.Contains(c.Assets, tc.atlas) {
					held, heldBytes = c.Assets, c.AssetBytes
					at = strconv.FormatFloat((c.MinX+c.MaxX)/2, 'g', -1, 64) + "," + strconv.FormatFloat((c.MinZ+c.MaxZ)/2, 'g', -1, 64) + "\n"
				}
			}
			if held == nil {
				t.Fatalf("no cell lists %s", tc.atlas)
			}
			for _, p := range pages {
				if !slices.Contains(held, p) {
					t.Errorf("the cell of %s leaves out its page %s", tc.atlas, p)
				}
				if !strings.Contains(dep, filepath.Join(proj, filepath.FromSlash(p))) {
					t.Errorf("the depfile leaves out %s", p)
				}
			}
			if heldBytes < pageBytes {
				t.Errorf("the cell counts %d asset bytes, less than its %d pages' %d", heldBytes, len(pages), pageBytes)
			}
			t.Logf("%s: %d pages of %d B; the cell holds %d assets of %d B", tc.atlas, len(pages), pageBytes, len(held), heldBytes)
			// The camera waits in the skeleton's cell.
			if got := peakAssets(t, out, writeRoute(t, "x,z\n"+strings.Repeat(at, 30))); got < pageBytes {
				t.Errorf("simulate: peak resident assets %d B, less than the pages' %d", got, pageBytes)
			}
		})
	}
}
