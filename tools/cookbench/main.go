// Command cookbench measures worldcook's whole-command speed on generated
// worlds against floors measured in the same run: copying the file (cp)
// and parsing it once into a typed model with goccy/go-json. It prints
// medians, ratios, throughput and peak RSS, so runs on different machines
// compare by ratio rather than by seconds.
//
//	go run ./tools/cookbench -entities 100000,1000000 -runs 5
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/worldgen"
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

type sample struct {
	wall   time.Duration
	maxRSS int64 // bytes
}

func main() {
	sizes := flag.String("entities", "100000,1000000", "comma-separated world sizes")
	runs := flag.Int("runs", 5, "runs per measurement (the median is reported)")
	bin := flag.String("bin", "", "worldcook binary (default: build one)")
	parseOnly := flag.String("parse-only", "", "internal: run the parse-only floor on FILE")
	flag.Parse()
	if *parseOnly != "" {
		if err := parseFloor(*parseOnly); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
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

	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		check(err)
		scene := filepath.Join(tmp, "main.esscene")
		genStart := time.Now()
		f, err := os.Create(scene)
		check(err)
		w := bufio.NewWriterSize(f, 1<<20)
		check(worldgen.Write(w, worldgen.DefaultOptions(n, 1)))
		check(w.Flush())
		check(f.Close())
		st, _ := os.Stat(scene)
		size := st.Size()
		fmt.Printf("\nworld: %d entities, %.1f MB pretty-printed JSON (generated in %.1fs)\n", n, float64(size)/1e6, time.Since(genStart).Seconds())

		out := filepath.Join(tmp, "out")
		cp := measure(*runs, func() { os.Remove(scene + ".copy") }, "cp", scene, scene+".copy")
		parse := measure(*runs, nil, self, "-parse-only", scene)
		fresh := func() { os.RemoveAll(out) }
		cook := measure(*runs, fresh, *bin, "--quiet", "cook", scene, "--out", out)
		recook := measure(*runs, nil, *bin, "--quiet", "cook", scene, "--out", out)
		written := countWritten(*bin, scene, out)
		validate := measure(*runs, nil, *bin, "--quiet", "validate", scene, "--format", "json")

		row := func(name string, m sample, notes string) {
			fmt.Printf("  %-22s %8.3fs  %6.2f× parse  %6.2f× cp  %7.0f MB RSS (%.2f× input)  %s\n",
				name, m.wall.Seconds(), ratio(m.wall, parse.wall), ratio(m.wall, cp.wall),
				float64(m.maxRSS)/1e6, float64(m.maxRSS)/float64(size), notes)
		}
		fmt.Printf("  median of %d runs, GOMAXPROCS=%s\n", *runs, os.Getenv("GOMAXPROCS"))
		row("cp (floor)", cp, "")
		row("parse-only (floor)", parse, "goccy/go-json into a typed model")
		row("cook", cook, fmt.Sprintf("%.0f entities/s, %.0f MB/s", float64(n)/cook.wall.Seconds(), float64(size)/1e6/cook.wall.Seconds()))
		row("re-cook, no change", recook, fmt.Sprintf("%d files rewritten", written))
		row("validate", validate, "")
		fmt.Printf("  targets: cook ≤ 0.8× parse (%s), ≤ 6× cp (%s), RSS ≤ 1.5× input (%s); re-cook ≤ 0.7× parse (%s); validate ≤ 0.8× parse (%s)\n",
			verdict(ratio(cook.wall, parse.wall) <= 0.8), verdict(ratio(cook.wall, cp.wall) <= 6),
			verdict(float64(cook.maxRSS) <= 1.5*float64(size)), verdict(ratio(recook.wall, parse.wall) <= 0.7 && written == 0),
			verdict(ratio(validate.wall, parse.wall) <= 0.8))
		os.Remove(scene)
		os.RemoveAll(out)
	}
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}

func ratio(a, b time.Duration) float64 { return a.Seconds() / b.Seconds() }

// measure runs a command runs times (after prep, untimed) and returns the
// median wall time and the largest peak RSS.
func measure(runs int, prep func(), name string, args ...string) sample {
	var walls []time.Duration
	var rss int64
	for i := 0; i < runs; i++ {
		if prep != nil {
			prep()
		}
		cmd := exec.Command(name, args...)
		cmd.Stderr = os.Stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() > 1 {
				check(fmt.Errorf("%s %s: %v", name, strings.Join(args, " "), err))
			}
		}
		walls = append(walls, time.Since(start))
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = max(rss, ru.Maxrss*1024)
		}
	}
	sort.Slice(walls, func(i, j int) bool { return walls[i] < walls[j] })
	return sample{wall: walls[len(walls)/2], maxRSS: rss}
}

// countWritten runs one more no-change cook and counts rewritten files.
func countWritten(bin, scene, out string) int {
	b, err := exec.Command(bin, "--json", "cook", scene, "--out", out).Output()
	check(err)
	var res []struct {
		Written []string `json:"written"`
	}
	check(json.Unmarshal(b, &res))
	n := 0
	for _, r := range res {
		n += len(r.Written)
	}
	return n
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
