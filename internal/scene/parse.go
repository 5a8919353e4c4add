package scene

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/worldcook/worldcook/internal/fingerprint"
	"github.com/worldcook/worldcook/internal/gcpause"
	"github.com/worldcook/worldcook/internal/mapped"
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// Parse reads a scene document. name is used in error messages only. The
// returned Document aliases src: the caller must not modify src afterwards.
//
// Parse validates the whole file as JSON in one pass and decodes only the
// fields a cook needs; a problem is returned as an *Error naming the line,
// column, entity and field, with a fix.
func Parse(name string, src []byte) (*Document, error) {
	return ParseWith(name, src, Options{})
}

// Options tune how a scene is read.
type Options struct {
	// Release, if set, is told of ranges of src the parser is done with,
	// so that the pages of a mapped file can be handed back as the parse
	// moves on. src must still be readable afterwards: error messages and
	// Authored read it again.
	Release func(from, to int)
	// Fingerprint, if set, is handed the parts of src the parse has read,
	// to hash their blocks while they are in cache.
	Fingerprint *fingerprint.Sums
}

// releaseStep is how far a parse moves between calls of Release.
const releaseStep = 8 << 20

// ParseWith is Parse with options. src may be a mapped file: a fault
// because the file shrank while it was read is reported as an *Error.
func ParseWith(name string, src []byte, o Options) (*Document, error) {
	p := &parser{d: &Document{Path: name, Src: src, lines: &lineIndex{}}, s: scan{b: src, pend: -1}, release: o.Release, sums: o.Fingerprint}
	err := mapped.Guard(func() error {
		if err := p.document(); err != nil {
			return p.wrap(err)
		}
		return nil
	})
	if o.Release != nil {
		o.Release(0, len(src))
	}
	if errors.Is(err, mapped.ErrChanged) {
		err = newError(name, "the file changed while it was read", "cook again once it is saved")
	}
	if err != nil {
		return nil, err
	}
	return p.d, nil
}

type parser struct {
	d *Document
	s scan
	// release hands back input the parser is done with, released marks
	// how far it has.
	release  func(from, to int)
	released int
	// sums is handed what the parser has read; hashed is how far.
	sums   *fingerprint.Sums
	hashed int
	// cur is the entity being parsed, for messages.
	cur int
}

// fieldErr is a problem with one field of the current entity.
type fieldErr struct {
	off   int
	field string
	msg   string
	fix   string
}

func (e *fieldErr) Error() string { return e.field + ": " + e.msg }

func (p *parser) wrap(err error) error {
	if e, ok := err.(*Error); ok {
		return e // a chunk of a parallel parse wrapped it already
	}
	out := newError(p.d.Path, "", "")
	off := 0
	var at *errAt
	var fe *fieldErr
	var nr *notRecord
	switch {
	case errors.As(err, &at):
		off, out.Message, out.Hint = at.off, at.msg, fixFor(at.msg)
	case errors.As(err, &nr):
		off, out.Message = nr.off, nr.Error()
		out.Hint = fixFor(out.Message)
	case errors.As(err, &fe):
		off, out.Message, out.Hint, out.Field = fe.off, fe.msg, fe.fix, fe.field
		out.Index = p.cur
		if p.cur >= 0 && p.cur < len(p.d.Entities) {
			e := &p.d.Entities[p.cur]
			if e.ID != noID {
				id := e.ID
				out.Entity = &id
			}
			out.EntityName = e.Name
		}
	default:
		out.Message = err.Error()
	}
	out.Line, out.Column = p.d.Position(off)
	return out
}

// fixFor suggests a repair for a syntax error whose message does not
// already say what to do.
func fixFor(msg string) string {
	switch {
	case strings.Contains(msg, ";"):
		return ""
	case strings.Contains(msg, "truncated"):
		return "the file was cut short; restore it from version control or re-save it from the editor"
	}
	return "fix the JSON syntax or re-save the scene from the editor"
}

// member validates the member name at b[i] and its colon, and returns
// the raw name (escapes undecoded) and the offset where the value starts.
func (s *scan) member(i int) (key []byte, value int, err error) {
	ke := plainKey(s.b, i)
	if ke < 0 {
		if ke, err = s.keySlow(i); err != nil {
			return nil, 0, err
		}
	}
	// ke is just past the colon; in compact text the closing quote is
	// right before it (no other byte before a colon can be a quote).
	q := ke - 2
	if s.b[q] != '"' {
		q = bytes.LastIndexByte(s.b[i:ke], '"') + i
	}
	return s.b[i+1 : q], s.space(ke), nil
}

// afterItem moves past what follows a member or element ending at i:
// with a comma it returns the start of the next item and more; with the
// closing bracket, the offset after it.
func (s *scan) after(i int, close byte, what string) (next int, more bool, err error) {
	b := s.b
	i = s.space(i)
	switch {
	case i >= len(b):
		return 0, false, syntaxf(i, "unexpected end of file (the file is truncated)")
	case b[i] == ',':
		return s.space(i + 1), true, nil
	case b[i] == close:
		return i + 1, false, nil
	}
	return 0, false, notUTF8Or(b, i, syntaxf(i, "expected ',' or '%c' after %s", close, what))
}

// notRecord is an element of the entities array that is not an object.
// n counts from the parser's first record: a chunk of a parallel parse
// learns how many records came before it only once the chunks before it
// are done, and adds them then.
type notRecord struct {
	off, n int
	kind   Kind
}

func (e *notRecord) Error() string {
	return fmt.Sprintf("entities[%d] is %s, not an entity record object", e.n, article(e.kind))
}

// noID marks an entity whose id has not been read yet.
const noID = -1 << 63

func (p *parser) document() error {
	b := p.s.b
	if bytes.HasPrefix(b, bom) {
		return &errAt{0, "file starts with a UTF-8 byte order mark; save it as UTF-8 without BOM"}
	}
	i := p.s.space(0)
	if i >= len(b) {
		return &errAt{0, `file is empty; an Estella scene is a JSON object {"version", "name", "entities": [...]}`}
	}
	if b[i] != '{' {
		s, e, err := scanValue(b, i)
		if err != nil {
			return err
		}
		return &errAt{s, fmt.Sprintf(`top level is %s, not an object; an Estella scene is a JSON object {"version", "name", "entities": [...]}`, article(KindOf(b[s:e])))}
	}
	i = p.s.space(i + 1)
	sawEntities := false
	for first := true; ; first = false {
		if i >= len(b) {
			return syntaxf(i, "unexpected end of file (the file is truncated)")
		}
		if b[i] == '}' && first {
			i++
			break
		}
		ks := i
		ke, err := p.s.key(i)
		if err != nil {
			return err
		}
		keyEnd := bytes.LastIndexByte(b[ks:ke], '"') + ks
		key, err := Str(b[ks : keyEnd+1])
		if err != nil {
			return err
		}
		vs := p.s.space(ke)
		var ve int
		if key == "entities" {
			if sawEntities {
				return &errAt{ks, `"entities" appears twice; keep one entities list`}
			}
			sawEntities = true
			if vs < len(b) && b[vs] != '[' {
				s, e, err := scanValue(b, vs)
				if err != nil {
					return err
				}
				return &errAt{s, fmt.Sprintf(`"entities" is %s, not an array of entity records`, article(KindOf(b[s:e])))}
			}
			ve, err = p.entities(vs)
		} else {
			_, ve, err = p.s.value(vs)
		}
		if err != nil {
			return err
		}
		p.d.Fields = append(p.d.Fields, TopField{Key: key, RawKey: b[ks : keyEnd+1], Value: b[vs:ve]})
		var more bool
		if i, more, err = p.s.after(ve, '}', "a top-level member"); err != nil {
			return err
		}
		if !more {
			break
		}
	}
	if j := p.s.space(i); j < len(b) {
		if bytes.HasPrefix(b[j:], []byte("<<<<<<<")) || bytes.HasPrefix(b[j:], []byte("=======")) || bytes.HasPrefix(b[j:], []byte(">>>>>>>")) {
			return &errAt{j, "merge-conflict marker after the scene object; resolve the conflict in the scene file"}
		}
		return &errAt{j, "trailing data after the scene object; remove everything after the closing '}'"}
	}
	if !sawEntities {
		return &errAt{0, `scene has no "entities" array; an Estella scene is {"version", "name", "entities": [...]}`}
	}
	return nil
}

// parallelMin is the size of entities array worth splitting across
// goroutines; below it the split costs more than it saves. Tests lower it.
var parallelMin = 4 << 20

// tightFrom, when not negative, makes every chunk from that index on
// outgrow its window, so tests reach the path that merges by copying,
// from the start or after chunks were moved into place.
var tightFrom = -1

// sampleBytes is how much of the entities array is parsed first to learn
// the average record size, so that the arenas for the rest are allocated
// once at about the right size: over-allocating a large world costs page
// faults and zeroing, under-allocating costs regrowth copies.
var sampleBytes = 256 << 10

// entities parses the array at b[i] == '[' and indexes the ids.
func (p *parser) entities(i int) (int, error) {
	b := p.s.b
	d := p.d
	i = p.s.space(i + 1)
	if i < len(b) && b[i] == ']' {
		d.index()
		return i + 1, nil
	}
	d.Entities = make([]Entity, 0, 256)
	d.components = make([]Component, 0, 1024)
	p.s.out = make([]byte, 0, max(0, min(len(b)-i, sampleBytes+sampleBytes/4)))
	end, done, err := p.records(i, i+sampleBytes)
	if err != nil {
		return 0, err
	}
	if !done {
		perEntity := max(1, (end-i)/len(d.Entities))
		perComps := float64(len(d.components)) / float64(len(d.Entities))
		compaction := float64(len(p.s.out)) / float64(end-i)
		size := func(n int) (ents, comps, out int) {
			ents = n/perEntity + n/perEntity/8 + 16
			// Compacting never grows a record, so n bounds the output
			// (but for the record that runs past the end of a range).
			out = min(n, int(float64(n)*compaction*1.25)) + 64<<10
			return ents, int(float64(ents)*perComps) + 16, out
		}
		if workers := runtime.GOMAXPROCS(0); workers > 1 && len(b)-end >= parallelMin {
			func() {
				defer gcpause.Pause(0)()
				end, err = p.entitiesParallel(end, workers, size)
			}()
		} else {
			ents, comps, out := size(len(b) - end)
			d.Entities = slices.Grow(d.Entities, ents)
			d.components = slices.Grow(d.components, comps)
			// Records already parsed keep the spans of the old buffer.
			p.s.out = make([]byte, 0, out)
			end, _, err = p.records(end, len(b)+1)
		}
		if err != nil {
			return 0, err
		}
	}
	d.index()
	return end, nil
}

// index builds the id index and lists duplicate ids. Editors number
// entities from 0 or 1 upwards, so a table indexed by id is usually a
// few bytes per entity and far cheaper to build and to query than a map;
// ids scattered more thinly than that get a map.
func (d *Document) index() {
	n := len(d.Entities)
	if n == 0 {
		d.byID = map[int64]int32{}
		return
	}
	lo, hi := d.Entities[0].ID, d.Entities[0].ID
	for i := range d.Entities {
		lo, hi = min(lo, d.Entities[i].ID), max(hi, d.Entities[i].ID)
	}
	if span := uint64(hi - lo); hi >= lo && span < uint64(4*n+1024) && n < 1<<31-1 {
		d.dense, d.denseBase = make([]int32, span+1), lo
		for i := range d.Entities {
			slot := &d.dense[d.Entities[i].ID-lo]
			if *slot != 0 {
				d.dups = append(d.dups, Duplicate{ID: d.Entities[i].ID, First: int(*slot - 1), Second: i})
				continue
			}
			*slot = int32(i + 1)
		}
		return
	}
	d.byID = make(map[int64]int32, n)
	for i := range d.Entities {
		id := d.Entities[i].ID
		if prev, dup := d.byID[id]; dup {
			d.dups = append(d.dups, Duplicate{ID: id, First: int(prev), Second: i})
		} else {
			d.byID[id] = int32(i)
		}
	}
}

// records parses entity records starting at b[i] (a record's '{'). It
// returns after the array's ']' with done set, or, once a record and its
// comma are consumed and the next record starts at or after stop, with
// end at that next record's '{'.
func (p *parser) records(i, stop int) (end int, done bool, err error) {
	if useSqueeze {
		return p.recordsSqueezed(i, stop)
	}
	for {
		_, next, more, err := p.record(i)
		if err != nil || !more {
			return next, err == nil, err
		}
		p.passed(next, false)
		if i = next; i >= stop {
			return i, false, nil
		}
	}
}

// passed tells the fingerprint and the release of what the parser has
// read, up to next: a step at a time, or all of it when the parser is
// done with its range.
func (p *parser) passed(next int, done bool) {
	if p.sums != nil && (done || next-p.hashed >= fingerprint.Block) {
		p.hashed = p.sums.Cover(p.hashed, next)
	}
	if p.release != nil && (done || next-p.released >= releaseStep) {
		p.release(p.released, next)
		p.released = next
	}
}

// record parses the entity record at or after b[i] (after white space)
// and the comma or bracket after it. It returns the end of the record,
// where the next item starts and whether there is one.
func (p *parser) record(i int) (end, next int, more bool, err error) {
	b := p.s.b
	i = p.s.space(i)
	if i >= len(b) {
		return 0, 0, false, syntaxf(i, "unexpected end of file (the file is truncated)")
	}
	if b[i] != '{' {
		s, e, err := scanValue(b, i)
		if err != nil {
			return 0, 0, false, err
		}
		return 0, 0, false, &notRecord{off: s, n: len(p.d.Entities), kind: KindOf(b[s:e])}
	}
	if end, err = p.entity(i); err != nil {
		return 0, 0, false, err
	}
	next, more, err = p.s.after(end, ']', "an entity record")
	return end, next, more, err
}

// recordsSqueezed is records reading compact text that the squeeze
// kernel makes ahead of it (see squeeze.go). A record it cannot read
// there, because it is invalid or runs past the text made so far, is read
// again from the file by the byte-by-byte scanner, which gives the error
// with its line and column, or the record. Both ways give the same
// entities, spans and lines.
func (p *parser) recordsSqueezed(i, stop int) (end int, done bool, err error) {
	d := p.d
	file := p.s // the scanner over the file: its out and lines go on here
	defer func() { p.s = file }()
	q := &squeezer{src: file.b}
	out, lines := file.out, file.lines
	c := len(out) // where the record at i starts in out
	q.reset(i, c, lines)
	for {
		out = q.fill(out, c+squeezeAhead)
		p.s = scan{b: out, pend: -1, direct: true}
		ne, nc, nk, np := len(d.Entities), len(d.components), len(d.children), len(d.prefabs)
		e, next, more, err := p.record(c)
		if err == nil && more && next >= len(out) {
			out = q.fill(out, next+squeezeAhead)
			if next >= len(out) {
				err = errAhead
			}
		}
		if err != nil {
			// Read the record from the file instead, then squeeze on
			// from the next one.
			d.Entities, d.components, d.children, d.prefabs = d.Entities[:ne], d.components[:nc], d.children[:nk], d.prefabs[:np]
			file.out, file.lines = out[:c], lines
			p.s = file
			_, next, more, err = p.record(i)
			file = p.s
			if err != nil || !more {
				return next, err == nil, err
			}
			i, out, lines = next, file.out, file.lines
			c = len(out)
			q.reset(i, c, lines)
		} else {
			// The record's place in the file.
			en := &d.Entities[len(d.Entities)-1]
			srcEnd := q.offset(e-1) + 1
			en.src, en.srcLen, en.line = int64(i), int32(min(srcEnd-i, 1<<31-1)), int32(min(lines+1, 1<<31-1))
			if !more {
				at := q.offset(next - 1) // the ']'
				file.out, file.lines = out[:next], q.linesBefore(at)
				return at + 1, true, nil
			}
			i, c = q.offset(next), next
			lines = q.linesBefore(i)
		}
		p.passed(i, false)
		if i >= stop {
			file.out, file.lines = out[:c], lines
			return i, false, nil
		}
	}
}

// errAhead stands for a record followed by a comma where the compact text
// ends; the record is read again from the file.
var errAhead = errors.New("compact text ends after a record")

// chunk is one goroutine's share of a parallel parse.
type chunk struct {
	start int // guessed first record
	p     *parser
	end   int
	done  bool
	err   error
	// The chunk's window in the shared arenas: where it starts and how
	// many records and components it may hold before append moves it.
	baseE, baseC int
	capE, capC   int
	// out is the capacity of the chunk's compact copy of its records.
	out int
}

// entitiesParallel splits the entities array into byte ranges and parses
// them on several goroutines. Each range after the first starts at a
// guessed record boundary (see guessRecord). A guess is trusted only when
// the range before it, parsed from a trusted start, ends exactly there;
// otherwise the rest is split again from the last trusted point (or, when
// little is left, parsed on this goroutine). The result is therefore
// always what a sequential parse gives, and a well-formed editor file
// takes the fast path.
func (p *parser) entitiesParallel(i, workers int, size func(n int) (ents, comps, out int)) (int, error) {
	b := p.s.b
	d := p.d
	n := workers * 4
	span := (len(b) - i) / n
	sep := p.separator()
	chunks := make([]*chunk, 0, n)
	chunks = append(chunks, &chunk{start: i})
	for k := 1; k < n; k++ {
		if g := guessRecord(b, i+k*span, sep); g > chunks[len(chunks)-1].start {
			chunks = append(chunks, &chunk{start: g})
		}
	}
	// Every chunk appends into its own window of one shared array per
	// arena, sized from the sample with room to spare. Windows are later
	// slid together in place, so the records are never copied into a
	// second array: on a large world that copy would hold the arenas twice.
	// Pages of the windows' unused tails are never touched, so the slack
	// costs address space, not memory.
	stops := make([]int, len(chunks))
	totalE, totalC := len(d.Entities), len(d.components)
	for k, c := range chunks {
		stops[k] = len(b) + 1
		if k+1 < len(chunks) {
			stops[k] = chunks[k+1].start
		}
		e, cc, out := size(stops[k] - c.start)
		c.out = out
		c.capE, c.capC = e+e/4+64, cc+cc/4+64
		if tightFrom >= 0 && k >= tightFrom {
			c.capE, c.capC = 1, 1
		}
		totalE += c.capE
		totalC += c.capC
	}
	// After a wrong guess the rest is split again (below); the arenas of
	// the first split have room for it in the windows it did not keep.
	var ents []Entity
	var comps []Component
	if cap(d.Entities) >= totalE && cap(d.components) >= totalC {
		ents, comps = d.Entities[:totalE], d.components[:totalC]
	} else {
		ents, comps = make([]Entity, totalE), make([]Component, totalC)
		copy(ents, d.Entities)
		copy(comps, d.components)
	}
	baseE, baseC := len(d.Entities), len(d.components)
	// Workers move finished chunks into place themselves, in order, while
	// the others parse on: done after the parse, on one core, moving a
	// million records took 47 ms with the other core idle.
	mv := &mover{finished: make([]bool, len(chunks)), on: true}
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	for k, c := range chunks {
		c.baseE, c.baseC = baseE, baseC
		c.p = &parser{d: &Document{Path: d.Path, Src: b,
			Entities:   ents[baseE:baseE:(baseE + c.capE)],
			components: comps[baseC:baseC:(baseC + c.capC)]},
			s: scan{b: b, pend: -1, out: make([]byte, 0, c.out)}, release: p.release, released: c.start,
			sums: p.sums, hashed: c.start}
		baseE += c.capE
		baseC += c.capC
		stop := stops[k]
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c.err = mapped.Guard(func() (err error) {
				if c.end, c.done, err = c.p.records(c.start, stop); err == nil {
					c.p.passed(c.end, true)
				}
				return err
			})
			mv.finish(p, chunks, k, ents, comps)
		}()
	}
	wg.Wait()
	moved := mv.moved
	if moved > 0 && chunks[moved-1].done {
		return chunks[moved-1].end, nil
	}

	// The trusted chunks: each starts where the one before it ended.
	// Those that fit their windows were moved into place as they finished
	// (mover); what is left of the trusted ones failed or outgrew a window
	// (or follows one that did), and is appended.
	trusted := len(chunks)
	for k := moved; k < len(chunks); k++ {
		c := chunks[k]
		if k > 0 && chunks[k-1].end != c.start {
			trusted = k
			break
		}
		if c.err != nil || c.done {
			trusted = k + 1
			break
		}
	}
	if moved < trusted {
		// The windows may lie in the arrays behind d.Entities and
		// d.components (the sample's, reused when large enough, or after
		// moved chunks), and a chunk that never outgrew its window still
		// has its records there: appending must not write over them, so
		// it moves the records to arrays of their own.
		d.Entities = slices.Clip(d.Entities)
		d.components = slices.Clip(d.components)
	}
	for _, c := range chunks[moved:trusted] {
		if c.err != nil {
			// A trusted range failed: report it as the sequential parse
			// would, with entity indices counted from the whole array.
			var nr *notRecord
			if errors.As(c.err, &nr) {
				nr.n += len(d.Entities)
			}
			err := c.p.wrap(c.err).(*Error)
			if err.Index >= 0 {
				err.Index += len(d.Entities)
			}
			return 0, err
		}
		p.merge(c)
		c.p = nil
		if c.done {
			return c.end, nil
		}
	}
	if trusted < len(chunks) {
		// A guess was not a record boundary: the records up to the last
		// trusted position stand, and the rest is split again from there.
		p.cur = len(d.Entities)
		from := chunks[trusted-1].end
		if len(b)-from >= parallelMin {
			return p.entitiesParallel(from, workers, size)
		}
		_, _, out := size(len(b) - from)
		p.s.out = make([]byte, 0, out)
		end, _, err := p.records(from, len(b)+1)
		return end, err
	}
	return 0, syntaxf(len(b), "unexpected end of file (the file is truncated)")
}

// mover moves the chunks of a parallel parse into place as they finish.
type mover struct {
	sync.Mutex
	finished []bool
	moved    int  // chunks[:moved] are in place
	on       bool // false once a chunk must wait for the checks after the parse
}

// finish records that chunk k is done and moves every finished chunk that
// follows the ones in place, as long as each is trusted, without error and
// within its windows. The first that is not stops the moving;
// entitiesParallel sees to it and to those after it. Moving while other
// chunks are parsed is safe: records only move left of their window, into
// space below every window still being filled.
func (mv *mover) finish(p *parser, chunks []*chunk, k int, ents []Entity, comps []Component) {
	mv.Lock()
	defer mv.Unlock()
	mv.finished[k] = true
	d := p.d
	for mv.on && mv.moved < len(chunks) && mv.finished[mv.moved] {
		n := mv.moved
		c := chunks[n]
		if c.err != nil || n > 0 && chunks[n-1].end != c.start ||
			len(c.p.d.Entities) > c.capE || len(c.p.d.components) > c.capC {
			mv.on = false
			return
		}
		if n == 0 {
			d.Entities = ents[:len(d.Entities)]
			d.components = comps[:len(d.components)]
		}
		p.slide(c, ents, comps)
		c.p = nil
		mv.moved++
		if c.done {
			mv.on = false
		}
	}
}

// slide moves a chunk's records from its window down to the end of the
// document's entities (always leftwards, so windows not yet moved are
// never overwritten) and rebases them (join). Components stay in their
// window: entities reach them by index, so gaps between windows do no
// harm, and moving them was half of this serial step.
func (p *parser) slide(c *chunk, ents []Entity, comps []Component) {
	d := p.d
	ne, nc := len(c.p.d.Entities), len(c.p.d.components)
	dstE := len(d.Entities)
	copy(ents[dstE:dstE+ne], ents[c.baseE:c.baseE+ne])
	d.Entities = ents[:dstE+ne]
	p.join(c, d.Entities[dstE:], int32(c.baseC))
	d.components = comps[:c.baseC+nc]
}

// merge appends a chunk's records and components to the document and
// rebases them (join).
func (p *parser) merge(c *chunk) {
	d, part := p.d, c.p.d
	n, comp := len(d.Entities), int32(len(d.components))
	d.Entities = append(d.Entities, part.Entities...)
	d.components = append(d.components, part.components...)
	p.join(c, d.Entities[n:], comp)
}

// join rebases a chunk's records, ents, now in the document: indices into
// its components arena move by comp (where those components now start),
// into its children and prefab instances by what the document held
// before, and line numbers by the lines before the chunk, since a chunk
// counts from its own start. The chunk's children and instances are
// appended.
func (p *parser) join(c *chunk, ents []Entity, comp int32) {
	d := p.d
	kids, lines, prefabs := int32(len(d.children)), int32(p.s.lines), int32(len(d.prefabs))
	for k := range ents {
		e := &ents[k]
		e.compFrom += comp
		e.compTo += comp
		e.kidFrom += kids
		e.kidTo += kids
		e.line += lines
		if e.prefab != 0 {
			e.prefab += prefabs
		}
	}
	d.children = append(d.children, c.p.d.children...)
	d.prefabs = append(d.prefabs, c.p.d.prefabs...)
	p.s.lines += c.p.s.lines
}

// separator returns what stands between the last two records parsed so
// far (",\n    " in a file the editor saved), or nil if there are not two.
func (p *parser) separator() []byte {
	d := p.d
	n := len(d.Entities)
	if n < 2 {
		return nil
	}
	a, z := &d.Entities[n-2], &d.Entities[n-1]
	from, to := a.src+int64(a.srcLen), z.src
	if from >= to || to-from > 256 {
		return nil
	}
	return d.Src[from:to]
}

// guessRecord returns the first offset at or after i that looks like the
// start of an entity record: a '{' preceded by sep, the separator between
// records seen so far. Nested objects are indented deeper, so in a
// pretty-printed file that is enough; when sep holds no line break (a
// compact file) the '{' must also open with "id". A guess may still be
// wrong (the text could sit inside a string); entitiesParallel checks
// every guess.
func guessRecord(b []byte, i int, sep []byte) int {
	if bytes.IndexByte(sep, '\n') >= 0 {
		for i < len(b) {
			k := bytes.Index(b[i:], sep)
			if k < 0 {
				return len(b)
			}
			q := i + k + len(sep)
			if q < len(b) && b[q] == '{' {
				return q
			}
			i = i + k + 1
		}
		return len(b)
	}
	for i < len(b) {
		k := bytes.IndexByte(b[i:], '{')
		if k < 0 {
			return len(b)
		}
		q := i + k
		j := skipSpace(b, q+1)
		if bytes.HasPrefix(b[j:], []byte(`"id"`)) {
			c := q - 1
			for c >= 0 && isSpace(b[c]) {
				c--
			}
			if c >= 0 && b[c] == ',' {
				return q
			}
		}
		i = q + 1
	}
	return len(b)
}

// entity parses one record at b[i] == '{' in a single validating pass.
func (p *parser) entity(i int) (int, error) {
	b := p.s.b
	d := p.d
	d.Entities = append(d.Entities, Entity{ID: noID, parentAt: -1})
	idx := len(d.Entities) - 1
	p.cur = idx
	e := &d.Entities[idx]
	start := i
	e.src = int64(start)
	e.line = int32(min(p.s.lines+1, 1<<31-1))
	// The record is copied to out in compact form as it is validated;
	// every span kept below is a span of that copy.
	cstart := p.s.begin(start)
	e.compFrom = int32(len(d.components))
	e.compTo = e.compFrom
	e.kidFrom = int32(len(d.children))
	e.kidTo = e.kidFrom
	i = p.s.space(i + 1)
	hasID := false
	var prefab string
	var overrides, added, removed []byte
	if i < len(b) && b[i] == '}' {
		i++
	} else {
		for {
			key, vs, err := p.s.member(i)
			if err != nil {
				return 0, err
			}
			var ve int
			cvs := p.s.at(vs)
			if string(key) == "components" && vs < len(b) && b[vs] == '[' {
				ve, err = p.components(vs)
			} else {
				_, ve, err = p.s.value(vs)
			}
			if err != nil {
				return 0, err
			}
			v := b[vs:ve]
			switch string(key) {
			case "id":
				id, err := Int(v)
				if err != nil {
					return 0, &fieldErr{vs, "id", err.Error(), "write the entity id as a whole number"}
				}
				e.ID, hasID = id, true
			case "parent":
				e.parentAt, e.parentEnd = int32(cvs-cstart), int32(p.s.at(ve)-cstart)
				switch KindOf(v) {
				case Null:
					e.HasParent = false
				case Number:
					pid, err := Int(v)
					if err != nil {
						return 0, &fieldErr{vs, "parent", err.Error(), "write the parent's id, or null for a root"}
					}
					e.Parent, e.HasParent = pid, true
				default:
					return 0, &fieldErr{vs, "parent", "is " + article(KindOf(v)) + ", not an id or null", "write the parent's id, or null for a root"}
				}
			case "children":
				if err := p.childList(e, v, vs); err != nil {
					return 0, err
				}
			case "name":
				if KindOf(v) == String {
					e.Name = strView(p.s.compact(cvs, ve))
				}
			case "components":
				if KindOf(v) != Array {
					return 0, &fieldErr{vs, "components", "is " + article(KindOf(v)) + ", not an array", `write components as a list of {"type", "data"} objects`}
				}
			case "prefab":
				if KindOf(v) == String {
					prefab = strView(p.s.compact(cvs, ve))
					if prefab == "" {
						return 0, &fieldErr{vs, "prefab", "is an empty string", "name the prefab asset (@uuid:… or a path) or remove the field"}
					}
				}
			case "overrides":
				overrides = p.s.compact(cvs, ve)
			case "added":
				added = p.s.compact(cvs, ve)
			case "removed":
				removed = p.s.compact(cvs, ve)
			case "visible":
				e.Hidden = KindOf(v) == Bool && v[0] == 'f'
			}
			var more bool
			if i, more, err = p.s.after(ve, '}', "a member of an entity record"); err != nil {
				return 0, err
			}
			if !more {
				break
			}
		}
	}
	e.Raw = p.s.compact(cstart, i)
	p.s.pend = -1
	if prefab != "" {
		d.prefabs = append(d.prefabs, prefabEntry{asset: prefab, overrides: overrides, added: added, removed: removed})
		e.prefab = int32(len(d.prefabs))
	}
	e.srcLen = int32(min(i-start, 1<<31-1))
	if !hasID {
		return 0, &fieldErr{start, "id", "is missing", "give every entity record a unique numeric id"}
	}
	return i, nil
}

func (p *parser) childList(e *Entity, v []byte, at int) error {
	if KindOf(v) == Null {
		return nil
	}
	if KindOf(v) != Array {
		return &fieldErr{at, "children", "is " + article(KindOf(v)) + ", not an array of ids", "list the child ids, e.g. [3, 4], or []"}
	}
	var bad error
	Each(v, func(el []byte) bool {
		id, err := Int(el)
		if err != nil {
			bad = &fieldErr{at, "children", "element " + err.Error(), "list the child ids as whole numbers"}
			return false
		}
		p.d.children = append(p.d.children, id)
		return true
	})
	if bad != nil {
		return bad
	}
	e.hasChildren = true
	e.kidTo = int32(len(p.d.children))
	return nil
}

// components parses the components array at b[i] == '[' in one pass,
// recording each entry's type and the span of its data.
func (p *parser) components(i int) (int, error) {
	b := p.s.b
	d := p.d
	i = p.s.space(i + 1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for n := 0; ; n++ {
		i = p.s.space(i)
		if i >= len(b) {
			return 0, syntaxf(i, "unexpected end of file (the file is truncated)")
		}
		field := func() string { return "components[" + strconv.Itoa(n) + "]" }
		if b[i] != '{' {
			s, e, err := scanValue(b, i)
			if err != nil {
				return 0, err
			}
			return 0, &fieldErr{s, field(), "is " + article(KindOf(b[s:e])) + ", not a component object", `write each component as {"type": "Name", "data": {...}}`}
		}
		cs := i
		var c Component
		hasType := false
		i = p.s.space(i + 1)
		if i < len(b) && b[i] == '}' {
			i++
		} else {
			for {
				key, vs, err := p.s.member(i)
				if err != nil {
					return 0, err
				}
				cvs := p.s.at(vs)
				_, ve, err := p.s.value(vs)
				if err != nil {
					return 0, err
				}
				switch string(key) {
				case "type":
					if KindOf(b[vs:ve]) != String || ve-vs <= 2 {
						return 0, &fieldErr{vs, field() + ".type", "is not a non-empty string", "name the component type, e.g. \"Transform\""}
					}
					c.Type, hasType = strView(p.s.compact(cvs, ve)), true
				case "data":
					c.Data = p.s.compact(cvs, ve)
				}
				var more bool
				if i, more, err = p.s.after(ve, '}', "a member of a component"); err != nil {
					return 0, err
				}
				if !more {
					break
				}
			}
		}
		if !hasType {
			return 0, &fieldErr{cs, field() + ".type", "is missing", "name the component type, e.g. \"Transform\""}
		}
		d.components = append(d.components, c)
		d.Entities[len(d.Entities)-1].compTo = int32(len(d.components))
		next, more, err := p.s.after(i, ']', "a component")
		if err != nil || !more {
			return next, err
		}
		i = next
	}
}
