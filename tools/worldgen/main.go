// Command worldgen writes a synthetic Estella streamed world for benchmarks
// and load tests of worldcook.
//
// Example:
//
//	go run ./tools/worldgen -entities 1000000 -seed 1 -o /tmp/w.esscene
//	go run ./tools/worldgen -entities 10000 -invalid-refs 0.01 -pretty=false > w.esscene
//
// The same flags always produce the same bytes.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/worldcook/worldcook/internal/testworld"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	d := testworld.DefaultOptions(10000, 1)
	fs := flag.NewFlagSet("worldgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: worldgen [flags]")
		fmt.Fprintln(stderr, "example: worldgen -entities 1000000 -seed 1 -o /tmp/w.esscene")
		fs.PrintDefaults()
	}
	var (
		o    testworld.Options
		out  string
		demo bool
	)
	fs.IntVar(&o.Entities, "entities", d.Entities, "number of entity records to write")
	fs.Uint64Var(&o.Seed, "seed", d.Seed, "world seed; equal flags give identical output")
	fs.Float64Var(&o.Extent, "extent", d.Extent, "side of the square the props are scattered over, in world units")
	fs.Float64Var(&o.CellSize, "cell-size", d.CellSize, "StreamedWorld cell size in world units")
	fs.BoolVar(&o.Pretty, "pretty", d.Pretty, "indent with two spaces as the editor does (false: compact JSON)")
	fs.Float64Var(&o.ChildFraction, "child-fraction", d.ChildFraction, "share of entities that are children of props (negative: none)")
	fs.Float64Var(&o.RefFraction, "refs", d.RefFraction, "share of entities carrying an entity reference (negative: none)")
	fs.Float64Var(&o.InvalidRefFraction, "invalid-refs", 0, "share of references that point into another cell")
	fs.IntVar(&o.Sources, "sources", d.Sources, "number of persistent streaming sources (negative: none)")
	fs.StringVar(&o.Plane, "plane", d.Plane, "plane the props spread over: xz or xy")
	fs.StringVar(&o.Name, "name", d.Name, "scene display name")
	fs.Float64Var(&o.PrefabFraction, "prefab-fraction", 0, "share of props written as prefab instances (0.3 for a prefab-heavy world); the prefab library goes to -prefab-dir")
	fs.IntVar(&o.Prefabs, "prefabs", testworld.DefaultPrefabs, "number of prefabs in the library of a prefab-heavy world")
	fs.Float64Var(&o.LargeFraction, "large-fraction", 0, "share of props written as large content (roads, bridges, terrain tiles of 2 to 16 cells)")
	fs.BoolVar(&o.Authored, "authored", false, "write the scene as authored before worldcook init: no StreamedWorld, WorldPersistent or WorldStreamingSource")
	var prefabDir string
	fs.StringVar(&prefabDir, "prefab-dir", "", "folder the prefab library is written under (default: the output file's folder)")
	fs.StringVar(&out, "o", "-", "output file (- for standard output)")
	fs.BoolVar(&demo, "demo", false, "write the fixed demo world instead of a generated one")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "worldgen: unexpected argument %q; the output file is given with -o\n", fs.Arg(0))
		return 2
	}

	if err := o.Check(); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if o.PrefabFraction > 0 && !demo {
		if prefabDir == "" && out == "-" {
			fmt.Fprintln(stderr, "worldgen: a prefab-heavy world written to standard output needs -prefab-dir for its prefab library")
			return 2
		}
		if prefabDir == "" {
			prefabDir = filepath.Dir(out)
		}
		files, err := testworld.PrefabLibrary(o)
		if err == nil {
			err = writeLibrary(prefabDir, files)
		}
		if err != nil {
			fmt.Fprintf(stderr, "worldgen: %v\n", err)
			return 1
		}
	}

	write := func(w io.Writer) error {
		if demo {
			return testworld.Demo(w)
		}
		return testworld.Write(w, o)
	}
	if out == "-" {
		bw := bufio.NewWriter(stdout)
		if err := write(bw); err != nil {
			fmt.Fprintf(stderr, "worldgen: %v\n", err)
			return 1
		}
		if err := bw.Flush(); err != nil {
			fmt.Fprintf(stderr, "worldgen: writing standard output: %v\n", err)
			return 1
		}
		return 0
	}
	if err := writeFile(out, write); err != nil {
		fmt.Fprintf(stderr, "worldgen: %v\n", err)
		return 1
	}
	return 0
}

// writeLibrary writes the prefab library's files under dir.
func writeLibrary(dir string, files []testworld.File) error {
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := writeFile(p, func(w io.Writer) error { _, err := w.Write(f.Data); return err }); err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes through a temporary file in the destination directory and
// renames it into place, so an interrupted run never leaves a truncated world
// that a later benchmark would mistake for a complete one. A destination that
// exists but is not a regular file, such as /dev/null or a named pipe, is
// written directly: renaming over it would replace the device itself.
func writeFile(path string, write func(io.Writer) error) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		if err := write(f); err != nil {
			f.Close()
			return fmt.Errorf("writing %s: %w", path, err)
		}
		return f.Close()
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("creating %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // A no-op after a successful rename.
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
