// Package config resolves worldcook's settings once, from flags, WORLDCOOK_*
// environment variables, worldcook.yaml and defaults (in that order of
// precedence), into one typed Config, and remembers where each value came
// from. Every setting is declared once, by the tags of its field below
// (see declare.go); the packages below cmd/ never read flags or files.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// DefaultFile is the configuration file read from the working directory
// when --config is not given.
const DefaultFile = "worldcook.yaml"

// Config is every setting a worldcook command uses.
type Config struct {
	Quiet bool `flag:"quiet,q" help:"print only errors"`
	JSON  bool `flag:"json" help:"machine-readable JSON output where the command supports it"`
	// Plane is the plane of every command: a section's own plane (cook.plane,
	// …) set in the same or a higher layer overrides it (see inherit).
	Plane string `flag:"plane" default:"manifest.PlaneXZ" enum:"manifest.Planes" help:"plane cells are cut on, for every command (xy: 2D)"`

	Cook     Cook     `section:"cook"`
	Validate Validate `section:"validate"`
	Simulate Simulate `section:"simulate"`
	Init     Init     `section:"init"`
	Tune     Tune     `section:"tune"`
	Route    Route    `section:"route"`

	// Components declares project component types whose fields hold entity
	// ids, so that validation checks them like the engine's own. Only
	// worldcook.yaml sets them; names are lower-cased, as component types
	// are matched without regard to case.
	Components map[string]Component

	// AssetRefs extends which fields and files reference assets, for the
	// asset lists of the manifest and simulate's asset costs. Only
	// worldcook.yaml sets them (assetRefs:).
	AssetRefs AssetRefs

	// File is the configuration file that was read, if any; Found says
	// how it was found (or where none was).
	File  string
	Found Found

	origins map[string]Origin
}

// Component declares a project component's entity-reference fields.
type Component struct {
	EntityFields []string `key:"entityFields" json:"entityFields"`
	// SoftFields are entity fields the game resolves itself and tolerates
	// missing: they are not checked against residency boundaries.
	SoftFields []string `key:"softFields" json:"softFields"`
}

// Cook holds the cook and partition settings (validate shares the partition ones).
type Cook struct {
	Out   string `flag:"out,o" default:"cooked" unit:"dir" help:"output directory"`
	Check bool   `flag:"check" help:"write nothing; exit 1 if the output would change"`
	SceneInput
	Jobs        int           `flag:"jobs" unit:"count" help:"scenes and cells cooked in parallel (default: number of CPUs)"`
	Timings     bool          `flag:"timings" help:"print how long each phase took"`
	Strict      bool          `flag:"strict" help:"treat validation warnings as errors"`
	LockTimeout time.Duration `flag:"lock-timeout" default:"1m" unit:"duration" help:"wait for another cook into the same folder"`
	CPUProfile  string        `flag:"cpuprofile" unit:"path" help:"write a CPU profile to this file"`
	MemProfile  string        `flag:"memprofile" unit:"path" help:"write a heap profile to this file at the end"`
	// PackageConfig is the game configuration (game.config.json) whose
	// worlds list the cook writes the cooked worlds into.
	PackageConfig string `flag:"package-config" unit:"path" help:"add each cooked world to this game.config.json's worlds list"`
	// PersistentAt is where each persistent world goes: at its scene's name
	// in OUT, or where --package-config's scenes list registers the scene.
	PersistentAt string `flag:"persist-at" default:"name" enum:"name,registered" help:"registered: persistent world at scenes[].path"`
	// Depfile, Metafile and Watch serve the build around the cook
	// (docs/build.md).
	Depfile  string `flag:"depfile" unit:"path" help:"write a Make/Ninja depfile: manifests and every file read"`
	Metafile string `flag:"metafile" unit:"path" help:"write inputs and outputs with sizes, blake3 and sources as JSON"`
	Watch    bool   `flag:"watch" help:"cook again whenever an input changes, until interrupted"`

	from map[string]Origin
}

// Validate holds the validate command's settings.
type Validate struct {
	Format  string `flag:"format" default:"validate.FormatText" values:"validate.Formats" help:"report format"`
	Strict  bool   `flag:"strict" help:"treat warnings as errors"`
	Map     string `flag:"map" unit:"path" help:"draw cells and rejected references to this SVG"`
	Verbose bool   `flag:"verbose" help:"text: list every cell that grew, not the 20 largest"`
	// Fix, Path, Write and Compare are validate --fix (docs/fix.md): the
	// repairs of the references the cut breaks, weighed on the routes of
	// Path under the simulate section's settings.
	Fix     bool     `flag:"fix" help:"print the cheapest repair of each broken reference"`
	Path    []string `flag:"path" unit:"path" help:"--fix: route CSV or folder to weigh repairs on"`
	Write   bool     `flag:"write" help:"--fix: apply the repair to the scene, atomically"`
	Compare bool     `flag:"compare" help:"--fix: simulate the routes under both policies"`
	SceneInput

	from map[string]Origin
}

// Simulate holds the streaming simulation settings. Pointer fields are
// optional: nil means "not set" (no cap, no pinning, no LOD, the authored
// radii), which is different from 0.
type Simulate struct {
	Path           string   `flag:"path" unit:"path" help:"route CSV (header, then x,z; y, frame, source optional) or folder"`
	LoadRadius     *float64 `flag:"load-radius" unit:"distance" help:"load radius of every source (default: as authored)"`
	UnloadRadius   *float64 `flag:"unload-radius" unit:"distance" help:"unload radius of every source (default: as authored)"`
	PrefetchRadius *float64 `flag:"prefetch-radius" unit:"distance" help:"prefetch radius of every source (default: as authored)"`
	// ViewSize and ViewDistance set every source's view, instead of its
	// camera's (in worldcook.yaml also simulate: {view: {width, height}}
	// or {view: {distance}}); at most one of them.
	ViewSize         *string  `flag:"view-size" unit:"extent" help:"every source's view, a WxH rectangle (default: the camera's)"`
	ViewDistance     *float64 `flag:"view-distance" unit:"distance" help:"every source's view, a disc of this radius"`
	Budget           *int64   `flag:"budget" unit:"bytes" help:"bytes a frame may start loading (default: no budget)"`
	MaxInFlight      *int     `flag:"max-in-flight" unit:"count" help:"requests in flight at once (default: no limit)"`
	LatencyFrames    int      `flag:"latency-frames" default:"1" unit:"frames" max:"streaming.MaxFrameSetting" help:"modelled IO: frames from dispatch to completion"`
	IOBytesPerFrame  *int64   `flag:"io-bytes-per-frame" unit:"bytes" help:"modelled IO: bytes read per frame (default: unlimited)"`
	LODRadius        *float64 `flag:"lod-radius" unit:"distance" help:"cells beyond it load their proxyBytes (default: no LOD)"`
	MaxResidentBytes *int64   `flag:"max-resident-bytes" unit:"bytes" help:"cap on resident bytes (default: none)"`
	PinnedRadius     *float64 `flag:"pinned-radius" unit:"distance" help:"cells this close to a source are never evicted"`
	EvictCooldown    int      `flag:"evict-cooldown" unit:"frames" max:"streaming.MaxFrameSetting" help:"frames before an evicted cell may load again"`
	Distance         string   `flag:"distance" default:"streaming.DistanceBounds" enum:"streaming.DistanceModes" help:"measure to grown bounds or grid centre"`
	IO               string   `flag:"io" default:"model" enum:"model,disk" help:"model (deterministic) or disk (real reads)"`
	Concurrency      int      `flag:"concurrency" default:"4" unit:"count" min:"1" max:"streaming.MaxConcurrency" help:"disk IO: read and decode workers ({min} to {max})"`
	FrameBudgetMS    float64  `flag:"frame-budget-ms" default:"4" unit:"ms" max:"streaming.MaxFrameBudgetMS" help:"disk IO: time a frame may apply loads for"`
	FailRate         float64  `flag:"fail-rate" unit:"probability" help:"probability that a load attempt fails, for testing retries"`
	Seed             uint64   `flag:"seed" default:"1" unit:"seed" help:"seed of --fail-rate failures"`
	Retries          int      `flag:"retries" default:"streaming.DefaultRetry.Retries" unit:"count" help:"retries before a failed load is given up"`
	RetryBackoff     int      `flag:"retry-backoff" default:"streaming.DefaultRetry.BackoffFrames" unit:"frames" max:"streaming.MaxFrameSetting" help:"first retry's delay in frames, then doubling"`
	RetryTimeout     int      `flag:"retry-timeout" default:"streaming.DefaultRetry.TimeoutFrames" unit:"frames" max:"streaming.MaxFrameSetting" help:"frames until a pending load fails; 0: never"`
	Format           string   `flag:"format" default:"report.FormatTable" values:"report.Formats" help:"per-frame report format"`
	FailOn           []string `flag:"fail-on" enum:"streaming.FailConditions" help:"exit 1 on: {values}"`
	Warmup           *int     `flag:"warmup" unit:"frames" help:"frames --fail-on holes excuses (default: the warm-up)"`
	SummaryOnly      bool     `flag:"summary-only" help:"print warnings and the summary, not the per-frame rows"`
	Rows             bool     `flag:"rows" help:"on a terminal, print the per-frame rows too"`
	Timings          bool     `flag:"timings" help:"print load and frame times to stderr (mean, p99)"`
	CellStates       bool     `flag:"cell-states" help:"jsonl: each frame's resident, prepared, loading, unloading cells"`
	// Policy is the scheduler: budgeted (seed, its former name, is an
	// alias) or estella (a model of Estella's runtime); Compare runs both.
	// PublishFrames and UnloadFrames time the runtime's host operations.
	Policy        string `flag:"policy" default:"simulate.Budgeted" enum:"simulate.Policies" help:"budgeted or estella (Estella's runtime)"`
	Compare       bool   `flag:"compare" help:"run both policies and print them side by side"`
	PublishFrames int    `flag:"publish-frames" unit:"frames" max:"streaming.MaxFrameSetting" help:"--policy estella: frames a publish (loadAdditive) takes"`
	UnloadFrames  int    `flag:"unload-frames" unit:"frames" max:"streaming.MaxFrameSetting" help:"--policy estella: frames an unload takes"`
	Plot          string `flag:"plot" unit:"path" help:"draw memory, requests, holes and pop-in over time to this SVG"`
	Map           string `flag:"map" unit:"path" help:"draw cells, the route and each cell's loads to this SVG"`
	HTML          string `flag:"html" unit:"path" help:"write the run over time to this HTML page: map, chart, holes"`
	// SceneInput reads a WORLD that is a scene (cooked in memory); the
	// assets also price a cooked world's cells.
	SceneInput
	AssetCosts string `flag:"asset-costs" default:"on" enum:"on,off" help:"off: count cell documents only, not assets"`

	// DefaultWorld is the WORLD to simulate when none is given: what cook
	// writes, cook.out of the settings file (or its default, cooked). It
	// is resolved, not a setting of its own.
	DefaultWorld string

	from map[string]Origin
}

// Init holds the init command's settings.
type Init struct {
	CellSize *float64 `flag:"cell-size" unit:"distance" positive:"true" help:"StreamedWorld cellSize to write (default: the view spans 2x2 cells)"`
	Plane    string   `flag:"plane" default:"manifest.PlaneXZ" enum:"manifest.Planes" help:"partition plane: xz (3D worlds) or xy (2D worlds)"`
	Write    bool     `flag:"write" help:"apply the edit to the scene, atomically, instead of printing the diff"`
	AssetFolders
}

// SceneInput is how a scene is read and cut: the settings cook, validate
// and simulate (for a scene WORLD) share, declared once here.
type SceneInput struct {
	Plane      string `flag:"plane" default:"manifest.PlaneXZ" enum:"manifest.Planes" help:"plane cells are cut on; xy for 2D worlds"`
	Levels     int    `flag:"levels" unit:"count" max:"grid.MaxLevel" help:"coarser grid levels for roots larger than a cell (0: none)"`
	ScenesRoot string `flag:"scenes-root" unit:"dir" help:"root of scene names (default: as the engine names them)"`
	AssetFolders
}

// AssetFolders is where a scene's assets are found, for every command that
// reads assets (in SceneInput, and init's).
type AssetFolders struct {
	Assets []string `flag:"assets" unit:"dir" help:"asset folders (default: the input's Estella project)"`
}

// Tune holds the settings search's own settings (worldcook tune,
// docs/tune.md). Each dimension is text, a list of values and ranges that
// package tune reads, nil when not set (tune's default from the cell
// size, or none); the simulate settings tune does not search are the
// simulate section's (TuneFixed), fixed for the whole search.
type Tune struct {
	Path             []string `flag:"path" unit:"path" help:"route CSV or folder to tune against; repeat for several"`
	CellSize         *string  `flag:"cell-size" help:"cell sizes to try: list, A..B/STEP or A..BxF (scene only)"`
	LoadRadius       *string  `flag:"load-radius" help:"load radii to try (default: {0.5,1,1.5,2,3}·cell size)"`
	UnloadRadius     *string  `flag:"unload-radius" help:"unload radii to try (default: load + {0.5,1,2}·cell size)"`
	PrefetchRadius   *string  `flag:"prefetch-radius" help:"prefetch radii to try (default: load + {0,0.5,1}·cell size)"`
	Budget           *string  `flag:"budget" help:"budgets to try, byte sizes or none (default: none)"`
	MaxResidentBytes *string  `flag:"max-resident-bytes" help:"caps to try, byte sizes or none (default: none)"`
	Require          []string `flag:"require" enum:"streaming.FailConditions" help:"conditions no route may show (default: pop-in; holes if no view)"`
	Minimize         string   `flag:"minimize" default:"peak-resident" help:"mean-resident, loads, max-frame-bytes"`
	Top              int      `flag:"top" default:"10" unit:"count" min:"1" help:"feasible candidates to list"`
	MaxCandidates    int      `flag:"max-candidates" default:"100000" unit:"count" min:"1" help:"refuse a space of more combinations"`
	Jobs             int      `flag:"jobs" unit:"count" help:"candidates run at once (default: number of CPUs)"`
	Plot             string   `flag:"plot" unit:"path" help:"draw the candidates on peak resident × loads to this SVG"`
	// Diff and Write put the recommendation on the scene's sources: the
	// diff on stdout (the report then goes to stderr), or the edit made.
	Diff  bool `flag:"diff" help:"print the scene edit that sets the recommended radii"`
	Write bool `flag:"write" help:"set the recommended radii on the scene's sources, atomically"`

	from map[string]Origin
}

// Route holds worldcook route's settings (docs/route.md).
type Route struct {
	// From nil makes every kind of route the scene has; set, each kind
	// must yield one.
	From     []string `flag:"from" enum:"route.Kinds" help:"routes to make: {values} (default: all)"`
	Out      string   `flag:"out,o" default:"routes" unit:"dir" help:"folder to write the route CSVs into"`
	FPS      float64  `flag:"fps" default:"route.DefaultFPS" unit:"rate" positive:"true" help:"frames a second the routes are sampled at"`
	Speed    *float64 `flag:"speed" unit:"rate" positive:"true" help:"walking speed, units/s (default: a NavAgent's, else 300)"`
	Source   string   `flag:"source" help:"source markers, tour and teleport drive (default: first enabled)"`
	Loops    int      `flag:"loops" default:"1" unit:"count" min:"1" help:"times a loop or pingPong timeline is played"`
	Hold     float64  `flag:"hold" default:"route.DefaultHold" unit:"seconds" help:"seconds the teleport route holds each spawn point"`
	Points   []string `flag:"points" help:"component types whose entities join the Marker entities as markers"`
	Map      string   `flag:"map" unit:"path" help:"draw the cells and the routes made to this SVG (validate's map)"`
	Recorder bool     `flag:"recorder" help:"print the in-game route recorder (TypeScript) and exit"`
	SceneInput

	from map[string]Origin
}

// TuneFixed are the simulate settings worldcook tune takes as they are
// configured (flags of tune, simulate: keys, WORLDCOOK_SIMULATE_*) and
// keeps fixed for the search: the scheduler's and the modelled IO's other
// settings, the warm-up and how a scene is read. The searched ones, the
// route and a report's form are tune's own.
var TuneFixed = []string{
	"max-in-flight", "latency-frames", "io-bytes-per-frame", "lod-radius", "pinned-radius", "evict-cooldown",
	"distance", "fail-rate", "seed", "retries", "retry-backoff", "retry-timeout", "warmup", "policy",
	"publish-frames", "unload-frames", "plane", "levels", "scenes-root", "assets", "asset-costs",
	"view-size", "view-distance",
}

// Name says where the value of field (a pointer to a field of c) came
// from, for messages about it: "--format", "WORLDCOOK_COOK_JOBS" or
// "worldcook.yaml:4:9: cook.jobs".
func (c *Cook) Name(field any) string { return nameOf(c, field, c.from) }

// Name says where the value of field came from; see Cook.Name.
func (c *Validate) Name(field any) string { return nameOf(c, field, c.from) }

// Name says where the value of field came from; see Cook.Name.
func (c *Simulate) Name(field any) string { return nameOf(c, field, c.from) }

// Name says where the value of field came from; see Cook.Name.
func (c *Route) Name(field any) string { return nameOf(c, field, c.from) }

// Name says where the value of field came from; see Cook.Name.
func (c *Tune) Name(field any) string { return nameOf(c, field, c.from) }

func nameOf(section, field any, from map[string]Origin) string {
	sv := reflect.ValueOf(section).Elem()
	name := sectionTypes[sv.Type()]
	fv := reflect.ValueOf(field)
	for _, s := range Declared(name) {
		// A group's first field shares its address with the group: the
		// type tells them apart.
		if f := sv.FieldByIndex(s.index[1:]); f.Addr().Pointer() == fv.Pointer() && f.Type() == fv.Type().Elem() {
			return s.subject(from[s.Path()])
		}
	}
	panic(fmt.Sprintf("config: Name of a field that is not a setting of %s", name))
}

// PlaneFrom says where the plane section cuts on was set, for messages:
// "--plane", "WORLDCOOK_PLANE", "worldcook.yaml:1:8: plane"; "" when it
// was not set (the default).
func (cfg *Config) PlaneFrom(section string) string {
	s := lookup(section, "plane")
	if s == nil {
		return ""
	}
	o := cfg.origins[s.Path()]
	if o.Kind == FromDefault {
		return ""
	}
	return s.subject(o)
}

// Origin says where a setting's value came from.
type Origin struct {
	Kind Kind
	// Name is the flag (--budget), the environment variable, or the file.
	Name         string
	Line, Column int
	// Key is the key that gave the value when it is not the setting's own:
	// "plane" for a cook.plane taken from the top-level plane.
	Key string
}

// Kind is the layer a value came from.
type Kind int

// The layers, lowest precedence first.
const (
	FromDefault Kind = iota
	FromFile
	FromEnv
	FromFlag
)

func (k Kind) String() string {
	return [...]string{"default", "file", "env", "flag"}[k]
}

// String is the origin as `worldcook config` prints it.
func (o Origin) String() string {
	switch o.Kind {
	case FromFile:
		if o.Key != "" {
			return fmt.Sprintf("%s:%d:%d: %s", o.Name, o.Line, o.Column, o.Key)
		}
		return fmt.Sprintf("%s:%d", o.Name, o.Line)
	case FromEnv, FromFlag:
		return o.Kind.String() + " " + o.Name
	}
	return "default"
}

// subject names the setting as the user gave it, to start a message.
func (s *Setting) subject(o Origin) string {
	switch o.Kind {
	case FromFile:
		key := s.Path()
		if o.Key != "" {
			key = o.Key
		}
		return fmt.Sprintf("%s:%d:%d: %s", o.Name, o.Line, o.Column, key)
	case FromEnv:
		return o.Name
	}
	return "--" + s.Flag
}

// Loader binds command-line flags to settings and resolves them. A command
// registers its flags with Register, binds them with Bind, then calls
// Resolve once.
type Loader struct {
	flags map[string][]*pflag.FlagSet
	near  string
}

// Near names the command's first input (a scene, a folder of scenes, a
// cooked world): without --config and without a worldcook.yaml in the
// working directory, Resolve reads the nearest one from the input's folder
// up to its Estella project's root.
func (l *Loader) Near(input string) { l.near = input }

// NewLoader returns a Loader that reads WORLDCOOK_* variables from the
// environment.
func NewLoader() *Loader {
	return &Loader{flags: map[string][]*pflag.FlagSet{}}
}

// Register adds the settings of section ("" for the global ones) to fs as
// flags and returns them. A flag's value is parsed as the setting parses
// it from any layer, so --budget 16KiB and WORLDCOOK_SIMULATE_BUDGET=16KiB
// mean the same.
func Register(section string, fs *pflag.FlagSet) []*Setting {
	return register(Declared(section), fs)
}

// RegisterFixed adds the simulate settings that tune keeps fixed
// (TuneFixed) to fs, as Register does.
func RegisterFixed(fs *pflag.FlagSet) []*Setting {
	var settings []*Setting
	for _, s := range Declared("simulate") {
		if slices.Contains(TuneFixed, s.Flag) {
			settings = append(settings, s)
		}
	}
	return register(settings, fs)
}

func register(declared []*Setting, fs *pflag.FlagSet) []*Setting {
	var settings []*Setting
	for _, s := range declared {
		if f := fs.Lookup(s.Flag); f != nil && s.Inherits() != nil && FlagSetting(f) == s.Inherits() {
			// One --plane in a flag set that holds both: the global one
			// sets the section's too (see inherit).
			continue
		}
		settings = append(settings, s)
		fs.VarP(&flagValue{s: s, text: s.Default}, s.Flag, s.Short, s.Help)
		f := fs.Lookup(s.Flag)
		if s.typ.Kind() == reflect.Bool {
			f.NoOptDefVal = "true"
		}
	}
	return settings
}

// flagValue is a setting's flag: it checks the syntax when the flag is
// parsed (pflag names the flag in the error) and keeps the text, which
// Resolve parses again with the other layers.
type flagValue struct {
	s     *Setting
	text  string
	items []string
	set   bool
}

func (v *flagValue) String() string { return v.text }
func (v *flagValue) Type() string   { return v.s.TypeName() }

func (v *flagValue) Set(x string) error {
	if v.s.List() {
		// --assets a,b --assets c: every item, in order.
		if !v.set {
			v.items = nil
		}
		v.items = append(v.items, strings.Split(x, ",")...)
		v.text, v.set = strings.Join(v.items, ","), true
		return nil
	}
	if _, err := v.s.parse([]string{x}); err != nil {
		return err
	}
	v.text, v.set = x, true
	return nil
}

// Bind makes the flags in fs the top layer of section's settings ("" for
// the global ones). Flags that are not settings of section are left alone.
func (l *Loader) Bind(section string, fs *pflag.FlagSet) error {
	if section != "" && !slices.Contains(Sections(), section) {
		return fmt.Errorf("config: no settings section %q", section)
	}
	l.flags[section] = append(l.flags[section], fs)
	return nil
}

// Resolve reads the configuration file (explicit, else ./worldcook.yaml,
// else the one nearest to the input given to Near: see find) and returns the typed configuration. Every value of every layer
// is checked: an error names the flag, the variable or the file, line and
// key it came from.
func (l *Loader) Resolve(file string) (*Config, error) {
	cfg := &Config{origins: map[string]Origin{}}
	root := reflect.ValueOf(cfg).Elem()
	for _, s := range declared {
		if s.Default != "" {
			v, _ := s.parse([]string{s.Default})
			s.store(root, v)
		}
	}
	cfg.Found = Found{How: ByFlag, File: file}
	if file == "" {
		cfg.Found = find(l.near)
		file = cfg.Found.File
	}
	if file != "" {
		// A file found beside the input is read with its paths from its
		// own folder: cook.out: build means the project's build folder
		// wherever the command runs.
		base := ""
		if cfg.Found.How == NearInput {
			base = filepath.Dir(file)
		}
		if err := readFile(cfg, root, file, base); err != nil {
			return nil, err
		}
		cfg.File = file
	}
	if err := l.env(cfg, root); err != nil {
		return nil, err
	}
	for _, section := range l.sections() {
		for _, s := range Declared(section) {
			for _, fs := range l.flags[section] {
				f := fs.Lookup(s.Flag)
				if f == nil || !f.Changed {
					continue
				}
				if fv, ok := f.Value.(*flagValue); ok && fv.s != s {
					continue // another section's flag of the same name (tune's --budget)
				}
				raw := []string{f.Value.String()}
				if sv, ok := f.Value.(pflag.SliceValue); ok {
					raw = sv.GetSlice()
				} else if fv, ok := f.Value.(*flagValue); ok && s.List() {
					raw = fv.items
				}
				if err := cfg.set(root, s, raw, Origin{Kind: FromFlag, Name: "--" + s.Flag}); err != nil {
					return nil, err
				}
			}
		}
	}
	cfg.inherit(root)
	cfg.Simulate.DefaultWorld = cfg.Cook.Out
	cfg.Cook.from, cfg.Validate.from, cfg.Simulate.from, cfg.Tune.from, cfg.Route.from = cfg.origins, cfg.origins, cfg.origins, cfg.origins, cfg.origins
	return cfg, nil
}

// inherit gives each section's setting that shares its key with a global
// one (plane) the global value, unless the section's own was set in the
// same layer or a higher one: a top-level plane: sets cook.plane,
// validate.plane, simulate.plane and init.plane, a cook.plane in the same
// file overrides it for cook, and WORLDCOOK_PLANE overrides both.
func (cfg *Config) inherit(root reflect.Value) {
	for _, s := range declared {
		g := s.Inherits()
		if g == nil {
			continue
		}
		og, ok := cfg.origins[g.Path()]
		if !ok || cfg.origins[s.Path()].Kind >= og.Kind {
			continue
		}
		root.FieldByIndex(s.index).Set(root.FieldByIndex(g.index))
		og.Key = g.Path()
		cfg.origins[s.Path()] = og
	}
}

// Inherits returns the global setting whose value s takes when its own
// is not set (plane for cook.plane), or nil.
func (s *Setting) Inherits() *Setting {
	if s.Section == "" {
		return nil
	}
	for _, g := range Declared("") {
		if normalize(g.Key) == normalize(s.Key) && g.typ == s.typ {
			return g
		}
	}
	return nil
}

// env reads the WORLDCOOK_* variables of the bound sections. An empty
// variable counts as unset. A variable that looks like a setting of one
// of them (WORLDCOOK_SIMULATE_…) but names none is a typo, refused with
// the nearest name; other WORLDCOOK_* names are not settings and are left
// alone (WORLDCOOK_CORPUS is the tests').
func (l *Loader) env(cfg *Config, root reflect.Value) error {
	for _, section := range l.sections() {
		for _, s := range Declared(section) {
			if v, ok := os.LookupEnv(s.Env); ok && v != "" {
				raw := []string{v}
				if s.List() {
					raw = strings.Split(v, ",")
				}
				if err := cfg.set(root, s, raw, Origin{Kind: FromEnv, Name: s.Env}); err != nil {
					return err
				}
			}
		}
		if section == "" {
			continue
		}
		prefix := "WORLDCOOK_" + strings.ToUpper(section) + "_"
		var names []string
		for _, s := range Declared(section) {
			names = append(names, s.Env)
		}
		var unknown []string
		for _, kv := range os.Environ() {
			name, value, _ := strings.Cut(kv, "=")
			if strings.HasPrefix(name, prefix) && value != "" && !slices.Contains(names, name) {
				unknown = append(unknown, name)
			}
		}
		sort.Strings(unknown)
		if len(unknown) > 0 {
			return fmt.Errorf("environment variable %s is not a setting of %s%s", unknown[0], section, suggest(unknown[0], names))
		}
	}
	return nil
}

// sections are the bound sections, in order, so that of several bad
// values the same one is reported every time.
func (l *Loader) sections() []string {
	var out []string
	for section := range l.flags {
		out = append(out, section)
	}
	sort.Strings(out)
	return out
}

// set parses raw, checks it and stores it with its origin.
func (cfg *Config) set(root reflect.Value, s *Setting, raw []string, o Origin) error {
	v, err := s.parse(raw)
	if err != nil {
		return fmt.Errorf("%s: %v", s.subject(o), err)
	}
	if want, err := s.check(v); err != nil {
		if s.Closed {
			return fmt.Errorf("%s %q: use %s", s.subject(o), want, orList(s.Values))
		}
		return fmt.Errorf("%s must be %s (got %s)", s.subject(o), want, strings.Join(raw, ","))
	}
	s.store(root, v)
	cfg.origins[s.Path()] = o
	return nil
}

func (s *Setting) store(root, v reflect.Value) {
	f := root.FieldByIndex(s.index)
	if s.Optional {
		p := reflect.New(s.typ)
		p.Elem().Set(v)
		v = p
	}
	f.Set(v)
}

// Value is one resolved setting, as `worldcook config` shows it.
type Value struct {
	Setting *Setting
	// Value is the typed value; nil for an optional setting nobody set.
	Value  any
	Text   string // in the flag's syntax; "" when not set
	Origin Origin
}

// Values returns the resolved settings of the given sections ("" for the
// global ones), in declaration order.
func (cfg *Config) Values(sections ...string) []Value {
	root := reflect.ValueOf(cfg).Elem()
	var out []Value
	for _, section := range sections {
		for _, s := range Declared(section) {
			f := root.FieldByIndex(s.index)
			v := Value{Setting: s, Text: s.format(f), Origin: cfg.origins[s.Path()]}
			if !(s.Optional && f.IsNil()) {
				v.Value = reflect.Indirect(f).Interface()
			}
			if d, ok := v.Value.(time.Duration); ok {
				v.Value = d.String()
			}
			out = append(out, v)
		}
	}
	return out
}

// ComponentOrigin is where a component was declared.
func (cfg *Config) ComponentOrigin(name string) Origin {
	return cfg.origins["components."+name]
}

// FlagSetting returns the setting behind a flag that Register added, or
// nil for a flag registered some other way.
func FlagSetting(f *pflag.Flag) *Setting {
	if v, ok := f.Value.(*flagValue); ok {
		return v.s
	}
	return nil
}
