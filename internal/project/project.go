// Package project reads what worldcook needs of an Estella project: where
// it is (the folder holding project.esproject) and how the engine names
// its scenes. A scene's name is what the game passes to the engine's
// SceneManager and what a world manifest's "scene" says; the engine's
// export gives every scene its path relative to the project's scenes
// folder without ".esscene" ("main", "levels/boss"), and worldcook names
// scenes the same way.
package project

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/worldcook/worldcook/internal/jsondoc"
	"github.com/worldcook/worldcook/internal/regular"
)

// File is the name of the file that makes a folder an Estella project.
const File = "project.esproject"

// MaxFileBytes bounds the project file worldcook reads.
const MaxFileBytes = 1 << 20

// Find returns the Estella project holding file: the nearest folder at or
// above file's folder with a project.esproject (a regular file), as an
// absolute path.
func Find(file string) (string, bool) {
	abs, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return "", false
	}
	for d := abs; ; {
		if st, err := os.Stat(filepath.Join(d, File)); err == nil && st.Mode().IsRegular() {
			return d, true
		}
		up := filepath.Dir(d)
		if up == d {
			return "", false
		}
		d = up
	}
}

// Project is what worldcook reads of a project file.
type Project struct {
	// Root is the project folder.
	Root string
	// ScenesRoot is the project-relative folder (slash-separated, "." for
	// the project's own) scene names are relative to.
	ScenesRoot string
	// From says where ScenesRoot came from, for messages.
	From string
	// DesignWidth and DesignHeight are the designResolution the game is
	// made for, the screen its cameras' views are drawn on (0 × 0 when
	// the project gives none of positive finite sides).
	DesignWidth, DesignHeight float64
	// CameraFit is how the main camera fits the design resolution
	// whatever the scene's Canvas says (features.rendering.cameraScaleMode:
	// 0 fixed-width, 1 fixed-height, 2 expand, 3 shrink, 4 match; -1, the
	// default, for none), and CameraMatch the blend of match (0 width, 1
	// height; default 0.5), as the engine's screen fit reads them.
	CameraFit   int
	CameraMatch float64
}

// cameraFits are the project's cameraScaleMode names, as the engine maps
// them to its scale modes; any other value is the default, no fit.
var cameraFits = map[string]int{"fixed-width": 0, "fixed-height": 1, "expand": 2, "shrink": 3, "match": 4}

// The engine's conventions when a project says nothing: the entry scenes
// `estella export` looks for, and the editor's scenes folder.
var (
	entryCandidates = []string{"assets/scenes/main.esscene", "scenes/main.esscene"}
	defaultScenes   = "assets/scenes"
)

// Load reads the project at root. Its scenes root is, as the engine's
// export finds it, the folder of the entry scene: the project's
// defaultScene, else assets/scenes/main.esscene or scenes/main.esscene
// where one exists; a project with none of them names its scenes from
// its layout's scenes folder (default assets/scenes), as the editor
// files them. A member of the wrong type is ignored, as the engine's
// parser ignores it; a file that is not JSON is an error.
func Load(root string) (*Project, error) {
	file := filepath.Join(root, File)
	f, _, err := regular.Open(file, "project")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read project %s: %v", file, err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("project %s is larger than %d bytes; is it a project file?", file, MaxFileBytes)
	}
	return parse(root, file, data)
}

// parse reads the project file data of the project at root.
func parse(root, file string, data []byte) (*Project, error) {
	if err := jsondoc.Check(data); err != nil {
		return nil, fmt.Errorf("project %s: %v; worldcook reads it for the scenes' names (defaultScene)", file, err)
	}
	var doc map[string]json.RawMessage
	_ = json.Unmarshal(data, &doc) // a document that is no object names nothing
	p := &Project{Root: root, CameraFit: -1, CameraMatch: 0.5}
	// Members are matched exactly, as the engine's parser reads them.
	var features, rendering map[string]json.RawMessage
	if json.Unmarshal(doc["features"], &features) == nil && json.Unmarshal(features["rendering"], &rendering) == nil {
		if s, ok := str(rendering["cameraScaleMode"]); ok {
			if m, ok := cameraFits[s]; ok {
				p.CameraFit = m
			}
		}
		var match float64
		if raw := rendering["cameraMatch"]; len(raw) > 0 && raw[0] != 'n' && json.Unmarshal(raw, &match) == nil {
			p.CameraMatch = math.Min(1, math.Max(0, match))
		}
	}
	var dr struct{ Width, Height float64 }
	if json.Unmarshal(doc["designResolution"], &dr) == nil && dr.Width > 0 && dr.Height > 0 && !math.IsInf(dr.Width, 0) && !math.IsInf(dr.Height, 0) {
		p.DesignWidth, p.DesignHeight = dr.Width, dr.Height
	}
	if s, ok := str(doc["defaultScene"]); ok && s != "" {
		if dir, ok := folderOf(s); ok {
			p.ScenesRoot, p.From = dir, "the folder of its defaultScene "+s
			return p, nil
		}
	}
	for _, c := range entryCandidates {
		if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(c))); err == nil && st.Mode().IsRegular() {
			p.ScenesRoot, p.From = path.Dir(c), "the folder of its entry scene "+c
			return p, nil
		}
	}
	p.ScenesRoot, p.From = defaultScenes, "its scenes folder"
	var layout map[string]json.RawMessage
	if json.Unmarshal(doc["layout"], &layout) == nil {
		if s, ok := str(layout["scenes"]); ok && s != "" {
			if dir, ok := clean(s); ok {
				p.ScenesRoot = dir
			}
		}
	}
	return p, nil
}

// str decodes a JSON string value.
func str(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// clean makes a project-relative path written in the project file (a
// backslash a Windows separator) slash-separated and clean; false when
// it leaves the project.
func clean(p string) (string, bool) {
	c := path.Clean(strings.ReplaceAll(p, "\\", "/"))
	if c == ".." || strings.HasPrefix(c, "../") || strings.HasPrefix(c, "/") {
		return "", false
	}
	return c, true
}

// folderOf is the folder of a project-relative file path.
func folderOf(p string) (string, bool) {
	c, ok := clean(p)
	if !ok {
		return "", false
	}
	return path.Dir(c), true
}

// SceneName is the name the engine gives the scene at project path rel
// (slash-separated): its path relative to the scenes root, or its
// project path when it lies outside that folder, without its ".esscene"
// (in any case).
func (p *Project) SceneName(rel string) string {
	if p.ScenesRoot == "." {
		return trimExt(rel)
	}
	if r, ok := strings.CutPrefix(rel, p.ScenesRoot+"/"); ok {
		return trimExt(r)
	}
	return trimExt(rel)
}

// SceneExt is the extension of scene files.
const SceneExt = ".esscene"

func trimExt(s string) string {
	if len(s) >= len(SceneExt) && strings.EqualFold(s[len(s)-len(SceneExt):], SceneExt) {
		return s[:len(s)-len(SceneExt)]
	}
	return s
}
