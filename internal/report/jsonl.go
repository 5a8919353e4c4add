package report

import (
	"bufio"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// jsonlWriter writes one JSON object a line, each with its message_type.
// With assets counted, every frame has its asset fields, zeros included.
type jsonlWriter struct {
	w      *bufio.Writer
	assets bool
}

// jsonFrame puts the discriminator first and never writes a list as null.
// The fields after the report take the place of the report's own of the
// same name (a field outside an embedded struct wins): set, the asset
// counts are written even when 0; the cell states are written when the
// frame carries them.
type jsonFrame struct {
	MessageType string `json:"message_type"`
	streaming.FrameReport
	ResidentAssetBytes *int64 `json:"residentAssetBytes,omitempty"`
	AssetLoads         *int   `json:"assetLoads,omitempty"`
	AssetUnloads       *int   `json:"assetUnloads,omitempty"`

	ResidentCells  *[]string `json:"residentCells,omitempty"`
	PreparedCells  *[]string `json:"preparedCells,omitempty"`
	LoadingCells   *[]string `json:"loadingCells,omitempty"`
	UnloadingCells *[]string `json:"unloadingCells,omitempty"`
	PopInCells     *[]string `json:"popInCells,omitempty"`
}

func (j *jsonlWriter) Warnings(ws []streaming.Warning) error {
	for i := range ws {
		if err := j.line(diag.ShortJSONLine("warning", ws[i])); err != nil {
			return err
		}
	}
	return nil
}

func (j *jsonlWriter) Frame(r *streaming.FrameReport, rt *streaming.RuntimeFrame) error {
	f := jsonFrame{MessageType: "frame", FrameReport: *r}
	lists := frameLists(&f.FrameReport)
	if j.assets || r.ResidentAssetBytes != 0 || r.AssetLoads != 0 || r.AssetUnloads != 0 {
		f.ResidentAssetBytes, f.AssetLoads, f.AssetUnloads = &f.FrameReport.ResidentAssetBytes, &f.FrameReport.AssetLoads, &f.FrameReport.AssetUnloads
	}
	if r.HasCellStates() {
		f.ResidentCells, f.PreparedCells, f.LoadingCells = &r.ResidentCells, &r.PreparedCells, &r.LoadingCells
		if r.UnloadingCells != nil {
			f.UnloadingCells = &r.UnloadingCells
		}
		cells := r.PopInCells
		if cells == nil {
			cells = []string{}
		}
		f.PopInCells = &cells
	}
	var extra streaming.RuntimeFrame
	if rt != nil {
		extra = *rt
		lists = append(lists, &extra.Publishing, &extra.Hits, &extra.Misses)
		if extra.Arrived == nil {
			extra.Arrived = []streaming.Arrival{}
		}
	}
	for _, l := range lists {
		if *l == nil {
			*l = []string{}
		}
	}
	if rt == nil {
		return j.line(f)
	}
	return j.joined(f, extra)
}

func (j *jsonlWriter) Summary(p *simulate.PolicyRun) error {
	if p.Policy == simulate.Estella {
		s := p.EstellaSummary()
		return j.joined(struct {
			MessageType string `json:"message_type"`
			Policy      string `json:"policy"`
			*streaming.Summary
		}{"summary", string(simulate.Estella), &s.Summary}, struct {
			Runtime *streaming.RuntimeReport `json:"runtime"`
		}{&s.Runtime})
	}
	return j.line(struct {
		MessageType string `json:"message_type"`
		*streaming.Summary
	}{"summary", &p.Summary})
}

func (j *jsonlWriter) line(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	j.w.Write(b)
	return j.w.WriteByte('\n')
}

// joined writes the members of two objects as one JSON line. go-json drops
// the fields of a struct that embeds a struct embedding another, so the
// budgeted report and the runtime's additions are encoded apart.
func (j *jsonlWriter) joined(a, b any) error {
	ab, err := json.Marshal(a)
	if err != nil {
		return err
	}
	bb, err := json.Marshal(b)
	if err != nil {
		return err
	}
	j.w.Write(ab[:len(ab)-1])
	j.w.WriteByte(',')
	j.w.Write(bb[1:])
	return j.w.WriteByte('\n')
}

func (j *jsonlWriter) Flush() error { return j.w.Flush() }

// frameLists are a frame's lists of cells, which JSON writes as [] when
// empty, never as null.
func frameLists(r *streaming.FrameReport) []*[]string {
	return []*[]string{&r.Requested, &r.Completed, &r.Prepared, &r.Published, &r.Cancelled,
		&r.Unloaded, &r.Evicted, &r.Dropped, &r.Failed, &r.Holes}
}
