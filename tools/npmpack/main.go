// Command npmpack builds worldcook's npm packages from the checkout, as
// esbuild publishes its own: a package "worldcook" holding the launcher
// (npm/worldcook: a script with no dependencies and no install script)
// and one package per platform holding that platform's binary, which the
// launcher's package lists as optional dependencies pinned to its own
// version, so that npm, pnpm and yarn install just the one whose "os" and
// "cpu" match. It writes each package's tarball into -out, as npm pack
// would name it, byte for byte the same on every run of one checkout and
// Go version:
//
//	go run ./tools/npmpack -out dist/npm
//
// make npm runs it. The version is what worldcook built from the
// checkout prints (worldcook --version), or -version. The binaries are
// cross-compiled with CGO off, -trimpath, symbols and DWARF left out
// (-s -w) and that version stamped (-X cmd.version), so each prints it;
// the packages' version is it as semver (a leading "v" dropped; "devel…",
// for a build that knows no module version, is 0.0.0-devel…). Nothing is
// published.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// Platform is one platform package: Node's names for the platform and the
// architecture (what "os" and "cpu" say, and what the launcher looks the
// package up by) and Go's.
type Platform struct {
	OS, CPU      string // process.platform, process.arch
	GOOS, GOARCH string
}

// Platforms are the binaries published, in the order package.json lists
// them.
var Platforms = []Platform{
	{"linux", "x64", "linux", "amd64"},
	{"linux", "arm64", "linux", "arm64"},
	{"darwin", "x64", "darwin", "amd64"},
	{"darwin", "arm64", "darwin", "arm64"},
	{"win32", "x64", "windows", "amd64"},
}

// Name is the platform package's npm name.
func (p Platform) Name() string { return "@worldcook/" + p.OS + "-" + p.CPU }

// Exe is the binary's file name.
func (p Platform) Exe() string {
	if p.GOOS == "windows" {
		return "worldcook.exe"
	}
	return "worldcook"
}

const (
	module   = "github.com/worldcook/worldcook"
	homepage = "https://github.com/worldcook/worldcook"
	// launcherDir holds the worldcook package's own files, relative to
	// the module root.
	launcherDir = "npm/worldcook"
)

// npmTime is the time npm pack gives every file, so that a package's
// bytes depend on its contents alone.
var npmTime = time.Date(1985, time.October, 26, 8, 15, 0, 0, time.UTC)

// semver is Semantic Versioning 2.0's grammar, as npm reads versions.
var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
	`(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?` +
	`(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// NPMVersion is worldcook's version (as --version prints it) as npm
// writes versions: a Go module version without its "v" (v1.2.0,
// v0.0.0-20261201065600-021dab4c0ffe+dirty), and a build that knows no
// module version ("devel", "devel-021dab4c0ffe+dirty") as a prerelease of
// 0.0.0.
func NPMVersion(v string) (string, error) {
	s, ok := strings.CutPrefix(v, "v")
	if !ok && strings.HasPrefix(v, "devel") {
		s = "0.0.0-" + v
	}
	if !semver.MatchString(s) {
		return "", fmt.Errorf("version %q is not one npm can publish (want a Go module version such as v1.2.3, or devel); build from a git checkout, or pass -version", v)
	}
	return s, nil
}

// manifest is a package.json, its members in the order written.
type manifest struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	Homepage             string            `json:"homepage"`
	Repository           repository        `json:"repository"`
	Bin                  map[string]string `json:"bin,omitempty"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	Engines              map[string]string `json:"engines,omitempty"`
	PreferUnplugged      bool              `json:"preferUnplugged,omitempty"`
	OptionalDependencies *orderedDeps      `json:"optionalDependencies,omitempty"`
}

type repository struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// orderedDeps writes dependencies in Platforms' order (a map would sort
// them, which is deterministic too, but not the order documented).
type orderedDeps struct {
	names   []string
	version string
}

func (d *orderedDeps) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for k, n := range d.names {
		if k > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(n)
		val, _ := json.Marshal(d.version)
		b.Write(key)
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func encodeManifest(m manifest) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		panic(err) // every field is a plain string, list or map
	}
	return b.Bytes()
}

// file is one file of a package.
type file struct {
	name string // under package/
	data []byte
	exec bool
}

// LauncherManifest is the worldcook package's package.json.
func LauncherManifest(version string) []byte {
	names := make([]string, len(Platforms))
	for k, p := range Platforms {
		names[k] = p.Name()
	}
	return encodeManifest(manifest{
		Name:                 "worldcook",
		Version:              version,
		Description:          "Cook, validate and simulate streamed worlds of the Estella engine",
		Homepage:             homepage,
		Repository:           repository{"git", "git+" + homepage + ".git"},
		Bin:                  map[string]string{"worldcook": "bin/worldcook"},
		Engines:              map[string]string{"node": ">=18"},
		OptionalDependencies: &orderedDeps{names: names, version: version},
	})
}

// PlatformManifest is a platform package's package.json.
func PlatformManifest(p Platform, version string) []byte {
	return encodeManifest(manifest{
		Name:        p.Name(),
		Version:     version,
		Description: "The " + p.OS + " " + p.CPU + " binary of worldcook (installed by the worldcook package)",
		Homepage:    homepage,
		Repository:  repository{"git", "git+" + homepage + ".git"},
		OS:          []string{p.OS},
		CPU:         []string{p.CPU},
		// Yarn's Plug'n'Play keeps packages zipped unless told: the
		// binary must be a file to run.
		PreferUnplugged: true,
	})
}

// Tarball is a package's .tgz as npm pack writes one: every file under
// package/, with npm's fixed time and no owner, executables 0755 and the
// rest 0644, in the order given.
func Tarball(files []file) ([]byte, error) {
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(gz)
	for _, f := range files {
		mode := int64(0o644)
		if f.exec {
			mode = 0o755
		}
		h := &tar.Header{Name: "package/" + f.name, Mode: mode, Size: int64(len(f.data)), ModTime: npmTime, Typeflag: tar.TypeReg, Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(h); err != nil {
			return nil, fmt.Errorf("%s: %v", f.name, err)
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// TarballName is the file name npm pack gives a package's tarball:
// @worldcook/linux-x64 1.2.0 is worldcook-linux-x64-1.2.0.tgz.
func TarballName(name, version string) string {
	return strings.ReplaceAll(strings.TrimPrefix(name, "@"), "/", "-") + "-" + version + ".tgz"
}

// build cross-compiles worldcook for goos/goarch into out, stamped with
// version unless it is "". The flags but the stamp are the same for
// every build, so that the stamped build of a platform reuses the
// compiled packages of an unstamped one and only links again.
func build(root, goos, goarch, version, out string) error {
	ldflags := "-s -w"
	if version != "" {
		ldflags += " -X " + module + "/cmd.version=" + version
	}
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=auto", "-ldflags="+ldflags, "-o", out, ".")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build for %s/%s: %v\n%s", goos, goarch, err, stderr.Bytes())
	}
	return nil
}

// CheckoutVersion is the version worldcook built from the checkout at
// root prints (worldcook --version), built into dir for this machine as
// the packages' binaries are built.
func CheckoutVersion(root, dir string) (string, error) {
	bin := filepath.Join(dir, "host", "worldcook")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if err := build(root, runtime.GOOS, runtime.GOARCH, "", bin); err != nil {
		return "", err
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %v", bin, err)
	}
	f := strings.Fields(string(out))
	if len(f) < 2 || f[0] != "worldcook" {
		return "", fmt.Errorf("%s --version printed %q, not \"worldcook VERSION\"", bin, out)
	}
	return f[1], nil
}

// Options say what Pack builds.
type Options struct {
	// Root is the module's root, the checkout the binaries are built from.
	Root string
	// Version is worldcook's version as --version prints it; "" is
	// CheckoutVersion's.
	Version string
	// Out is the folder the tarballs are written to.
	Out string
	// Platforms are the platform packages built (default all).
	Platforms []Platform
	// Jobs is how many binaries are built at once.
	Jobs int
}

// Pack builds the packages and writes their tarballs into opts.Out,
// returning their paths, the launcher's first. A tarball is written to a
// temporary file and renamed, so a failed run leaves the previous one.
func Pack(opts Options) ([]string, error) {
	tmp, err := os.MkdirTemp("", "worldcook-npm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if opts.Version == "" {
		if opts.Version, err = CheckoutVersion(opts.Root, tmp); err != nil {
			return nil, err
		}
	}
	version, err := NPMVersion(opts.Version)
	if err != nil {
		return nil, err
	}
	plats := opts.Platforms
	if plats == nil {
		plats = Platforms
	}
	launcher, err := os.ReadFile(filepath.Join(opts.Root, launcherDir, "bin", "worldcook"))
	if err != nil {
		return nil, fmt.Errorf("the launcher: %v", err)
	}
	readme, err := os.ReadFile(filepath.Join(opts.Root, launcherDir, "README.md"))
	if err != nil {
		return nil, fmt.Errorf("the launcher's README: %v", err)
	}
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return nil, err
	}

	type pkg struct {
		name  string
		files []file
	}
	pkgs := []pkg{{"worldcook", []file{
		{name: "package.json", data: LauncherManifest(version)},
		{name: "README.md", data: readme},
		{name: "bin/worldcook", data: launcher, exec: true},
	}}}
	bins := make([]string, len(plats))
	errs := make([]error, len(plats))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range max(1, opts.Jobs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range jobs {
				p := plats[k]
				bins[k] = filepath.Join(tmp, p.OS+"-"+p.CPU, p.Exe())
				errs[k] = build(opts.Root, p.GOOS, p.GOARCH, opts.Version, bins[k])
			}
		}()
	}
	for k := range plats {
		jobs <- k
	}
	close(jobs)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for k, p := range plats {
		bin, err := os.ReadFile(bins[k])
		if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, pkg{p.Name(), []file{
			{name: "package.json", data: PlatformManifest(p, version)},
			{name: "README.md", data: []byte("# " + p.Name() + "\n\nThe " + p.OS + " " + p.CPU + " binary of [worldcook](" + homepage + "), version " + version + ".\nInstall the `worldcook` package, which depends on this one where it runs.\n")},
			{name: "bin/" + p.Exe(), data: bin, exec: true},
		}})
	}
	var written []string
	for _, p := range pkgs {
		tgz, err := Tarball(p.files)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p.name, err)
		}
		dst := filepath.Join(opts.Out, TarballName(p.name, version))
		if err := writeAtomic(dst, tgz); err != nil {
			return nil, err
		}
		written = append(written, dst)
	}
	return written, removeStale(opts.Out, written)
}

// removeStale removes the tarballs of worldcook's packages in out that
// this run did not write (other versions), so that out holds one
// version, as npm install ./dist/npm/worldcook-*.tgz expects.
func removeStale(out string, written []string) error {
	names := []string{"worldcook"}
	for _, p := range Platforms {
		names = append(names, p.Name())
	}
	for _, n := range names {
		old, _ := filepath.Glob(filepath.Join(out, TarballName(n, "[0-9]*")))
		for _, f := range old {
			if slices.Contains(written, f) {
				continue
			}
			// worldcook-1.2.3.tgz also matches worldcook-linux-x64-…:
			// only a name that is this package's at some version goes.
			v := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), strings.TrimSuffix(TarballName(n, ""), ".tgz")), ".tgz")
			if !semver.MatchString(v) {
				continue
			}
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeAtomic writes data to path through a temporary file beside it.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

func main() {
	version := flag.String("version", "", "worldcook's version as worldcook --version prints it (default: what the checkout's build prints)")
	out := flag.String("out", "dist/npm", "the folder the tarballs are written to")
	jobs := flag.Int("jobs", 2, "how many binaries are built at once")
	only := flag.String("platforms", "", "build only these platform packages (comma-separated, as linux-x64,win32-x64; default all)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: npmpack [-version VERSION] [-out DIR] [-jobs N] [-platforms linux-x64,…]")
		os.Exit(2)
	}
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "npmpack:", err)
		os.Exit(2)
	}
	opts := Options{Root: root, Version: *version, Out: *out, Jobs: *jobs}
	if *only != "" {
		for _, want := range strings.Split(*only, ",") {
			found := false
			for _, p := range Platforms {
				if p.OS+"-"+p.CPU == want {
					opts.Platforms = append(opts.Platforms, p)
					found = true
				}
			}
			if !found {
				fmt.Fprintf(os.Stderr, "npmpack: no platform %q\n", want)
				os.Exit(2)
			}
		}
	}
	start := time.Now()
	paths, err := Pack(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "npmpack:", err)
		os.Exit(1)
	}
	for _, p := range paths {
		fmt.Println(p)
	}
	fmt.Fprintf(os.Stderr, "npmpack: %d packages in %s (%s, %d jobs)\n", len(paths), time.Since(start).Round(time.Second), runtime.Version(), max(1, *jobs))
}

// moduleRoot is the folder of worldcook's go.mod, from the working
// directory.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("run it inside worldcook's checkout")
	}
	data, err := os.ReadFile(mod)
	if err != nil {
		return "", err
	}
	if !bytes.Contains(data, []byte("module "+module+"\n")) {
		return "", fmt.Errorf("%s is not worldcook's", mod)
	}
	return filepath.Dir(mod), nil
}
