package streaming

import (
	"cmp"
	"slices"
)

// A budgeted run fed from a window its radii were registered with
// (UseStream before the window's first Fill) steps incrementally: the
// window says which cells changed for it this frame (bands), and the
// run looks at those and at the cells its own frame changed the state
// of, instead of sweeping every resident, in-flight and prepared cell
// and gathering every cell near its sources.
//
// Why that is exact: each step of a frame acts on a cell only when its
// radius flags, its place in the prefetch query or its state make it
// (an unload, a cancel, a drop, a publish, a dispatch, a hole). A cell
// none of these changed for since a step last looked at it is one the
// step left alone then and leaves alone now. So every step walks the
// cells noted since it last ran (note: a state change, or a change the
// window reported), in its list's order — which is the order of their
// seq, since each list takes a cell with the seq it just got — and acts
// on exactly the cells, in exactly the order, a whole sweep does. The
// cells the sources want (near: within a prefetch radius, and visited
// by that source's query) are kept as marks, those ready to dispatch
// and the holes as small lists; a frame the window does not hold ends
// the incremental stepping for good, the run measuring as before from
// that frame on.
type inc struct {
	on bool
	// frames counts the frames stepped incrementally.
	frames int
	// pend are the cells noted for each sweep since it last ran.
	pend [pendCount][]int32
	// ready may hold the near cells not loading nor holding anything,
	// holes the near cells within a load radius and not resident, fresh
	// the cells near this frame and not the frame before.
	ready, holes, fresh []int32
	scratch             []int32
}

// pending names a sweep of the frame.
type pending uint8

const (
	pendResident pending = iota
	pendInflight
	pendWaiting
	pendPrepared // release's sweep of the prepared cells
	pendPublish  // publish's
	pendFailed
	pendCount
)

// The marks of a cell (cellRT.mark).
const (
	incNear  uint8 = 1 << iota // some source wants it this frame
	incReady                   // it is in inc.ready
	incHole                    // it is in inc.holes
)

// register offers the run's radii to its stream, so that the window
// reports the cells that change for it; the run then steps
// incrementally (from its first frame, if the window holds it). A run
// whose radii reach past the window's, or a stream already filled, is
// fed as before.
func (s *Scheduler) register() {
	fd := s.feed
	if fd.st.kind == streamRuntime {
		return
	}
	var th, pre []float64
	for _, src := range s.sources {
		if !src.Enabled {
			continue
		}
		for _, r := range []float64{src.Load, src.Prefetch, src.Unload} {
			if !(r <= fd.st.radius) {
				return
			}
		}
		th = append(th, sq(src.Load), sq(src.Prefetch), sq(src.Unload))
		pre = append(pre, src.Prefetch)
	}
	if bits, ok := fd.st.bands.register(th, pre); ok {
		fd.inc, fd.pbit = true, bits
	}
}

// changed starts, goes on with or ends the incremental stepping at the
// start of a frame, and takes in the cells the window says changed.
func (s *Scheduler) changed() {
	fd := s.feed
	in := &s.inc
	if in.on && !fd.ok {
		s.leave()
	}
	if !in.on && s.frame == 1 && fd.ok && fd.inc {
		in.on = true
	}
	if !in.on {
		return
	}
	in.frames++
	in.fresh = in.fresh[:0]
	b := &fd.st.bands
	n := fd.st.nsrc
	stamp := s.stamp()
	for c := b.off[fd.frame]; c < b.off[fd.frame+1]; c++ {
		i, e := b.chg[c], b.ent[c]
		r := &s.rt[i]
		if r.mstamp == 0 && r.nstamp == 0 {
			s.touched = append(s.touched, i)
		}
		old, wasNear := r.flags, r.mark&incNear != 0
		var fed []float64
		visited := false
		if e >= 0 {
			fed = fd.entry(e)
			for k := range n {
				if b.sig[int(e)*n+k]&fd.pbit[k] != 0 {
					visited = true
					break
				}
			}
		}
		r.mstamp = stamp
		s.measureFrom(r, &s.geo[i], fed)
		near := visited && r.flags&inPrefetch != 0
		if r.flags == old && near == wasNear {
			continue
		}
		if near {
			r.mark |= incNear
			if !wasNear {
				in.fresh = append(in.fresh, i)
			}
		} else {
			r.mark &^= incNear
		}
		s.note(i)
	}
}

// note records that cell i changed: its state, or its flags or place
// near the sources.
func (s *Scheduler) note(i int32) {
	r := &s.rt[i]
	in := &s.inc
	switch r.state {
	case Resident:
		in.pend[pendResident] = append(in.pend[pendResident], i)
	case Loading:
		in.pend[pendInflight] = append(in.pend[pendInflight], i)
	case Retrying:
		in.pend[pendWaiting] = append(in.pend[pendWaiting], i)
	case Prepared:
		in.pend[pendPrepared] = append(in.pend[pendPrepared], i)
		in.pend[pendPublish] = append(in.pend[pendPublish], i)
	case Failed:
		in.pend[pendFailed] = append(in.pend[pendFailed], i)
	}
	if r.mark&incNear == 0 {
		return
	}
	if (r.state == Unloaded || r.state == Retrying) && r.mark&incReady == 0 {
		r.mark |= incReady
		in.ready = append(in.ready, i)
	}
	if r.flags&inLoad != 0 && r.state != Resident && r.mark&incHole == 0 {
		r.mark |= incHole
		in.holes = append(in.holes, i)
	}
}

// sweepChanged is sweep for a run stepping incrementally: keep sees the
// cells of list noted since p's sweep last ran that are still in the
// list's state, in the list's order. The list keeps its stale entries
// until they are the most of it.
func (s *Scheduler) sweepChanged(list []entry, st CellState, p pending, keep func(int32, *cellRT) bool) []entry {
	in := &s.inc
	q := in.scratch[:0]
	for _, i := range in.pend[p] {
		if s.rt[i].state == st {
			q = append(q, i)
		}
	}
	in.pend[p] = in.pend[p][:0]
	slices.SortFunc(q, func(a, b int32) int { return cmp.Compare(s.rt[a].seq, s.rt[b].seq) })
	q = slices.Compact(q)
	for _, i := range q {
		keep(i, s.measure(i))
	}
	in.scratch = q[:0]
	if len(list) > 2*s.nState[st]+64 {
		out := list[:0]
		for _, e := range list {
			if s.valid(e, st) {
				out = append(out, e)
			}
		}
		clear(list[len(out):])
		list = out
	}
	return list
}

// gatherFresh is gatherNear for a run stepping incrementally: a cell
// wanted afresh forgets what held it back before.
func (s *Scheduler) gatherFresh() {
	st := s.stamp()
	for _, i := range s.inc.fresh {
		r := &s.rt[i]
		r.why, r.wantStamp = CauseNone, st
	}
}

// readyCandidates puts in s.cand the cells dispatch may request this
// frame (frame f), measured, for a run stepping incrementally.
func (s *Scheduler) readyCandidates(f int32) {
	in := &s.inc
	kept := in.ready[:0]
	for _, i := range in.ready {
		r := &s.rt[i]
		if r.mark&incNear == 0 || (r.state != Unloaded && r.state != Retrying) {
			r.mark &^= incReady
			continue
		}
		kept = append(kept, i)
		ready := r.state == Unloaded || (r.state == Retrying && r.due <= f)
		if ready && r.cooldown <= f {
			s.measure(i)
			s.cand = append(s.cand, i)
		}
	}
	clear(in.ready[len(kept):])
	in.ready = kept
}

// incHoles returns the holes of the frame, measured, for a run stepping
// incrementally.
func (s *Scheduler) incHoles() []int32 {
	in := &s.inc
	var holes []int32
	kept := in.holes[:0]
	for _, i := range in.holes {
		r := &s.rt[i]
		if r.mark&incNear == 0 || r.flags&inLoad == 0 || r.state == Resident {
			r.mark &^= incHole
			continue
		}
		kept = append(kept, i)
		s.measure(i)
		holes = append(holes, i)
	}
	clear(in.holes[len(kept):])
	in.holes = kept
	if s.frame == 1 {
		// Every near cell is fresh in the first frame.
		for _, i := range in.fresh {
			if s.rt[i].flags&inLoad != 0 {
				s.first = append(s.first, i)
			}
		}
	}
	return holes
}

// leave ends the incremental stepping before this frame: the cells near
// the sources the frame before are marked as wanted then, as gatherNear
// marks them, and the marks and lists go.
func (s *Scheduler) leave() {
	in := &s.inc
	st := s.stamp()
	for _, i := range s.touched {
		r := &s.rt[i]
		if r.mark&incNear != 0 {
			r.wantStamp = st - 1
		}
		r.mark = 0
	}
	*in = inc{frames: in.frames}
}
