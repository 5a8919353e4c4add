package assets

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// readOpen reads at most limit bytes of an opened regular file.
func readOpen(f *os.File, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("is larger than %d bytes", limit)
	}
	return data, nil
}

// ErrText is an error's message without the path an *fs.PathError
// repeats.
func ErrText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
