package regular

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrNotRegular is wrapped by OpenIn's error for a name that is not a
// regular file.
var ErrNotRegular = errors.New("not a regular file")

// OpenIn opens name inside root for reading if it is a regular file, and
// returns it with its metadata. Symbolic links are followed only while
// they stay inside root (os.Root refuses the rest). The open itself never
// blocks: it is made non-blocking, so a named pipe returns at once and is
// then refused by its metadata, as is a device, a socket or a folder.
func OpenIn(root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%w (%s)", ErrNotRegular, kind(st.Mode()))
	}
	return f, st, nil
}
