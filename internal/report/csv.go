package report

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// csvWriter writes one row a frame: the budgeted policy's columns, or
// with runtime the runtime's.
type csvWriter struct {
	w       *csv.Writer
	bw      *bufio.Writer
	runtime bool
	rows    int
	assets  bool
	plane   string
}

// csvHeader's columns after holes were added later and stay at the end,
// so that readers of the first ones are not disturbed: x and z hold one
// value per enabled source (x and y on a world cut on xy: csvHeaderXY),
// holeCauses one per hole, popIn the count of cells a camera shows that
// are not resident.
var csvHeader = []string{"frame", "requested", "completed", "prepared", "published", "cancelled",
	"unloaded", "evicted", "dropped", "failed", "resident", "inFlight", "residentBytes",
	"preparedBytes", "requestedBytes", "holes", "x", "z", "holeCauses", "popIn"}

// csvHeaderXY is csvHeader on a world cut on x and y, whose positions are
// (x, y).
var csvHeaderXY = func() []string {
	h := slices.Clone(csvHeader)
	h[slices.Index(h, "z")] = "y"
	return h
}()

// estCSVHeader are the runtime's columns.
var estCSVHeader = []string{"frame", "requested", "completed", "prepared", "publishing", "published",
	"cancelled", "unloaded", "failed", "prefetchHits", "prefetchMisses", "cancelledRefs", "arrived",
	"resident", "inFlight", "residentBytes", "preparedBytes", "requestedBytes", "holes", "popIn"}

func (c *csvWriter) Warnings([]streaming.Warning) error { return nil }

// Lists in a CSV cell are joined with ';', which cell names do not use.
func (c *csvWriter) Frame(r *streaming.FrameReport, rt *streaming.RuntimeFrame) error {
	if c.runtime {
		return c.runtimeFrame(r, rt)
	}
	j := func(xs []string) string { return strings.Join(xs, ";") }
	i := strconv.Itoa
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	xs, zs := make([]string, len(r.Positions)), make([]string, len(r.Positions))
	for k, p := range r.Positions {
		xs[k] = strconv.FormatFloat(p.X, 'g', -1, 64)
		zs[k] = strconv.FormatFloat(p.Z, 'g', -1, 64)
	}
	causes := make([]string, len(r.HoleCauses))
	for k, h := range r.HoleCauses {
		causes[k] = h.String()
	}
	row := []string{i(r.Frame), j(r.Requested), j(r.Completed), j(r.Prepared), j(r.Published),
		j(r.Cancelled), j(r.Unloaded), j(r.Evicted), j(r.Dropped), j(r.Failed), i(r.Resident), i(r.InFlight),
		i64(r.ResidentBytes), i64(r.PreparedBytes), i64(r.RequestedBytes), j(r.Holes), j(xs), j(zs), j(causes), i(r.PopIn)}
	header := csvHeader
	if c.plane == manifest.PlaneXY {
		header = csvHeaderXY
	}
	return c.row(header, row, r)
}

// runtimeFrame writes a row of the runtime's columns. Arrivals are
// written cell:demandToResident:dwell, joined with ';'.
func (c *csvWriter) runtimeFrame(r *streaming.FrameReport, rt *streaming.RuntimeFrame) error {
	if rt == nil {
		rt = &streaming.RuntimeFrame{}
	}
	j := func(xs []string) string { return strings.Join(xs, ";") }
	i := strconv.Itoa
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	arrived := make([]string, len(rt.Arrived))
	for k, a := range rt.Arrived {
		arrived[k] = fmt.Sprintf("%s:%d:%d", a.Cell, a.DemandToResident, a.Dwell)
	}
	row := []string{i(r.Frame), j(r.Requested), j(r.Completed), j(r.Prepared), j(rt.Publishing),
		j(r.Published), j(r.Cancelled), j(r.Unloaded), j(r.Failed), j(rt.Hits), j(rt.Misses), i(rt.CancelledRefs),
		j(arrived), i(r.Resident), i(r.InFlight), i64(r.ResidentBytes), i64(r.PreparedBytes),
		i64(r.RequestedBytes), j(r.Holes), i(r.PopIn)}
	return c.row(estCSVHeader, row, r)
}

// row writes one frame's row, the header (header, then the asset columns
// when the world has assets) before the first.
func (c *csvWriter) row(header, row []string, r *streaming.FrameReport) error {
	if c.rows == 0 {
		if c.assets {
			header = append(slices.Clone(header), csvAssetHeader...)
		}
		c.w.Write(header)
	}
	c.rows++
	if c.assets {
		row = append(row, assetCells(r)...)
	}
	return c.w.Write(row)
}

func (c *csvWriter) Summary(*simulate.PolicyRun) error { return nil }

func (c *csvWriter) Flush() error {
	c.w.Flush()
	if err := c.w.Error(); err != nil {
		return err
	}
	return c.bw.Flush()
}
