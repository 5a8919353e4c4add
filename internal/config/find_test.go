package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/spf13/pflag"
)

// TestFindSettingsFile: without --config, the working directory's
// worldcook.yaml, else the nearest from the input's folder up to its
// project's root, and never one above the project (or, outside a project,
// above the input's folder).
func TestFindSettingsFile(t *testing.T) {
	for _, tc := range []struct {
		name string
		// files are created under the test's folder (a trailing / makes a
		// folder); near is the input, cwd the working directory.
		files     []string
		near, cwd string
		want      How
		wantFile  string
		searched  []string
	}{
		{name: "the working directory's first",
			files: []string{"proj/project.esproject", "proj/worldcook.yaml", "here/worldcook.yaml", "proj/scenes/main.esscene"},
			near:  "../proj/scenes/main.esscene", cwd: "here", want: InWorkDir, wantFile: "worldcook.yaml"},
		{name: "the project root's",
			files: []string{"proj/project.esproject", "proj/worldcook.yaml", "here/", "proj/assets/scenes/main.esscene"},
			near:  "../proj/assets/scenes/main.esscene", cwd: "here", want: NearInput, wantFile: "../proj/worldcook.yaml"},
		{name: "the nearest wins",
			files: []string{"proj/project.esproject", "proj/worldcook.yaml", "proj/assets/worldcook.yaml", "proj/assets/scenes/main.esscene"},
			near:  "proj/assets/scenes/main.esscene", want: NearInput, wantFile: "proj/assets/worldcook.yaml"},
		{name: "a folder of scenes starts at itself",
			files: []string{"proj/project.esproject", "proj/scenes/worldcook.yaml", "proj/scenes/main.esscene"},
			near:  "proj/scenes", want: NearInput, wantFile: "proj/scenes/worldcook.yaml"},
		{name: "never above the project root",
			files: []string{"worldcook.yaml", "proj/project.esproject", "proj/assets/scenes/main.esscene", "here/"},
			near:  "../proj/assets/scenes/main.esscene", cwd: "here", want: NoFile,
			searched: []string{"../proj/assets/scenes", "../proj/assets", "../proj"}},
		{name: "outside a project, the input's folder only",
			files: []string{"loose/worldcook.yaml", "loose/levels/main.esscene"},
			near:  "loose/levels/main.esscene", want: NoFile, searched: []string{"loose/levels"}},
		{name: "outside a project, beside the scene",
			files: []string{"loose/worldcook.yaml", "loose/main.esscene"},
			near:  "loose/main.esscene", want: NearInput, wantFile: "loose/worldcook.yaml"},
		{name: "no input",
			files: []string{"proj/project.esproject", "proj/worldcook.yaml"}, want: NoFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for _, f := range tc.files {
				p := filepath.Join(root, f)
				if f[len(f)-1] == '/' {
					if err := os.MkdirAll(p, 0o755); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(filepath.Join(root, tc.cwd))
			got := find(tc.near)
			if got.How != tc.want || got.File != tc.wantFile {
				t.Errorf("found %v %q, want %v %q", got.How, got.File, tc.want, tc.wantFile)
			}
			if tc.searched != nil && !slices.Equal(got.Searched, tc.searched) {
				t.Errorf("searched %q, want %q", got.Searched, tc.searched)
			}
		})
	}
}

// TestFoundFileReadsPathsFromItsFolder: a file found beside the scene
// means its relative paths from its own folder; --config and the working
// directory's file mean them from the working directory, as always.
func TestFoundFileReadsPathsFromItsFolder(t *testing.T) {
	root := t.TempDir()
	for f, body := range map[string]string{
		"proj/project.esproject":   "{}",
		"proj/worldcook.yaml":      "plane: xy\ncook:\n  out: build/world\n  assets: [assets, /abs]\n",
		"proj/scenes/main.esscene": "{}",
	} {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(root, "elsewhere"), 0o755)
	t.Chdir(filepath.Join(root, "elsewhere"))
	resolveNear := func(file, near string) *Config {
		fs := pflag.NewFlagSet("cook", pflag.ContinueOnError)
		Register("cook", fs)
		l := NewLoader()
		l.Bind("cook", fs)
		l.Near(near)
		cfg, err := l.Resolve(file)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	cfg := resolveNear("", "../proj/scenes/main.esscene")
	if cfg.File != "../proj/worldcook.yaml" || cfg.Found.How != NearInput {
		t.Fatalf("file %q (%v), want ../proj/worldcook.yaml found near the scene", cfg.File, cfg.Found.How)
	}
	if cfg.Cook.Out != "../proj/build/world" || !slices.Equal(cfg.Cook.Assets, []string{"../proj/assets", "/abs"}) || cfg.Cook.Plane != "xy" {
		t.Errorf("cook.out %q, assets %q, plane %q; want ../proj/build/world, [../proj/assets /abs], xy", cfg.Cook.Out, cfg.Cook.Assets, cfg.Cook.Plane)
	}
	if o := cfg.Values("cook")[0].Origin; o.Name != "../proj/worldcook.yaml" {
		t.Errorf("origin %v, want the file found", o)
	}
	cfg = resolveNear("../proj/worldcook.yaml", "")
	if cfg.Cook.Out != "build/world" || cfg.Found.How != ByFlag {
		t.Errorf("--config: cook.out %q (%v), want build/world as written", cfg.Cook.Out, cfg.Found.How)
	}
}
