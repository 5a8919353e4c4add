package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestNPMVersion(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"v1.4.0", "1.4.0"},
		{"v0.0.0-20261201065600-021dab4c0ffe", "0.0.0-20261201065600-021dab4c0ffe"},
		{"v0.0.0-20261201065600-021dab4c0ffe+dirty", "0.0.0-20261201065600-021dab4c0ffe+dirty"},
		{"v2.1.0-rc.1", "2.1.0-rc.1"},
		{"devel", "0.0.0-devel"},
		{"devel-021dab4c0ffe+dirty", "0.0.0-devel-021dab4c0ffe+dirty"},
	} {
		got, err := NPMVersion(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("NPMVersion(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "1.2", "v1.2", "v01.2.3", "latest", "v1.2.3+", "v1.2.3-"} {
		if got, err := NPMVersion(bad); err == nil {
			t.Errorf("NPMVersion(%q) = %q, want an error", bad, got)
		}
	}
}

func TestManifests(t *testing.T) {
	var launcher struct {
		Name     string
		Version  string
		Bin      map[string]string
		Optional map[string]string `json:"optionalDependencies"`
		Deps     map[string]string `json:"dependencies"`
		Scripts  map[string]string `json:"scripts"`
	}
	raw := LauncherManifest("1.2.3")
	if err := json.Unmarshal(raw, &launcher); err != nil {
		t.Fatal(err)
	}
	if launcher.Name != "worldcook" || launcher.Version != "1.2.3" || launcher.Bin["worldcook"] != "bin/worldcook" || len(launcher.Deps) != 0 || len(launcher.Scripts) != 0 {
		t.Errorf("launcher manifest:\n%s", raw)
	}
	var order []string
	for _, p := range Platforms {
		if launcher.Optional[p.Name()] != "1.2.3" {
			t.Errorf("%s is not pinned to 1.2.3: %v", p.Name(), launcher.Optional)
		}
		order = append(order, `"`+p.Name()+`"`)
	}
	if len(launcher.Optional) != 5 {
		t.Errorf("%d optional dependencies", len(launcher.Optional))
	}
	// Listed in the documented order.
	at := -1
	for _, n := range order {
		k := bytes.Index(raw, []byte(n))
		if k < at {
			t.Errorf("%s is out of order in\n%s", n, raw)
		}
		at = k
	}
	for _, p := range Platforms {
		var m struct {
			Name, Version   string
			OS, CPU         []string
			PreferUnplugged bool
			Bin             any
		}
		if err := json.Unmarshal(PlatformManifest(p, "1.2.3"), &m); err != nil {
			t.Fatal(err)
		}
		if m.Name != p.Name() || m.Version != "1.2.3" || !slices.Equal(m.OS, []string{p.OS}) || !slices.Equal(m.CPU, []string{p.CPU}) || !m.PreferUnplugged || m.Bin != nil {
			t.Errorf("%s manifest %+v", p.Name(), m)
		}
	}
	if got := TarballName("@worldcook/linux-x64", "1.2.3"); got != "worldcook-linux-x64-1.2.3.tgz" {
		t.Errorf("TarballName = %s", got)
	}
}

// TestTarball: files under package/, npm's fixed time, executables 0755,
// and the same bytes for the same files.
func TestTarball(t *testing.T) {
	files := []file{{name: "package.json", data: []byte("{}\n")}, {name: "bin/worldcook", data: []byte("#!/bin/sh\n"), exec: true}}
	a, err := Tarball(files)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Tarball(files)
	if !bytes.Equal(a, b) {
		t.Error("two tarballs of the same files differ")
	}
	entries := readTarball(t, a)
	if len(entries) != 2 {
		t.Fatalf("%d entries", len(entries))
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.h.Name, "package/") || !e.h.ModTime.Equal(npmTime) || e.h.Uid != 0 || e.h.Uname != "" {
			t.Errorf("entry %+v", e.h)
		}
	}
	if entries[0].h.Mode != 0o644 || entries[1].h.Mode != 0o755 {
		t.Errorf("modes %o, %o", entries[0].h.Mode, entries[1].h.Mode)
	}
}

type entry struct {
	h    *tar.Header
	data []byte
}

func readTarball(t *testing.T, tgz []byte) []entry {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var out []entry
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, entry{h, data})
	}
}

// TestLauncherIsPlainScript: the launcher needs nothing but Node — no
// require of a package, no install script.
func TestLauncherIsPlainScript(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", launcherDir, "bin", "worldcook"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(src, []byte("#!/usr/bin/env node\n")) {
		t.Error("the launcher does not start with a node shebang")
	}
	for _, req := range regexpAll(`require\('([^']+)'\)`, string(src)) {
		if req != "child_process" && req != "fs" && req != "os" && req != "path" && req != "../package.json" {
			t.Errorf("the launcher requires %q", req)
		}
	}
}
