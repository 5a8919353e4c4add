//go:build !unix

package main

import "os"

// Where there is no sync(2) or rusage, steps are timed without writing
// dirty pages back first, and peak RSS is not reported.
func syncDisks() {}

func peakRSS(*os.ProcessState) (int64, bool) { return 0, false }
