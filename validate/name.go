package validate

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	estella "github.com/worldcook/worldcook/internal/project"
)

// SceneExt is the file extension of Estella scene documents.
const SceneExt = ".esscene"

// SceneName returns the name the Estella runtime registers a scene under:
// its path relative to scenesRoot, without ".esscene", with forward
// slashes ("levels/boss"). An empty scenesRoot means the engine's own
// rule for a scene inside an Estella project (relative to the project's
// scenes folder, the folder of its defaultScene: see internal/project),
// and the file's own directory for any other, so "main.esscene" is
// "main". Cook and validate both name cells after it, so a world
// validated and a world cooked agree on every name.
func SceneName(file, scenesRoot string) (string, error) {
	if scenesRoot == "" {
		if root, ok := estella.Find(file); ok {
			return projectSceneName(file, root)
		}
		scenesRoot = filepath.Dir(file)
	}
	absRoot, err := filepath.Abs(scenesRoot)
	if err != nil {
		return "", fmt.Errorf("scenes root %s: %v", scenesRoot, err)
	}
	absFile, err := filepath.Abs(file)
	if err != nil {
		return "", fmt.Errorf("scene %s: %v", file, err)
	}
	rel, err := filepath.Rel(absRoot, absFile)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("scene %s is not inside the scenes root %s; pass --scenes-root with the folder that holds the game's scenes", file, scenesRoot)
	}
	return checkedName(file, strings.TrimSuffix(filepath.ToSlash(rel), SceneExt))
}

// projectSceneName names the scene at file inside the project at root as
// the engine does.
func projectSceneName(file, root string) (string, error) {
	p, err := estella.Load(root)
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", fmt.Errorf("scene %s: %v", file, err)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return "", fmt.Errorf("scene %s: %v", file, err)
	}
	return checkedName(file, p.SceneName(filepath.ToSlash(rel)))
}

// checkedName refuses a name the manifest cannot hold.
func checkedName(file, name string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("scene %s has an empty name; rename the file", file)
	}
	if !utf8.ValidString(name) {
		// The name goes into JSON documents and the manifest, which are UTF-8.
		return "", fmt.Errorf("scene %q has a file name that is not valid UTF-8; rename the file", file)
	}
	if r, ok := controlIn(name); ok {
		// The manifest and every report carry the name; a tab or a line
		// break would split their lines, ESC reach the terminal.
		return "", fmt.Errorf("scene %q has a name holding the control character %s; rename the file", file, controlName(r))
	}
	return name, nil
}
