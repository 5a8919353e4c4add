package streaming

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/worldcook/worldcook/manifest"
)

// maxAssetRead bounds one asset file read by disk IO; a file larger than
// this is refused rather than read into memory.
const maxAssetRead = 1 << 30

// readAssets reads the asset files a request loads besides its document,
// as the runtime's asset loader would, and adds their time and bytes to
// the result. Only regular files are read (a named pipe would block the
// worker forever), and a path the manifest check would refuse is not
// opened at all.
func (d *DiskLoader) readAssets(req Request, res *Result) error {
	if len(req.Assets) == 0 || d.cfg.Assets == nil {
		return nil
	}
	t0 := time.Now()
	defer func() { res.Read += time.Since(t0) }()
	for _, p := range req.Assets {
		n, err := readAsset(d.cfg.Assets, p)
		res.BytesRead += n
		if err != nil {
			return err
		}
	}
	return nil
}

func readAsset(files fs.FS, p string) (int64, error) {
	if err := manifest.CheckPath(p); err != nil {
		return 0, fmt.Errorf("asset %s: %v", p, err)
	}
	st, err := fs.Stat(files, p)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("asset %s is missing from the project; restore it or re-cook the world", p)
	}
	if err != nil {
		return 0, fmt.Errorf("cannot read asset %s: %v", p, unwrapPathErr(err))
	}
	if !st.Mode().IsRegular() {
		return 0, fmt.Errorf("asset %s is not a regular file; the runtime cannot load it", p)
	}
	if st.Size() > maxAssetRead {
		return 0, fmt.Errorf("asset %s is larger than %d bytes", p, maxAssetRead)
	}
	f, err := files.Open(p)
	if err != nil {
		return 0, fmt.Errorf("cannot read asset %s: %v", p, unwrapPathErr(err))
	}
	defer f.Close()
	n, err := io.Copy(io.Discard, io.LimitReader(f, maxAssetRead))
	if err != nil {
		return n, fmt.Errorf("cannot read asset %s: %v", p, unwrapPathErr(err))
	}
	return n, nil
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
