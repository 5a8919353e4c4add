//go:build linux

package mapped

import (
	"os"
	"syscall"
)

func mmap(f *os.File, size int64) ([]byte, bool) {
	if size <= 0 || int64(int(size)) != size {
		return nil, false
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, false
	}
	return data, true
}

func release(data []byte, from, to int) {
	page := os.Getpagesize()
	from = (from + page - 1) &^ (page - 1)
	to &^= page - 1
	if from < to {
		// Advice only: a failure leaves the pages where they are.
		_ = syscall.Madvise(data[from:to], syscall.MADV_DONTNEED)
	}
}

func unmap(data []byte) error { return syscall.Munmap(data) }
