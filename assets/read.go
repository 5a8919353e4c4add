package assets

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// readBounded reads the regular file at path, refusing anything else and
// anything larger than limit.
func readBounded(path string, limit int64) ([]byte, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("is %s, not a regular file", fileKind(st.Mode()))
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("is larger than %d bytes", limit)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpen(f, limit)
}

// readOpen reads an opened file after checking again that it is regular
// (it may have been swapped since it was looked at), at most limit bytes.
func readOpen(f *os.File, limit int64) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("is %s, not a regular file", fileKind(st.Mode()))
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("is larger than %d bytes", limit)
	}
	return data, nil
}

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}

// errText is an error's message without the path an *fs.PathError
// repeats.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
