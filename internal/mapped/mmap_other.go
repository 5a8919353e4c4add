//go:build !linux

package mapped

import "os"

func mmap(*os.File, int64) ([]byte, bool) { return nil, false }

func release([]byte, int, int) {}

func unmap([]byte) error { return nil }
