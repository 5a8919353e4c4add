package streaming

import (
	"fmt"
	"strconv"
)

// WriterOption tunes a ReportWriter.
type WriterOption func(*writerOptions)

type writerOptions struct{ assets bool }

// WithAssets adds the asset columns (resident asset bytes, asset loads
// and unloads) to the table and CSV reports; JSONL carries them as fields
// whenever they are not zero.
func WithAssets() WriterOption { return func(o *writerOptions) { o.assets = true } }

// HasAssets reports whether the scheduler counts asset costs: the world
// lists assets and they are not ignored.
func (s *Scheduler) HasAssets() bool { return s.book != nil }

const tableAssetHeader = "  asset B  a+  a-"

func (t *tableWriter) assetRow(r *FrameReport) error {
	_, err := fmt.Fprintf(t.w, "%5d %5d %5d %5d %5d %5d %5d %5d %5d %5d %9d %9d %11d %10d %6d %8d %3d %3d\n",
		r.Frame, len(r.Requested), len(r.Completed), len(r.Published), len(r.Prepared), len(r.Dropped),
		len(r.Cancelled), len(r.Unloaded), len(r.Evicted), len(r.Failed),
		r.Resident, r.InFlight, r.ResidentBytes, r.RequestedBytes, len(r.Holes),
		r.ResidentAssetBytes, r.AssetLoads, r.AssetUnloads)
	return err
}

var csvAssetHeader = []string{"residentAssetBytes", "assetLoads", "assetUnloads"}

func assetCells(r *FrameReport) []string {
	return []string{strconv.FormatInt(r.ResidentAssetBytes, 10), strconv.Itoa(r.AssetLoads), strconv.Itoa(r.AssetUnloads)}
}

// writeAssetSummary adds the asset lines to the text summary.
func writeAssetSummary(line func(label, format string, args ...any), a *AssetSummary) {
	line("peak resident assets", "%s at frame %d (%d distinct assets)", byteSize(a.PeakResidentAssetBytes), a.PeakFrame, a.Distinct)
	line("asset loads", "%d (%d unloads, %d assets loaded more than once)", a.Loads, a.Unloads, a.Reloaded)
	for _, r := range a.MostReloaded {
		line("", "%s loaded %d times", r.Path, r.Loads)
	}
}
