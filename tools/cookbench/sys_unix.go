//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

func syncDisks() { syscall.Sync() }

// peakRSS is a finished child's peak resident set in bytes.
func peakRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss), true // bytes there, KiB elsewhere
	}
	return int64(ru.Maxrss) * 1024, true
}
