package config

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/worldcook/worldcook/internal/assets"
)

// How says how the settings file of a run was found.
type How int

// The ways a settings file is found, in the order they are tried.
const (
	// NoFile: none was given and none was found.
	NoFile How = iota
	// ByFlag: --config FILE.
	ByFlag
	// InWorkDir: worldcook.yaml in the working directory.
	InWorkDir
	// NearInput: worldcook.yaml in the nearest folder from the first
	// input's folder up to its Estella project's root (the folder holding
	// project.esproject).
	NearInput
)

// Found is where a run's settings file came from, and where it was
// looked for when none was found.
type Found struct {
	How How
	// File is the settings file read ("" for NoFile), as a path from the
	// working directory when the input was given as one.
	File string
	// Near is the input the search started from ("" when there was none).
	Near string
	// Searched are the folders looked in besides the working directory,
	// nearest first, as paths from the working directory.
	Searched []string
}

// String says where the file came from, for `worldcook config`.
func (f Found) String() string {
	switch f.How {
	case ByFlag:
		return fmt.Sprintf("%s (--config)", f.File)
	case InWorkDir:
		return fmt.Sprintf("%s (in the working directory)", f.File)
	case NearInput:
		return fmt.Sprintf("%s (the nearest to %s; its relative paths are read from its folder)", f.File, f.Near)
	}
	where := "./" + DefaultFile + " not found"
	switch len(f.Searched) {
	case 0:
	case 1:
		where = fmt.Sprintf("no %s in the working directory or %s", DefaultFile, f.Searched[0])
	default:
		where = fmt.Sprintf("no %s in the working directory or from %s up to %s", DefaultFile, f.Searched[0], f.Searched[len(f.Searched)-1])
	}
	return where + ", no --config"
}

// find locates the settings file when --config is not given: the working
// directory's worldcook.yaml, else the nearest one from near's folder (near
// itself when it is a folder) up to the root of the Estella project
// holding it, or in near's folder alone when it is in no project. A
// scene's settings thus follow it wherever the command is run from, and
// never come from a folder above the project.
func find(near string) Found {
	if _, err := os.Lstat(DefaultFile); err == nil {
		return Found{How: InWorkDir, File: DefaultFile}
	}
	if near == "" {
		return Found{}
	}
	start := near
	if st, err := os.Stat(near); err != nil || !st.IsDir() {
		start = filepath.Dir(near)
	}
	abs, err := filepath.Abs(start)
	if err != nil {
		return Found{}
	}
	dirs := []string{abs}
	if root, ok := assets.FindProject(filepath.Join(abs, assets.ProjectFile)); ok {
		for d := abs; d != root; {
			up := filepath.Dir(d)
			if up == d {
				break
			}
			d = up
			dirs = append(dirs, d)
		}
	}
	cwd, _ := os.Getwd()
	show := func(p string) string {
		if filepath.IsAbs(near) || cwd == "" {
			return p
		}
		if rel, err := filepath.Rel(cwd, p); err == nil {
			return rel
		}
		return p
	}
	f := Found{Near: near}
	for _, d := range dirs {
		file := filepath.Join(d, DefaultFile)
		if _, err := os.Lstat(file); err == nil {
			f.How, f.File = NearInput, show(file)
			return f
		}
		f.Searched = append(f.Searched, show(d))
	}
	return f
}
