package cmd

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/config"
	"github.com/worldcook/worldcook/internal/repair"
	"github.com/worldcook/worldcook/validate"
)

// fixLine is one line of validate --fix --json: a broken reference, the
// repairs of its group and the chosen one.
type fixLine struct {
	MessageType string              `json:"message_type"`
	File        string              `json:"file"`
	Finding     validate.Finding    `json:"finding"`
	Roots       []repair.Root       `json:"roots"`
	Candidates  []*repair.Candidate `json:"candidates"`
	Excluded    []*repair.Candidate `json:"excluded,omitempty"`
	Chosen      int                 `json:"chosen"`
	Why         string              `json:"why"`
}

// runFix is validate --fix: each scene's repair, its table on stderr
// and its diff on stdout (or written with --write), or JSON lines.
func runFix(ctx context.Context, streams IO, args []string, format string, cfg *config.Config) error {
	v := cfg.Validate
	if format != "" && format != validate.FormatText && format != validate.FormatJSON {
		return inputErr(fmt.Errorf("--fix writes a table and a diff, or JSON lines with --json; --format %s is for the findings (run validate without --fix)", format))
	}
	vopts, err := validateOptions(v.Plane, v.Assets, false, cfg.Components)
	if err != nil {
		return inputErr(err)
	}
	vopts.Levels = v.Levels
	assetOptions(&vopts, cfg.AssetRefs)
	var routes []string
	for _, p := range v.Path {
		files, err := routeFiles(p)
		if err != nil {
			return inputErr(err)
		}
		routes = append(routes, files...)
	}
	sim := cfg.Simulate
	sim.FailOn = nil
	sim.Compare = v.Compare
	so, err := simulateRun(&simulateOptions{Cfg: sim, Components: cfg.Components, AssetRefs: cfg.AssetRefs, ConfigFile: cfg.File})
	if err != nil {
		return inputErr(err)
	}
	files, _, err := cook.DiscoverPlacing(args, v.ScenesRoot, vopts)
	if err != nil {
		return inputErr(err)
	}
	left := 0
	for _, sc := range files {
		o := repair.Options{Open: cook.OpenOptions{Validate: vopts, ScenesRoot: sc.Root}, Routes: routes, Simulate: so}
		r, err := repair.RunFile(ctx, sc.File, o, v.Write)
		if err != nil {
			return inputErr(err)
		}
		left += len(r.Left)
		if format == validate.FormatJSON {
			for _, fx := range r.Fixes {
				for _, f := range fx.Findings {
					if err := writeJSONLine(streams.Out, fixLine{MessageType: "fix", File: r.File, Finding: f, Roots: fx.Roots,
						Candidates: fx.Candidates, Excluded: fx.Excluded, Chosen: fx.Chosen, Why: fx.Why}); err != nil {
						return err
					}
				}
			}
			continue
		}
		if !cfg.Quiet {
			if err := repair.WriteText(streams.Err, r); err != nil {
				return err
			}
		}
		if v.Write {
			if len(r.Edit.Diff) > 0 && !cfg.Quiet {
				fmt.Fprintf(streams.Err, "worldcook: wrote %s\n", r.File)
			}
			continue
		}
		if _, err := streams.Out.Write(r.Edit.Diff); err != nil {
			return err
		}
		if r.Edit.ApplyIn != "" && len(r.Edit.Diff) > 0 && !cfg.Quiet {
			fmt.Fprintf(streams.Err, "worldcook: %s lies outside the working directory, so the diff names it %s: apply it in %s\n", r.File, filepath.Base(r.File), r.Edit.ApplyIn)
		}
	}
	if left > 0 {
		return &ExitError{Code: ExitFindings}
	}
	return nil
}
