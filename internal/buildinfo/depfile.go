package buildinfo

import (
	"fmt"
	"io"
	"runtime"
	"strings"
)

// WriteDepfile writes the graph as Make and Ninja (deps = gcc) read a
// depfile: one rule per scene, its target the manifest (or the copied
// scene), its prerequisites every file its cook read.
func (g *Graph) WriteDepfile(w io.Writer) error {
	var b strings.Builder
	for _, s := range g.Scenes {
		t, err := escape(s.Target)
		if err != nil {
			return err
		}
		b.WriteString(t)
		b.WriteString(":")
		for _, in := range s.Inputs {
			e, err := escape(in)
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

// escape spells a path as gcc -MMD does, which Make and Ninja both read:
// a space or tab and the backslashes before it are escaped with a
// backslash, '#' as \#, '$' as $$, and ':' as \: (except a drive's on
// Windows). A newline cannot be written in a depfile at all.
func escape(p string) (string, error) {
	if strings.ContainsAny(p, "\n\r") {
		return "", fmt.Errorf("%q holds a line break, which a depfile cannot spell; rename it", p)
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case ' ', '\t':
			// Backslashes before a blank double, so that the blank's
			// own escape is not read as theirs.
			for j := i - 1; j >= 0 && p[j] == '\\'; j-- {
				b.WriteByte('\\')
			}
			b.WriteByte('\\')
		case '#':
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
