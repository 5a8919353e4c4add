package streaming

import (
	"fmt"
	"slices"
	"time"
)

// FrameReport is what one frame did. Every list is in the order the
// scheduler acted: requests and completions in dispatch order, unloads in
// the order the cells became resident, evictions in the order they
// happened, cancellations in dispatch order. Holes are nearest first.
type FrameReport struct {
	// Frame is the frame's number as the route numbers it: its frame
	// column, else the row count from 1 (Summary.FirstFrame is the
	// first's). The schedulers count their frames from 1 whatever the
	// numbering; only the reports carry it.
	Frame int `json:"frame"`
	// Requested are the requests started (loads, prefetches and retries).
	Requested []string `json:"requested"`
	// Completed are the requests that finished successfully.
	Completed []string `json:"completed"`
	// Prepared are the prepares (prefetches) completed this frame and
	// left prepared: held, not in the world. The cells prepared at the
	// end of the frame, however long ago, are PreparedCells.
	Prepared []string `json:"prepared"`
	// Published are the cells that entered the world.
	Published []string `json:"published"`
	// Cancelled are requests abandoned because no source wants them.
	Cancelled []string `json:"cancelled"`
	// Unloaded are resident cells beyond every unload radius.
	Unloaded []string `json:"unloaded"`
	// Evicted are resident cells dropped to respect the resident cap.
	Evicted []string `json:"evicted"`
	// Dropped are prepared cells released, and prefetches that nobody
	// wanted any more when they finished.
	Dropped []string `json:"dropped"`
	// Failed are the attempts that failed or timed out.
	Failed []string `json:"failed"`

	Resident       int   `json:"resident"`
	InFlight       int   `json:"inFlight"`
	ResidentBytes  int64 `json:"residentBytes"`
	PreparedBytes  int64 `json:"preparedBytes"`
	RequestedBytes int64 `json:"requestedBytes"`
	// Holes are the cells within some source's load radius that are not
	// resident at the end of the frame: visible pop-in.
	Holes []string `json:"holes"`
	// PopIn counts the cells some source's view shows that are not
	// resident at the end of the frame (docs/simulate.md, "Pop-in"):
	// what the player sees missing. PopInCells names them, nearest a
	// source first, and PopInCauses gives each its likely cause; a report
	// writes the names with the cell states only.
	PopIn       int         `json:"popIn"`
	PopInCells  []string    `json:"-"`
	PopInCauses []HoleCause `json:"-"`

	// Timing is set by real (disk) IO only.
	Timing *FrameTiming `json:"timing,omitempty"`

	// HoleCauses gives, for each of Holes, the likely reason it is
	// missing (empty when the policy does not say).
	HoleCauses []HoleCause `json:"holeCauses,omitempty"`
	// Positions are where the enabled sources stood this frame, in the
	// order of the sources.
	Positions []SourcePosition `json:"positions,omitempty"`
	// Cost is the real time the frame took to step. It is measured by
	// Run and never written to a report, which stays deterministic.
	Cost time.Duration `json:"-"`

	// In a world with assets: the bytes of the resident assets (part of
	// ResidentBytes), and how many assets became resident and were freed
	// this frame. 0 for a world without assets; a report that counts
	// assets writes them in every frame, zeros included.
	ResidentAssetBytes int64 `json:"residentAssetBytes,omitempty"`
	AssetLoads         int   `json:"assetLoads,omitempty"`
	AssetUnloads       int   `json:"assetUnloads,omitempty"`

	// The cell states at the end of the frame, as the runtime's status()
	// lists them, each sorted in byte order: resident, prepared (held, not
	// in the world) and loading (in flight: preparing or publishing), and,
	// under Estella's runtime, unloading. They are made only when asked
	// for (ReportCellStates), and are then never nil (UnloadingCells stays
	// nil under the budgeted scheduler, which unloads at once); nil
	// otherwise, so that a frame costs nothing for them. A report writes
	// them apart (see report's JSONL writer): they are not part of the
	// report's own encoding.
	ResidentCells  []string `json:"-"`
	PreparedCells  []string `json:"-"`
	LoadingCells   []string `json:"-"`
	UnloadingCells []string `json:"-"`
}

// HasCellStates reports whether the frame carries its cell states.
func (r *FrameReport) HasCellStates() bool { return r.ResidentCells != nil }

// sortedNames returns names sorted in byte order, never nil.
func sortedNames(names []string) []string {
	if names == nil {
		return []string{}
	}
	slices.Sort(names)
	return names
}

// SourcePosition is where a source stood in a frame.
type SourcePosition struct {
	Source string  `json:"source"`
	X      float64 `json:"x"`
	Z      float64 `json:"z"`
}

// FrameTiming is the real time a frame spent applying finished loads.
type FrameTiming struct {
	// ApplyMS is the time spent applying results on the frame's thread.
	ApplyMS float64 `json:"applyMs"`
	// Backlog is the number of finished loads still waiting in the
	// completion queue after the frame's time budget ran out.
	Backlog int `json:"backlog"`
}

// ResidencyReport mirrors the runtime's worldResidencyReport.
type ResidencyReport struct {
	// ResidentCells are the resident cells in the order they arrived.
	ResidentCells []string `json:"residentCells"`
	// CellEntityCounts is the number of entities each resident cell owns.
	CellEntityCounts map[string]int `json:"cellEntityCounts"`
	// LoadCount is how many places were brought in since the start.
	LoadCount int `json:"loadCount"`
}

// Summary totals a run.
type Summary struct {
	// Frames is how many frames ran; FirstFrame the number of the first
	// (the route's frame column, else 1). Every frame field below is a
	// frame's number, meaningful only when the count beside it says the
	// event happened (PeakResidentFrame when PeakResidentBytes > 0,
	// FirstHoleFrame when HoleFrames > 0).
	Frames     int `json:"frames"`
	FirstFrame int `json:"firstFrame"`

	PeakResidentBytes     int64  `json:"peakResidentBytes"`
	PeakResidentFrame     int    `json:"peakResidentFrame"`
	PeakPreparedBytes     int64  `json:"peakPreparedBytes"`
	PeakInFlight          int    `json:"peakInFlight"`
	MaxRequestedBytes     int64  `json:"maxRequestedBytes"`
	MaxRequestedFrame     int    `json:"maxRequestedFrame"`
	Budget                *int64 `json:"budget"`
	MaxResidentBytes      *int64 `json:"maxResidentBytes"`
	FramesOverBudget      int    `json:"framesOverBudget"`
	FramesOverResidentCap int    `json:"framesOverResidentCap"`

	// Loads counts every request started; Prefetches, Retries and Proxies
	// say how many of them were of each kind.
	Loads         int `json:"loads"`
	Prefetches    int `json:"prefetches"`
	Retries       int `json:"retries"`
	Proxies       int `json:"proxies"`
	Published     int `json:"published"`
	Unloads       int `json:"unloads"`
	Evictions     int `json:"evictions"`
	Cancellations int `json:"cancellations"`
	Drops         int `json:"drops"`
	Failures      int `json:"failures"`
	Timeouts      int `json:"timeouts"`
	// GaveUp lists the cells whose every attempt failed.
	GaveUp []GaveUp `json:"gaveUp"`

	// HoleFrames is the number of frames with at least one hole.
	HoleFrames     int `json:"holeFrames"`
	MaxHoles       int `json:"maxHoles"`
	FirstHoleFrame int `json:"firstHoleFrame"`
	// FirstResidentFrame is the frame at which every cell the first
	// frame's sources wanted within their load radius was resident (nil:
	// never during the run).
	FirstResidentFrame *int `json:"firstResidentFrame"`

	Residency ResidencyReport `json:"residency"`
	// IO is set by real (disk) IO only.
	IO *IOStats `json:"io,omitempty"`

	// HoleEpisodes are the runs of consecutive frames with holes, and
	// Gate the verdict of the --fail-on conditions when asked for: both
	// are found from the frame reports after the run, by Conclude, so
	// that a frame costs no more for them and any policy gets them.
	HoleEpisodes []HoleEpisode `json:"holeEpisodes"`
	Gate         *GateResult   `json:"gate,omitempty"`

	// View says some source had a view: pop-in was counted. PopInFrames
	// are the frames with pop-in, MaxPopIn the most cells of one frame,
	// FirstPopInFrame the first frame with any (0: none), and
	// PopInEpisodes the runs of frames with pop-in, as HoleEpisodes are
	// of holes (their maxHoles counting the cells popping in). Conclude
	// finds them from the frames.
	View            bool          `json:"view"`
	PopInFrames     int           `json:"popInFrames"`
	MaxPopIn        int           `json:"maxPopIn"`
	FirstPopInFrame int           `json:"firstPopInFrame"`
	PopInEpisodes   []HoleEpisode `json:"popInEpisodes"`
	// Assets is set for a world with assets whose costs are counted.
	Assets *AssetSummary `json:"assets,omitempty"`
}

// Conclude completes a run's summary from its frame reports: the hole
// episodes, and the gate's verdict when it has conditions.
func Conclude(sum *Summary, frames []FrameReport, gate Gate) {
	c := NewConcluder(gate, sum.Budget, sum.MaxResidentBytes)
	for i := range frames {
		c.Add(&frames[i])
	}
	c.Conclude(sum)
}

// GaveUp is a cell given up after its retries.
type GaveUp struct {
	Cell     string `json:"cell"`
	Frame    int    `json:"frame"`
	Attempts int    `json:"attempts"`
	Err      string `json:"error"`
}

// IOStats are the real times of disk IO.
type IOStats struct {
	Reads     int          `json:"reads"`
	BytesRead int64        `json:"bytesRead"`
	Read      DurationStat `json:"read"`
	Decode    DurationStat `json:"decode"`
	Apply     DurationStat `json:"apply"`
	// FrameApply is the time each frame spent applying results.
	FrameApply DurationStat `json:"frameApply"`
	// FramesOverTimeBudget counts frames whose apply time exceeded the
	// frame time budget (the first result of a frame is always applied,
	// so one slow cell can still overrun it).
	FramesOverTimeBudget int     `json:"framesOverTimeBudget"`
	FrameBudgetMS        float64 `json:"frameBudgetMs"`
	// MaxBacklog is the most finished loads left waiting in the completion
	// queue at the end of a frame.
	MaxBacklog int `json:"maxBacklog"`
}

// DurationStat summarises a set of durations in milliseconds.
type DurationStat struct {
	Count  int     `json:"count"`
	MeanMS float64 `json:"meanMs"`
	P95MS  float64 `json:"p95Ms"`
	MaxMS  float64 `json:"maxMs"`
}

func (d DurationStat) String() string {
	return fmt.Sprintf("mean %.3f ms, p95 %.3f ms, max %.3f ms", d.MeanMS, d.P95MS, d.MaxMS)
}

func durationStat(ds []time.Duration) DurationStat {
	if len(ds) == 0 {
		return DurationStat{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return DurationStat{
		Count:  len(s),
		MeanMS: ms(sum / time.Duration(len(s))),
		P95MS:  ms(s[(len(s)*95+99)/100-1]),
		MaxMS:  ms(s[len(s)-1]),
	}
}

// stats accumulates the summary as frames go by.
type stats struct {
	sum Summary
	// base is what a scheduler's own frame count (from 1) adds to name a
	// frame as the route does: FirstFrame - 1.
	base int

	// Disk IO only.
	reads                          int
	bytesRead                      int64
	readT, decodeT, applyT, frameT []time.Duration
	overTime, maxBacklog           int
	frameBudget                    time.Duration
}

func (st *stats) init(set Settings) {
	st.sum.Budget = set.Budget
	st.sum.MaxResidentBytes = set.MaxResidentBytes
	st.sum.FirstFrame = 1
}

// numberFrom makes first the number of the first frame.
func (st *stats) numberFrom(first int) {
	st.sum.FirstFrame, st.base = first, first-1
}

// label is the number of the scheduler's frame-th frame.
func (st *stats) label(frame int) int { return frame + st.base }

// resident records the frame at which the first position became fully
// resident, once.
func (st *stats) resident(frame int) {
	if st.sum.FirstResidentFrame == nil {
		f := st.label(frame)
		st.sum.FirstResidentFrame = &f
	}
}

// LastFrame is the number of the run's last frame.
func (s *Summary) LastFrame() int { return s.FirstFrame + s.Frames - 1 }

func (st *stats) dispatched(prefetch, retry, proxy bool) {
	st.sum.Loads++
	if prefetch {
		st.sum.Prefetches++
	}
	if retry {
		st.sum.Retries++
	}
	if proxy {
		st.sum.Proxies++
	}
}

func (st *stats) io(r Result) {
	if r.BytesRead == 0 && r.Read == 0 && r.Decode == 0 && r.Apply == 0 {
		return
	}
	st.reads++
	st.bytesRead += r.BytesRead
	st.readT = append(st.readT, r.Read)
	st.decodeT = append(st.decodeT, r.Decode)
	st.applyT = append(st.applyT, r.Apply)
}

func (st *stats) giveUp(frame int, cell string, attempts int, err error) {
	st.sum.GaveUp = append(st.sum.GaveUp, GaveUp{Cell: cell, Frame: st.label(frame), Attempts: attempts, Err: err.Error()})
}

func (st *stats) timing(t *FrameTiming, apply, budget time.Duration) {
	st.frameT = append(st.frameT, apply)
	st.frameBudget = budget
	if apply > budget {
		st.overTime++
	}
	st.maxBacklog = max(st.maxBacklog, t.Backlog)
}

func (st *stats) add(r *FrameReport) {
	s := &st.sum
	s.Frames++
	if r.ResidentBytes > s.PeakResidentBytes {
		s.PeakResidentBytes, s.PeakResidentFrame = r.ResidentBytes, r.Frame
	}
	s.PeakPreparedBytes = max(s.PeakPreparedBytes, r.PreparedBytes)
	s.PeakInFlight = max(s.PeakInFlight, r.InFlight)
	if r.RequestedBytes > s.MaxRequestedBytes {
		s.MaxRequestedBytes, s.MaxRequestedFrame = r.RequestedBytes, r.Frame
	}
	if s.Budget != nil && r.RequestedBytes > *s.Budget {
		s.FramesOverBudget++
	}
	if s.MaxResidentBytes != nil && r.ResidentBytes > *s.MaxResidentBytes {
		s.FramesOverResidentCap++
	}
	s.Unloads += len(r.Unloaded)
	s.Evictions += len(r.Evicted)
	s.Cancellations += len(r.Cancelled)
	s.Drops += len(r.Dropped)
	if n := len(r.Holes); n > 0 {
		if s.HoleFrames == 0 {
			s.FirstHoleFrame = r.Frame
		}
		s.HoleFrames++
		s.MaxHoles = max(s.MaxHoles, n)
	}
}

// Summary returns the totals of the frames stepped so far.
func (s *Scheduler) Summary() Summary {
	sum := s.stats.sum
	sum.GaveUp = slices.Clone(sum.GaveUp)
	if sum.GaveUp == nil {
		sum.GaveUp = []GaveUp{}
	}
	sum.Residency = s.Residency()
	sum.HoleEpisodes = []HoleEpisode{}
	sum.PopInEpisodes = []HoleEpisode{}
	if s.book != nil {
		sum.Assets = s.book.summary()
	}
	if st := &s.stats; st.reads > 0 || st.frameT != nil {
		sum.IO = &IOStats{
			Reads:                st.reads,
			BytesRead:            st.bytesRead,
			Read:                 durationStat(st.readT),
			Decode:               durationStat(st.decodeT),
			Apply:                durationStat(st.applyT),
			FrameApply:           durationStat(st.frameT),
			FramesOverTimeBudget: st.overTime,
			FrameBudgetMS:        float64(st.frameBudget.Microseconds()) / 1000,
			MaxBacklog:           st.maxBacklog,
		}
	}
	return sum
}

// ByteSize renders a byte count exactly, with a binary-unit reading from
// a mebibyte up: "11680 B", "3145728 B (3.0 MiB)".
func ByteSize(n int64) string {
	if n < 1<<20 && n > -1<<20 {
		return fmt.Sprintf("%d B", n)
	}
	units := []string{"MiB", "GiB", "TiB"}
	v := float64(n) / (1 << 20)
	u := 0
	for (v >= 1024 || v <= -1024) && u < len(units)-1 {
		v /= 1024
		u++
	}
	return fmt.Sprintf("%d B (%.1f %s)", n, v, units[u])
}

// HasAssets reports whether the scheduler counts asset costs: the world
// lists assets and they are not ignored.
func (s *Scheduler) HasAssets() bool { return s.book != nil }
