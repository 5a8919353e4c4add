package manifest

import (
	"bytes"
	"os"
	"strings"
	"testing"
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
		{"duplicate", func(m *Manifest) { m.Cells[1].Name = m.Cells[0].Name }, "twice"},
		{"escaping path", func(m *Manifest) { m.Cells[0].Path = "world/../../etc/passwd" }, "leaves"},
		{"absolute path", func(m *Manifest) { m.Cells[0].Path = "/etc/passwd" }, "leaves"},
		{"outside world", func(m *Manifest) { m.Cells[0].Path = "cells/a.json" }, "not under world/"},
		{"persistent escapes", func(m *Manifest) { m.Persistent.Path = "../x.esscene" }, "leaves"},
		{"inverted bounds", func(m *Manifest) { m.Cells[0].MinX = 5000 }, "inverted"},
		{"negative bytes", func(m *Manifest) { m.Cells[0].Bytes = -1 }, "negative"},
		{"unsorted", func(m *Manifest) { m.Cells[0], m.Cells[1] = m.Cells[1], m.Cells[0] }, "sorted"},
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
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode("f.json", data)
		if err != nil {
			return
		}
		if err := m.Check(); err != nil {
			t.Fatalf("decoded manifest fails Check: %v", err)
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
