package streaming

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/worldcook/worldcook/manifest"
)

// OpenAssets serves the asset files of the project at dir that m lists,
// with the safety of OpenDir: through an os.Root on the project, regular
// files only, opened without blocking, none read beyond
// manifest.ReadLimit of its manifest size.
func OpenAssets(dir string, m *manifest.Manifest) (*DirFiles, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot open the project %s for its assets: %v", dir, cause(err))
	}
	d := &DirFiles{root: root, bytes: make(map[string]int64, len(m.Assets))}
	for _, a := range m.Assets {
		d.bytes[a.Path] = a.Bytes
	}
	return d, nil
}

// readAssets reads the asset files a request loads besides its document,
// as the runtime's asset loader would, on the same worker, and adds their
// time and bytes to the result.
func (d *DiskLoader) readAssets(req Request, res *Result) error {
	if len(req.Assets) == 0 || d.cfg.Assets == nil {
		return nil
	}
	t0 := time.Now()
	defer func() { res.Read += time.Since(t0) }()
	for _, p := range req.Assets {
		data, err := fs.ReadFile(d.cfg.Assets, p)
		res.BytesRead += int64(len(data))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("asset %s is missing from the project; restore it or re-cook the world", p)
		case err != nil:
			return fmt.Errorf("cannot read asset %s: %v", p, cause(err))
		}
	}
	return nil
}
