//go:build !race

package cook

// raceEnabled is set when the tests run under the race detector.
const raceEnabled = false
