package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/worldcook/worldcook/internal/english"
	simreport "github.com/worldcook/worldcook/internal/report"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// maxRouteSet bounds the routes of a folder simulate or tune runs.
const maxRouteSet = 1000

// routeFiles is what --path names: the file itself, or every *.csv in a
// folder (a route set, as worldcook route writes it), sorted by name.
func routeFiles(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil || !st.IsDir() {
		return []string{path}, nil // the route reader says what is wrong
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the route folder %s: %v", path, err)
	}
	var out []string
	for _, e := range ents {
		if !strings.EqualFold(filepath.Ext(e.Name()), ".csv") {
			continue
		}
		f := filepath.Join(path, e.Name())
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the route folder %s holds no .csv route; make some with worldcook route SCENE --out %s", path, path)
	}
	if len(out) > maxRouteSet {
		return nil, fmt.Errorf("the route folder %s holds %d routes, more than %d; split it", path, len(out), maxRouteSet)
	}
	slices.Sort(out)
	return out, nil
}

// routeSet is a run of simulate over a folder of routes.
type routeSet struct {
	files []string
	// figures of each route run so far, for the pages' route lists.
	runs  []simreport.TimelineRoute
	pages []pendingPage
}

type pendingPage struct {
	opts  *simulateOptions
	tl    *simreport.Timeline
	world *streaming.World
}

func (s *routeSet) ran(res *simulate.Result) {
	p := res.Runs[0]
	file := s.files[len(s.runs)]
	s.runs = append(s.runs, simreport.TimelineRoute{
		Name: filepath.Base(file), Frames: p.Summary.Frames, HoleFrames: p.Summary.HoleFrames,
		PeakBytes: p.Summary.PeakResidentBytes, Loads: p.Summary.Loads,
	})
}

// suffixed is the side file of one route of a set: name-route.ext.
func suffixed(file, route string) string {
	if file == "" {
		return ""
	}
	ext := filepath.Ext(file)
	r := strings.TrimSuffix(filepath.Base(route), filepath.Ext(route))
	return strings.TrimSuffix(file, ext) + "-" + r + ext
}

// runRouteSet runs simulate on each route of a folder in turn: each
// route's report led by its name, its drawings beside the names asked for
// (plot.svg → plot-tour.svg), each --html page listing every route of the
// set, and the gate failing when it fails on any route.
func runRouteSet(ctx context.Context, opts *simulateOptions, files []string) error {
	c := opts.Cfg
	if c.Format == simreport.FormatCSV && !c.SummaryOnly {
		return inputErr(errors.New("--format csv writes one table a run: simulate a route folder with --summary-only or another --format, or each route in its own run"))
	}
	set := &routeSet{files: files}
	var failed []string
	for _, f := range files {
		o := *opts
		o.Set = set
		o.Cfg.Path = f
		o.Cfg.Plot, o.Cfg.Map, o.Cfg.HTML = suffixed(c.Plot, f), suffixed(c.Map, f), suffixed(c.HTML, f)
		if !opts.Quiet && !opts.JSON && c.Format != simreport.FormatJSONL {
			fmt.Fprintf(opts.IO.Out, "route %s\n", f)
		}
		err := runSimulateOne(ctx, &o)
		var ee *ExitError
		switch {
		case err == nil:
		case errors.As(err, &ee) && ee.Code == ExitFindings:
			failed = append(failed, fmt.Sprintf("%s: %v", filepath.Base(f), ee.Err))
		default:
			return fmt.Errorf("%s: %w", f, err)
		}
		if !opts.Quiet && !opts.JSON && c.Format != simreport.FormatJSONL {
			fmt.Fprintln(opts.IO.Out)
		}
	}
	for _, p := range set.pages {
		routes := slices.Clone(set.runs)
		for i := range routes {
			routes[i].Href = filepath.Base(suffixed(c.HTML, files[i]))
			routes[i].Current = files[i] == p.opts.Cfg.Path
		}
		p.tl.Routes = routes
		if err := drawings(p.opts, p.world).WriteFile(p.opts.Cfg.HTML, "--html", p.tl.WriteHTML); err != nil {
			return inputErr(err)
		}
	}
	if !opts.Quiet && !opts.JSON && c.Format != simreport.FormatJSONL {
		fmt.Fprintf(opts.IO.Out, "%d routes of %s\n", len(files), c.Path)
		for _, r := range set.runs {
			fmt.Fprintf(opts.IO.Out, "  %-32s %15s  %17s  peak %d B  %s\n", r.Name, english.Count(r.Frames, "frame"), english.Count(r.HoleFrames, "hole frame"), r.PeakBytes, english.Count(r.Loads, "request"))
		}
	}
	if len(failed) > 0 {
		return &ExitError{Code: ExitFindings, Err: fmt.Errorf("simulate failed on %d of %d routes: %s", len(failed), len(files), strings.Join(failed, "; "))}
	}
	return nil
}
