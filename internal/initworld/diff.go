package initworld

import (
	"bytes"
	"fmt"
	"github.com/worldcook/worldcook/internal/scene"
	"sort"
	"strings"
)

// The diff is written here rather than by a general diff library: every
// edit is an insertion (or a replacement) at a known offset, so the
// changed lines are known exactly and no longest-common-subsequence search
// is needed. A line an edit lands in is shown removed and added again with
// the new text; lines of text inserted between lines are shown added.

// context is how many unchanged lines a hunk shows around a change.
const context = 3

// block is a run of old lines [from, to) replaced by new lines; fromAt
// and toAt are where lines from and to start in the old text.
type block struct {
	from, to     int
	fromAt, toAt int
	add          [][]byte
	// replaces says an edit of the block replaces text.
	replaces bool
}

// splitLines splits b into lines, each keeping its '\n' (the last may
// lack one).
func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		k := bytes.IndexByte(b, '\n')
		if k < 0 {
			out = append(out, b)
			break
		}
		out = append(out, b[:k+1])
		b = b[k+1:]
	}
	return out
}

// lineCursor finds the line holding an offset of src, for offsets met in
// increasing order: it counts the line breaks from the last offset asked
// on, so the whole file is read once and no line is indexed but those
// near an edit (a scene of a million lines, edited in three places,
// never has its million lines listed).
type lineCursor struct {
	src []byte
	// off is the last offset asked for, line its line (0-based), start
	// where that line starts.
	off, line, start int
}

// at returns the line holding off (len(src) is on a line after the last
// when the text ends in a line break, else on the last) and where it
// starts. off must not be below the last offset asked for.
func (c *lineCursor) at(off int) (line, start int) {
	if n := bytes.Count(c.src[c.off:off], []byte{'\n'}); n > 0 {
		c.line += n
		c.start = bytes.LastIndexByte(c.src[:off], '\n') + 1
	}
	c.off = off
	return c.line, c.start
}

// liner finds the line (0-based) holding an offset, and where it starts,
// for offsets asked in increasing order.
type liner interface {
	at(off int) (line, start int)
}

// docLines finds lines by the document's records (scene.Document.LineAt).
type docLines struct{ d *scene.Document }

func (l docLines) at(off int) (line, start int) {
	line, start = l.d.LineAt(off)
	return line - 1, start
}

// lineEnd is where the line starting at start ends, its line break
// included.
func lineEnd(src []byte, start int) int {
	if k := bytes.IndexByte(src[start:], '\n'); k >= 0 {
		return start + k + 1
	}
	return len(src)
}

// lineBefore is where the line before the one starting at start starts.
func lineBefore(src []byte, start int) int {
	return bytes.LastIndexByte(src[:start-1], '\n') + 1
}

// unifiedDiff renders the insertions into src as a unified diff of the
// file called name, with a/ and b/ prefixes so that `patch -p1` and
// `git apply` apply it from the file's folder. No insertions, no diff.
func unifiedDiff(name string, src []byte, ins []insertion) []byte {
	return unifiedDiffBy(name, src, ins, nil)
}

// unifiedDiffBy is unifiedDiff with doc, when given, the document of src:
// the lines of the edits are then counted from its records' lines
// (scene.Document.LineAt) rather than from the start of the file.
func unifiedDiffBy(name string, src []byte, ins []insertion, doc *scene.Document) []byte {
	if len(ins) == 0 {
		return nil
	}
	sort.SliceStable(ins, func(a, b int) bool { return ins[a].At < ins[b].At })
	crlf := usesCRLF(src)
	// lines is how many lines src has, the last without a line break too.
	var cur liner = &lineCursor{src: src}
	var lines int
	if doc != nil {
		cur = docLines{doc}
		lines, _ = cur.at(len(src))
	} else {
		lines = bytes.Count(src, []byte{'\n'})
	}
	if len(src) > 0 && src[len(src)-1] != '\n' {
		lines++
	}
	var blocks []block
	for k := 0; k < len(ins); {
		// The lines from the first edit's to the last byte any edit
		// on them cuts.
		from, lo := cur.at(ins[k].At)
		end, endAt := cur.at(ins[k].At + ins[k].Cut)
		j := k + 1
		for j < len(ins) {
			l, _ := cur.at(ins[j].At)
			if l > end {
				break
			}
			end, endAt = cur.at(ins[j].At + ins[j].Cut)
			j++
		}
		to, hi := end+1, lineEnd(src, endAt)
		if end >= lines {
			to, hi = lines, len(src)
		}
		var text []byte
		prev := lo
		for _, e := range ins[k:j] {
			text = append(text, src[prev:e.At]...)
			if crlf {
				// As apply writes it: the scene's line endings.
				text = append(text, strings.ReplaceAll(e.Text, "\n", "\r\n")...)
			} else {
				text = append(text, e.Text...)
			}
			prev = e.At + e.Cut
		}
		text = append(text, src[prev:hi]...)
		replaces := false
		for _, e := range ins[k:j] {
			replaces = replaces || e.Cut > 0
		}
		if n := len(blocks); n > 0 && replaces && blocks[n-1].replaces && blocks[n-1].to == from {
			// Values replaced on consecutive lines read as one change:
			// the old lines, then the new.
			blocks[n-1].to, blocks[n-1].toAt = to, hi
			blocks[n-1].add = append(blocks[n-1].add, splitLines(text)...)
		} else {
			blocks = append(blocks, block{from: from, to: to, fromAt: lo, toAt: hi, add: splitLines(text), replaces: replaces})
		}
		k = j
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", diffName("a/", name), diffName("b/", name))
	delta := 0 // new line number minus old line number before the hunk
	for k := 0; k < len(blocks); {
		j := k + 1
		for j < len(blocks) && blocks[j].from-blocks[j-1].to <= 2*context {
			j++
		}
		first, last := blocks[k], blocks[j-1]
		hFrom := max(0, first.from-context)
		hTo := min(lines, last.to+context)
		var body bytes.Buffer
		oldN, newN := 0, 0
		line := func(prefix byte, l []byte) {
			body.WriteByte(prefix)
			body.Write(l)
			if !bytes.HasSuffix(l, []byte{'\n'}) {
				body.WriteString("\n\\ No newline at end of file\n")
			}
		}
		// at is the old line the hunk has reached, atOff where it starts.
		at, atOff := first.from, first.fromAt
		for at > hFrom {
			at, atOff = at-1, lineBefore(src, atOff)
		}
		growth := 0
		for _, bl := range blocks[k:j] {
			for ; at < bl.from; at++ {
				e := lineEnd(src, atOff)
				line(' ', src[atOff:e])
				atOff = e
				oldN++
				newN++
			}
			for ; at < bl.to; at++ {
				e := lineEnd(src, atOff)
				line('-', src[atOff:e])
				atOff = e
				oldN++
			}
			for _, l := range bl.add {
				line('+', l)
				newN++
			}
			growth += len(bl.add) - (bl.to - bl.from)
		}
		for ; at < hTo; at++ {
			e := lineEnd(src, atOff)
			line(' ', src[atOff:e])
			atOff = e
			oldN++
			newN++
		}
		oldStart, newStart := hFrom+1, hFrom+1+delta
		if oldN == 0 {
			oldStart--
		}
		if newN == 0 {
			newStart--
		}
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", span(oldStart, oldN), span(newStart, newN))
		b.Write(body.Bytes())
		delta += growth
		k = j
	}
	return b.Bytes()
}

// span renders a hunk range: "start,count", or "start" for one line.
func span(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// diffName writes a file name in a diff's header as git diff does, so
// that git apply and patch read back the very name: a name holding a
// control character, a quote, a backslash or a byte above 0x7f is
// quoted C-style with the prefix inside the quotes ("a/x\tb.esscene",
// é as \303\251), and a name holding a space is followed by a tab, which
// ends the name for patch (a trailing space is then kept).
func diffName(prefix, name string) string {
	p := prefix + name
	quote := false
	for i := range len(p) {
		if c := p[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			quote = true
		}
	}
	if quote {
		var b strings.Builder
		b.WriteByte('"')
		for i := range len(p) {
			switch c := p[i]; c {
			case '\a':
				b.WriteString(`\a`)
			case '\b':
				b.WriteString(`\b`)
			case '\t':
				b.WriteString(`\t`)
			case '\n':
				b.WriteString(`\n`)
			case '\v':
				b.WriteString(`\v`)
			case '\f':
				b.WriteString(`\f`)
			case '\r':
				b.WriteString(`\r`)
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			default:
				if c < 0x20 || c >= 0x7f {
					fmt.Fprintf(&b, `\%03o`, c)
				} else {
					b.WriteByte(c)
				}
			}
		}
		b.WriteByte('"')
		p = b.String()
	}
	if strings.Contains(name, " ") {
		p += "\t"
	}
	return p
}
