package cook

import (
	"context"
	"errors"
	"fmt"
	"github.com/worldcook/worldcook/internal/sidefile"
	"io"
	"sort"
	"sync"
	"time"

	"github.com/worldcook/worldcook/internal/fingerprint"
	"github.com/worldcook/worldcook/internal/mapped"
	"github.com/worldcook/worldcook/internal/regular"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/validate"
)

// ErrFindings is returned (wrapped) when validation found errors and the
// cook refused to write.
var ErrFindings = errors.New("validation failed")

// ErrWouldChange is returned by a --check cook whose output differs from
// what is on disk.
var ErrWouldChange = errors.New("cooked output is out of date")

// sceneJob is one scene to cook.
type sceneJob struct {
	// File is the scene to cook.
	File string
	// Out is the output directory.
	Out string
	// ScenesRoot is the folder scene names are relative to ("" = the
	// file's own directory).
	ScenesRoot string
	// Validate configures partition and checks; SceneName is filled in
	// from File and ScenesRoot when empty.
	Validate validate.Options
	// Check computes what would change without writing.
	Check bool
	// Workers for rendering cells (0 = GOMAXPROCS).
	Workers int
	// Progress receives rendered bytes (may be nil).
	Progress func(done, total int64)
	// Starting, if set, is told each phase's name as it begins.
	Starting func(phase string)
	// FS is the output directory to write through (nil = Out, opened as
	// a RootFS).
	FS FS
	// GC tunes the garbage collector while the scene's document is built
	// and used (nil leaves it alone).
	GC GCPolicy

	// Persistent, if set, is where the scene's persistent world goes in
	// Out instead of PersistentPath: a path RegisteredPaths accepted.
	Persistent string

	// inputs, set by a batch, are the files in Out that the batch's cooks
	// may write, to check the prefabs this scene reads against.
	inputs *claims
	// owned is set by a batch, which checked that the world in Out at
	// this scene's manifest path is none of another scene's.
	owned bool
	// side, set by a batch, guards the files the run writes besides the
	// worlds: the prefabs and assets this scene reads are checked
	// against them before anything of the scene is written.
	side *sidefile.Guard
}

// Report is what one cook did.
type Report struct {
	File string
	// Out is the output directory.
	Out    string
	Scene  string
	Plan   *validate.Plan
	World  *World
	Result *Result
	// Timings holds the duration of each phase, in order.
	Timings []Phase
	// Reused is true when the world on disk was confirmed from its record
	// without parsing the scene; Plan and World are nil then.
	Reused bool
	// Streamed, Entities and Cells describe the scene either way.
	Streamed bool
	Entities int
	Cells    int
}

// Phase is a named step of a cook and how long it took.
type Phase struct {
	Name     string
	Duration time.Duration
}

// cookTimer records the phases of a cook. Its methods do nothing on a nil
// *Timer, so callers that do not care pass nil and pay nothing.
type cookTimer struct {
	Phases []Phase
	// Starting, if set, is told the name of each phase as it begins (for
	// a progress display).
	Starting func(phase string)
	last     time.Time
}

func (t *cookTimer) start(phase string) {
	if t == nil {
		return
	}
	if t.last.IsZero() {
		t.last = time.Now()
	}
	if t.Starting != nil {
		t.Starting(phase)
	}
}

func (t *cookTimer) done(phase string) {
	if t == nil {
		return
	}
	now := time.Now()
	t.Phases = append(t.Phases, Phase{phase, now.Sub(t.last)})
	t.last = now
}

// load reads and parses a scene and computes its plan, for callers that
// use a world without cooking it to disk (simulate given a scene). The
// scene is read, not mapped: the plan's document keeps it. Input
// problems come back as *scene.Error.
func load(file string, opts validate.Options, scenesRoot string, timer *cookTimer) (*validate.Plan, error) {
	opts, err := named(file, opts, scenesRoot)
	if err != nil {
		return nil, err
	}
	timer.start("read")
	src, err := regular.ReadFile(file, "scene")
	if err != nil {
		return nil, err
	}
	timer.done("read")
	return plan(file, src, scene.Options{}, opts, timer)
}

// named fills in the scene's runtime name.
func named(file string, opts validate.Options, scenesRoot string) (validate.Options, error) {
	if opts.SceneName == "" {
		name, err := validate.SceneName(file, scenesRoot)
		if err != nil {
			return opts, err
		}
		opts.SceneName = name
	}
	return opts, nil
}

// plan parses a scene's bytes and partitions and checks it.
func plan(file string, src []byte, read scene.Options, opts validate.Options, timer *cookTimer) (*validate.Plan, error) {
	p, err := check(file, src, read, opts, timer)
	if err != nil {
		return nil, err
	}
	// Nothing after the check reads the model of the world: let it go
	// rather than hold it beside the document while the cells are written.
	p.ReleaseWorld()
	return p, nil
}

// check is plan keeping the plan's model of the world.
func check(file string, src []byte, read scene.Options, opts validate.Options, timer *cookTimer) (*validate.Plan, error) {
	timer.start("parse")
	doc, err := scene.ParseWith(file, src, read)
	if err != nil {
		return nil, err
	}
	timer.done("parse")
	timer.start("validate")
	p, err := validate.Check(doc, opts)
	if err != nil {
		return nil, err
	}
	timer.done("validate")
	return p, nil
}

// GCPolicy is how a job tunes the garbage collector: called with the
// scene's size when its document starts to be built, it returns what ends
// the tuning. The program decides it (worldcook turns collection off,
// since the document, the plan and the rendered cells stay live until the
// job ends and a collection would scan them to free next to nothing);
// a library caller may leave the collector alone.
type GCPolicy func(inputBytes int) (resume func())

func (g GCPolicy) hold(n int) (resume func()) {
	if g == nil {
		return func() {}
	}
	return g(n)
}

// Validate reads a scene as a cook does and checks it, without cooking:
// the scene is mapped, its parsed pages handed back, the check guarded
// against the file shrinking, and the result refused if another program
// changed the file meanwhile. The plan is detached from the file before
// Validate returns. Every error it returns is about the input and names
// the file.
func Validate(file, scenesRoot string, opts validate.Options, gc GCPolicy) (*validate.Plan, error) {
	opts, err := named(file, opts, scenesRoot)
	if err != nil {
		return nil, err
	}
	in, err := mapped.Open(file, "scene")
	if err != nil {
		return nil, err
	}
	defer in.Close()
	// The document stays live until the check ends.
	defer gc.hold(len(in.Data))()
	p, err := planMapped(file, in, nil, opts, nil)
	if err != nil {
		return nil, err
	}
	p.Doc.Detach()
	if in.Changed() {
		return nil, fmt.Errorf("%s: %w", file, mapped.ErrChanged)
	}
	return p, nil
}

// planMapped parses and checks a mapped scene under mapped.Guard, so that
// a file shrunk meanwhile is an error, not a crash. Errors name the file.
func planMapped(file string, in *mapped.File, sums *fingerprint.Sums, opts validate.Options, timer *cookTimer) (*validate.Plan, error) {
	var p *validate.Plan
	err := mapped.Guard(func() (err error) {
		p, err = plan(file, in.Data, scene.Options{Release: in.Release, Fingerprint: sums}, opts, timer)
		return err
	})
	if err == nil {
		return p, nil
	}
	var se *scene.Error
	if errors.As(err, &se) {
		return nil, err // names the file, line and entity already
	}
	return nil, fmt.Errorf("%s: %w", file, err)
}

// run cooks one scene: load, validate, render, then commit under the
// caller's lock on the output directory. With findings that are errors it
// writes nothing and returns ErrFindings with the report.
func run(ctx context.Context, job sceneJob) (*Report, error) {
	rep := &Report{File: job.File, Out: job.Out}
	timer := &cookTimer{Starting: job.Starting}
	defer func() { rep.Timings = timer.Phases }()
	opts, err := named(job.File, job.Validate, job.ScenesRoot)
	if err != nil {
		return rep, err
	}
	rep.Scene = opts.SceneName
	timer.start("read")
	// The scene is mapped, not read: its pages are handed back as the
	// parse passes them, so the cook's memory is its output and index
	// rather than input plus output. Whatever reads the mapping runs under
	// mapped.Guard, so a file shrunk meanwhile is an error, not a crash.
	in, err := mapped.Open(job.File, "scene")
	if err != nil {
		return rep, err
	}
	src := in.Data
	timer.done("read")

	c := &committer{FS: job.FS, Dir: job.Out, Check: job.Check}
	if job.Persistent != "" {
		c.Persist = map[string]string{opts.SceneName: job.Persistent}
	}
	if c.FS == nil {
		if c.FS, err = openOut(job.Out, job.Check); err != nil {
			in.Close()
			return rep, err
		}
		if closer, ok := c.FS.(io.Closer); ok {
			defer closer.Close()
		}
	}
	// Nothing the cook of this scene may touch is one of its inputs; a
	// batch checked every scene against every scene already.
	guard := job.inputs
	if guard == nil && !job.Check {
		if guard, err = claimed(c, []layout{c.layout(opts.SceneName)}); err == nil {
			err = guard.check(job.File, "scene")
		}
		if err != nil {
			in.Close()
			return rep, err
		}
	}
	if !job.owned {
		if err := c.checkOwners([]Scene{{File: job.File, Name: opts.SceneName}}); err != nil {
			in.Close()
			return rep, err
		}
	}
	if err := c.Prepare(opts.SceneName); err != nil {
		in.Close()
		return rep, err
	}
	key := settingsKey(opts, job.Persistent)
	if inProject(job.File, opts) {
		key = "" // matches no record: see dependsOnAssets
	}
	// The scene's fingerprint is needed to check a record now, or to
	// write one at the end. In the second case the parse hashes the
	// blocks it reads, while they are in cache, and only what it did not
	// read is hashed at the end.
	sums := fingerprint.New(src)
	input := sync.OnceValue(func() string { return sums.Sum(in.Release) })
	defer func() {
		// Nothing may read the mapping once it is gone: let the document
		// drop its view of the file.
		if rep.Plan != nil {
			rep.Plan.Doc.Detach()
		}
		in.Close()
	}()
	timer.start("check")
	// A check trusts the record only once every file's bytes are hashed.
	if rec, ok := c.unchanged(opts.SceneName, input, key); ok && (!job.Check || c.confirm(ctx, c.layout(opts.SceneName), rec, src, job.Workers)) {
		// The same bytes, settings and worldcook made the world that is
		// there, and no file of it changed since: nothing to do.
		timer.done("check")
		files := append([]string(nil), rec.Files...)
		sort.Strings(files)
		rep.Result = &Result{Unchanged: files}
		rep.Reused = true
		rep.Streamed, rep.Entities, rep.Cells = rec.Streamed, rec.Entities, rec.Cells
		return rep, nil
	}
	timer.done("check")

	// The document, the plan and the cells rendered from them stay live
	// until the job ends.
	defer job.GC.hold(len(src))()
	p, err := planMapped(job.File, in, sums, opts, timer)
	if err != nil {
		return rep, err
	}
	rep.Plan = p
	rep.Streamed, rep.Entities, rep.Cells = p.Streamed, len(p.Doc.Entities), len(p.Cells)
	if n := p.Errors(job.Validate.Strict); n > 0 {
		return rep, fmt.Errorf("%s: %w with %d error(s); nothing was written", job.File, ErrFindings, n)
	}
	if in.Changed() {
		// Another program wrote the scene while it was parsed: what was
		// read may mix two versions of it.
		return rep, fmt.Errorf("%s: %w", job.File, mapped.ErrChanged)
	}
	if job.side != nil {
		job.side.Inputs(PlanInputs(job.File, p)...)
		if err := job.side.Recheck(); err != nil {
			return rep, err
		}
	}
	if guard != nil {
		for _, f := range p.PrefabFiles {
			if err := guard.check(f, "prefab"); err != nil {
				return rep, err
			}
		}
		if p.Assets != nil {
			for _, f := range p.Assets.Files {
				if err := guard.check(f, "asset"); err != nil {
					return rep, err
				}
			}
		}
	}
	timer.start("write")
	w, res, err := write(ctx, c, p, options{Workers: job.Workers, Progress: job.Progress, Persistent: job.Persistent})
	if err == nil && !job.Check && !in.Changed() {
		// The world is complete; the record only saves the next cook
		// work. Without it that cook does the full job, so a failure to
		// write it (a disk filling up just now) is not the cook's. A
		// scene written meanwhile gets no record: its fingerprint may
		// not be of the bytes that were cooked.
		c.remember(opts.SceneName, w, input, key)
	}
	if err != nil {
		if ctx.Err() == nil && !job.Check && !errors.Is(err, errCommitPending) && !errors.Is(err, errAdvised) {
			err = fmt.Errorf("%w; make sure %s is writable and has free space, then cook again (the previous world is unchanged)", err, job.Out)
		}
		return rep, err
	}
	rep.World, rep.Result = w, res
	timer.done("write")
	if job.Check && res.Changed() {
		return rep, fmt.Errorf("%s: %w (%d file(s) to write, %d to remove)", job.File, ErrWouldChange, len(res.Written), len(res.Removed))
	}
	return rep, nil
}

// write renders plan straight into a commit: each document is compared
// with the disk and staged as soon as it is rendered, so memory holds one
// document per worker rather than the whole cooked world.
func write(ctx context.Context, c *committer, plan *validate.Plan, opts options) (*World, *Result, error) {
	w := &World{Plan: plan, ManifestPath: ManifestPath(plan.SceneName)}
	t := c.Begin(plan.SceneName, w.ManifestPath)
	if !plan.Streamed {
		src := plan.Doc.Src
		err := mapped.Guard(func() error {
			return t.Put(Output{Path: c.layout(plan.SceneName).persistent(), Bytes: src, Digest: digest(src)})
		})
		if err != nil {
			t.Abort()
			return nil, nil, err
		}
		res, err := t.Commit()
		return w, res, err
	}
	m, err := render(ctx, plan, opts, func(_ int, f Output) error { return t.Put(f) })
	if err != nil {
		t.Abort()
		return nil, nil, err
	}
	m.Project = projectOf(m, plan, c.Dir)
	mf, err := manifestFile(w.ManifestPath, m)
	if err == nil {
		err = t.Put(mf)
	}
	if err != nil {
		t.Abort()
		return nil, nil, err
	}
	w.Manifest, w.manifestSize, w.manifestDigest = m, int64(len(mf.Bytes)), mf.Digest
	res, err := t.Commit()
	return w, res, err
}
