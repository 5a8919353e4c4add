// Command cookbench measures worldcook's whole-command speed on generated
// worlds against floors measured in the same run: copying the file (cp),
// copying it and creating the cooked tree (cp + tree), and parsing it
// once into a typed model with goccy/go-json. For each world size it
// prints the median wall and CPU time of the floors, cook, a no-change
// re-cook and validate, their ratios to the floors, entities/s, MB/s and
// peak RSS, and whether the scale targets are met. With -base it also
// runs an earlier build's cook and validate, interleaved, and prints the
// ratios of the two builds.
// It then runs the scheduler benchmarks of package streaming and prints
// simulate's per-frame cost on a 32² and a 1024² cell world and on the
// reference scheduler's 256²-cell random walk. Runs on different machines
// compare by ratio rather than by seconds.
//
//	go run ./tools/cookbench                          # 100k and 1M entities, 5 runs
//	go run ./tools/cookbench -entities 5000000 -runs 3
//	TMPDIR=/dev/shm go run ./tools/cookbench -entities 1000000 -base old/worldcook -parse-floor=false -prefabs 0 -simulate=false
//
// Run it from the module root: it builds worldcook from "." and runs
// `go test ./streaming`.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/internal/testworld"
)

// typedScene is what a straightforward decoder would build: every record
// decoded, component data kept raw. It is the parse-only floor.
type typedScene struct {
	Version  json.RawMessage `json:"version"`
	Name     string          `json:"name"`
	Entities []struct {
		ID         int64   `json:"id"`
		Name       string  `json:"name"`
		Parent     *int64  `json:"parent"`
		Children   []int64 `json:"children"`
		Visible    *bool   `json:"visible"`
		Components []struct {
			Type string          `json:"type"`
			Data json.RawMessage `json:"data"`
		} `json:"components"`
	} `json:"entities"`
}

// The scale targets (ratios measured in one run).
const (
	cookVsParse     = 0.8 // cook ≤ 0.8× the parse-only pass
	cookVsCopy      = 6   // cook ≤ 6× cp
	cookVsTree      = 1.6 // cook ≤ 1.6× copying the input and creating the cooked tree
	cookRSSVsInput  = 0.9 // cook's peak RSS ≤ 0.9× the input file
	recookVsParse   = 0.7 // no-change re-cook ≤ 0.7× parse-only, nothing rewritten
	validateVsParse = 0.8 // validate ≤ 0.8× parse-only
	stepScaling     = 1.5 // a frame on 1024² cells ≤ 1.5× a frame on 32²
	referenceFaster = 50  // ≥ 50× faster than the reference scheduler
	prefabVsPlain   = 1.3 // a prefab-heavy world cooks in ≤ 1.3× the plain one's time
)

// step is one command measured runs times.
type step struct {
	key   string // in benchmark-format results: BenchmarkCommand/<key>/entities=N
	name  string
	prep  func() // untimed, before each run
	argv  []string
	walls []time.Duration
	cpus  []time.Duration // user + system CPU time of each run
	rsss  []int64         // peak RSS of each run, bytes
	err   error
}

// maxRSS is the largest peak RSS of any run, in bytes.
func (s *step) maxRSS() int64 {
	if len(s.rsss) == 0 {
		return 0
	}
	return slices.Max(s.rsss)
}

func (s *step) median() time.Duration { return medianDuration(s.walls) }

// cpu is the median CPU time (user + system) of the runs: on a machine
// shared with other work it moves less than the wall time.
func (s *step) cpu() time.Duration { return medianDuration(s.cpus) }

func medianDuration(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	w := append([]time.Duration(nil), ds...)
	sort.Slice(w, func(i, j int) bool { return w[i] < w[j] })
	return w[len(w)/2]
}

// targetEntities is the world size the cook and validate targets are set
// for; smaller worlds show their ratios against the same limits without a
// verdict (fixed costs weigh more there).
const targetEntities = 1_000_000

// spread is (slowest - fastest) / median: how noisy the runs were.
func (s *step) spread() float64 {
	lo, hi := slices.Min(s.walls), slices.Max(s.walls)
	return (hi - lo).Seconds() / s.median().Seconds()
}

// verdicts collects every target checked, for the closing summary.
var verdicts []string

// target prints one target with the measured figure; counted targets also
// go into the closing summary.
func target(name string, ok, counted bool, got string) {
	v := "met"
	if !ok {
		v = "NOT met"
	}
	if !counted {
		v = "(" + v + "; the target is set for 1M entities)"
	}
	fmt.Printf("    %-50s %-18s %s\n", name, got, v)
	if counted {
		verdicts = append(verdicts, fmt.Sprintf("%-50s %-18s %s", name, got, v))
	}
}

// levels, when set, adds a cook with --levels to each world's steps.
var levels int

// baseBin, when set, is a second worldcook binary whose cook and validate
// run interleaved with those of the measured one, for a before-and-after
// comparison on the same world under the same load.
var baseBin string

// parseFloor, when false, leaves out the parse-only floor: the slowest
// and noisiest step, not needed to compare two builds.
var parseFloorOn = true

func main() {
	sizes := flag.String("entities", "100000,1000000", "comma-separated world sizes, in entities (e.g. 5000000 for the 5M world)")
	runs := flag.Int("runs", 5, "runs per measurement (the median is reported)")
	bin := flag.String("bin", "", "worldcook binary (default: build one from the module in the current directory)")
	flag.BoolVar(&parseFloorOn, "parse-floor", true, "measure the parse-only floor (false: skip it, and the ratios to it read n/a)")
	flag.StringVar(&baseBin, "base", "", "also cook and validate with this worldcook `binary` (an earlier build), interleaved with -bin's, and print the ratios")
	simulate := flag.Bool("simulate", true, "also run the scheduler benchmarks (go test ./streaming)")
	benchOut := flag.String("o", "", "also write every run in Go benchmark format to `FILE`, for benchstat")
	parseOnly := flag.String("parse-only", "", "internal: run the parse-only floor on FILE")
	flag.IntVar(&levels, "levels", 0, "also cook each world with --levels N, interleaved with the plain cook; 0 skips it")
	prefabs := flag.Float64("prefabs", 0.3, "also cook a prefab-heavy world (this share of props as prefab instances) beside the plain one of each size; 0 skips it")
	flag.Parse()
	if *parseOnly != "" {
		if err := parseFloor(*parseOnly); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if *runs < 1 {
		check(fmt.Errorf("-runs %d: need at least one run", *runs))
	}
	var worlds []int
	for _, s := range strings.Split(*sizes, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			check(fmt.Errorf("-entities: %q is not a positive entity count", s))
		}
		worlds = append(worlds, n)
	}
	tmp, err := os.MkdirTemp("", "cookbench")
	check(err)
	defer os.RemoveAll(tmp)
	if *bin == "" {
		*bin = filepath.Join(tmp, "worldcook")
		cmd := exec.Command("go", "build", "-trimpath", "-o", *bin, ".")
		cmd.Stderr = os.Stderr
		check(cmd.Run())
	}
	self, err := os.Executable()
	check(err)

	fmt.Printf("cookbench: %s, %d CPUs, GOMAXPROCS=%d, %s, load average %s\n",
		cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), loadAverage())
	var results bytes.Buffer
	fmt.Fprintf(&results, "goos: %s\ngoarch: %s\npkg: github.com/worldcook/worldcook/tools/cookbench\ncpu: %s\n", runtime.GOOS, runtime.GOARCH, cpuModel())
	for _, n := range worlds {
		cookWorld(&results, tmp, *bin, self, n, *runs)
	}
	if *prefabs > 0 {
		for _, n := range worlds {
			prefabWorld(&results, tmp, *bin, n, *runs, *prefabs)
		}
	}
	if *benchOut != "" {
		check(os.WriteFile(*benchOut, results.Bytes(), 0o644))
	}
	if *simulate {
		simulateBench(*runs)
	}
	fmt.Printf("\nload average at the end: %s\n", loadAverage())
	fmt.Println("targets:")
	if len(verdicts) == 0 {
		fmt.Println("  none checked (the cook targets are set for worlds of 1M entities or more)")
	}
	for _, v := range verdicts {
		fmt.Println("  " + v)
	}
}

// cookWorld generates a world of n entities and measures the floors and
// the commands on it, interleaving the runs so that a change in the load
// of the machine affects every step alike.
func cookWorld(results io.Writer, tmp, bin, self string, n, runs int) {
	scene := filepath.Join(tmp, "main.esscene")
	out := filepath.Join(tmp, "out")
	defer os.Remove(scene)
	defer os.RemoveAll(out)
	genStart := time.Now()
	f, err := os.Create(scene)
	check(err)
	w := bufio.NewWriterSize(f, 1<<20)
	check(testworld.Write(w, testworld.DefaultOptions(n, 1)))
	check(w.Flush())
	check(f.Close())
	st, err := os.Stat(scene)
	check(err)
	size := st.Size()
	mb := float64(size) / 1e6
	fmt.Printf("\nworld: %d entities, %.1f MB pretty-printed JSON (generated in %.1fs)\n", n, mb, time.Since(genStart).Seconds())

	cp := &step{key: "cp", name: "cp (floor)", prep: func() { os.Remove(scene + ".copy") }, argv: []string{"cp", scene, scene + ".copy"}}
	// The write floor: copying the input and creating the cooked tree
	// (every file of a cooked world, copied from one made before the
	// runs): the bytes any cook must read and write, and nothing else.
	tree := filepath.Join(tmp, "tree")
	treeCopy := filepath.Join(tmp, "tree.copy")
	defer os.RemoveAll(tree)
	defer os.RemoveAll(treeCopy)
	cpTree := &step{key: "cp-tree", name: "cp + tree (floor)",
		prep: func() { os.Remove(scene + ".copy"); os.RemoveAll(treeCopy) },
		argv: []string{"sh", "-c", `cp "$1" "$2" && cp -R "$3" "$4"`, "sh", scene, scene + ".copy", tree, treeCopy}}
	if err := exec.Command(bin, "--quiet", "cook", scene, "--out", tree).Run(); err != nil {
		cpTree.err = fmt.Errorf("cooking the tree to copy: %v", err)
	}
	parse := &step{key: "parse-only", name: "parse-only (floor)", argv: []string{self, "-parse-only", scene}}
	cook := &step{key: "cook", name: "cook", prep: func() { os.RemoveAll(out) }, argv: []string{bin, "--quiet", "cook", scene, "--out", out}}
	recook := &step{key: "re-cook", name: "re-cook, no change", argv: []string{bin, "--quiet", "cook", scene, "--out", out}}
	validate := &step{key: "validate", name: "validate", argv: []string{bin, "--quiet", "validate", scene, "--format", "json"}}
	steps := []*step{cp, cpTree, parse, cook, recook, validate}
	var cookB, validateB *step
	if baseBin != "" {
		cookB = &step{key: "cook-base", name: "cook (-base)", prep: func() { os.RemoveAll(out) }, argv: []string{baseBin, "--quiet", "cook", scene, "--out", out}}
		validateB = &step{key: "validate-base", name: "validate (-base)", argv: []string{baseBin, "--quiet", "validate", scene, "--format", "json"}}
		steps = []*step{cp, cpTree, parse, cookB, cook, recook, validateB, validate} // the measured cook last, for the re-cook
	}
	var cookL *step
	if levels > 0 {
		n := strconv.Itoa(levels)
		cookL = &step{key: "cook-levels-" + n, name: "cook --levels " + n, prep: func() { os.RemoveAll(out) }, argv: []string{bin, "--quiet", "cook", scene, "--out", out, "--levels", n}}
		steps = slices.Insert(steps, slices.Index(steps, cook), cookL) // the plain cook last, for the re-cook
	}
	// The typed parse holds about four times the input; skip it rather
	// than let the kernel kill some process to make room.
	if !parseFloorOn {
		parse.err = fmt.Errorf("skipped (-parse-floor=false)")
	} else if need, avail := 4.5*float64(size), memAvailable(); avail > 0 && need > avail {
		parse.err = fmt.Errorf("skipped: the typed parse needs about %.1f GB of memory, %.1f GB is available", need/1e9, avail/1e9)
	}
	for i := 0; i < runs; i++ {
		for _, s := range steps {
			run(s)
		}
	}
	os.Remove(scene + ".copy")
	written, err := countWritten(bin, scene, out)
	if err != nil {
		recook.err = err
	}

	for _, s := range steps {
		for i, w := range s.walls {
			fmt.Fprintf(results, "BenchmarkCommand/%s/entities=%d 1 %d ns/op %.2f MB/s %.0f entities/s", s.key, n, w.Nanoseconds(), mb/w.Seconds(), float64(n)/w.Seconds())
			if i < len(s.cpus) {
				fmt.Fprintf(results, " %d cpu-ns/op", s.cpus[i].Nanoseconds())
			}
			if i < len(s.rsss) {
				fmt.Fprintf(results, " %d peak-RSS-B", s.rsss[i])
			}
			fmt.Fprintln(results)
		}
	}

	fmt.Printf("  median of %d interleaved runs (spread: (slowest - fastest) / median); peak RSS is the largest of the runs\n", runs)
	fmt.Printf("  %-20s %9s %7s %8s %8s %8s %8s %8s %12s %9s %7s\n", "", "wall", "spread", "CPU", "×parse", "×cp", "×floor", "MB/s", "entities/s", "peak RSS", "×input")
	for _, s := range steps {
		if s.err != nil {
			fmt.Printf("  %-20s failed: %v\n", s.name, s.err)
			continue
		}
		m := s.median()
		note := ""
		if s == recook {
			note = fmt.Sprintf("  %d files rewritten", written)
		}
		if s == parse {
			note = "  goccy/go-json into a typed model"
		}
		fmt.Printf("  %-20s %8.3fs %6.0f%% %7.3fs %8s %8s %8s %8.0f %12.0f %6.0f MB %6.2f×%s\n", s.name, m.Seconds(), 100*s.spread(), s.cpu().Seconds(),
			ratioText(s, parse), ratioText(s, cp), ratioText(s, cpTree), mb/m.Seconds(), float64(n)/m.Seconds(),
			float64(s.maxRSS())/1e6, float64(s.maxRSS())/float64(size), note)
	}
	if cookL != nil && ok(cookL, cook) {
		r := ratio(cookL, cook)
		target(fmt.Sprintf("%s: cook --levels %d ≤ 1.1× cook", short(n), levels), r <= 1.1, n >= targetEntities, fmt.Sprintf("%.3f×", r))
	}
	if cookB != nil {
		for _, p := range [][2]*step{{cook, cookB}, {validate, validateB}} {
			if ok(p[0], p[1]) {
				fmt.Printf("  %s ÷ %s: wall %.3f×, CPU %.3f×, peak RSS %.3f×\n", p[0].name, p[1].name, ratio(p[0], p[1]),
					p[0].cpu().Seconds()/p[1].cpu().Seconds(), float64(p[0].maxRSS())/float64(p[1].maxRSS()))
			}
		}
	}
	fmt.Printf("  targets, %d entities:\n", n)
	counted := n >= targetEntities
	if ok(cook, parse) {
		r := ratio(cook, parse)
		target(fmt.Sprintf("%s: cook ≤ %.1f× parse-only", short(n), cookVsParse), r <= cookVsParse, counted, fmt.Sprintf("%.2f×", r))
	}
	if ok(cook, cp) {
		r := ratio(cook, cp)
		target(fmt.Sprintf("%s: cook ≤ %g× cp", short(n), float64(cookVsCopy)), r <= cookVsCopy, counted, fmt.Sprintf("%.2f×", r))
	}
	if ok(cook, cpTree) {
		r := ratio(cook, cpTree)
		target(fmt.Sprintf("%s: cook ≤ %.1f× cp + tree", short(n), cookVsTree), r <= cookVsTree, counted, fmt.Sprintf("%.2f×", r))
	}
	if ok(cook) {
		r := float64(cook.maxRSS()) / float64(size)
		target(fmt.Sprintf("%s: cook peak RSS ≤ %.1f× input", short(n), cookRSSVsInput), r <= cookRSSVsInput, counted, fmt.Sprintf("%.2f×", r))
	}
	if ok(recook, parse) {
		r := ratio(recook, parse)
		target(fmt.Sprintf("%s: re-cook ≤ %.1f× parse-only, 0 rewritten", short(n), recookVsParse), r <= recookVsParse && written == 0, counted,
			fmt.Sprintf("%.2f×, %d rewritten", r, written))
	}
	if ok(validate, parse) {
		r := ratio(validate, parse)
		target(fmt.Sprintf("%s: validate ≤ %.1f× parse-only", short(n), validateVsParse), r <= validateVsParse, counted, fmt.Sprintf("%.2f×", r))
	}
}

// genWorld writes a world of options o to dir/main.esscene, with its
// prefab library beside it, and returns the scene's path and size.
func genWorld(dir string, o testworld.Options) (string, int64) {
	check(os.MkdirAll(dir, 0o755))
	files, err := testworld.PrefabLibrary(o)
	check(err)
	for _, lf := range files {
		p := filepath.Join(dir, filepath.FromSlash(lf.Path))
		check(os.MkdirAll(filepath.Dir(p), 0o755))
		check(os.WriteFile(p, lf.Data, 0o644))
	}
	scene := filepath.Join(dir, "main.esscene")
	f, err := os.Create(scene)
	check(err)
	w := bufio.NewWriterSize(f, 1<<20)
	check(testworld.Write(w, o))
	check(w.Flush())
	check(f.Close())
	st, err := os.Stat(scene)
	check(err)
	return scene, st.Size()
}

// prefabWorld cooks and validates a plain world and a prefab-heavy world
// of n records each (a share frac of the props are instances of a
// 50-prefab library: nested, variants, edits), interleaved, and checks
// that the prefab-heavy cook takes at most prefabVsPlain × the plain one.
func prefabWorld(results io.Writer, tmp, bin string, n, runs int, frac float64) {
	plainDir, heavyDir := filepath.Join(tmp, "plain"), filepath.Join(tmp, "prefab-heavy")
	defer os.RemoveAll(plainDir)
	defer os.RemoveAll(heavyDir)
	o := testworld.DefaultOptions(n, 1)
	plain, ps := genWorld(plainDir, o)
	o.PrefabFraction = frac
	heavy, hs := genWorld(heavyDir, o)
	fmt.Printf("\nprefab-heavy world: %d records, %g of the props prefab instances, %.1f MB (plain: %.1f MB)\n", n, frac, float64(hs)/1e6, float64(ps)/1e6)
	mk := func(key, name, scene, dir string) (*step, *step) {
		out := filepath.Join(dir, "out")
		return &step{key: key, name: name + " cook", prep: func() { os.RemoveAll(out) }, argv: []string{bin, "--quiet", "cook", scene, "--out", out}},
			&step{key: key + "-validate", name: name + " validate", argv: []string{bin, "--quiet", "validate", scene, "--format", "json"}}
	}
	pc, pv := mk("cook-plain", "plain", plain, plainDir)
	hc, hv := mk("cook-prefab-heavy", "prefab-heavy", heavy, heavyDir)
	steps := []*step{pc, hc, pv, hv}
	for i := 0; i < runs; i++ {
		for _, s := range steps {
			run(s)
		}
	}
	for _, s := range steps {
		for _, w := range s.walls {
			fmt.Fprintf(results, "BenchmarkCommand/%s/entities=%d 1 %d ns/op\n", s.key, n, w.Nanoseconds())
		}
	}
	fmt.Printf("  median of %d interleaved runs\n", runs)
	for _, s := range steps {
		if s.err != nil {
			fmt.Printf("  %-24s failed: %v\n", s.name, s.err)
			continue
		}
		fmt.Printf("  %-24s %8.3fs %6.0f%% spread %6.0f MB peak RSS\n", s.name, s.median().Seconds(), 100*s.spread(), float64(s.maxRSS())/1e6)
	}
	if ok(pc, hc) {
		r := ratio(hc, pc)
		target(fmt.Sprintf("%s: prefab-heavy cook ≤ %.1f× plain cook", short(n), prefabVsPlain), r <= prefabVsPlain, n >= targetEntities, fmt.Sprintf("%.2f×", r))
	}
	if ok(pv, hv) {
		r := ratio(hv, pv)
		target(fmt.Sprintf("%s: prefab-heavy validate ≤ %.1f× plain validate", short(n), prefabVsPlain), r <= prefabVsPlain, n >= targetEntities, fmt.Sprintf("%.2f×", r))
	}
}

// short names a world size: 100k, 1M, 5M.
func short(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	}
	return strconv.Itoa(n)
}

func ok(steps ...*step) bool {
	for _, s := range steps {
		if s.err != nil {
			return false
		}
	}
	return true
}

func ratio(a, b *step) float64 { return a.median().Seconds() / b.median().Seconds() }

func ratioText(a, b *step) string {
	if !ok(a, b) {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", ratio(a, b))
}

// run runs a step once (after its untimed prep) and records its wall time
// and peak RSS. Exit status 1 is accepted: validate reports findings so.
func run(s *step) {
	if s.err != nil {
		return
	}
	if s.prep != nil {
		s.prep()
	}
	// Write back what earlier steps left dirty (a cooked world, a copy,
	// the files just removed), so that no step pays for another's I/O.
	syncDisks()
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		if ee, isExit := err.(*exec.ExitError); !isExit || ee.ExitCode() != 1 {
			s.err = fmt.Errorf("%s: %v %s", strings.Join(s.argv, " "), err, strings.TrimSpace(stderr.String()))
			return
		}
	}
	s.walls = append(s.walls, wall)
	s.cpus = append(s.cpus, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
	if rss, ok := peakRSS(cmd.ProcessState); ok {
		s.rsss = append(s.rsss, rss)
	}
}

// countWritten runs one more no-change cook and counts rewritten files.
func countWritten(bin, scene, out string) (int, error) {
	b, err := exec.Command(bin, "--json", "cook", scene, "--out", out).Output()
	if err != nil {
		return 0, fmt.Errorf("cook --json: %v", err)
	}
	// JSON Lines (docs/json.md): one "cook" object per scene.
	n := 0
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var r struct {
			Type    string   `json:"message_type"`
			Written []string `json:"written"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			return 0, fmt.Errorf("cook --json: %v", err)
		}
		if r.Type == "cook" {
			n += len(r.Written)
		}
	}
	return n, nil
}

// simulateBench runs the scheduler benchmarks of package streaming count
// times and prints the medians of their metrics.
func simulateBench(count int) {
	args := []string{"test", "-run", "^$", "-bench", "^(BenchmarkStepScaling|BenchmarkReferenceRandomWalk)$",
		"-count", strconv.Itoa(count), "./streaming"}
	fmt.Printf("\nsimulate: go %s\n", strings.Join(args, " "))
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	outp, err := cmd.StdoutPipe()
	check(err)
	check(cmd.Start())
	metrics := parseBench(outp)
	if err := cmd.Wait(); err != nil {
		fmt.Printf("  failed: %v\n", err)
		return
	}
	scale := metrics["BenchmarkStepScaling"]
	small, large, r := median(scale["ns/frame-32²"]), median(scale["ns/frame-1024²"]), median(scale["ratio"])
	fmt.Printf("  median of %d runs\n", count)
	fmt.Printf("  per frame, same route and radii:  32² cells %7.0f ns   1024² cells %7.0f ns   ratio %.2f\n", small, large, r)
	ref := metrics["BenchmarkReferenceRandomWalk"]
	perFrame, faster := median(ref["ns/frame"]), median(ref["x-faster-than-reference"])
	fmt.Printf("  reference case (256² cells of 8 units, 10,000-frame random walk): %.0f ns/frame, %.0f× faster than the reference's 165 µs\n", perFrame, faster)
	fmt.Println("  targets, simulate:")
	if !math.IsNaN(r) {
		target(fmt.Sprintf("simulate: frame on 1024² ≤ %.1f× on 32² cells", stepScaling), r <= stepScaling, true, fmt.Sprintf("%.2f×", r))
	}
	if !math.IsNaN(faster) {
		target(fmt.Sprintf("simulate: ≥ %d× faster than the reference", referenceFaster), faster >= referenceFaster, true, fmt.Sprintf("%.0f×", faster))
	}
}

// parseBench reads `go test -bench` output, echoing it, and returns every
// metric of every benchmark (name without the -N suffix) by unit.
func parseBench(r io.Reader) map[string]map[string][]float64 {
	out := map[string]map[string][]float64{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		fmt.Println("  " + line)
		name := fields[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			name = name[:i]
		}
		if out[name] == nil {
			out[name] = map[string][]float64{}
		}
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			out[name][fields[i+1]] = append(out[name][fields[i+1]], v)
		}
	}
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, found := strings.Cut(line, ":"); found && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return runtime.GOOS + "/" + runtime.GOARCH
}

// memAvailable returns the memory the kernel can give without swapping,
// in bytes, or 0 if unknown.
func memAvailable() float64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, found := strings.CutPrefix(line, "MemAvailable:"); found {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, err := strconv.ParseFloat(f[0], 64)
				if err == nil {
					return kb * 1024
				}
			}
		}
	}
	return 0
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "n/a"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "n/a"
	}
	return strings.Join(f[:3], " ")
}

func parseFloor(file string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var s typedScene
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if len(s.Entities) == 0 {
		return fmt.Errorf("no entities decoded")
	}
	return nil
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "cookbench:", err)
		os.Exit(1)
	}
}
