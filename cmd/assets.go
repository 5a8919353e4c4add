package cmd

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/worldcook/worldcook/assets"
	"github.com/worldcook/worldcook/config"
)

// assetRules turns the assetRefs section of worldcook.yaml into rules.
func assetRules(c config.AssetRefs) (assets.Rules, error) {
	r := assets.Rules{Fields: c.Fields}
	exts := make([]string, 0, len(c.Kinds))
	for ext := range c.Kinds {
		exts = append(exts, ext)
	}
	sort.Strings(exts)
	for _, ext := range exts {
		k := c.Kinds[ext]
		r.Kinds = append(r.Kinds, assets.Kind{Ext: ext, Follow: k.Follow, FileRelative: k.FileRelative, Fields: k.Fields})
	}
	if _, err := assets.DefaultRules().With(r); err != nil {
		return assets.Rules{}, fmt.Errorf("assetRefs in worldcook.yaml: %v", err)
	}
	return r, nil
}

// projectFiles opens the project whose asset files a world loads: the
// first asset folder given, else the project above near (a folder with
// project.esproject). The files are served through an os.Root, so no path
// or symbolic link leads out of the project. Nil when there is none.
func projectFiles(dirs []string, near string) fs.FS {
	root := ""
	if len(dirs) > 0 {
		root = dirs[0]
	} else if near != "" {
		if p, ok := assets.FindProject(filepath.Join(near, "x")); ok {
			root = p
		}
	}
	if root == "" {
		return nil
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil
	}
	return r.FS()
}
