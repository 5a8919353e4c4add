package validate

import (
	"fmt"
	"path/filepath"
	"strings"
)

// FileSafe turns a runtime name into a file name the way the Estella
// runtime does: every character outside [A-Za-z0-9_.-] becomes '_'. The
// result never contains a path separator, so it cannot leave world/.
func FileSafe(name string) string {
	b := []byte(name)
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '.', c == '-':
		default:
			b[i] = '_'
		}
	}
	s := string(b)
	// "." and ".." are made only of safe characters but name directories.
	if strings.Trim(s, ".") == "" {
		s = strings.Repeat("_", len(s))
	}
	return s
}

// SceneName is a scene's name as the Estella runtime registers it: its path
// relative to scenesRoot, slash-separated, without ".esscene". An empty
// scenesRoot means the file's own directory.
func SceneName(file, scenesRoot string) (string, error) {
	if scenesRoot == "" {
		scenesRoot = filepath.Dir(file)
	}
	absFile, err := filepath.Abs(file)
	if err != nil {
		return "", err
	}
	absRoot, err := filepath.Abs(scenesRoot)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(absRoot, absFile)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is not under the scenes root %s; pass --scenes-root with a folder that contains it", file, scenesRoot)
	}
	rel = filepath.ToSlash(rel)
	rel = strings.TrimSuffix(rel, ".esscene")
	if rel == "" || rel == "." {
		return "", fmt.Errorf("%s has no scene name", file)
	}
	return rel, nil
}
