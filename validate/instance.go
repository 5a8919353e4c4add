package validate

import "runtime"

// expanderCount is how many goroutines expand n instances (a variable so
// that tests can prove the plan does not depend on it).
var expanderCount = func(n int) int {
	if n < 1<<12 {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), maxPlacers)
}
