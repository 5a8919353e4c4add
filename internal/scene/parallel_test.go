package scene

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/fingerprint"
	"github.com/worldcook/worldcook/internal/mapped"
	"github.com/worldcook/worldcook/internal/testworld"
)

// parseBoth parses src sequentially and in parallel (with windows that
// fit and windows outgrown), reading records byte by byte and through
// each squeeze kernel, requires every document (or error) to be
// identical, and returns the sequential byte-by-byte one.
func parseBoth(t *testing.T, src []byte) (first *Document, firstErr error) {
	t.Helper()
	for _, m := range squeezeModes() {
		m.run(func() {
			d, err := parseBothOnce(t, src)
			if m.name == "bytes" {
				first, firstErr = d, err
				return
			}
			sameParse(t, m.name, first, firstErr, d, err)
		})
	}
	return first, firstErr
}

// squeezeMode is one way of reading entity records.
type squeezeMode struct {
	name   string
	use    bool
	kernel func(dst, src []byte, masks []uint64, st *lexState) (int, int)
}

func (m squeezeMode) run(fn func()) {
	defer func(use bool, k func(dst, src []byte, masks []uint64, st *lexState) (int, int)) {
		useSqueeze, squeezeBlocks = use, k
	}(useSqueeze, squeezeBlocks)
	useSqueeze, squeezeBlocks = m.use, m.kernel
	fn()
}

// squeezeModes lists byte by byte first, then each kernel this CPU runs.
func squeezeModes() []squeezeMode {
	modes := []squeezeMode{{"bytes", false, squeezeGeneric}, {"squeeze/generic", true, squeezeGeneric}}
	if hasSqueezeAVX512 {
		modes = append(modes, squeezeMode{"squeeze/avx512", true, squeezeAVX512})
	}
	if hasSqueezeAVX2 {
		modes = append(modes, squeezeMode{"squeeze/avx2", true, squeezeAVX2})
	}
	return modes
}

// sameParse requires b (read the way named) to be the document or error a
// is, down to spans, lines and messages.
func sameParse(t testing.TB, way string, a *Document, aErr error, b *Document, bErr error) {
	t.Helper()
	if (aErr == nil) != (bErr == nil) || aErr != nil && aErr.Error() != bErr.Error() {
		t.Fatalf("%s: error %v, byte by byte %v", way, bErr, aErr)
	}
	if aErr != nil {
		return
	}
	if !sameDocument(a, b) || !reflect.DeepEqual(a.Fields, b.Fields) {
		ae, _ := packed(a)
		be, _ := packed(b)
		for i := range min(len(ae), len(be)) {
			if !reflect.DeepEqual(ae[i], be[i]) {
				t.Fatalf("%s: entity %d differs:\n%+v\nbyte by byte:\n%+v", way, i, be[i], ae[i])
			}
		}
		t.Fatalf("%s: document differs from reading byte by byte", way)
	}
}

// packed returns d's entities and components with the components packed
// in entity order, however the parse laid out its arenas (a parallel
// parse leaves gaps between its workers' windows).
func packed(d *Document) ([]Entity, []Component) {
	ents := slices.Clone(d.Entities)
	var comps []Component
	for i := range ents {
		from := int32(len(comps))
		comps = append(comps, d.Components(i)...)
		ents[i].compFrom, ents[i].compTo = from, int32(len(comps))
	}
	return ents, comps
}

// sameDocument reports whether a and b hold the same records, components,
// children, prefab instances and duplicates.
func sameDocument(a, b *Document) bool {
	ae, ac := packed(a)
	be, bc := packed(b)
	if !reflect.DeepEqual(ae, be) || !reflect.DeepEqual(ac, bc) ||
		!reflect.DeepEqual(a.children, b.children) || !reflect.DeepEqual(a.dups, b.dups) {
		return false
	}
	for i := range a.Entities {
		pa, oa := a.Prefab(i)
		pb, ob := b.Prefab(i)
		aa, ar := a.PrefabEdits(i)
		ba, br := b.PrefabEdits(i)
		if pa != pb || !bytes.Equal(oa, ob) || !bytes.Equal(aa, ba) || !bytes.Equal(ar, br) {
			return false
		}
	}
	return true
}

func parseBothOnce(t *testing.T, src []byte) (*Document, error) {
	t.Helper()
	defer func(old, sample int) { parallelMin, sampleBytes = old, sample }(parallelMin, sampleBytes)
	sampleBytes = 64
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)

	parallelMin = 1 << 62
	seq, seqErr := Parse("x", src)
	parallelMin = 1
	par, parErr := Parse("x", src)
	for _, from := range []int{0, 2} {
		tightFrom = from
		tight, tightErr := Parse("x", src)
		tightFrom = -1
		if (tightErr == nil) != (parErr == nil) || (parErr == nil && !sameDocument(tight, par)) {
			t.Fatalf("parse with windows outgrown from chunk %d on differs: %v / %v", from, tightErr, parErr)
		}
	}
	if (seqErr == nil) != (parErr == nil) {
		t.Fatalf("sequential error %v, parallel error %v", seqErr, parErr)
	}
	if seqErr != nil {
		if seqErr.Error() != parErr.Error() {
			t.Fatalf("errors differ:\n seq %v\n par %v", seqErr, parErr)
		}
		return nil, seqErr
	}
	if !sameDocument(seq, par) {
		t.Fatal("parallel parse differs from sequential parse")
	}
	checkCompactSpans(t, seq)
	checkCompactSpans(t, par)
	return seq, nil
}

func TestParallelParseMatchesSequential(t *testing.T) {
	var gen bytes.Buffer
	if err := testworld.Write(&gen, testworld.DefaultOptions(20_000, 3)); err != nil {
		t.Fatal(err)
	}
	// Record-like text inside strings and component data, where a guessed
	// boundary is wrong and the parse must fall back.
	rec := func(id int, extra string) string {
		return `{"id":` + itoa(id) + `,"name":"n, {\"id\": 1}","parent":null,"children":[],"components":[{"type":"T","data":{"list":[1, {"id": 2}, {"id":3}]` + extra + `}}]}`
	}
	var tricky strings.Builder
	tricky.WriteString(`{"version":1,"entities":[`)
	for i := 1; i <= 400; i++ {
		if i > 1 {
			tricky.WriteString(", ")
		}
		if i%7 == 0 {
			// A prefab instance, whose asset and overrides the document
			// keeps apart from the records.
			tricky.WriteString(`{"id":` + itoa(i) + `,"parent":null,"prefab":"@uuid:p` + itoa(i) + `","overrides":[{"path":"","propertyName":"position","value":{"x":` + itoa(i) + `}}],"added":[{"prefabEntityId":"a` + itoa(i) + `"}],"removed":["r` + itoa(i) + `"]}`)
			continue
		}
		tricky.WriteString(rec(i, ""))
	}
	tricky.WriteString(`],"folders":[{"id":1}, {"id":2}]}`)
	broken := strings.Replace(tricky.String(), rec(300, ""), rec(300, `,"bad":tru`), 1)
	dup := strings.Replace(tricky.String(), rec(350, ""), rec(7, ""), 1)

	for name, src := range map[string][]byte{
		"generated": gen.Bytes(),
		"tricky":    []byte(tricky.String()),
		"broken":    []byte(broken),
		"duplicate": []byte(dup),
		"truncated": []byte(tricky.String()[:len(tricky.String())/2]),
	} {
		t.Run(name, func(t *testing.T) { parseBoth(t, src) })
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestParseTruncatedMapping parses a mapped scene that shrank after it was
// mapped: the pages past the new end fault, and the parse must report
// that as an error (sequentially and on parallel workers), not crash.
func TestParseTruncatedMapping(t *testing.T) {
	var gen bytes.Buffer
	if err := testworld.Write(&gen, testworld.DefaultOptions(3000, 5)); err != nil {
		t.Fatal(err)
	}
	defer func(old int) { parallelMin = old }(parallelMin)
	for _, min := range []int{1 << 62, 1} {
		parallelMin = min
		p := filepath.Join(t.TempDir(), "main.esscene")
		if err := os.WriteFile(p, gen.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := mapped.Open(p, "scene")
		if err != nil {
			t.Fatal(err)
		}
		if !f.Mapped() {
			t.Skip("files are not mapped on this system")
		}
		// Past the sample, so that the parallel workers are the ones that
		// fault.
		if err := os.Truncate(p, int64(gen.Len()/3)&^4095); err != nil {
			t.Fatal(err)
		}
		_, err = ParseWith(p, f.Data, Options{Release: f.Release})
		var se *Error
		if !errors.As(err, &se) || !strings.Contains(se.Error(), "changed while it was read") {
			t.Fatalf("parallelMin %d: got %v, want an error saying the file changed", min, err)
		}
		f.Close()
	}
}

// TestGuessFollowsTheRecordSeparator: in a pretty-printed world whose
// component data holds objects opening with "id" (references written as
// {"id": n}), every guessed boundary is a record, so the parallel parse
// never has to split the rest again.
func TestGuessFollowsTheRecordSeparator(t *testing.T) {
	var gen bytes.Buffer
	if err := testworld.Write(&gen, testworld.DefaultOptions(20_000, 7)); err != nil {
		t.Fatal(err)
	}
	b := gen.Bytes()
	if !bytes.Contains(b, []byte("{\n                \"id\"")) {
		t.Fatal("the generated world has no nested {\"id\": …} objects to mislead a guess")
	}
	d, err := Parse("x", b)
	if err != nil {
		t.Fatal(err)
	}
	starts := map[int]bool{len(b): true}
	for i := range d.Entities {
		starts[d.Offset(i)] = true
	}
	p := &parser{d: d}
	sep := p.separator()
	if string(sep) != ",\n    " {
		t.Fatalf("separator %q", sep)
	}
	for off := 0; off < len(b); off += 997 {
		if g := guessRecord(b, off, sep); !starts[g] {
			t.Fatalf("guess from %d at %d is not a record: %q", off, g, b[g:min(g+40, len(b))])
		}
	}
}

// TestParseCoversFingerprint: a parse handed a fingerprint hashes the
// blocks it reads, sequentially and in parallel and whichever way it reads
// records, and the fingerprint comes out as one pass over the file gives.
func TestParseCoversFingerprint(t *testing.T) {
	var gen bytes.Buffer
	if err := testworld.Write(&gen, testworld.DefaultOptions(20_000, 9)); err != nil {
		t.Fatal(err)
	}
	src := gen.Bytes()
	want := fingerprint.Of(src, nil)
	defer func(old int) { parallelMin = old }(parallelMin)
	for _, m := range squeezeModes() {
		for _, min := range []int{1 << 62, 1} {
			parallelMin = min
			m.run(func() {
				sums := fingerprint.New(src)
				if _, err := ParseWith("x", src, Options{Fingerprint: sums}); err != nil {
					t.Fatal(err)
				}
				hashed, blocks := sums.Hashed()
				if hashed < blocks*9/10 {
					t.Errorf("%s, parallelMin %d: the parse hashed %d of %d blocks", m.name, min, hashed, blocks)
				}
				if got := sums.Sum(nil); got != want {
					t.Errorf("%s, parallelMin %d: fingerprint %s, want %s", m.name, min, got, want)
				}
			})
		}
	}
}

// TestCorpusEveryWay reads every scene of the Estella corpus byte by byte
// and through each squeeze kernel, sequentially and in parallel, and
// requires one document from all of them.
func TestCorpusEveryWay(t *testing.T) {
	for _, f := range corpus.Files(t, ".esscene") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(f), func(t *testing.T) { parseBoth(t, src) })
	}
}
