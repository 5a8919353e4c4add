package buildinfo

import (
	"errors"
	"fmt"
	"strings"
)

// rule is one rule of a depfile as a build tool reads it.
type rule struct {
	target string
	inputs []string
}

// errSpecial is a depfile line a build tool reads as more than a rule of
// file names: a recipe, a variable, a pattern, a wildcard.
var errSpecial = errors.New("not a rule of plain file names")

// readMake reads a depfile as GNU Make (4.3) reads it as a makefile, for
// the constructs a depfile can hold: a backslash-newline, and every blank
// around it, is one space; '#' starts a comment; "\ ", "\#" and "\:" are
// escapes ("\" before anything else is itself); "$$" is '$' and '$'
// otherwise a variable; blanks part names; the first ':' ends the targets.
// Whatever Make reads as more than a file name is errSpecial: ';' (a
// recipe), '|' (order-only), '=' (a variable), a second ':' (a static
// pattern), '*?[' (a wildcard), a leading '~' (a home folder), a leading
// "-l" (a library), NAME(MEMBER) (an archive member), '%' in a target.
func readMake(text string) ([]rule, error) {
	var rules []rule
	for _, line := range makeLines(text) {
		var words []string
		var word strings.Builder
		inWord, colon := false, -1
		end := func() {
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		}
	scan:
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch {
			case c == '\\' && i+1 < len(line) && strings.IndexByte(" \t#:", line[i+1]) >= 0:
				i++
				word.WriteByte(line[i])
				inWord = true
			case c == '#':
				break scan
			case c == '$':
				if i+1 < len(line) && line[i+1] == '$' {
					i++
					word.WriteByte('$')
					inWord = true
					continue
				}
				return nil, fmt.Errorf("%w: a variable at %q", errSpecial, line[i:])
			case c == ' ' || c == '\t':
				end()
			case c == ':':
				end()
				if colon >= 0 {
					return nil, fmt.Errorf("%w: a second ':'", errSpecial)
				}
				colon = len(words)
			case strings.IndexByte(";|=", c) >= 0:
				return nil, fmt.Errorf("%w: %q", errSpecial, c)
			default:
				word.WriteByte(c)
				inWord = true
			}
		}
		end()
		if len(words) == 0 && colon < 0 {
			continue
		}
		if colon != 1 {
			return nil, fmt.Errorf("%w: %d targets", errSpecial, colon)
		}
		for k, w := range words {
			switch {
			case strings.ContainsAny(w, "*?["):
				return nil, fmt.Errorf("%w: a wildcard in %q", errSpecial, w)
			case w[0] == '~':
				return nil, fmt.Errorf("%w: a home folder in %q", errSpecial, w)
			case strings.HasPrefix(w, "-l") && k > 0:
				return nil, fmt.Errorf("%w: a library %q", errSpecial, w)
			case strings.HasSuffix(w, ")") && strings.IndexByte(w, '(') > 0:
				return nil, fmt.Errorf("%w: an archive member %q", errSpecial, w)
			case k == 0 && strings.IndexByte(w, '%') >= 0:
				return nil, fmt.Errorf("%w: a pattern rule %q", errSpecial, w)
			}
		}
		rules = append(rules, rule{target: words[0], inputs: words[1:]})
	}
	return rules, nil
}

// makeLines joins a makefile's continued lines as Make does: an odd run
// of backslashes before a newline continues the line, and that
// backslash-newline with every blank before and after it, escaped or not,
// becomes one space.
func makeLines(text string) []string {
	var lines []string
	var cur strings.Builder
	continued := false
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		body := strings.TrimSuffix(l, "\n")
		if continued {
			body = strings.TrimLeft(body, " \t")
		}
		n := len(body) - len(strings.TrimRight(body, "\\"))
		if continued = n%2 == 1 && strings.HasSuffix(l, "\n"); continued {
			cur.WriteString(strings.TrimRight(body[:len(body)-1], " \t"))
			cur.WriteByte(' ')
			continue
		}
		cur.WriteString(body)
		lines = append(lines, strings.TrimRight(cur.String(), " \t"))
		cur.Reset()
	}
	if cur.Len() > 0 {
		lines = append(lines, strings.TrimRight(cur.String(), " \t"))
	}
	return lines
}

// ninjaPlain is the bytes Ninja (1.11's depfile_parser.in.cc) reads as
// part of a name.
func ninjaPlain(c byte) bool {
	return c >= 0x80 || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		strings.IndexByte("+,/_:.~()}{%=@[]!-", c) >= 0
}

// readNinja reads a depfile as Ninja 1.11 does (deps = gcc), rule for
// rule of its scanner: a run of backslashes before a space, '#' or ':'
// escapes it as the scanner says, "$$" is '$', a backslash-newline ends a
// name, a newline ends a rule, and any byte that is not plain ends a name
// and is dropped. A name ending in ':' is a target; inputs are kept once.
func readNinja(text string) ([]rule, error) {
	var rules []rule
	cur := -1
	targets := true
	s := text
	i := 0
	for i < len(s) {
		var name strings.Builder
		newline := false
	name:
		for i < len(s) {
			c := s[i]
			switch {
			case c == '\\':
				k := 0
				for i+k < len(s) && s[i+k] == '\\' {
					k++
				}
				if i+k == len(s) {
					if k > 1 {
						name.WriteString(s[i : i+k])
					}
					i += k
					break name
				}
				next := s[i+k]
				switch {
				case next == ' ' && k%2 == 1:
					name.WriteString(strings.Repeat("\\", k/2))
					name.WriteByte(' ')
					i += k + 1
				case next == ' ':
					name.WriteString(strings.Repeat("\\", k))
					i += k + 1
					break name
				case next == '#':
					name.WriteString(strings.Repeat("\\", k-1))
					name.WriteByte('#')
					i += k + 1
				case next == ':' && (i+k+1 == len(s) || strings.IndexByte(" \r\n\t", s[i+k+1]) >= 0):
					name.WriteString(s[i : i+k+1])
					i += k + 1
					if i < len(s) {
						newline = s[i] == '\n'
						i++
					}
					break name
				case next == ':':
					name.WriteString(strings.Repeat("\\", k-1))
					name.WriteByte(':')
					i += k + 1
				case k == 1 && (next == '\n' || next == '\r' && i+2 < len(s) && s[i+2] == '\n'):
					i += 2
					if next == '\r' {
						i++
					}
					break name
				case next == '\n' || next == '\r':
					name.WriteString(s[i : i+k])
					i += k
				default:
					name.WriteString(s[i : i+k+1])
					i += k + 1
				}
			case c == '$' && i+1 < len(s) && s[i+1] == '$':
				name.WriteByte('$')
				i += 2
			case ninjaPlain(c):
				name.WriteByte(c)
				i++
			case c == 0:
				i = len(s)
				break name
			case c == '\n':
				newline = true
				i++
				break name
			case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
				newline = true
				i += 2
				break name
			default:
				i++
				break name
			}
		}
		n := name.String()
		isInput := !targets
		if strings.HasSuffix(n, ":") {
			n = n[:len(n)-1]
			targets = false
		}
		if n != "" {
			if isInput {
				if cur < 0 {
					return nil, fmt.Errorf("%w: an input %q of no target", errSpecial, n)
				}
				if !contains(rules[cur].inputs, n) {
					rules[cur].inputs = append(rules[cur].inputs, n)
				}
			} else {
				if cur >= 0 {
					return nil, fmt.Errorf("%w: a second target %q", errSpecial, n)
				}
				rules = append(rules, rule{target: n})
				cur = len(rules) - 1
			}
		}
		if newline {
			targets = true
			cur = -1
		}
	}
	if len(rules) == 0 && len(text) > 0 {
		return nil, errors.New("expected ':' in depfile")
	}
	return rules, nil
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}
