package cmd

import (
	"fmt"
	"io"
	"sync"
)

// textOut is what worldcook prints through: every control character a
// name or a value from the user's files may carry (ESC, BEL, a lone
// carriage return, backspace, the C1 controls U+0080–U+009F) is written
// as a visible escape (\x1b, \u009b), so that a hostile entity, source
// or file name can neither retitle the terminal, move its cursor nor
// overwrite a line already printed. Tabs, line feeds and CR LF pass: the
// text's own layout, and a CR LF scene's lines in init's diff. JSON and
// SARIF escape control characters themselves, so they pass unchanged.
type textOut struct {
	mu sync.Mutex
	w  io.Writer
	// held is a byte that ended the last write and whose meaning the
	// next decides: CR (CR LF, or a lone CR) or 0xC2 (the first byte of
	// a C1 control in UTF-8, or of a printable character).
	held byte
	buf  []byte
}

func newTextOut(w io.Writer) *textOut { return &textOut{w: w} }

func (t *textOut) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf[:0]
	for _, c := range p {
		if t.held != 0 {
			h := t.held
			t.held = 0
			switch {
			case h == '\r' && c == '\n':
				b = append(b, '\r', '\n')
				continue
			case h == '\r':
				b = append(b, `\r`...)
			case h == 0xc2 && c >= 0x80 && c <= 0x9f:
				b = fmt.Appendf(b, `\u%04x`, c)
				continue
			default:
				b = append(b, h)
			}
		}
		switch {
		case c == '\r' || c == 0xc2:
			t.held = c
		case c == '\t' || c == '\n':
			b = append(b, c)
		case c < 0x20 || c == 0x7f:
			b = fmt.Appendf(b, `\x%02x`, c)
		default:
			b = append(b, c)
		}
	}
	t.buf = b
	if _, err := t.w.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a byte held back at the end of the last write.
func (t *textOut) Flush() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.held == 0 {
		return nil
	}
	h := t.held
	t.held = 0
	if h == '\r' {
		_, err := io.WriteString(t.w, `\r`)
		return err
	}
	_, err := t.w.Write([]byte{h})
	return err
}
