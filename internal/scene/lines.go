package scene

import (
	"bytes"
	"sort"
	"sync"
	"unicode/utf8"
)

// lineIndex finds the start and the column of a byte offset without
// reading back to the start of its line, which in a compact scene (all of
// it on one line) is the start of the file: every finding of a 1 GB
// minified scene would otherwise read up to 1 GB to give its column. It
// is built once, in one pass over the file, the first time a position is
// asked for, and keeps a checkpoint every 64 KiB.
type lineIndex struct {
	once sync.Once
	// cp[k] is the offset of checkpoint k (k<<lineStride, moved forward to
	// the start of a character); start[k] the offset of the first byte of
	// its line, runes[k] the characters from there to cp[k].
	cp, start, runes []int
}

const lineStride = 16

// lineStart returns the offset of the first byte of the line holding off,
// and the characters from there to off.
func (d *Document) lineStart(off int) (start, runes int) {
	src := d.Src[:off]
	x := d.lines
	if x == nil || len(d.Src) <= 1<<lineStride {
		start = bytes.LastIndexByte(src, '\n') + 1
		return start, utf8.RuneCount(src[start:])
	}
	x.once.Do(func() { x.build(d.Src) })
	k := min(off>>lineStride, len(x.cp)-1)
	for k > 0 && x.cp[k] > off {
		k--
	}
	seg := src[x.cp[k]:]
	if nl := bytes.LastIndexByte(seg, '\n'); nl >= 0 {
		start = x.cp[k] + nl + 1
		return start, utf8.RuneCount(src[start:])
	}
	return x.start[k], x.runes[k] + utf8.RuneCount(seg)
}

func (x *lineIndex) build(src []byte) {
	n := len(src)>>lineStride + 1
	x.cp, x.start, x.runes = make([]int, n), make([]int, n), make([]int, n)
	for k := 1; k < n; k++ {
		at := min(k<<lineStride, len(src))
		for at < len(src) && !utf8.RuneStart(src[at]) {
			at++
		}
		prev := x.cp[k-1]
		x.cp[k] = at
		seg := src[prev:at]
		if nl := bytes.LastIndexByte(seg, '\n'); nl >= 0 {
			x.start[k] = prev + nl + 1
			x.runes[k] = utf8.RuneCount(src[x.start[k]:at])
		} else {
			x.start[k] = x.start[k-1]
			x.runes[k] = x.runes[k-1] + utf8.RuneCount(seg)
		}
	}
}

// LineAt returns the line (1-based) holding byte off of Src (len(Src) is
// on the line after a final line break) and the offset where that line
// starts. It counts from the nearest record at or before off, whose line
// the parser counted, so the file is not read up to off.
func (d *Document) LineAt(off int) (line, start int) {
	k := sort.Search(len(d.Entities), func(k int) bool { return d.Offset(k) > off }) - 1
	from, line := 0, 1
	if k >= 0 {
		from, line = d.Offset(k), d.Line(k)
	}
	line += bytes.Count(d.Src[from:off], []byte{'\n'})
	start, _ = d.lineStart(off)
	return line, start
}
