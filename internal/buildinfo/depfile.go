package buildinfo

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
)

// WriteDepfile writes the graph as Make and Ninja (deps = gcc) read a
// depfile: one rule per scene, its target the manifest (or the copied
// scene), its prerequisites every file its cook read. A name that one of
// them would read back as another file, or as more than a file name (a
// recipe after ';', order-only prerequisites after '|', a variable, a
// pattern), is refused before anything is written.
func (g *Graph) WriteDepfile(w io.Writer) error {
	var b strings.Builder
	for _, s := range g.Scenes {
		t, err := escape(s.Target, true)
		if err != nil {
			return err
		}
		b.WriteString(t)
		b.WriteString(":")
		for _, in := range s.Inputs {
			e, err := escape(in, false)
			if err != nil {
				return err
			}
			b.WriteString(" \\\n  ")
			b.WriteString(e)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// escape spells a path as gcc -MMD does, in the one form GNU Make and
// Ninja both read back as exactly that path: a space as "\ ", '#' as
// "\#", '$' as "$$" and ':' as "\:" (except a drive's on Windows).
// Everything else is written as it is, and a name either tool reads as
// anything but itself is refused (see unwritable), with the reason.
func escape(p string, target bool) (string, error) {
	p = filepath.ToSlash(p)
	if why := unwritable(p, target); why != "" {
		return "", fmt.Errorf("%q cannot be named in a depfile that Make and Ninja both read (%s); rename it", p, why)
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case ' ', '#':
			b.WriteByte('\\')
		case '$':
			b.WriteByte('$')
		case ':':
			if !(runtime.GOOS == "windows" && i == 1) {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(c)
	}
	return b.String(), nil
}

// unwritable says why p cannot be written in a depfile, or "". Ninja
// (1.11) reads a name as a run of letters, digits, bytes from 0x80 and
// +,/_:.~(){}%=@[]!- plus the escapes above, and ends it at any other
// byte; Make reads ';' as the start of a recipe, '|' as order-only
// prerequisites, '=' as a variable assignment, '*?[]' as a wildcard, a
// leading '~' as a home folder, a leading "-l" as a library, "a(b)" as an
// archive member and '%' in a target as a pattern rule; a backslash is an
// escape to both but they disagree on what it escapes (and a trailing
// one continues the line); Ninja keeps "\:" before a blank, so a name
// cannot end in ':'; and Make drops every blank before a line's end, an
// escaped one too, so a name cannot end in a space.
func unwritable(p string, target bool) string {
	if p == "" {
		return "an empty name"
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\n' || c == '\r':
			return "it holds a line break"
		case c == '\t':
			return "it holds a tab"
		case c < 0x20 || c == 0x7f:
			return fmt.Sprintf("it holds the control character %#02x", c)
		case c >= 0x80, c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("+,/_.(){}@!- #$:~", c) >= 0:
		case c == '%' && !target:
		case c == '%':
			return "it holds '%', which makes the rule a pattern rule to Make"
		default:
			return fmt.Sprintf("it holds %q", c)
		}
	}
	switch {
	case p[0] == '~':
		return "it starts with '~'"
	case strings.HasPrefix(p, "-l"):
		return `it starts with "-l"`
	case strings.HasSuffix(p, ":"):
		return "it ends in ':'"
	case strings.HasSuffix(p, " "):
		return "it ends in a space, which Make drops before the end of a line"
	case strings.HasSuffix(p, ")") && strings.IndexByte(p, '(') > 0:
		return "Make reads NAME(MEMBER) as a member of an archive"
	}
	return ""
}
