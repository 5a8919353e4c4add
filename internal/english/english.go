// Package english holds the few rules of English that worldcook's messages
// need, so that every command counts things the same way ("1 entity",
// "2 entities").
package english

import (
	"strconv"
	"strings"
)

// Plural is word as n of it: word itself for 1, else its regular plural
// (a consonant and y become ies: entity, entities; s, x, ch and sh take
// es: miss, misses; otherwise s is added).
func Plural(n int, word string) string {
	if n == 1 {
		return word
	}
	l := len(word)
	if l >= 2 && word[l-1] == 'y' && !vowel(word[l-2]) {
		return word[:l-1] + "ies"
	}
	if strings.HasSuffix(word, "s") || strings.HasSuffix(word, "x") || strings.HasSuffix(word, "ch") || strings.HasSuffix(word, "sh") {
		return word + "es"
	}
	return word + "s"
}

// Count is n and word as n of it: "1 cell", "3 cells".
func Count(n int, word string) string {
	return strconv.Itoa(n) + " " + Plural(n, word)
}

func vowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u':
		return true
	}
	return false
}
