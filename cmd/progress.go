package cmd

import (
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/worldcook/worldcook/cook"
)

// progress draws one bar for all scenes on an interactive terminal and
// nothing anywhere else (CI logs, --json, --quiet).
type progress struct {
	bar     *progressbar.ProgressBar
	waiting func()
	mu      sync.Mutex
	files   []string
	done    []int64
	total   []int64
}

func newProgress(opts *cookOptions, waiting func()) *progress {
	p := &progress{waiting: waiting}
	if !opts.IO.ErrTerminal || opts.Quiet || opts.JSON {
		return p
	}
	p.bar = progressbar.NewOptions64(-1,
		progressbar.OptionSetWriter(opts.IO.Err),
		progressbar.OptionSetDescription("cooking"),
		progressbar.OptionShowBytes(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	return p
}

// events are the cook's callbacks. Without a bar there are none for
// bytes and phases: counting a large world's bytes costs time.
func (p *progress) events() cook.Events {
	ev := cook.Events{Waiting: p.waiting}
	if p.bar != nil {
		ev.Found, ev.Phase, ev.Progress = p.found, p.phase, p.add
	}
	return ev
}

// found learns the scenes of the run.
func (p *progress) found(scenes []cook.Scene) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.files = make([]string, len(scenes))
	for i, s := range scenes {
		p.files[i] = s.File
	}
	p.done, p.total = make([]int64, len(scenes)), make([]int64, len(scenes))
}

func (p *progress) add(i int, done, total int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done[i], p.total[i] = done, total
	var d, t int64
	for k := range p.done {
		d += p.done[k]
		t += p.total[k]
	}
	p.bar.ChangeMax64(t)
	p.bar.Set64(d)
}

var phaseVerbs = map[string]string{"read": "reading", "check": "checking", "parse": "parsing", "validate": "validating", "write": "writing"}

// phase shows what a scene's cook is doing before there are bytes to count.
func (p *progress) phase(i int, phase string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if phase == "write" && len(p.done) == 1 {
		// Start the rate and the estimate from here, not from the read.
		p.bar.Reset()
	}
	p.bar.Describe(fmt.Sprintf("%-10s %s", phaseVerbs[phase], filepath.Base(p.files[i])))
	p.bar.RenderBlank()
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
