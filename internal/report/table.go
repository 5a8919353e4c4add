package report

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/worldcook/worldcook/internal/drawing"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// tableWriter writes the report as a table for a person: the budgeted
// policy's columns, or with runtime the runtime's.
type tableWriter struct {
	w       *bufio.Writer
	runtime bool
	human   bool
	assets  bool
	// plane is the world's: its axes name the positions.
	plane string
	rows  int
	// blocks counts what was written (warnings, the frames, the summary),
	// so that a blank line parts each from the one before.
	blocks int
}

const tableHeader = "frame   req  done   pub  prep  drop  cncl  unld  evct  fail  resident  inflight  resident B  request B  holes  popin  position\n"

// tableLegend says what the columns count; it names what resident B
// holds, the sources whose positions the last column holds and the
// plane's axes (x, z or x, y). The first columns count events of the
// frame; resident, inflight and resident B what stands at its end.
const tableLegend = `columns: req requests started, done requests finished, pub cells that entered the world,
  prep prefetches that finished in the frame and stay held (not in the world),
  drop held or prefetched cells released, cncl requests cancelled, unld cells unloaded,
  evct cells evicted by the cap, fail failed attempts: each an event of the frame;
  resident and inflight count cells at the end of the frame, resident B %s,
  request B the bytes requested in the frame; holes are cells within a load radius
  that are not resident, popin cells a camera shows that are not resident;
  position is where %s stood (%s)
`

// residentLegend is what resident B holds: the resident cells' bytes, and
// with assets the resident assets' (asset B, which the asset legend says
// held prefetches keep resident too).
func residentLegend(assets bool) string {
	if assets {
		return "their bytes and asset B"
	}
	return "their bytes"
}

// estTableHeader is the runtime's: its asset columns, for a world with
// assets, go last.
const estTableHeader = "frame   req  done  prep  pubg   pub  cncl  unld  fail   hit  miss  resident  inflight  resident B  request B  holes  popin"

// axes names the position's coordinates on a world cut on plane.
func axes(plane string) string {
	if plane == manifest.PlaneXY {
		return "x, y"
	}
	return "x, z"
}

func (t *tableWriter) block() {
	if t.blocks > 0 {
		t.w.WriteString("\n")
	}
	t.blocks++
}

func (t *tableWriter) Warnings(ws []streaming.Warning) error {
	if len(ws) == 0 {
		return nil
	}
	t.block()
	return writeWarnings(t.w, ws)
}

func (t *tableWriter) Frame(r *streaming.FrameReport, rt *streaming.RuntimeFrame) error {
	if t.runtime {
		return t.runtimeFrame(r, rt)
	}
	if t.rows == 0 {
		t.block()
		names := make([]string, len(r.Positions))
		for i, p := range r.Positions {
			names[i] = p.Source
		}
		fmt.Fprintf(t.w, tableLegend, residentLegend(t.assets), streaming.JoinAnd(names), axes(t.plane))
		if t.assets {
			t.w.WriteString(tableAssetLegend)
			t.w.WriteString(strings.Replace(tableHeader, "  position", tableAssetHeader+"  position", 1))
		} else {
			t.w.WriteString(tableHeader)
		}
	}
	t.rows++
	bytes := func(n int64, width int) string {
		if t.human {
			return fmt.Sprintf("%*s", width, humanBytes(n))
		}
		return fmt.Sprintf("%*d", width, n)
	}
	pos := make([]string, len(r.Positions))
	for i, p := range r.Positions {
		pos[i] = fmt.Sprintf("(%s, %s)", drawing.Short(p.X), drawing.Short(p.Z))
	}
	var assets string
	if t.assets {
		assets = assetColumns(r, bytes)
	}
	_, err := fmt.Fprintf(t.w, "%5d %5d %5d %5d %5d %5d %5d %5d %5d %5d %9d %9d %s %s %6d %6d%s  %s\n",
		r.Frame, len(r.Requested), len(r.Completed), len(r.Published), len(r.Prepared), len(r.Dropped),
		len(r.Cancelled), len(r.Unloaded), len(r.Evicted), len(r.Failed),
		r.Resident, r.InFlight, bytes(r.ResidentBytes, 11), bytes(r.RequestedBytes, 10), len(r.Holes), r.PopIn, assets, strings.Join(pos, " "))
	return err
}

// runtimeFrame writes a row of the runtime's table: no legend, exact
// byte counts.
func (t *tableWriter) runtimeFrame(r *streaming.FrameReport, rt *streaming.RuntimeFrame) error {
	if rt == nil {
		rt = &streaming.RuntimeFrame{}
	}
	if t.rows == 0 {
		if t.assets {
			t.w.WriteString("columns:" + tableAssetLegend[1:])
			t.w.WriteString(estTableHeader + tableAssetHeader + "\n")
		} else {
			t.w.WriteString(estTableHeader + "\n")
		}
	}
	t.rows++
	var assets string
	if t.assets {
		assets = assetColumns(r, func(n int64, width int) string { return fmt.Sprintf("%*d", width, n) })
	}
	_, err := fmt.Fprintf(t.w, "%5d %5d %5d %5d %5d %5d %5d %5d %5d %5d %5d %9d %9d %11d %10d %6d %6d%s\n",
		r.Frame, len(r.Requested), len(r.Completed), len(r.Prepared), len(rt.Publishing), len(r.Published),
		len(r.Cancelled), len(r.Unloaded), len(r.Failed), len(rt.Hits), len(rt.Misses),
		r.Resident, r.InFlight, r.ResidentBytes, r.RequestedBytes, len(r.Holes), r.PopIn, assets)
	return err
}

func (t *tableWriter) Summary(p *simulate.PolicyRun) error {
	if t.runtime {
		// The runtime's summary is always parted from what came before,
		// even from nothing (--summary-only).
		t.w.WriteString("\n")
		s := p.EstellaSummary()
		return WriteEstellaSummary(t.w, &s)
	}
	t.block()
	return WriteSummary(t.w, &p.Summary)
}

func (t *tableWriter) Flush() error { return t.w.Flush() }

// humanBytes renders a byte count in binary units: "980 B", "12.3 KiB".
func humanBytes(n int64) string {
	if n < 1024 && n > -1024 {
		return fmt.Sprintf("%d B", n)
	}
	v := float64(n)
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	u := -1
	for u < len(units)-1 && (v >= 1024 || v <= -1024) {
		v /= 1024
		u++
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}
