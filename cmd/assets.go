package cmd

import (
	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/config"
	"github.com/worldcook/worldcook/validate"
)

// assetOptions sets the asset rules of worldcook.yaml and a cache that
// lets the scenes of one run share each project's asset graph.
func assetOptions(opts *validate.Options, c config.AssetRefs) {
	opts.AssetRules, opts.AssetCache = c.Rules(), assets.NewCache()
}
