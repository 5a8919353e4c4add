//go:build unix

package cmd

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestValidatePrefabBesideAFIFO: a named pipe posing as a scene of the
// project is neither opened for reading (it would block) nor skipped in
// silence: it cannot be told not to place the prefab, so it is reported.
func TestValidatePrefabBesideAFIFO(t *testing.T) {
	root := platformerCopy(t)
	pipe := filepath.Join(root, "assets", "scenes", "pipe.esscene")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	code, stdout, stderr := runWithin(t, time.Minute, "validate", filepath.Join(root, "assets", "prefabs", "Coin.esprefab"))
	if code != 2 || !strings.Contains(stderr, pipe) || !strings.Contains(stdout, `streamed world "main"`) {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
