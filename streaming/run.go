package streaming

import (
	"context"
	"slices"
	"time"
)

// Run steps s through frames (each frame's source positions) and returns
// every frame's report; each, when not nil, sees every report as it is
// made and may stop the run by returning an error.
//
// pace > 0 makes each frame last at least that long. Real IO runs in real
// time: without pacing the frames of a route would pass in microseconds and
// no read could finish in time to matter.
func Run(ctx context.Context, s *Scheduler, frames [][]Point, pace time.Duration, each func(*FrameReport) error) ([]FrameReport, error) {
	return RunInto(ctx, nil, s, frames, pace, each)
}

// RunInto is Run with the reports written into buf's array when it holds
// them all (its length is ignored), so that a caller running many short
// routes reuses one array instead of allocating one a run.
func RunInto(ctx context.Context, buf []FrameReport, s *Scheduler, frames [][]Point, pace time.Duration, each func(*FrameReport) error) ([]FrameReport, error) {
	reports := buf[:0]
	if cap(reports) < len(frames) {
		reports = make([]FrameReport, 0, len(frames))
	}
	next := time.Now()
	for _, pos := range frames {
		if err := ctx.Err(); err != nil {
			return reports, err
		}
		start := time.Now()
		rep := s.Step(pos)
		rep.Cost = time.Since(start)
		reports = append(reports, rep)
		if each != nil {
			if err := each(&reports[len(reports)-1]); err != nil {
				return reports, err
			}
		}
		if pace > 0 {
			next = next.Add(pace)
			if d := time.Until(next); d > 0 {
				select {
				case <-time.After(d):
				case <-ctx.Done():
					return reports, ctx.Err()
				}
			} else {
				next = time.Now() // a slow frame does not make the next ones short
			}
		}
	}
	return reports, nil
}

// FrameCosts summarises the real time frames took to step (the Cost Run
// measured): the total, the mean and the 99th percentile, so that a scale
// check reads the cost of a frame without the start-up around it.
type FrameCosts struct {
	Frames int
	Total  time.Duration
	Mean   time.Duration
	P99    time.Duration
	Max    time.Duration
}

// Costs returns the frame costs of a run's reports.
func Costs(frames []FrameReport) FrameCosts {
	c := FrameCosts{Frames: len(frames)}
	if len(frames) == 0 {
		return c
	}
	ds := make([]time.Duration, len(frames))
	for i := range frames {
		ds[i] = frames[i].Cost
		c.Total += ds[i]
	}
	slices.Sort(ds)
	c.Mean = c.Total / time.Duration(len(ds))
	c.P99 = ds[(len(ds)*99+99)/100-1]
	c.Max = ds[len(ds)-1]
	return c
}
