package cmd

import (
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress draws one bar for all scenes on an interactive terminal and
// nothing anywhere else (CI logs, --json, --quiet).
type progress struct {
	bar   *progressbar.ProgressBar
	mu    sync.Mutex
	done  []int64
	total []int64
}

func newProgress(opts *cookOptions, n int) *progress {
	p := &progress{done: make([]int64, n), total: make([]int64, n)}
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

func (p *progress) add(i int) func(done, total int64) {
	if p.bar == nil {
		return nil
	}
	return func(done, total int64) {
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
}

// phase shows what a scene's cook is doing before there are bytes to count.
func (p *progress) phase(file string) func(string) {
	if p.bar == nil {
		return nil
	}
	verbs := map[string]string{"read": "reading", "check": "checking", "parse": "parsing", "validate": "validating", "write": "writing"}
	return func(phase string) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if phase == "write" && len(p.done) == 1 {
			// Start the rate and the estimate from here, not from the read.
			p.bar.Reset()
		}
		p.bar.Describe(fmt.Sprintf("%-10s %s", verbs[phase], filepath.Base(file)))
		p.bar.RenderBlank()
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
