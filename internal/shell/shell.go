// Package shell writes commands as a POSIX shell reads them, for the
// advice worldcook prints: a command a user is told to run must work when
// pasted as printed, whatever spaces or quotes its paths hold.
package shell

import "strings"

// Quote returns s as one shell word: as it is when it holds only
// characters no shell treats specially, else in single quotes (each
// single quote inside closes them, is escaped and opens them again).
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, special) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// special reports a character that makes a word need quotes.
func special(r rune) bool {
	switch {
	case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		return false
	}
	return !strings.ContainsRune("_-./:@%+=,", r)
}

// Command joins words into a command line, each quoted as it needs.
func Command(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Quote(w)
	}
	return strings.Join(q, " ")
}
