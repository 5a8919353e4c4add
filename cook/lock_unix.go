//go:build unix

package cook

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// Lock holds the output directory for one cook at a time. It is an
// advisory flock on the directory itself, so it needs no lock file, and
// the kernel drops it when the process dies: a killed cook never leaves
// the directory locked.
type Lock struct{ f *os.File }

// LockDir locks dir, creating it if needed. When another cook holds it,
// LockDir calls waiting once and retries until timeout.
func LockDir(dir string, timeout time.Duration, waiting func()) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, writeErr(dir, "cannot create the output directory", err)
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot open the output directory: %w", err)
	}
	deadline := time.Now().Add(timeout)
	told := false
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return &Lock{f: f}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("cannot lock the output directory %s: %w", dir, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("another worldcook cook is writing %s; wait for it to finish, raise --lock-timeout, or cook into another --out", dir)
		}
		// Say that we wait only when we really will: with a timeout
		// shorter than one retry the next line is the refusal.
		if !told && waiting != nil && time.Until(deadline) > lockRetry {
			waiting()
			told = true
		}
		time.Sleep(lockRetry)
	}
}

// lockRetry is how often a waiting cook tries the lock again.
const lockRetry = 50 * time.Millisecond

// Unlock releases the directory.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	err := l.f.Close()
	l.f = nil
	return err
}
