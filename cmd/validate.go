package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/config"
	"github.com/worldcook/worldcook/internal/gcpause"
	"github.com/worldcook/worldcook/internal/sidefile"
	"github.com/worldcook/worldcook/validate"
)

func newValidateCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "validate SCENE|DIR|PREFAB...",
		Short: "Check the residency rules of streamed scenes",
		Long: `Validate partitions each scene as cook would and checks the rules a streamed world must keep:
no hard entity reference from one cell into another or from the persistent world into a cell,
WorldPersistent and StreamedWorld only on top-level entities, one StreamedWorld with a sane
cellSize, a consistent hierarchy, placeable prefab instances and sane streaming-source radii.
It also reports how far each cell's bounds grew beyond its grid square. A directory validates
every .esscene under it; a scene without StreamedWorld gets the structural checks only. A prefab
(.esprefab) validates the scenes of its Estella project that place it, nested or as a variant's
base included, and says which they are on stderr.

Formats: text (default), json (one JSON object per scene, one per line), sarif (SARIF 2.1.0
for code-scanning uploads) and github (workflow annotations). Project components holding
entity ids are declared in worldcook.yaml (components: {FollowTarget: {entityFields: [target]}}).

With --fix, validate prints the cheapest repair of every hard reference the cut breaks: a root
marked WorldPersistent, or a root moved under another with its transform recomputed so that
nothing moves. It prints each candidate's costs on stderr and the edit as a diff on stdout (apply
it with git apply or patch -p1 from where it ran), or applies it with --write. With --path the
candidates are weighed on simulated routes: docs/fix.md.

Exit status: 'worldcook help exit-codes'. Every finding code and flag: docs/validate.md.`,
		Example: `  # check the demo world
  worldcook validate testdata/demo/main.esscene

  # a 2D world, cells on X and Y, with a map of the cells and rejected references
  worldcook validate --plane xy --map out/map.svg levels/island.esscene

  # a changed prefab: every scene of its project that places it
  worldcook validate assets/prefabs/Coin.esprefab

  # the cheapest repair of every reference the cut breaks, weighed on a route
  worldcook validate --fix --path routes/walk.csv main.esscene
  worldcook validate --fix --write main.esscene

  # in CI: annotate the pull request, and upload SARIF for code scanning
  worldcook validate --format github assets/scenes
  worldcook validate --format sarif assets/scenes > worldcook.sarif`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.config(cmd, "validate")
			if err != nil {
				return err
			}
			format := cfg.Validate.Format
			if cfg.JSON && !cmd.Flags().Changed("format") {
				format = validate.FormatJSON
			}
			// SARIF is one JSON document, not lines: a failure stays on
			// stderr there.
			a.machine = format == validate.FormatJSON
			if cfg.Validate.Fix {
				return runFix(cmd.Context(), a.io, args, format, cfg)
			}
			if v := cfg.Validate; v.Write || len(v.Path) > 0 || v.Compare {
				return inputErr(fmt.Errorf("--write, --path and --compare go with --fix (worldcook validate --fix [--path ROUTE]... [--write] SCENE...)"))
			}
			return runValidate(a.io, args, format, cfg)
		},
	}
	settings(cmd, "validate", cmd.Flags())
	return cmd
}

// runValidate checks every scene and reports. Scenes are reported one by
// one as they are checked, so memory holds one world at a time (SARIF,
// one log for all scenes, keeps only the findings).
func runValidate(streams IO, args []string, format string, cfg *config.Config) error {
	v := cfg.Validate
	if format == "" {
		format = validate.FormatText
	}
	known := false
	for _, f := range validate.Formats {
		known = known || f == format
	}
	if !known {
		return inputErr(fmt.Errorf("%s %q is not a report format; use one of %s", v.Name(&v.Format), format, strings.Join(validate.Formats, ", ")))
	}
	opts, err := validateOptions(v.Plane, v.Assets, v.Strict, cfg.Components)
	if err != nil {
		return inputErr(err)
	}
	opts.Levels = v.Levels
	opts.PlaneFrom = cfg.PlaneFrom("validate")
	assetOptions(&opts, cfg.AssetRefs)
	warnPlane(streams, opts.Plane, opts.PlaneFrom, cfg.Quiet)
	// One prefab reader per resolver (project, asset folders and rules)
	// serves every scene using it: each .meta and prefab is read, and each
	// reference resolved, once per run.
	shared := map[*assets.Resolver]*validate.Prefabs{}
	prefabsFor := func(file string) *validate.Prefabs {
		r := validate.AssetResolver(file, opts)
		if shared[r] == nil {
			shared[r] = validate.NewPrefabsFor(r)
		}
		return shared[r]
	}
	files, uses, err := cook.DiscoverPlacing(args, v.ScenesRoot, opts)
	if err != nil {
		return inputErr(err)
	}
	if !cfg.Quiet {
		for _, u := range uses {
			fmt.Fprintf(streams.Err, "worldcook: %s\n", u.Note())
		}
	}
	if v.Map != "" && len(files) != 1 {
		return inputErr(fmt.Errorf("--map draws one scene, but %d scenes were given; validate them one at a time to draw each", len(files)))
	}
	ropts := validate.ReportOptions{Quiet: cfg.Quiet, ToolVersion: versionString(), Frames: streams.OutTerminal, Color: streams.OutTerminal && colorAllowed(), Verbose: v.Verbose}
	var sarif []*validate.Plan
	unreadable, failing := 0, 0
	for _, sc := range files {
		file := sc.File
		opts.Prefabs = prefabsFor(file)
		plan, err := cook.Validate(file, sc.Root, opts, gcpause.Job)
		if err != nil {
			unreadable++
			fmt.Fprintf(streams.Err, "worldcook: %s\n", oneLine(err))
			continue
		}
		if plan.Errors(v.Strict) > 0 {
			failing++
		}
		if v.Map != "" {
			side := sidefile.New(cfg.File)
			side.Inputs(cook.PlanInputs(file, plan)...)
			if err := side.WriteFile(v.Map, "--map", func(w io.Writer) error { return validate.WriteMap(w, plan) }); err != nil {
				return inputErr(err)
			}
		}
		if format == validate.FormatSARIF {
			sarif = append(sarif, validate.FindingsOnly(plan))
			continue
		}
		if err := validate.Write(streams.Out, format, []*validate.Plan{plan}, ropts); err != nil {
			return err
		}
	}
	if format == validate.FormatSARIF {
		if err := validate.Write(streams.Out, format, sarif, ropts); err != nil {
			return err
		}
	}
	switch {
	case unreadable > 0:
		return &ExitError{Code: ExitInput}
	case failing > 0:
		return &ExitError{Code: ExitFindings}
	}
	return nil
}
