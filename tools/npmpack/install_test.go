package main

import (
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/worldcook/worldcook/internal/corpus"
)

func regexpAll(re, s string) []string {
	var out []string
	for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// dist is the folder make npm wrote the tarballs to, named by
// WORLDCOOK_NPM_DIST; the test skips without it, or without Node and npm.
func dist(t *testing.T) (dir, version string) {
	t.Helper()
	dir = os.Getenv("WORLDCOOK_NPM_DIST")
	if dir == "" {
		t.Skip("WORLDCOOK_NPM_DIST is unset: run make npm and set it to dist/npm (.ci/run does) to test the packages")
	}
	if !filepath.IsAbs(dir) {
		// Relative to the module root, as make writes it.
		dir = filepath.Join("..", "..", dir)
	}
	// npm runs in a copy of a project elsewhere: name the folder from /.
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"node", "npm", "npx"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the npm packages need Node.js to run", tool)
		}
	}
	ms, _ := filepath.Glob(filepath.Join(dir, "worldcook-[0-9]*.tgz"))
	if len(ms) != 1 {
		t.Fatalf("want one launcher tarball worldcook-VERSION.tgz in %s, found %v: run make npm", dir, ms)
	}
	version = strings.TrimSuffix(strings.TrimPrefix(filepath.Base(ms[0]), "worldcook-"), ".tgz")
	return dir, version
}

// host is this machine's platform package.
func host(t *testing.T) Platform {
	for _, p := range Platforms {
		if p.GOOS == runtime.GOOS && p.GOARCH == runtime.GOARCH {
			return p
		}
	}
	t.Skipf("no worldcook package for %s/%s", runtime.GOOS, runtime.GOARCH)
	return Platform{}
}

// TestPackagesHoldTheirPlatformsBinaries: every platform's tarball says
// its os and cpu, and holds an executable for them.
func TestPackagesHoldTheirPlatformsBinaries(t *testing.T) {
	dir, version := dist(t)
	for _, p := range Platforms {
		t.Run(p.Name(), func(t *testing.T) {
			tgz, err := os.ReadFile(filepath.Join(dir, TarballName(p.Name(), version)))
			if errors.Is(err, fs.ErrNotExist) && (p.GOOS != runtime.GOOS || p.GOARCH != runtime.GOARCH) {
				// make npm NPM_PLATFORMS=… builds some: CI builds one per
				// operating system, a release all of them.
				t.Skipf("%s was not built (make npm NPM_PLATFORMS=… left it out)", p.Name())
			}
			if err != nil {
				t.Fatal(err)
			}
			var bin []byte
			for _, e := range readTarball(t, tgz) {
				switch e.h.Name {
				case "package/package.json":
					if !bytes.Equal(e.data, PlatformManifest(p, version)) {
						t.Errorf("package.json:\n%s", e.data)
					}
				case "package/bin/" + p.Exe():
					bin = e.data
					if e.h.Mode != 0o755 {
						t.Errorf("binary mode %o", e.h.Mode)
					}
				}
			}
			if err := checkBinary(p, bin); err != nil {
				t.Error(err)
			}
		})
	}
}

// checkBinary says whether bin is an executable for p's GOOS and GOARCH.
func checkBinary(p Platform, bin []byte) error {
	r := bytes.NewReader(bin)
	switch p.GOOS {
	case "linux":
		f, err := elf.NewFile(r)
		if err != nil {
			return err
		}
		want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[p.GOARCH]
		if f.Type != elf.ET_EXEC || f.Machine != want {
			return errors.New("not a " + p.GOARCH + " ELF executable: " + f.Machine.String())
		}
	case "darwin":
		f, err := macho.NewFile(r)
		if err != nil {
			return err
		}
		want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[p.GOARCH]
		if f.Type != macho.TypeExec || f.Cpu != want {
			return errors.New("not a " + p.GOARCH + " Mach-O executable: " + f.Cpu.String())
		}
	case "windows":
		f, err := pe.NewFile(r)
		if err != nil {
			return err
		}
		if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
			return errors.New("not an amd64 PE executable")
		}
	}
	return nil
}

// project copies an Estella example project into a temporary folder and
// installs tarballs into it with npm, offline.
func project(t *testing.T, tarballs ...string) string {
	t.Helper()
	projects := corpus.Projects()
	if projects == "" {
		t.Skip("Estella projects not found at ../shared/estella-projects (set WORLDCOOK_PROJECTS to run this test)")
	}
	root := filepath.Join(t.TempDir(), "platformer")
	corpus.CopyTree(t, filepath.Join(projects, "examples", "platformer"), root)
	args := append([]string{"install", "--offline", "--no-audit", "--no-fund", "--loglevel=error"}, tarballs...)
	if out, err := npm(t, root, args...).CombinedOutput(); err != nil {
		t.Fatalf("npm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return root
}

// npm is an npm (or npx) command in dir with a cache of the test's own.
func npm(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("npm", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_cache="+filepath.Join(t.TempDir(), "npm-cache"), "npm_config_update_notifier=false")
	return cmd
}

// outcome is what a command did: its streams and exit status.
type outcome struct {
	stdout, stderr string
	code           int
}

func runIn(t *testing.T, cmd *exec.Cmd) outcome {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdin = strings.NewReader("")
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	code := 0
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return outcome{out.String(), errb.String(), code}
}

// TestNPXRunsTheBinary: in a copy of a real project with the tarballs
// installed, npx worldcook prints what the binary prints, on the same
// streams, and exits as it does — clean, with findings and refused — and
// the binary is the version the packages carry.
func TestNPXRunsTheBinary(t *testing.T) {
	dir, version := dist(t)
	p := host(t)
	root := project(t, filepath.Join(dir, TarballName("worldcook", version)), filepath.Join(dir, TarballName(p.Name(), version)))
	binary := filepath.Join(root, "node_modules", "@worldcook", p.OS+"-"+p.CPU, "bin", p.Exe())

	direct := func(args ...string) outcome {
		cmd := exec.Command(binary, args...)
		cmd.Dir = root
		return runIn(t, cmd)
	}
	viaNPX := func(args ...string) outcome {
		return runIn(t, npm(t, root, append([]string{"exec", "--offline", "--no", "--", "worldcook"}, args...)...))
	}
	out := direct("--version")
	fields := strings.Fields(out.stdout)
	if len(fields) < 2 {
		t.Fatalf("--version: %q", out.stdout)
	}
	if v, err := NPMVersion(fields[1]); err != nil || v != version {
		t.Errorf("the binary says %s, %q as npm writes it, but the packages are %s", fields[1], v, version)
	}
	// A streamed copy whose prefab breaks every instance: validate
	// finds errors (exit 1).
	if o := direct("init", "--write", "assets/scenes/main.esscene"); o.code != 0 {
		t.Fatalf("init: %+v", o)
	}
	coin := filepath.Join(root, "assets", "prefabs", "Coin.esprefab")
	data, _ := os.ReadFile(coin)
	broken := string(corpus.WithPersistentChild(t, data))
	for _, tc := range []struct {
		name string
		args []string
		code int
		edit string
	}{
		{"version", []string{"--version"}, 0, ""},
		{"clean", []string{"validate", "assets/scenes/main.esscene"}, 0, ""},
		{"sarif", []string{"validate", "--format", "sarif", "assets/scenes"}, 0, ""},
		{"json lines", []string{"--json", "validate", "assets/scenes"}, 0, ""},
		{"findings through a prefab", []string{"validate", "assets/prefabs/Coin.esprefab"}, 1, broken},
		{"unreadable", []string{"validate", "nope.esscene"}, 2, ""},
		{"bad usage", []string{"validate", "--format", "yaml", "assets/scenes"}, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.edit != "" {
				os.WriteFile(coin, []byte(tc.edit), 0o644)
				defer os.WriteFile(coin, data, 0o644)
			}
			want, got := direct(tc.args...), viaNPX(tc.args...)
			if want.code != tc.code {
				t.Fatalf("the binary exits %d, want %d\nstdout:\n%s\nstderr:\n%s", want.code, tc.code, want.stdout, want.stderr)
			}
			if got != want {
				t.Errorf("npx worldcook differs from the binary:\nnpx:    %+v\nbinary: %+v", got, want)
			}
			if tc.code != 0 && want.stdout+want.stderr == "" {
				t.Error("a failing run said nothing")
			}
		})
	}
}

// TestLauncherPassesSignals: a signal sent to the launcher reaches
// worldcook, and the launcher ends as worldcook did — exit 0 when an
// interrupted watch stops, killed by the same signal when worldcook is.
func TestLauncherPassesSignals(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no signals to forward")
	}
	dir, version := dist(t)
	p := host(t)
	root := project(t, filepath.Join(dir, TarballName("worldcook", version)), filepath.Join(dir, TarballName(p.Name(), version)))
	for _, tc := range []struct {
		sig    syscall.Signal
		code   int  // exit status when not killed
		killed bool // ended by sig
	}{
		{syscall.SIGINT, 0, false},
		{syscall.SIGTERM, -1, true},
	} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			// A guard against a hang, not a timed assertion.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "node", filepath.Join(root, "node_modules", ".bin", "worldcook"),
				"cook", "--watch", "assets/scenes/main.esscene", "--out", filepath.Join(t.TempDir(), "out"))
			cmd.Dir = root
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait for the watch to start: worldcook says so.
			lines := bufio.NewScanner(stderr)
			var said []string
			for lines.Scan() {
				said = append(said, lines.Text())
				if strings.Contains(lines.Text(), "watching") {
					break
				}
			}
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			for lines.Scan() {
				said = append(said, lines.Text())
			}
			err = cmd.Wait()
			st := cmd.ProcessState.Sys().(syscall.WaitStatus)
			switch {
			case tc.killed && !(st.Signaled() && st.Signal() == tc.sig):
				t.Errorf("the launcher ended %v (%v), want killed by %v\n%s", cmd.ProcessState, err, tc.sig, strings.Join(said, "\n"))
			case !tc.killed && (st.Signaled() || st.ExitStatus() != tc.code):
				t.Errorf("the launcher ended %v (%v), want exit %d\n%s", cmd.ProcessState, err, tc.code, strings.Join(said, "\n"))
			}
			if runtime.GOOS == "linux" {
				if pids := running(filepath.Join(root, "node_modules", "@worldcook")); len(pids) > 0 {
					t.Errorf("worldcook is still running after the launcher ended: %v", pids)
				}
			}
		})
	}
}

// running lists the processes whose executable lies under dir (Linux).
func running(dir string) []string {
	var out []string
	ps, _ := filepath.Glob("/proc/[0-9]*/exe")
	for _, p := range ps {
		if exe, err := os.Readlink(p); err == nil && strings.HasPrefix(exe, dir) {
			out = append(out, filepath.Base(filepath.Dir(p)))
		}
	}
	return out
}

// TestLauncherNamesTheMissingPackage: without the platform's package, or
// with another platform's, on a platform without one, or beside a
// package of another version, the launcher exits 2 with one line saying
// which package and what to do.
func TestLauncherNamesTheMissingPackage(t *testing.T) {
	dir, version := dist(t)
	p := host(t)
	root := project(t, filepath.Join(dir, TarballName("worldcook", version)))
	launcher := filepath.Join(root, "node_modules", ".bin", "worldcook")
	check := func(t *testing.T, o outcome, wants ...string) {
		t.Helper()
		if o.code != 2 || o.stdout != "" || strings.Count(o.stderr, "\n") != 1 || !strings.HasPrefix(o.stderr, "worldcook: ") {
			t.Fatalf("want exit 2 and one line on stderr, got %+v", o)
		}
		for _, w := range wants {
			if !strings.Contains(o.stderr, w) {
				t.Errorf("stderr does not say %q:\n%s", w, o.stderr)
			}
		}
	}
	t.Run("not installed", func(t *testing.T) {
		check(t, runIn(t, npm(t, root, "exec", "--offline", "--no", "--", "worldcook", "validate", "assets/scenes")),
			p.Name(), "is not installed", "optional dependency", "npm install --save-dev worldcook@"+version)
	})
	t.Run("another platform's", func(t *testing.T) {
		other := Platforms[0]
		if other == p {
			other = Platforms[1]
		}
		fake := filepath.Join(root, "node_modules", "@worldcook", other.OS+"-"+other.CPU)
		os.MkdirAll(fake, 0o755)
		os.WriteFile(filepath.Join(fake, "package.json"), PlatformManifest(other, version), 0o644)
		defer os.RemoveAll(fake)
		check(t, runIn(t, exec.Command("node", launcher, "--version")), p.Name(), other.Name(), "installed on another platform")
	})
	t.Run("no package for the platform", func(t *testing.T) {
		preload := filepath.Join(t.TempDir(), "freebsd.js")
		os.WriteFile(preload, []byte("Object.defineProperty(process, 'platform', { value: 'freebsd' });\n"), 0o644)
		check(t, runIn(t, exec.Command("node", "--require", preload, launcher, "--version")), "no prebuilt binary for freebsd", "linux-x64", "go install github.com/worldcook/worldcook@latest")
	})
	t.Run("another version", func(t *testing.T) {
		pkg := filepath.Join(root, "node_modules", "@worldcook", p.OS+"-"+p.CPU)
		os.MkdirAll(pkg, 0o755)
		os.WriteFile(filepath.Join(pkg, "package.json"), PlatformManifest(p, "9.9.9"), 0o644)
		defer os.RemoveAll(pkg)
		check(t, runIn(t, exec.Command("node", launcher, "--version")), p.Name()+" is version 9.9.9 but worldcook is "+version)
	})
}
