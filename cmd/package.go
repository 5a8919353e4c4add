package cmd

import (
	"fmt"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/sidefile"
)

// writePackageConfig lists every streamed world the run cooked in the
// game configuration; with --check it only says whether that would change
// the file.
func writePackageConfig(opts *cookOptions, reports []*cook.Report, side *sidefile.Guard) error {
	file := opts.Cfg.PackageConfig
	if file == "" {
		return nil
	}
	var worlds []cook.PackageWorld
	for _, rep := range reports {
		if rep == nil || !rep.Streamed {
			continue
		}
		w, err := cook.PackageEntry(file, opts.Cfg.Out, rep.Scene)
		if err != nil {
			return inputErr(err)
		}
		worlds = append(worlds, w)
	}
	if len(worlds) == 0 {
		if !opts.Quiet {
			fmt.Fprintf(opts.IO.Err, "worldcook: --package-config %s: no streamed world was cooked; the configuration is left as it is\n", file)
		}
		return nil
	}
	if !opts.Quiet {
		for _, n := range cook.PackageNotes(file, worlds, opts.Cfg.PersistentAt == cook.PersistentAtRegistered) {
			printDiagnostic(opts.IO, n)
		}
	}
	changed, err := cook.PackageConfig(file, worlds, opts.Cfg.Check, side)
	if err != nil {
		return inputErr(err)
	}
	switch {
	case changed && opts.Cfg.Check:
		fmt.Fprintf(opts.IO.Err, "worldcook: %s does not list the cooked worlds; cook without --check to update it\n", file)
		return &ExitError{Code: ExitFindings}
	case changed && !opts.Quiet && !opts.JSON:
		for _, w := range worlds {
			fmt.Fprintf(opts.IO.Out, "listed %s in %s: worlds[scene=%s] -> %s\n", w.Scene, file, w.Scene, w.Manifest)
		}
	}
	return nil
}
