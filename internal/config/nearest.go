package config

import "sort"

// synonyms are the words a newcomer reaches for instead of worldcook's
// own, by what they mean rather than how they are spelt: the flag other
// tools call so (--output, -o's long form), or another word for the same
// thing (a camera --route is a --path). Each setting is listed with the
// words that mean it; a word is compared spelling-blind, as every name.
var synonyms = []struct {
	setting string
	words   []string
}{
	{"out", []string{"output", "output-dir", "outdir", "output-directory", "dest", "destination", "target-dir", "build-dir"}},
	{"path", []string{"route", "routes", "camera-path", "track", "trajectory", "waypoints"}},
	{"cell-size", []string{"cell", "grid-size", "cell-width", "tile-size"}},
	{"check", []string{"dry-run", "verify"}},
	{"write", []string{"apply", "in-place", "inplace"}},
	{"config", []string{"config-file", "settings", "conf"}},
	{"jobs", []string{"threads", "parallel", "workers", "concurrency"}},
	{"assets", []string{"asset-dir", "assets-dir", "project"}},
	{"format", []string{"output-format", "reporter"}},
	{"quiet", []string{"silent"}},
}

// Synonym returns the setting name means (a setting's own name, in any
// spelling, means itself), or "".
func Synonym(name string) string {
	n := normalize(name)
	for _, s := range synonyms {
		if normalize(s.setting) == n {
			return s.setting
		}
		for _, w := range s.words {
			if normalize(w) == n {
				return s.setting
			}
		}
	}
	return ""
}

// Meant returns the candidate a user who wrote name most likely meant:
// the one it is a synonym of, else the nearest by spelling (Nearest),
// else "".
func Meant(name string, candidates []string) string {
	if s := Synonym(name); s != "" {
		for _, c := range candidates {
			if normalize(c) == normalize(s) {
				return c
			}
		}
	}
	return Nearest(name, candidates)
}

// Nearest returns the candidate nearest to name when one is near enough to
// be a typo of it, else "". Names are compared spelling-blind, as keys are
// (maxResidentBytes, max-resident-bytes and max_resident_bytes are one
// name): an unknown key, environment variable or flag is answered by the
// same rule wherever it is found.
func Nearest(name string, candidates []string) string {
	best, bestD := "", 0
	n := normalize(name)
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	for _, c := range sorted {
		dist := levenshtein(n, normalize(c))
		if best == "" || dist < bestD {
			best, bestD = c, dist
		}
	}
	if best == "" || bestD > max(2, len(n)/3) {
		return ""
	}
	return best
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
