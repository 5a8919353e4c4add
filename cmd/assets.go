package cmd

import (
	"fmt"
	"sort"

	"github.com/worldcook/worldcook/assets"
	"github.com/worldcook/worldcook/config"
	"github.com/worldcook/worldcook/validate"
)

// assetOptions sets the asset rules of worldcook.yaml and a cache that
// lets the scenes of one run share each project's asset graph.
func assetOptions(opts *validate.Options, c config.AssetRefs) error {
	rules, err := assetRules(c)
	if err != nil {
		return err
	}
	opts.AssetRules, opts.AssetCache = rules, assets.NewCache()
	return nil
}

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
