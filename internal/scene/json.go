package scene

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// MaxDepth bounds how deeply objects and arrays may nest. Scenes nest a
// handful of levels; the bound exists so hostile input costs bounded work and
// so that every later walk over a validated span can be iterative.
const MaxDepth = 512

// Kind is the type of a JSON value, read from its first byte.
type Kind uint8

// JSON value kinds.
const (
	Invalid Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	return [...]string{"invalid", "null", "boolean", "number", "string", "array", "object"}[k]
}

// KindOf returns the kind of the validated JSON value v.
func KindOf(v []byte) Kind {
	if len(v) == 0 {
		return Invalid
	}
	switch v[0] {
	case 'n':
		return Null
	case 't', 'f':
		return Bool
	case '"':
		return String
	case '[':
		return Array
	case '{':
		return Object
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return Number
	}
	return Invalid
}

// errAt is a syntax problem at a byte offset; Parse turns it into a
// SyntaxError with a line and column.
type errAt struct {
	off int
	msg string
}

func (e *errAt) Error() string { return fmt.Sprintf("offset %d: %s", e.off, e.msg) }

func syntaxf(off int, format string, args ...any) error {
	return &errAt{off: off, msg: fmt.Sprintf(format, args...)}
}

// strByte classifies bytes inside a JSON string: 0 plain, 1 needs a look
// (quote, backslash or a control character that JSON forbids).
var strByte = func() (t [256]uint8) {
	for c := 0; c < 0x20; c++ {
		t[c] = 1
	}
	t['"'] = 1
	t['\\'] = 1
	return
}()

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// scanString validates the string starting at b[i] == '"' and returns the
// offset after its closing quote and whether it holds escapes.
func scanString(b []byte, i int) (int, bool, error) {
	start := i
	i++
	escaped := false
	// high collects the bytes passed over (and a few beyond): UTF-8 is
	// checked only for strings that hold a byte of 0x80 or above, since
	// JSON allows no such byte outside strings.
	var high uint64
	for {
		// Eight bytes at a time up to the first quote, backslash or
		// control character, then byte by byte near the end of b. The
		// word loop jumps straight to the byte it found: looking it up
		// again in strByte put two dependent loads on the path of every
		// string.
		for i+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[i:])
			high |= w
			if m := stringSpecial(w); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				goto special
			}
			i += 8
		}
		for i < len(b) && strByte[b[i]] == 0 {
			high |= uint64(b[i])
			i++
		}
		if i >= len(b) {
			return 0, false, syntaxf(start, "string is never closed")
		}
	special:
		switch c := b[i]; {
		case c == '"':
			if high&0x8080808080808080 != 0 && !utf8.Valid(b[start:i]) {
				return 0, false, invalidUTF8(b, start)
			}
			return i + 1, escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(b) {
				return 0, false, syntaxf(start, "string is never closed")
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) {
					return 0, false, syntaxf(i, "truncated \\u escape")
				}
				for _, h := range b[i+2 : i+6] {
					if !isHex(h) {
						return 0, false, syntaxf(i, "invalid \\u escape")
					}
				}
				i += 6
			default:
				return 0, false, syntaxf(i, "invalid escape \\%c in string", b[i+1])
			}
		default:
			return 0, false, syntaxf(i, "control character 0x%02x inside a string (escape it)", c)
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// scanNumber validates a JSON number starting at b[i] and returns its end.
func scanNumber(b []byte, i int) (int, error) {
	start := i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i)
	default:
		return 0, badValue(b, start)
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		i = digits(b, i)
		if i == d {
			return 0, syntaxf(start, "number %q has no digits after the decimal point", clip(b[start:i]))
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		i = digits(b, i)
		if i == d {
			return 0, syntaxf(start, "number %q has no exponent digits", clip(b[start:i]))
		}
	}
	return i, nil
}

// digits returns the end of the run of decimal digits at b[i]. The runs
// in scenes are short and of every length, so eight bytes are looked at
// at once: a byte loop mispredicted its exit on nearly every number.
func digits(b []byte, i int) int {
	for i+8 <= len(b) {
		w := binary.LittleEndian.Uint64(b[i:])
		// The high bit of a byte is set for one above '9' (adding 0x46
		// carries into it) or below '0' (subtracting 0x30 borrows into
		// it), and for bytes of 0x80 and above. Carries and borrows only
		// reach higher bytes: the lowest flag is exact.
		if m := ((w + 0x4646464646464646) | (w - 0x3030303030303030) | w) & 0x8080808080808080; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

// invalidUTF8 reports the first byte at or after i that is not part of
// valid UTF-8.
func invalidUTF8(b []byte, i int) error {
	for i < len(b) {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		i += n
	}
	return &errAt{i, "invalid UTF-8 byte sequence; save the file as UTF-8"}
}

// notUTF8Or returns err, or an invalid UTF-8 error when that is what
// stands at b[i].
func notUTF8Or(b []byte, i int, err error) error {
	if i < len(b) && b[i] >= 0x80 {
		if r, n := utf8.DecodeRune(b[i:]); r == utf8.RuneError && n <= 1 {
			return invalidUTF8(b, i)
		}
	}
	return err
}

// badValue explains what stands where a value should be, naming the usual
// hand-editing accidents.
func badValue(b []byte, i int) error {
	if i >= len(b) {
		return syntaxf(i, "unexpected end of file (the file is truncated)")
	}
	rest := b[i:]
	if err := notUTF8Or(b, i, nil); err != nil {
		return err
	}
	switch {
	case bytes.HasPrefix(rest, []byte("NaN")):
		return syntaxf(i, "NaN is not a JSON number; write a finite number")
	case bytes.HasPrefix(rest, []byte("Infinity")), bytes.HasPrefix(rest, []byte("-Infinity")):
		return syntaxf(i, "Infinity is not a JSON number; write a finite number")
	case bytes.HasPrefix(rest, []byte("<<<<<<<")), bytes.HasPrefix(rest, []byte("=======")), bytes.HasPrefix(rest, []byte(">>>>>>>")):
		return syntaxf(i, "merge-conflict marker; resolve the conflict in the scene file")
	case rest[0] == '\'':
		return syntaxf(i, "single-quoted string; JSON strings use double quotes")
	case rest[0] == '}' || rest[0] == ']':
		return syntaxf(i, "trailing comma or missing value before %q", rest[0])
	}
	r, _ := utf8.DecodeRune(rest)
	return syntaxf(i, "unexpected %q where a value should be", r)
}

func clip(b []byte) string {
	if len(b) > 32 {
		return string(b[:32]) + "…"
	}
	return string(b)
}

// scan validates JSON in b. While it reads an entity record it also
// builds the record's compact form: every byte it passes over, except
// white space outside strings, is copied to out. Cooking writes records in
// compact form, and building it here, while the parser is looking at the
// bytes anyway, saves a second pass over the whole file.
//
// Copies are made a run at a time: pend marks where the run of bytes
// scanned but not yet copied starts, and each skip over white space copies
// the run before it. Between records pend is -1 and nothing is copied.
//
// In direct mode b is already compact text (see squeeze.go): nothing is
// copied, and spans of b are spans of the compact form.
type scan struct {
	b      []byte
	out    []byte
	pend   int
	direct bool
	// lines counts the line breaks skipped, so that each record knows its
	// line without a second pass over the file.
	lines int
}

// space skips white space at b[i] and returns the offset after it. Most
// calls find none, so that case is decided inline. Compact text has no
// white space outside strings, so in direct mode there is nothing to look
// at: the flag is one compare where the byte test is a bounds check, a
// load and a compare, at every token. (Should a byte of white space stand
// there after all, the caller finds it where a token should be and fails,
// and the record is read again from the file.)
func (s *scan) space(i int) int {
	if s.direct || i < len(s.b) && s.b[i] > ' ' {
		return i
	}
	return s.skip(i)
}

func (s *scan) skip(i int) int {
	b := s.b
	j := i
	// Pretty-printed scenes put a newline and a run of indentation
	// between most tokens: look at eight bytes at a time and jump to the
	// first one that is not a space.
	for j+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[j:]) ^ 0x2020202020202020
		if x == 0 {
			j += 8
			continue
		}
		j += bits.TrailingZeros64(x) / 8
		if c := b[j]; c == '\n' {
			s.lines++
		} else if c != '\r' && c != '\t' {
			goto found
		}
		j++
	}
	for j < len(b) && isSpace(b[j]) {
		if b[j] == '\n' {
			s.lines++
		}
		j++
	}
found:
	if j > i && s.pend >= 0 {
		s.emit(s.pend, i)
		s.pend = j
	}
	return j
}

// flush copies the pending run up to x, so that out holds the compact
// form of everything before x.
func (s *scan) flush(x int) {
	if s.pend >= 0 {
		s.emit(s.pend, x)
		s.pend = x
	}
}

// emit appends b[from:to] to out. Most runs are a token or two between
// runs of indentation, so a run of up to 16 bytes is moved as one 16-byte
// block (the bytes past its end land beyond len(out), where the next run
// overwrites them) instead of through a call to memmove.
func (s *scan) emit(from, to int) {
	n, o := to-from, len(s.out)
	if n <= 16 && from+16 <= len(s.b) && cap(s.out)-o >= 16 {
		*(*[16]byte)(s.out[o : o+16]) = *(*[16]byte)(s.b[from : from+16])
		s.out = s.out[:o+n]
		return
	}
	s.out = append(s.out, s.b[from:to]...)
}

// at returns where offset x of b lands in out. It holds for an x that is
// not behind the pending run and has no white space before it in the run:
// the start of a value just reached or the end of one just scanned.
func (s *scan) at(x int) int {
	if s.direct {
		return x
	}
	return len(s.out) + x - s.pend
}

// begin starts copying at b[x] and returns where x lands in out.
func (s *scan) begin(x int) int {
	if s.direct {
		return x
	}
	s.pend = x
	return len(s.out)
}

// compact returns the compact form of b[from:to], where from was at(…)
// when it was reached; to must be the current end of what was scanned.
func (s *scan) compact(from, to int) []byte {
	if s.direct {
		return s.b[from:to:to]
	}
	s.flush(to)
	return s.out[from:len(s.out):len(s.out)]
}

// value validates the JSON value that starts at or after b[i] (after
// white space) and returns its start and end offsets. It walks iteratively
// with an explicit stack, so depth costs no goroutine stack.
func (s *scan) value(i int) (start, end int, err error) {
	if s.direct {
		return s.valueCompact(i)
	}
	b := s.b
	var stackBuf [64]byte
	stack := stackBuf[:0]
	i = s.space(i)
	start = i
	for {
		// A value is expected at i.
		i = s.space(i)
		if i >= len(b) {
			return 0, 0, syntaxf(i, "unexpected end of file (the file is truncated)")
		}
		switch c := b[i]; c {
		case '{', '[':
			if len(stack) >= MaxDepth {
				return 0, 0, syntaxf(i, "nesting deeper than %d levels", MaxDepth)
			}
			close := byte('}')
			if c == '[' {
				close = ']'
			}
			stack = append(stack, close)
			i = s.space(i + 1)
			if i < len(b) && b[i] == close {
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if c == '{' {
				if i, err = s.key(i); err != nil {
					return 0, 0, err
				}
			}
			continue
		case '"':
			if i, _, err = scanString(b, i); err != nil {
				return 0, 0, err
			}
		case 't':
			if i, err = literal(b, i, "true"); err != nil {
				return 0, 0, err
			}
		case 'f':
			if i, err = literal(b, i, "false"); err != nil {
				return 0, 0, err
			}
		case 'n':
			if i, err = literal(b, i, "null"); err != nil {
				return 0, 0, err
			}
		default:
			if i, err = scanNumber(b, i); err != nil {
				return 0, 0, err
			}
		}
		// A value ended at i: close containers or move to the next element.
		for {
			if len(stack) == 0 {
				return start, i, nil
			}
			i = s.space(i)
			if i >= len(b) {
				return 0, 0, syntaxf(i, "unexpected end of file (the file is truncated)")
			}
			top := stack[len(stack)-1]
			if b[i] == top {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if b[i] != ',' {
				if top == '}' {
					return 0, 0, syntaxf(i, "expected ',' or '}' after an object member")
				}
				return 0, 0, syntaxf(i, "expected ',' or ']' after an array element")
			}
			i++
			if top == '}' {
				if i, err = s.key(s.space(i)); err != nil {
					return 0, 0, err
				}
			}
			break
		}
	}
}

// errCompact is any problem valueCompact finds: the record is read again
// from the file, and the error found there is the one reported.
var errCompact = errors.New("not valid compact JSON")

// valueCompact is value over compact text (direct mode), which has no
// white space outside strings: nothing is skipped between tokens, a
// container closes or continues on the byte right after a value, and
// numbers of the usual form (no exponent) are read inline. It accepts
// what value accepts on such text and no more; any problem is errCompact,
// since a record that fails here is read again from the file, where value
// names the problem with its line and column.
func (s *scan) valueCompact(i int) (start, end int, err error) {
	b := s.b
	var stackBuf [64]byte
	stack := stackBuf[:0]
	start = i
	for {
		// A value is expected at i.
		if i >= len(b) {
			return 0, 0, errCompact
		}
		switch c := b[i]; c {
		case '{', '[':
			if len(stack) >= MaxDepth {
				return 0, 0, errCompact
			}
			close := c + 2 // '}' and ']' follow their openers by two
			if i++; i < len(b) && b[i] == close {
				i++
				break
			}
			stack = append(stack, close)
			if c == '{' {
				if j := plainKey(b, i); j >= 0 {
					i = j
				} else if i, err = s.keySlow(i); err != nil {
					return 0, 0, errCompact
				}
			}
			continue
		case '"':
			if i, _, err = scanString(b, i); err != nil {
				return 0, 0, errCompact
			}
		case 't':
			if i, err = literal(b, i, "true"); err != nil {
				return 0, 0, errCompact
			}
		case 'f':
			if i, err = literal(b, i, "false"); err != nil {
				return 0, 0, errCompact
			}
		case 'n':
			if i, err = literal(b, i, "null"); err != nil {
				return 0, 0, errCompact
			}
		default:
			// -?(0|[1-9][0-9]*)(\.[0-9]+)?, then the exponent, if any,
			// by scanNumber.
			j := i
			if c == '-' {
				j++
			}
			switch {
			case j < len(b) && b[j] == '0':
				j++
			case j < len(b) && b[j]-'1' < 9:
				j = digits(b, j+1)
			default:
				return 0, 0, errCompact
			}
			if j < len(b) && b[j] == '.' {
				d := j + 1
				if j = digits(b, d); j == d {
					return 0, 0, errCompact
				}
			}
			if j < len(b) && b[j]|0x20 == 'e' {
				if j, err = scanNumber(b, i); err != nil {
					return 0, 0, errCompact
				}
			}
			i = j
		}
		// A value ended at i: close containers or move to the next element.
		for {
			if len(stack) == 0 {
				return start, i, nil
			}
			if i >= len(b) {
				return 0, 0, errCompact
			}
			top := stack[len(stack)-1]
			c := b[i]
			i++
			if c == top {
				stack = stack[:len(stack)-1]
				continue
			}
			if c != ',' {
				return 0, 0, errCompact
			}
			if top == '}' {
				if j := plainKey(b, i); j >= 0 {
					i = j
				} else if i, err = s.keySlow(i); err != nil {
					return 0, 0, errCompact
				}
			}
			break
		}
	}
}

// key validates `"key" :` at i and returns the offset after the colon.
// Most names take plainKey's way, a leaf function without a frame; the
// hottest callers call it themselves and keySlow only when it declines.
func (s *scan) key(i int) (int, error) {
	if j := plainKey(s.b, i); j >= 0 {
		return j, nil
	}
	return s.keySlow(i)
}

// plainKey reads a short plain member name and its colon at b[i], and
// returns the offset after the colon, or -1 for any other name. Most
// member names are short and plain, and in compact text the colon
// follows the closing quote: such a name (up to fifteen bytes) is read
// from one or two words, without the call of scanString, whose loop and
// checks cost more than the name itself (a third of a record's member
// names are "x", "y" and "z"). The lowest byte stringSpecial flags is
// exact, so when it is the quote every byte before it is plain (and when
// it flags none, no byte is); a byte of 0x80 or above among them leaves
// the name to scanString, which checks UTF-8.
func plainKey(b []byte, i int) int {
	if i < 0 || i+19 > len(b) {
		return -1
	}
	t := (*[19]byte)(b[i : i+19]) // t[k] and t[k+1] need no bounds checks
	if t[0] != '"' {
		return -1
	}
	w := binary.LittleEndian.Uint64(t[1:])
	if m := stringSpecial(w); m != 0 {
		k := bits.TrailingZeros64(m)/8 + 1
		if t[k] == '"' && t[k+1] == ':' && w&(1<<(8*k-8)-1)&0x8080808080808080 == 0 {
			return i + k + 2
		}
		return -1
	}
	if w&0x8080808080808080 != 0 {
		return -1
	}
	// Eight plain bytes ("position", "rotation", "children",
	// "components"): the same test on the next word.
	w = binary.LittleEndian.Uint64(t[9:])
	if m := stringSpecial(w); m != 0 {
		k := bits.TrailingZeros64(m)/8 + 9
		if t[k] == '"' && t[k+1] == ':' && w&(1<<(8*k-72)-1)&0x8080808080808080 == 0 {
			return i + k + 2
		}
	}
	return -1
}

// keySlow is key for the names plainKey leaves: long ones, escaped ones,
// ones with bytes of 0x80 and above, white space before the colon, and
// everything that is not a name.
func (s *scan) keySlow(i int) (int, error) {
	b := s.b
	if i >= len(b) {
		return 0, syntaxf(i, "unexpected end of file (the file is truncated)")
	}
	if b[i] != '"' {
		if b[i] == '}' {
			return 0, syntaxf(i, "trailing comma before '}'")
		}
		return 0, notUTF8Or(b, i, syntaxf(i, "expected a double-quoted member name"))
	}
	i, _, err := scanString(b, i)
	if err != nil {
		return 0, err
	}
	i = s.space(i)
	if i >= len(b) || b[i] != ':' {
		return 0, syntaxf(i, "expected ':' after a member name")
	}
	return i + 1, nil
}

// scanValue validates the JSON value at or after b[i] without compacting.
func scanValue(b []byte, i int) (start, end int, err error) {
	s := scan{b: b, pend: -1}
	return s.value(i)
}

func literal(b []byte, i int, word string) (int, error) {
	if len(b)-i >= len(word) && string(b[i:i+len(word)]) == word {
		return i + len(word), nil
	}
	return 0, badValue(b, i)
}

// The functions below read values that have already been validated (every
// span handed out by a Document has been). They do not re-check syntax.

// skipValid returns the end of the valid JSON value that starts at v[i].
// It only balances brackets and jumps over strings, several times faster
// than the validating scanValue, which has already seen these bytes.
func skipValid(v []byte, i int) int {
	if i >= len(v) {
		return i
	}
	switch v[i] {
	case '"':
		return stringEnd(v, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(v); j++ {
			switch v[j] {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			case '"':
				j = stringEnd(v, j) - 1
			}
		}
		return len(v)
	}
	j := i
	for j < len(v) && v[j] != ',' && v[j] != '}' && v[j] != ']' && !isSpace(v[j]) {
		j++
	}
	return j
}

// Each calls fn for each element of the validated array arr, stopping
// early when fn returns false.
func Each(arr []byte, fn func(elem []byte) bool) {
	if KindOf(arr) != Array {
		return
	}
	i := skipSpace(arr, 1)
	for i < len(arr) && arr[i] != ']' {
		s := skipSpace(arr, i)
		e := skipValid(arr, s)
		if !fn(arr[s:e]) {
			return
		}
		i = skipSpace(arr, e)
		if i < len(arr) && arr[i] == ',' {
			i++
		}
	}
}

// Members calls fn for each member of the validated object obj with the
// raw key (without quotes, escapes undecoded) and the value.
func Members(obj []byte, fn func(key, val []byte) bool) {
	if KindOf(obj) != Object {
		return
	}
	i := skipSpace(obj, 1)
	for i < len(obj) && obj[i] == '"' {
		ke := stringEnd(obj, i)
		key := obj[i+1 : ke-1]
		colon := skipSpace(obj, ke)
		s := skipSpace(obj, colon+1)
		e := skipValid(obj, s)
		if !fn(key, obj[s:e]) {
			return
		}
		i = skipSpace(obj, e)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
}

// Field returns the value of member key in the validated object obj. When
// a key repeats, the last one wins, as in JavaScript's JSON.parse.
func Field(obj []byte, key string) ([]byte, bool) {
	var out []byte
	found := false
	Members(obj, func(k, v []byte) bool {
		if string(k) == key {
			out, found = v, true
		}
		return true
	})
	return out, found
}

// Float reads a validated JSON number.
func Float(v []byte) (float64, error) {
	if KindOf(v) != Number {
		return 0, fmt.Errorf("is %s %s, not a number", article(KindOf(v)), clip(v))
	}
	f, err := strconv.ParseFloat(unsafeString(v), 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, fmt.Errorf("number %s is out of range", clip(v))
	}
	return f, nil
}

var errNotInteger = errors.New("not an integer")

// Int reads a validated JSON number that must be an integer in int64 range
// (5 and 5.0 are accepted, 5.5 is not).
func Int(v []byte) (int64, error) {
	// Ids are short runs of digits: up to eighteen of them cannot
	// overflow, and are added up here without strconv's checks and calls.
	if len(v) > 0 && len(v) <= 18 && v[0]-'1' < 9 {
		n := int64(0)
		for _, c := range v {
			if c-'0' > 9 {
				n = -1
				break
			}
			n = n*10 + int64(c-'0')
		}
		if n >= 0 {
			return n, nil
		}
	}
	if KindOf(v) != Number {
		return 0, fmt.Errorf("is %s %s, not an integer", article(KindOf(v)), clip(v))
	}
	if n, err := strconv.ParseInt(unsafeString(v), 10, 64); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(unsafeString(v), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, fmt.Errorf("number %s is %w", clip(v), errNotInteger)
	}
	return int64(f), nil
}

// Str decodes a validated JSON string.
func Str(v []byte) (string, error) {
	if KindOf(v) != String {
		return "", fmt.Errorf("is %s %s, not a string", article(KindOf(v)), clip(v))
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner), nil
	}
	return unescape(inner), nil
}

// strView is Str without copying when the string has no escapes; the
// result aliases the document and lives as long as it does.
func strView(v []byte) string {
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return unsafeString(inner)
	}
	return unescape(inner)
}

func unescape(s []byte) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		switch s[i] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := rune(hex4(s[i+1:]))
			i += 4
			if utf16.IsSurrogate(r) && i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
				r2 := rune(hex4(s[i+3:]))
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					r = d
					i += 6
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			out = append(out, s[i])
		}
	}
	return string(out)
}

func hex4(b []byte) int {
	n := 0
	for _, c := range b[:4] {
		n <<= 4
		switch {
		case c >= '0' && c <= '9':
			n |= int(c - '0')
		case c >= 'a' && c <= 'f':
			n |= int(c-'a') + 10
		default:
			n |= int(c-'A') + 10
		}
	}
	return n
}

func article(k Kind) string {
	switch k {
	case Array, Object, Invalid:
		return "an " + k.String()
	}
	return "a " + k.String()
}

func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// compactClass sorts bytes for AppendCompact: 0 copy, 1 quote, 2 space.
var compactClass = func() (t [256]uint8) {
	t['"'] = 1
	t[' '], t['\n'], t['\r'], t['\t'] = 2, 2, 2, 2
	return
}()

// AppendCompact appends v to dst with every white-space byte outside
// strings removed. Nothing else changes: key order, escapes and number
// literals keep their authored text, which is what makes cooking lossless.
// v must be valid JSON.
//
// Pretty-printed scenes are mostly short tokens between runs of
// indentation, so the loop moves eight bytes at a time: it stores a whole
// word and advances the output only past the bytes that belong to the
// token, instead of calling memmove for every few-byte token.
func AppendCompact(dst, v []byte) []byte {
	n := len(dst)
	dst = slices.Grow(dst, len(v)+8)
	out := dst[:cap(dst)]
	i := 0
	for i+8 <= len(v) {
		w := binary.LittleEndian.Uint64(v[i:])
		m := specialBytes(w)
		binary.LittleEndian.PutUint64(out[n:], w)
		if m == 0 {
			n += 8
			i += 8
			continue
		}
		k := bits.TrailingZeros64(m) / 8
		n += k
		i += k
		if v[i] == '"' {
			e := stringEnd(v, i)
			n += copy(out[n:], v[i:e])
			i = e
			continue
		}
		i++ // white space; indentation comes in long runs
		for i+8 <= len(v) && binary.LittleEndian.Uint64(v[i:]) == 0x2020202020202020 {
			i += 8
		}
		for i < len(v) && compactClass[v[i]] == 2 {
			i++
		}
	}
	for i < len(v) {
		switch compactClass[v[i]] {
		case 0:
			out[n] = v[i]
			n++
			i++
		case 1:
			e := stringEnd(v, i)
			n += copy(out[n:], v[i:e])
			i = e
		default:
			i++
		}
	}
	return out[:n]
}

// stringSpecial flags (in the high bit of each byte) the bytes of w that
// end a run of plain string content: a quote, a backslash or a control
// character. As with specialBytes, only the lowest flag is exact.
func stringSpecial(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := w ^ (ones * '"')
	s := w ^ (ones * '\\')
	return ((w - ones*0x20) | (q - ones) | (s - ones)) &^ w & highs
}

// specialBytes flags (in the high bit of each byte) the bytes of w that
// are a quote or below '!' (white space; valid JSON has no other such byte
// outside strings). Only the lowest flag is exact: false positives can sit
// above a true one, which is all the callers look at.
func specialBytes(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := w ^ (ones * '"')
	return (((w - ones*0x21) &^ w) | ((q - ones) &^ q)) & highs
}

// stringEnd returns the offset after the closing quote of the valid string
// that opens at v[i]. It jumps between quotes with bytes.IndexByte, which
// is much faster than a byte loop on long strings.
func stringEnd(v []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(v[j:], '"')
		if k < 0 {
			return len(v)
		}
		q := j + k
		n := 0
		for b := q - 1; b > i && v[b] == '\\'; b-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}
