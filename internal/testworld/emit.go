package testworld

import (
	"io"
	"strconv"
	"unicode/utf8"
)

// maxDepth bounds the nesting the emitter tracks. Generated documents nest
// about seven levels deep; the margin leaves room for project components with
// deeper data without growing the state on the heap.
const maxDepth = 32

// spaces is sliced to write indentation without building strings per line.
var spaces = func() string {
	b := make([]byte, 2*maxDepth)
	for i := range b {
		b[i] = ' '
	}
	return string(b)
}()

// emitter writes JSON token by token to a buffered writer. It exists because
// the generator must stream documents far larger than memory, so it cannot
// build a value and hand it to encoding/json. In pretty mode it reproduces the
// layout of JSON.stringify(value, null, 2), which is how the Estella editor
// saves scenes: one member or element per line, two spaces per level, a space
// after each colon, and empty containers written as {} or [].
//
// Tokens are appended to a plain byte slice rather than a bufio.Writer: the
// generator writes tens of tokens per entity, and appends that the compiler
// inlines cost a fraction of a method call each.
type emitter struct {
	out    io.Writer
	buf    []byte
	err    error
	pretty bool
	depth  int
	first  [maxDepth + 1]bool
}

// flushAt is the buffered size past which output is handed to the writer.
const flushAt = 256 << 10

func newEmitter(w io.Writer, pretty bool) *emitter {
	return &emitter{
		out:    w,
		buf:    make([]byte, 0, flushAt+4<<10),
		pretty: pretty,
	}
}

// spill hands the buffered bytes to the writer. After the first error the
// output is dropped, and flush reports that error.
func (e *emitter) spill() {
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = e.out.Write(e.buf)
	}
	e.buf = e.buf[:0]
}

// flush writes what is buffered and returns the first write error.
func (e *emitter) flush() error {
	e.spill()
	return e.err
}

// next separates a new member or element from the previous one at the
// current depth and, in pretty mode, starts it on its own indented line.
// Every token sequence passes through here, so it is also where the buffer
// is handed on once it is full.
func (e *emitter) next() {
	if len(e.buf) >= flushAt {
		e.spill()
	}
	if e.first[e.depth] {
		e.first[e.depth] = false
	} else {
		e.buf = append(e.buf, ',')
	}
	if e.pretty {
		e.buf = append(e.buf, '\n')
		e.buf = append(e.buf, spaces[:2*e.depth]...)
	}
}

// key starts an object member. Keys are compile-time identifiers that never
// need escaping.
func (e *emitter) key(k string) {
	e.next()
	e.buf = append(e.buf, '"')
	e.buf = append(e.buf, k...)
	if e.pretty {
		e.buf = append(e.buf, `": `...)
	} else {
		e.buf = append(e.buf, `":`...)
	}
}

// elem starts an array element.
func (e *emitter) elem() { e.next() }

func (e *emitter) open(c byte) {
	e.buf = append(e.buf, c)
	e.depth++
	if e.depth > maxDepth {
		panic("testworld: document nests deeper than the emitter supports")
	}
	e.first[e.depth] = true
}

func (e *emitter) close(c byte) {
	empty := e.first[e.depth]
	e.depth--
	if !empty && e.pretty {
		e.buf = append(e.buf, '\n')
		e.buf = append(e.buf, spaces[:2*e.depth]...)
	}
	e.buf = append(e.buf, c)
}

func (e *emitter) beginObject() { e.open('{') }
func (e *emitter) endObject()   { e.close('}') }
func (e *emitter) beginArray()  { e.open('[') }
func (e *emitter) endArray()    { e.close(']') }

// raw writes a literal that is already valid JSON, such as a number text.
func (e *emitter) raw(s string) { e.buf = append(e.buf, s...) }

func (e *emitter) null() { e.buf = append(e.buf, "null"...) }

func (e *emitter) boolean(b bool) {
	if b {
		e.buf = append(e.buf, "true"...)
	} else {
		e.buf = append(e.buf, "false"...)
	}
}

func (e *emitter) int(v int64) { e.buf = strconv.AppendInt(e.buf, v, 10) }

// centi writes a fixed-point number stored in hundredths. Every coordinate the
// generator invents is an integer count of hundredths so that the text is
// decided by integer arithmetic alone: floating-point expressions may be
// fused differently by the compiler on other architectures, and the output
// must be byte-identical everywhere.
func (e *emitter) centi(v int64) { e.buf = appendCenti(e.buf, v) }

// appendCenti formats v/100 with the shortest exact decimal text, so 12340
// becomes 123.4 and 12300 becomes 123, as JavaScript would print the value.
func appendCenti(b []byte, v int64) []byte {
	u := uint64(v)
	if v < 0 {
		b = append(b, '-')
		u = uint64(-v)
	}
	b = strconv.AppendUint(b, u/100, 10)
	switch frac := u % 100; {
	case frac == 0:
	case frac%10 == 0:
		b = append(b, '.', byte('0'+frac/10))
	default:
		b = append(b, '.', byte('0'+frac/10), byte('0'+frac%10))
	}
	return b
}

// str writes a JSON string, escaping what JSON requires. Generated names are
// plain ASCII, so the fast path is a single write.
func (e *emitter) str(s string) {
	e.buf = append(e.buf, '"')
	if needsEscape(s) {
		e.buf = appendEscaped(e.buf, s)
	} else {
		e.buf = append(e.buf, s...)
	}
	e.buf = append(e.buf, '"')
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

func appendEscaped(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}

// Convenience writers for the shapes every scene repeats.

func (e *emitter) keyStr(k, v string) {
	e.key(k)
	e.str(v)
}

func (e *emitter) keyInt(k string, v int64) {
	e.key(k)
	e.int(v)
}

func (e *emitter) keyCenti(k string, v int64) {
	e.key(k)
	e.centi(v)
}

func (e *emitter) keyRaw(k, v string) {
	e.key(k)
	e.raw(v)
}

func (e *emitter) keyBool(k string, v bool) {
	e.key(k)
	e.boolean(v)
}

// vec2 writes {x, y} from hundredths.
func (e *emitter) vec2(k string, x, y int64) {
	e.key(k)
	e.beginObject()
	e.keyCenti("x", x)
	e.keyCenti("y", y)
	e.endObject()
}

// vec3 writes {x, y, z} from hundredths.
func (e *emitter) vec3(k string, x, y, z int64) {
	e.key(k)
	e.beginObject()
	e.keyCenti("x", x)
	e.keyCenti("y", y)
	e.keyCenti("z", z)
	e.endObject()
}

// color writes {r, g, b, a} from hundredths.
func (e *emitter) color(k string, r, g, b, a int64) {
	e.key(k)
	e.beginObject()
	e.keyCenti("r", r)
	e.keyCenti("g", g)
	e.keyCenti("b", b)
	e.keyCenti("a", a)
	e.endObject()
}

// quat writes a rotation quaternion whose components are literal number texts.
func (e *emitter) quat(k string, q quaternion) {
	e.key(k)
	e.beginObject()
	e.keyRaw("x", q.x)
	e.keyRaw("y", q.y)
	e.keyRaw("z", q.z)
	e.keyRaw("w", q.w)
	e.endObject()
}

// component opens {"type": t, "data": { and leaves the data object open for
// the caller, who closes it with endComponent.
func (e *emitter) component(t string) {
	e.elem()
	e.beginObject()
	e.keyStr("type", t)
	e.key("data")
	e.beginObject()
}

func (e *emitter) endComponent() {
	e.endObject()
	e.endObject()
}

// beginScene opens a scene document and its entities array.
func (e *emitter) beginScene(name string) {
	e.beginObject()
	e.keyInt("version", 1)
	e.keyStr("name", name)
	e.key("entities")
	e.beginArray()
}

// endScene closes what beginScene opened and ends the document with a newline.
func (e *emitter) endScene() {
	e.endArray()
	e.endObject()
	e.buf = append(e.buf, '\n')
}

// beginEntity writes the record fields that precede the components, in the
// editor's order, and opens the components array. parent 0 means a root.
func (e *emitter) beginEntity(id int64, name string, parent int64, children []int64) {
	e.elem()
	e.beginObject()
	e.keyInt("id", id)
	e.keyStr("name", name)
	e.key("parent")
	if parent == 0 {
		e.null()
	} else {
		e.int(parent)
	}
	e.key("children")
	e.beginArray()
	for _, c := range children {
		e.elem()
		e.int(c)
	}
	e.endArray()
	e.key("components")
	e.beginArray()
}

func (e *emitter) endEntity() {
	e.endArray()
	e.keyBool("visible", true)
	e.endObject()
}
