//go:build !unix

package cook

import (
	"os"
	"time"
)

// Lock is a no-op where flock is not available.
type Lock struct{}

// LockDir creates dir; concurrent cooks are not excluded on this platform.
func LockDir(dir string, _ time.Duration, _ func()) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, writeErr(dir, "cannot create the output directory", err)
	}
	return &Lock{}, nil
}

// Unlock does nothing.
func (l *Lock) Unlock() error { return nil }
