// Package jsondoc decodes JSON documents read from files worldcook does
// not control (manifests, journals, records, cell documents, prefabs,
// sidecars, maps) and words what is wrong with them as one line that
// says where.
//
// Decoding is goccy/go-json's, for its speed on large manifests, behind
// a check with the standard library's scanner: goccy reads past the end
// of some malformed documents (an escape as the last byte of an object
// key, found by fuzzing), which is a crash on hostile input; on a
// document the scanner accepts it stays in bounds. Decoders also quote
// the offending byte as it is, so a message about a document holding a
// newline or a control character would break over lines, and they give
// byte offsets where a person wants a line and a column.
//
// What a document means is the standard library's: a document goccy
// would read differently goes to the standard library's decoder instead
// (see standard). That is rare and costs only speed.
package jsondoc

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	json "github.com/goccy/go-json"
)

// Unmarshal decodes the JSON document data into v. Its error is one
// line, with the line and column where the decoder stopped.
func Unmarshal(data []byte, v any) error {
	if err := Check(data); err != nil {
		return err
	}
	decode := json.Unmarshal
	if standard(data) {
		decode = stdjson.Unmarshal
	}
	if err := decode(data, v); err != nil {
		return errors.New(Describe(data, err))
	}
	return nil
}

// UnmarshalStrict is Unmarshal refusing a member v has no field for:
// for documents only worldcook writes, where an unknown member means
// the file is not what it claims to be.
func UnmarshalStrict(data []byte, v any) error {
	if err := Check(data); err != nil {
		return err
	}
	var err error
	if standard(data) {
		dec := stdjson.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		err = dec.Decode(v)
	} else {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		err = dec.Decode(v)
	}
	if err != nil {
		return errors.New(Describe(data, err))
	}
	return nil
}

// standard reports whether data, a document Check accepted, may hold
// something goccy decodes otherwise than the standard library does:
//
//   - bytes that are not UTF-8, which the standard library reads as
//     U+FFFD (as the engine's text decoding does) and goccy keeps;
//   - an integer of 19 digits or more, which goccy adds up without a
//     check, so that 9223372036854775808 becomes -9223372036854775808 in
//     an int64 and 18446744073709551616 becomes 0 in a uint64, where the
//     standard library refuses both as out of range;
//   - "ſ" (U+017F) or the Kelvin sign (U+212A), raw or escaped, which the
//     standard library's case folding matches with the member names "s"
//     and "k" and goccy's does not;
//   - an escaped UTF-16 surrogate (\uD800 to \uDFFF): goccy looks for
//     the second half of a pair past the end of a string that ends after
//     the first, reading outside the document (the race detector's
//     pointer checks catch it on {"s":"\ud800"}).
//
// Digits inside strings (blake3 digests) do not count, so a manifest
// stays on the fast path. Float fields decode alike: both decoders parse
// a float64 with strconv, and overflow is an error in both. (goccy takes
// an out-of-range float32 as infinite; no document worldcook reads has a
// float32 field.)
func standard(data []byte) bool {
	if !utf8.Valid(data) || bytes.Contains(data, []byte("\u017f")) || bytes.Contains(data, []byte("\u212a")) ||
		bytes.Contains(data, []byte(`\u017`)) || bytes.Contains(data, []byte(`\u212`)) || surrogate(data) {
		return true
	}
	digits := 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			i = stringEnd(data, i+1)
			digits = 0
		case '0' <= c && c <= '9':
			if digits++; digits >= 19 {
				return true
			}
		default:
			digits = 0
		}
	}
	return false
}

// surrogate reports whether data holds an escape \uD800 to \uDFFF (any
// case). An escaped backslash before a "uD8" text counts too: it only
// sends the document to the slower decoder.
func surrogate(data []byte) bool {
	for i := 0; ; i++ {
		j := bytes.Index(data[i:], []byte(`\u`))
		if j < 0 || i+j+3 >= len(data) {
			return false
		}
		i += j
		if d, c := data[i+2], data[i+3]; (d == 'd' || d == 'D') && strings.IndexByte("89abcdefABCDEF", c) >= 0 {
			return true
		}
	}
}

// stringEnd is the index of the quote that closes the string whose
// contents start at i (len(data) if none does).
func stringEnd(data []byte, i int) int {
	for i < len(data) {
		j := bytes.IndexAny(data[i:], `"\`)
		if j < 0 {
			return len(data)
		}
		i += j
		if data[i] == '"' {
			return i
		}
		i += 2 // an escape: the backslash and the byte after it
	}
	return len(data)
}

// Check checks data with the standard library's scanner, which never
// reads outside data, and says where it is not JSON. The scanner also
// refuses anything after the top-level value.
func Check(data []byte) error {
	if stdjson.Valid(data) {
		return nil
	}
	// Unmarshal scans the whole document before it decodes anything, so
	// on a document Valid refused it returns the scanner's error at once.
	return errors.New(Describe(data, stdjson.Unmarshal(data, &struct{}{})))
}

// Describe returns err, an error from decoding data, as one line:
// "line L, column C: what the decoder said" when the decoder gives an
// offset, else what it said. Control and non-printing characters are
// written as Go escapes (\n, \x00).
func Describe(data []byte, err error) string {
	if err == nil {
		return ""
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		line, col := LineCol(data, len(data))
		return "line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col) + ": the document ends early"
	}
	msg := OneLine(strings.TrimPrefix(err.Error(), "json: "))
	if off, ok := offset(err); ok {
		line, col := LineCol(data, int(off))
		return "line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col) + ": " + msg
	}
	return msg
}

// offset is the byte offset the decoder's error gives, if any.
func offset(err error) (int64, bool) {
	var gs *json.SyntaxError
	if errors.As(err, &gs) {
		return gs.Offset, true
	}
	var gt *json.UnmarshalTypeError
	if errors.As(err, &gt) {
		return gt.Offset, true
	}
	var ss *stdjson.SyntaxError
	if errors.As(err, &ss) {
		return ss.Offset, true
	}
	var st *stdjson.UnmarshalTypeError
	if errors.As(err, &st) {
		return st.Offset, true
	}
	return 0, false
}

// LineCol is the 1-based line and column (in bytes) of offset off in
// data; an offset outside data is taken as its nearest end.
func LineCol(data []byte, off int) (int, int) {
	off = min(max(off, 0), len(data))
	return 1 + bytes.Count(data[:off], []byte{'\n'}), off - bytes.LastIndexByte(data[:off], '\n')
}

// OneLine returns s with every control or non-printing character written
// as a Go escape, so that it is one line of printable text.
func OneLine(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8RuneError || !unicode.IsPrint(r) && r != ' ' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r != utf8RuneError && (unicode.IsPrint(r) || r == ' ') {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r)
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

const utf8RuneError = '\uFFFD'
