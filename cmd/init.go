package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/worldcook/worldcook/internal/config"
	"github.com/worldcook/worldcook/internal/english"
	"github.com/worldcook/worldcook/internal/initworld"
)

func newInitCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "init SCENE",
		Short: "Make an authored scene a streamed world",
		Long: `Init prints a unified diff that makes SCENE a streamed world: a
StreamedWorld entity with a cell size (default: the camera's view spans
about 2x2 cells; without a camera, about 8x8 cells over the extent of what
streams), WorldPersistent on the top-level entities that
must stay loaded (cameras, UI roots, scene-wide lights, streaming sources
and what they ride on, and entities a hard reference binds across a cell
border), and a WorldStreamingSource on the main camera when the scene has
no source, with radii that want every cell its view shows. The edit only
inserts: every byte of the scene is kept. Apply the diff with git apply
or patch -p1 from where init ran (its paths start there, as git diff
writes them), or pass --write. A scene that is already streamed is left
as it is.

Exit status: 'worldcook help exit-codes'. Everything else: docs/init.md.`,
		Example: `  # see what init would change, then apply it
  worldcook init assets/scenes/main.esscene
  worldcook init --write assets/scenes/main.esscene

  # a 2D world cut into 500-wide cells on X and Y
  worldcook init --plane xy --cell-size 500 levels/island.esscene`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if isDir(args[0]) {
				return inputErr(a.initFolder(args[0]))
			}
			cfg, err := a.config(cmd, "init")
			if err != nil {
				return err
			}
			c := cfg.Init
			vopts, err := validateOptions(c.Plane, c.Assets, false, cfg.Components)
			if err != nil {
				return inputErr(err)
			}
			vopts.PlaneFrom = cfg.PlaneFrom("init")
			assetOptions(&vopts, cfg.AssetRefs)
			warnPlane(a.io, vopts.Plane, vopts.PlaneFrom, cfg.Quiet)
			opts := initworld.Options{Plane: c.Plane, Check: vopts}
			if c.CellSize != nil {
				// More than 0, as its declaration says (internal/config).
				opts.CellSize = *c.CellSize
			}
			// The plane goes in the settings file too, so that cook,
			// validate and simulate cut the world as init did. Checked
			// before the scene is written: a file that cannot take it
			// stops the run with nothing written.
			rec, err := cfg.RecordPlane(args[0], c.Plane)
			if err != nil {
				return inputErr(err)
			}
			r, err := initworld.Run(args[0], opts, c.Write)
			if err != nil {
				return inputErr(err)
			}
			if c.Write && rec != nil {
				if err := rec.Write(); err != nil {
					return inputErr(fmt.Errorf("the scene is written, but the plane is not recorded: %v", err))
				}
			}
			if !c.Write {
				a.io.Out.Write(r.Diff)
			}
			if !cfg.Quiet {
				for _, l := range r.Summary() {
					fmt.Fprintf(a.io.Err, "worldcook: %s\n", l)
				}
				if c.Write && len(r.Diff) > 0 {
					fmt.Fprintf(a.io.Err, "worldcook: wrote %s\n", r.File)
				}
				if rec != nil {
					fmt.Fprintf(a.io.Err, "worldcook: %s\n", planeRecordLine(rec, c.Write))
				}
			}
			if rec != nil {
				for _, o := range rec.Overrides {
					fmt.Fprintf(a.io.Err, "worldcook: warning: %s still overrides the top-level plane for that command; remove it\n", o)
				}
			}
			for _, n := range r.Notes {
				fmt.Fprintf(a.io.Err, "worldcook: %s\n", n)
			}
			if r.Errors > 0 {
				return &ExitError{Code: ExitFindings}
			}
			return nil
		},
	}
	settings(cmd, "init", cmd.Flags())
	return cmd
}

// planeRecordLine says where init records the plane (or, without --write,
// would).
func planeRecordLine(rec *config.PlaneRecord, written bool) string {
	what := fmt.Sprintf("plane: %s at %s:%d", rec.Plane, rec.File, rec.Line)
	if rec.Create {
		what = fmt.Sprintf("plane: %s in a new %s", rec.Plane, rec.File)
	}
	if written {
		return "recorded " + what + ", so that every command cuts the world on " + rec.Plane
	}
	return "with --write, init also records " + what + " (every command reads it); without it, pass --plane " + rec.Plane + " to every command"
}

// initFolder answers init given a folder: init edits one scene, so it
// names the scenes it found there, each as the command that edits it.
func (a *app) initFolder(dir string) error {
	scenes := scenesUnder(dir)
	if len(scenes) == 0 {
		return fmt.Errorf("%s is a folder and holds no .esscene file; pass the scene to make streamed", dir)
	}
	var cmds []string
	for _, s := range scenes[:min(len(scenes), maxListedScenes)] {
		cmds = append(cmds, retyped(a.args, dir, []string{s}, "init", s))
	}
	more := ""
	if n := len(scenes) - len(cmds); n > 0 {
		more = fmt.Sprintf(", and %d more", n)
	}
	return fmt.Errorf("%s is a folder; init edits one scene at a time, and it holds %s: %s%s",
		dir, english.Count(len(scenes), "scene"), strings.Join(cmds, "; "), more)
}
