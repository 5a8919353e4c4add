package report

import (
	"fmt"
	"strconv"

	"github.com/worldcook/worldcook/streaming"
)

// The table's asset columns go after holes, before the positions.
const (
	tableAssetHeader = "   asset B  a+  a-"
	tableAssetLegend = "  asset B the resident assets' bytes (held by the persistent world and by resident, prepared\n  and unloading cells), a+ and a- the assets loaded and freed\n"
)

func assetColumns(r *streaming.FrameReport, bytes func(int64, int) string) string {
	return fmt.Sprintf(" %s %3d %3d", bytes(r.ResidentAssetBytes, 9), r.AssetLoads, r.AssetUnloads)
}

// The CSV's asset columns come last, after every older column.
var csvAssetHeader = []string{"residentAssetBytes", "assetLoads", "assetUnloads"}

func assetCells(r *streaming.FrameReport) []string {
	return []string{strconv.FormatInt(r.ResidentAssetBytes, 10), strconv.Itoa(r.AssetLoads), strconv.Itoa(r.AssetUnloads)}
}

// writeAssetSummary adds the asset lines to the text summary.
func writeAssetSummary(line func(label, format string, args ...any), a *streaming.AssetSummary) {
	for _, f := range assetFigures(a) {
		line(f.Label, "%s", f.Value)
	}
	for _, r := range a.MostReloaded {
		line("", "%s loaded %d times", r.Path, r.Loads)
	}
}
