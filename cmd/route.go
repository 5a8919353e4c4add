package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/config"
	"github.com/worldcook/worldcook/internal/english"
	"github.com/worldcook/worldcook/internal/sidefile"
	"github.com/worldcook/worldcook/route"
	"github.com/worldcook/worldcook/validate"
)

func newRouteCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "route SCENE",
		Short: "Make the routes simulate and tune replay, from timelines, markers and cells",
		Long: `Route writes route CSVs that simulate --path and tune --path read, one file per route into
--out (default routes/), and prints a line per route: its file, frames, length and what it
follows. The kinds (--from, default every kind the scene has):

  timeline  every TimelinePlayer whose clip moves a streaming source, an entity carrying
            one, or an entity a camera follows (FollowTarget): the source's world position
            each frame as the engine's timeline sampler and follow step move it
  markers   the Marker entities in order (properties.order, then name), walked at --speed
            (default a NavAgent's speed, else 300); on a 2D scene whose tilemap has
            collidableTileIds, along the engine's grid path, elsewhere in straight lines
  tour      the centre of every cell with content, row by row: the worst case for memory
  teleport  the spawn markers (else the sources' authored positions), each held --hold s

Coordinates are written in the shortest form that reads back exactly. A kind --from names
that yields nothing, a missing timeline or an unreachable marker is an error (exit 2), and
then no file is written. --recorder prints a TypeScript system that records a route while
you play a development build.

Exit status: 'worldcook help exit-codes'. Everything else: docs/route.md.`,
		Example: `  # every route the scene has, into routes/
  worldcook route assets/scenes/main.esscene

  # replay them all
  worldcook simulate --path routes assets/scenes/main.esscene

  # the markers of a 2D scene at 200 units/s, drawn on the world's map
  worldcook route --plane xy --from markers --speed 200 --map routes.svg levels/island.esscene

  # record a route in the game instead
  worldcook route --recorder > src/worldcookRecorder.ts`,
		Args: func(cmd *cobra.Command, args []string) error {
			if rec, _ := cmd.Flags().GetBool("recorder"); rec {
				return cobra.NoArgs(cmd, args)
			}
			return cobra.ExactArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.config(cmd, "route")
			if err != nil {
				return err
			}
			a.machine = cfg.JSON
			if cfg.Route.Recorder {
				_, err := io.WriteString(a.io.Out, route.Recorder)
				return err
			}
			return runRoute(a.io, cfg, args[0])
		},
	}
	settings(cmd, "route", cmd.Flags())
	return cmd
}

func runRoute(streams IO, cfg *config.Config, scene string) error {
	c := cfg.Route
	// --out names a folder; a name like a route's file is a newcomer
	// expecting one file, who would find a folder called tour.csv.
	if strings.EqualFold(filepath.Ext(c.Out), ".csv") && !isDir(c.Out) {
		return inputErr(fmt.Errorf("--out %s: --out is the folder route writes one CSV per route into; pass a folder (--out %s) and replay a route from it with --path %s",
			c.Out, strings.TrimSuffix(c.Out, filepath.Ext(c.Out)), filepath.Join(strings.TrimSuffix(c.Out, filepath.Ext(c.Out)), "NAME.csv")))
	}
	vopts, err := validateOptions(c.Plane, c.Assets, false, cfg.Components)
	if err != nil {
		return inputErr(err)
	}
	vopts.Levels = c.Levels
	assetOptions(&vopts, cfg.AssetRefs)
	opts := route.Options{
		From: c.From, Explicit: c.From != nil,
		FPS: c.FPS, Source: c.Source, Loops: c.Loops, Hold: c.Hold, Points: c.Points,
		Validate: vopts, ScenesRoot: c.ScenesRoot,
	}
	if c.Speed != nil {
		opts.Speed = *c.Speed
	}
	res, err := route.Make(scene, opts)
	if err != nil {
		return inputErr(err)
	}
	// Every file is checked before the first is written: a run that
	// cannot write them all writes none.
	side := sidefile.New(append([]string{cfg.File, scene}, res.Inputs...)...)
	side.Inputs(cook.PlanInputs(scene, res.Plan)...)
	files := make([]string, len(res.Routes))
	for i, r := range res.Routes {
		files[i] = filepath.Join(c.Out, r.Name+".csv")
		if err := side.Check(files[i], "--out"); err != nil {
			return inputErr(err)
		}
	}
	if c.Map != "" {
		if err := side.Check(c.Map, "--map"); err != nil {
			return inputErr(err)
		}
	}
	if len(res.Routes) > 0 {
		if err := os.MkdirAll(c.Out, 0o755); err != nil {
			return inputErr(fmt.Errorf("cannot make --out %s: %v", c.Out, err))
		}
	}
	for i, r := range res.Routes {
		if err := side.WriteFile(files[i], "--out", r.WriteCSV); err != nil {
			return inputErr(err)
		}
	}
	if c.Map != "" {
		var mr []validate.MapRoute
		for _, r := range res.Routes {
			m := validate.MapRoute{Name: r.Name, Jumps: r.Jumps}
			for _, p := range r.Frames {
				m.Points = append(m.Points, [2]float64{p.X, p.Z})
			}
			mr = append(mr, m)
		}
		if err := side.WriteFile(c.Map, "--map", func(w io.Writer) error { return validate.WriteMapRoutes(w, res.Plan, mr) }); err != nil {
			return inputErr(err)
		}
	}
	if cfg.JSON {
		for i, r := range res.Routes {
			if err := writeJSONLine(streams.Out, routeLine{MessageType: "route", File: files[i], Kind: r.Kind, Frames: len(r.Frames), Length: r.Length(), Source: r.Source, Follows: r.Follows}); err != nil {
				return err
			}
		}
		for _, n := range res.Notes {
			if err := writeJSONLine(streams.Out, noteLine{MessageType: "note", Message: n}); err != nil {
				return err
			}
		}
		return nil
	}
	if cfg.Quiet {
		return nil
	}
	for i, r := range res.Routes {
		fmt.Fprintf(streams.Out, "%s  %s  %s units  %s\n", files[i], english.Count(len(r.Frames), "frame"), fmtLength(r.Length()), r.Follows)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(streams.Err, "worldcook: note: %s\n", n)
	}
	if len(res.Routes) == 0 {
		fmt.Fprintf(streams.Err, "worldcook: no route written\n")
	}
	return nil
}

// routeLine is the JSON line of a route made (docs/json.md).
type routeLine struct {
	MessageType string  `json:"message_type"`
	File        string  `json:"file"`
	Kind        string  `json:"kind"`
	Frames      int     `json:"frames"`
	Length      float64 `json:"length"`
	Source      string  `json:"source"`
	Follows     string  `json:"follows"`
}

// noteLine is the JSON line of a note: what a run left out and why.
type noteLine struct {
	MessageType string `json:"message_type"`
	Message     string `json:"message"`
}

// fmtLength is a route's length for the line a run prints: whole units,
// one decimal below 10.
func fmtLength(l float64) string {
	if l < 10 {
		return fmt.Sprintf("%.1f", l)
	}
	return fmt.Sprintf("%.0f", l)
}
