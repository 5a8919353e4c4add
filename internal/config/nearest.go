package config

import "sort"

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
