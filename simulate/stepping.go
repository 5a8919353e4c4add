package simulate

import (
	"context"
	"errors"
	"time"

	"github.com/worldcook/worldcook/streaming"
)

// A Stepping is one policy's run of a route, a frame at a time: Start
// sets it up, Step runs its frames, Finish concludes it. Run is a
// Stepping per policy stepped to the end, so that a caller stepping many
// runs together, frame by frame (tune, sharing each frame's work among
// them), gets exactly what Run gives each.
type Stepping struct {
	ctx    context.Context
	o      Options
	run    *PolicyRun
	frames int // the route's
	k      int // frames stepped
	// step runs frame k and returns its report (rt: the runtime's
	// additions, nil under the budgeted policy); finish sets the run's
	// summary and what the scheduler holds after the last frame; close
	// releases the scheduler.
	step   func(k int) (*streaming.FrameReport, *streaming.RuntimeFrame)
	finish func(run *PolicyRun)
	close  func()
	// pace, when set, makes the frame last its time (real IO).
	pace  func() error
	concl *streaming.Concluder
	// stepping is when the frames began, for PolicyRun.Stepping.
	stepping time.Time
	// rep is the report of a run that keeps no frames.
	rep   streaming.FrameReport
	rtRep streaming.RuntimeFrame
}

// Start sets up the run of o's route through world under o's policy (not
// a comparison), ready for its first Step. world is only read.
func Start(ctx context.Context, world *streaming.World, o Options) (*Stepping, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.Compare {
		return nil, errors.New("a comparison runs two policies: Start one run per policy")
	}
	if err := o.Check(); err != nil {
		return nil, err
	}
	route, err := o.route(world)
	if err != nil {
		return nil, err
	}
	def, _ := policyOf(o.policy()) // Check knows it
	return def.start(ctx, world, route, o, time.Now())
}

// Frames is the number of frames the route has.
func (s *Stepping) Frames() int { return s.frames }

// Done reports whether every frame was stepped.
func (s *Stepping) Done() bool { return s.k >= s.frames }

// Step runs the next frame (Watch.Frame sees its report). It returns
// ctx's error once ctx is cancelled, and the Watch's when it stops the
// run; a run stopped so is over: only Close is left.
func (s *Stepping) Step() error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	rep, rt := s.step(s.k)
	s.k++
	s.concl.Add(rep)
	if f := s.o.Watch.Frame; f != nil {
		if err := f(s.run, rep, rt); err != nil {
			return err
		}
	}
	if s.pace != nil {
		return s.pace()
	}
	return nil
}

// Finish concludes a run stepped to its end: its summary and gate, as Run
// gives them, and releases its scheduler.
func (s *Stepping) Finish() (*PolicyRun, error) {
	if !s.Done() {
		return nil, errors.New("the run has frames left to step")
	}
	defer s.Close()
	s.run.Stepping = time.Since(s.stepping)
	s.finish(s.run)
	s.concl.Conclude(&s.run.Summary)
	return s.run, nil
}

// Close releases the run's scheduler; it is done by Finish, and needed
// only for a run given up before its end.
func (s *Stepping) Close() {
	if s.close != nil {
		s.close()
		s.close = nil
	}
}

// keep returns where frame k's report goes: the run's frames, or, for a
// run that keeps none (Options.Frameless), one report rewritten every
// frame.
func (s *Stepping) keep(k int) (*streaming.FrameReport, *streaming.RuntimeFrame) {
	if s.o.Frameless {
		s.rep, s.rtRep = streaming.FrameReport{}, streaming.RuntimeFrame{}
		return &s.rep, &s.rtRep
	}
	s.run.Frames = s.run.Frames[:k+1]
	var rt *streaming.RuntimeFrame
	if s.run.Runtime != nil {
		s.run.Runtime = s.run.Runtime[:k+1]
		rt = &s.run.Runtime[k]
	}
	return &s.run.Frames[k], rt
}

// stepAll steps s to its end and finishes it.
func (s *Stepping) stepAll() (*PolicyRun, error) {
	defer s.Close()
	for !s.Done() {
		if err := s.Step(); err != nil {
			return nil, err
		}
	}
	return s.Finish()
}

// Breached reports whether a condition of the run's gate has surely held
// in the frames stepped (streaming.Concluder.Breached): the run fails,
// however it goes on.
func (s *Stepping) Breached() bool { return s.concl.Breached() }

// Held are the conditions that surely held so far (streaming.Concluder.Held).
func (s *Stepping) Held() []streaming.Breach { return s.concl.Held() }

// NewWindow returns the shared stream of o's route over world under o's
// policy, holding none of its frames yet, and the route's frames as the
// policy binds them: Fill(frames, n) moves the window on n frames. Runs
// of o's route over world under that policy, whatever their radii (up
// to radius), budget and cap, stepped together (Options.Stream), read
// each window the same way they would the whole route's stream.
func NewWindow(world *streaming.World, o Options, radius float64) (*streaming.Stream, [][]streaming.Point, error) {
	route, err := o.route(world)
	if err != nil {
		return nil, nil, err
	}
	bound, frames, p, err := o.shared(world, route)
	if err != nil {
		return nil, nil, err
	}
	st, err := streaming.NewWindow(world, bound, radius, p)
	return st, frames, err
}
