package streaming

import (
	"context"
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
	reports := make([]FrameReport, 0, len(frames))
	next := time.Now()
	for _, pos := range frames {
		if err := ctx.Err(); err != nil {
			return reports, err
		}
		rep := s.Step(pos)
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
