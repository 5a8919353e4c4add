package manifest

import (
	"bytes"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func sample() *Manifest {
	proxy := int64(992)
	return &Manifest{
		Version: Version, Scene: "main", CellSize: 1000, Plane: PlaneXZ,
		PersistentRefs: []int64{2, 9},
		Persistent:     Persistent{Path: "main.esscene", Bytes: 10, Blake3: "ab", EntityCount: 3},
		Sources:        []Source{{Entity: 2, Name: "Player", Position: Vec3{X: 1, Y: 2, Z: 3}, PrefetchRadius: 3000, LoadRadius: 2000, UnloadRadius: 3000, Enabled: true}},
		Cells: []Cell{
			{Name: "main.cell_-1_0", Path: "world/main.cell_-1_0.json", X: -1, Z: 0, MinX: -1000, MinZ: 0, MaxX: 0, MaxZ: 1000, EntityCount: 4, RootCount: 1, Bytes: 100, Blake3: "cd"},
			{Name: "main.cell_0_0", Path: "world/main.cell_0_0.json", X: 0, Z: 0, MinX: -5.5, MinZ: 0, MaxX: 1000, MaxZ: 1000, EntityCount: 1, RootCount: 1, Bytes: 50, Blake3: "ef", ProxyBytes: &proxy},
		},
	}
}

func TestRoundTrip(t *testing.T) {
	m := sample()
	b, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(b, []byte("}\n")) || !bytes.Contains(b, []byte("\n  \"scene\": \"main\"")) {
		t.Fatalf("not 2-space JSON with a trailing newline:\n%s", b)
	}
	got, err := Decode("m.json", b)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := Encode(got)
	if !bytes.Equal(b, b2) {
		t.Fatalf("re-encoding changed the manifest:\n%s\n%s", b, b2)
	}
	if c, ok := got.CellByName("main.cell_0_0"); !ok || c.ProxyBytes == nil || *c.ProxyBytes != 992 {
		t.Fatalf("CellByName: %+v %v", c, ok)
	}
}

func TestCheckRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Manifest)
		want string
	}{
		{"version", func(m *Manifest) { m.Version = 2 }, "version 2"},
		{"cell size", func(m *Manifest) { m.CellSize = 0 }, "cellSize"},
		{"plane", func(m *Manifest) { m.Plane = "yz" }, "plane"},
		{"no name", func(m *Manifest) { m.Cells[0].Name = "" }, "no name"},
		{"source name on two lines", func(m *Manifest) { m.Sources[0].Name = "a\rb" }, `sources[0] name "a\rb" holds a control character`},
		{"scene name on two lines", func(m *Manifest) { m.Scene = "a\nb" }, `manifest scene "a\nb" holds a control character`},
		{"name on two lines", func(m *Manifest) { m.Cells[0].Name = "a\nb" }, `cells[0] name "a\nb" holds a control character`},
		{"duplicate", func(m *Manifest) { m.Cells[1].Name = m.Cells[0].Name }, "twice"},
		{"escaping path", func(m *Manifest) { m.Cells[0].Path = "world/../../etc/passwd" }, "leaves"},
		{"absolute path", func(m *Manifest) { m.Cells[0].Path = "/etc/passwd" }, "leaves"},
		{"outside world", func(m *Manifest) { m.Cells[0].Path = "cells/a.json" }, "not under world/"},
		{"persistent escapes", func(m *Manifest) { m.Persistent.Path = "../x.esscene" }, "leaves"},
		{"inverted bounds", func(m *Manifest) { m.Cells[0].MinX = 5000 }, "inverted"},
		{"negative bytes", func(m *Manifest) { m.Cells[0].Bytes = -1 }, "negative"},
		{"unsorted", func(m *Manifest) { m.Cells[0], m.Cells[1] = m.Cells[1], m.Cells[0] }, "sorted"},
		{"parent in the middle", func(m *Manifest) { m.Cells[0].Path = "world/x/../../../y.json" }, `cell main.cell_-1_0: path "world/x/../../../y.json" leaves`},
		{"parent at the end", func(m *Manifest) { m.Cells[0].Path = "world/.." }, "leaves"},
		{"backslash", func(m *Manifest) { m.Cells[0].Path = `world/..\..\x.json` }, `cell main.cell_-1_0: path "world/..\\..\\x.json" holds '\\'`},
		{"drive colon", func(m *Manifest) { m.Cells[0].Path = "world/C:x.json" }, "holds ':'"},
		{"control character", func(m *Manifest) { m.Cells[0].Path = "world/a\x00.json" }, "holds '\\x00'"},
		{"dot element", func(m *Manifest) { m.Cells[0].Path = "world/./a.json" }, "not clean"},
		{"empty element", func(m *Manifest) { m.Cells[0].Path = "world//a.json" }, "not clean"},
		{"trailing slash", func(m *Manifest) { m.Cells[0].Path = "world/a/" }, "not clean"},
		{"persistent backslash", func(m *Manifest) { m.Persistent.Path = `..\x.esscene` }, "persistent scene: path"},
		{"bytes 1e18", func(m *Manifest) { m.Cells[0].Bytes = 1e18 }, "cell main.cell_-1_0: bytes: 1000000000000000000 bytes takes the world's sizes past 4398046511104 bytes"},
		{"sizes that wrap when summed", func(m *Manifest) { m.Cells[0].Bytes, m.Cells[1].Bytes = math.MaxInt64, math.MaxInt64 }, "more than a world may hold"},
		{"sum just past the limit", func(m *Manifest) { m.Persistent.Bytes, m.Cells[0].Bytes = MaxWorldBytes-100, 100 }, "cell main.cell_0_0: bytes: 50 bytes takes"},
		{"proxy bytes", func(m *Manifest) { *m.Cells[1].ProxyBytes = MaxWorldBytes }, "cell main.cell_0_0: proxyBytes:"},
		{"persistent bytes", func(m *Manifest) { m.Persistent.Bytes = MaxWorldBytes + 1 }, "persistent scene: 4398046511105 bytes"},
		{"negative entity count", func(m *Manifest) { m.Cells[0].EntityCount = -1 }, "cell main.cell_-1_0: entityCount -1 must be from 0 to"},
		{"huge root count", func(m *Manifest) { m.Cells[0].RootCount = 1 << 40 }, "rootCount"},
		{"absolute project", func(m *Manifest) { m.Project = "/home/me/game" }, `manifest project "/home/me/game" is absolute`},
		{"project with a drive", func(m *Manifest) { m.Project = "C:/game" }, `holds ':'`},
		{"project with a backslash", func(m *Manifest) { m.Project = `..\game` }, `holds '\\'`},
		{"project with a newline", func(m *Manifest) { m.Project = "../ga\nme" }, `holds '\n'`},
		{"project not clean", func(m *Manifest) { m.Project = "../game/" }, "not clean"},
		{"project dot", func(m *Manifest) { m.Project = "./game" }, "not clean"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := sample()
			tc.edit(m)
			err := m.Check()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check() = %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
}

// TestCheckAccepts keeps the limits off what cook writes: sizes that add
// up to exactly MaxWorldBytes, and paths in subfolders.
func TestCheckAccepts(t *testing.T) {
	m := sample()
	m.Persistent.Path = "levels/boss.esscene"
	m.Persistent.Bytes = MaxWorldBytes - 150 - 992
	if err := m.Check(); err != nil {
		t.Fatal(err)
	}
	// A project may lie above the cooked directory: it is only read.
	for _, p := range []string{"../..", "../../game", "../../../../testdata/demo", "assets"} {
		m.Project = p
		if err := m.Check(); err != nil {
			t.Errorf("project %q: %v", p, err)
		}
	}
	if err := checkCells(MaxCells); err != nil {
		t.Fatal(err)
	}
	if err := checkCells(MaxCells + 1); err == nil || !strings.Contains(err.Error(), "4194305 cells, more than the 4194304") {
		t.Fatalf("checkCells(MaxCells+1) = %v", err)
	}
}

func TestReadLimit(t *testing.T) {
	for _, tc := range []struct{ bytes, want int64 }{{0, 4096}, {1600, 5796}, {MaxWorldBytes, MaxWorldBytes + MaxWorldBytes/16 + 4096}} {
		if got := ReadLimit(tc.bytes); got != tc.want {
			t.Errorf("ReadLimit(%d) = %d, want %d", tc.bytes, got, tc.want)
		}
	}
}

// TestLoadIsBounded: the manifest is read only as a regular file of at
// most MaxManifestBytes, so a device or an endless file cannot exhaust
// memory and a named pipe cannot block.
func TestLoadIsBounded(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.world.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: the size is there, the blocks are not.
	if err := f.Truncate(MaxManifestBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	fifo := filepath.Join(dir, "pipe.world.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct{ file, want string }{
		{big, "big.world.json: 1073741825 bytes is more than a world manifest may hold (1073741824)"},
		{fifo, "pipe.world.json is not a regular file (a named pipe)"},
		{"/dev/zero", "/dev/zero is not a regular file (a device)"},
	} {
		done := make(chan error, 1)
		go func() { _, err := Load(tc.file); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load(%s) = %v, want %q", tc.file, err, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Load(%s) did not return", tc.file)
		}
	}
}

// TestDecodeBoundsObjects: a manifest of tiny objects ("{}," is three
// bytes, a decoded source 80) is refused before it is decoded, so that
// decoding cannot cost many times the file's size; too many sources are
// refused after.
func TestDecodeBoundsObjects(t *testing.T) {
	tiny := `{"version":1,"cellSize":1,"sources":[` + strings.Repeat("{},", maxObjects) + `{}]}`
	_, err := Decode("w.json", []byte(tiny))
	if err == nil || !strings.Contains(err.Error(), "w.json: not a world manifest: it holds 8650818 JSON objects, more than a world of 4194304 cells and 65536 sources can (8650816)") {
		t.Fatalf("Decode = %v", err)
	}
	sources := `{"version":1,"cellSize":1,"sources":[` + strings.Repeat("{},", MaxSources) + `{}]}`
	if _, err := Decode("w.json", []byte(sources)); err == nil || !strings.Contains(err.Error(), "w.json: manifest lists 65537 streaming sources, more than the 65536") {
		t.Fatalf("Decode = %v", err)
	}
}

func TestDecodeErrorsNameTheFile(t *testing.T) {
	for _, in := range []string{"", "[]", `{"version":1,"cellSize":"x"}`, "{\"version\":1,\"cellSize\":1000}trailing", `{"version":1,"cellSize":1e999}`} {
		if _, err := Decode("w.json", []byte(in)); err == nil || !strings.HasPrefix(err.Error(), "w.json: ") {
			t.Errorf("Decode(%q) = %v", in, err)
		}
	}
	if _, err := Load("/nonexistent/w.json"); err == nil {
		t.Error("Load of a missing file succeeded")
	}
}

// FuzzDecode: any bytes either decode into a manifest that passes Check and
// re-encodes stably, or give an error; never a panic.
func FuzzDecode(f *testing.F) {
	b, _ := Encode(sample())
	f.Add(b)
	if demo, err := os.ReadFile("../cook/testdata/demo/world/main.world.json"); err == nil {
		f.Add(demo)
	}
	f.Add([]byte(`{"version":1,"cellSize":1,"cells":[{"name":"a","path":"world/a"}]}`))
	for _, p := range []string{"world/../a", "/world/a", `world\\a`, "world/./a", "world//a", "world/C:a", "world/a\\u0000"} {
		f.Add([]byte(`{"version":1,"cellSize":1,"cells":[{"name":"a","path":"` + p + `"}]}`))
	}
	f.Add([]byte(`{"version":1,"cellSize":1,"cells":[{"name":"a","path":"world/a","bytes":1000000000000000000}]}`))
	f.Add([]byte(`{"version":1,"cellSize":1,"persistent":{"path":"p","bytes":4398046511000},"cells":[{"name":"a","path":"world/a","bytes":100,"proxyBytes":100}]}`))
	f.Add([]byte("{\"version\":t\nrue}"))
	f.Add([]byte(`{"version":1,"cellSize":1,"sources":[{"name":"s","view":{"camera":0,"cameraName":"C","via":"own","projection":"orthographic","width":1280,"height":720,"aspect":1.7,"aspectFrom":"16:9"}}],"view":{"projection":"perspective","distance":5},"cells":[]}`))
	f.Add([]byte(`{"version":1,"cellSize":1,"view":{"projection":"fisheye","distance":-5},"cells":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode("f.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.json: ") {
				t.Fatalf("error without the file name: %v", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a message of two lines: %q", err)
			}
			return
		}
		if err := m.Check(); err != nil {
			t.Fatalf("decoded manifest fails Check: %v", err)
		}
		// A view let through has finite sides of 0 or more.
		views := []*View{m.View}
		for _, src := range m.Sources {
			views = append(views, src.View)
		}
		for _, v := range views {
			if v != nil && (!(v.Width >= 0 && v.Height >= 0 && v.Distance >= 0) || math.IsInf(v.Width+v.Height+v.Distance, 0)) {
				t.Fatalf("a view of sides %v × %v, distance %v passed Check", v.Width, v.Height, v.Distance)
			}
		}
		// What Check lets through is safe to use: every path stays
		// inside the cooked directory however it is joined, and the
		// world's sizes add up without wrapping.
		total := m.Persistent.Bytes
		paths := []string{m.Persistent.Path}
		for _, c := range m.Cells {
			paths = append(paths, c.Path)
			total += c.Bytes
			if c.ProxyBytes != nil {
				total += *c.ProxyBytes
			}
		}
		if total < 0 || total > MaxWorldBytes {
			t.Fatalf("sizes add up to %d", total)
		}
		for _, p := range paths {
			if p == "" {
				continue
			}
			if j := filepath.Join("/cooked", p); !strings.HasPrefix(j, "/cooked/") || strings.ContainsAny(p, "\\:") || !fs.ValidPath(p) {
				t.Fatalf("path %q passed Check (joins to %s)", p, j)
			}
		}
		out, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := Decode("again.json", out)
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		out2, _ := Encode(m2)
		if !bytes.Equal(out, out2) {
			t.Fatal("encoding is not stable")
		}
	})
}

// TestCheckRadii is the one statement of the radii rule the validator and
// the scheduler both apply.
func TestCheckRadii(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		p, l, u float64
		want    []string // the fields at fault, in order
	}{
		{3000, 2000, 3000, nil},
		{2000, 2000, 2001, nil},
		{1999, 2000, 3000, []string{"prefetchRadius"}},
		{3000, 2000, 2000, []string{"unloadRadius"}},
		{1000, 2000, 1000, []string{"prefetchRadius", "unloadRadius"}},
		{-1, 2000, 3000, []string{"prefetchRadius"}},
		{3000, nan, 3000, []string{"loadRadius"}},
		{3000, 2000, math.Inf(1), []string{"unloadRadius"}},
	} {
		var got []string
		for _, p := range CheckRadii(tc.p, tc.l, tc.u) {
			got = append(got, p.Field)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("CheckRadii(%v, %v, %v) = %v, want %v", tc.p, tc.l, tc.u, got, tc.want)
		}
	}
}

func TestParsePlane(t *testing.T) {
	for in, want := range map[string]string{"": PlaneXZ, "xz": PlaneXZ, "xy": PlaneXY} {
		if got, err := ParsePlane(in); err != nil || got != want {
			t.Errorf("ParsePlane(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParsePlane("yz"); err == nil || !strings.Contains(err.Error(), `"yz"`) {
		t.Errorf("ParsePlane(yz): %v", err)
	}
}
