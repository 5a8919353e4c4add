package buildinfo

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestEscape: paths are spelled as gcc -MMD spells them, which Make and
// Ninja read back (TestDepfileEveryByte runs both on every byte), and a
// name either would read as anything else is refused.
func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"levels/main.esscene", "levels/main.esscene"},
		{"my levels/a b.esscene", `my\ levels/a\ b.esscene`},
		{"cost$1/x", "cost$$1/x"},
		{"#1/x", `\#1/x`},
		{"a:b/x", `a\:b/x`},
		{"100%/x(1).png", "100%/x(1).png"},
		{"a~b/c~", "a~b/c~"},
	} {
		got, err := escape(tc.in, false)
		if err != nil || got != tc.want {
			t.Errorf("escape(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		in     string
		target bool
		why    string
	}{
		{"a\nb", false, "line break"},
		{"a\rb", false, "line break"},
		{"tab\there", false, "tab"},
		{".;touch${IFS}PWNED;.png", false, `';'`},
		{"a|b", false, `'|'`},
		{"a=b", false, `'='`},
		{`a\b`, false, `'\\'`},
		{`config\`, false, `'\\'`},
		{"a*b", false, `'*'`},
		{"a?b", false, `'?'`},
		{"a[1]", false, `'['`},
		{`a"b`, false, `'"'`},
		{"a'b", false, `'\''`},
		{"a&b", false, `'&'`},
		{"a<b", false, `'<'`},
		{"a>b", false, `'>'`},
		{"a^b", false, `'^'`},
		{"a`b", false, "'`'"},
		{"a\x1bb", false, "0x1b"},
		{"a\x7fb", false, "0x7f"},
		{"~/x", false, "'~'"},
		{"-lfoo", false, `"-l"`},
		{"lib(member)", false, "archive"},
		{"x:", false, "ends in ':'"},
		{"x ", false, "ends in a space"},
		{"out%/world/main.world.json", true, `'%'`},
		{"", false, "empty"},
	} {
		_, err := escape(tc.in, tc.target)
		if err == nil || !strings.Contains(err.Error(), tc.why) || strings.Contains(err.Error(), "\n") {
			t.Errorf("escape(%q, %v) = %v; want one line saying %s", tc.in, tc.target, err, tc.why)
		}
	}
}

// byteNames is a name with each byte but '/' at the start, in the middle
// and at the end of a name, and of a name in a folder, and twice over.
func byteNames() []string {
	var names []string
	for b := 1; b < 256; b++ {
		if b == '/' {
			continue
		}
		c := string([]byte{byte(b)})
		names = append(names, c+"x", "x"+c+"x", "x"+c, "d/"+c+"x", "x"+c+c+"y", "x"+c+"y"+c+"z")
	}
	return append(names, "my scene.esscene", "d/a b c.png", "$$x", "##", "a:b:c", "x(1).png", "100%.png")
}

// TestDepfileEveryByte writes every name of byteNames (targets too) that
// escape accepts into depfiles and has the real GNU Make and Ninja read
// them: each must read back exactly the files the depfile names, as the
// readers of the fuzz test do, and find them up to date.
func TestDepfileEveryByte(t *testing.T) {
	makeBin, errMake := exec.LookPath("make")
	ninjaBin, errNinja := exec.LookPath("ninja")
	if errMake != nil || errNinja != nil {
		t.Skip("GNU make and ninja are needed on PATH (Debian: apt-get install make ninja-build); they prove the depfile")
	}
	dir := t.TempDir()
	var names, targets []string
	refused := 0
	for _, n := range byteNames() {
		if _, err := escape(n, false); err == nil {
			names = append(names, n)
		} else {
			refused++
		}
	}
	// Targets hold every byte a target may, eight to a name.
	tg := "t/x"
	for b := 1; b < 256; b++ {
		if c := string([]byte{byte(b)}); b != '/' {
			if _, err := escape("x"+c+"x", true); err == nil {
				tg += c + "x"
			}
		}
		if len(tg) > 16 || b == 255 {
			targets = append(targets, tg)
			tg = "t/x"
		}
	}
	t.Logf("%d names accepted, %d refused; %d targets", len(names), refused, len(targets))
	old := time.Now().Add(-2 * time.Hour)
	touch := func(file string, at time.Time) {
		t.Helper()
		p := filepath.Join(dir, file)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range names {
		touch(n, old)
	}
	// Each target's depfile names a share of the names.
	want := map[string][]string{}
	for i, n := range names {
		tg := targets[i%len(targets)]
		want[tg] = append(want[tg], n)
	}
	var ninjaFile, makeFile bytes.Buffer
	ninjaFile.WriteString("rule gen\n  command = cp src/$idx.d deps/$idx.d\n  depfile = deps/$idx.d\n  deps = gcc\n")
	makeFile.WriteString("all:")
	ninjaPath := strings.NewReplacer("$", "$$", " ", "$ ", ":", "$:")
	for i, tg := range targets {
		touch(tg, old.Add(time.Hour))
		var b bytes.Buffer
		g := Graph{Scenes: []Scene{{Target: tg, Inputs: want[tg]}}}
		if err := g.WriteDepfile(&b); err != nil {
			t.Fatal(err)
		}
		for _, read := range []func(string) ([]rule, error){readMake, readNinja} {
			got, err := read(b.String())
			if err != nil || len(got) != 1 || got[0].target != tg || !slices.Equal(got[0].inputs, want[tg]) {
				t.Errorf("the depfile of %q reads back as %q, %v", tg, got, err)
			}
		}
		touch(fmt.Sprintf("src/%d.d", i), old)
		if err := os.WriteFile(filepath.Join(dir, "src", strconv.Itoa(i)+".d"), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&ninjaFile, "build %s: gen\n  idx = %d\n", ninjaPath.Replace(tg), i)
		e, _ := escape(tg, false)
		makeFile.WriteString(" " + e)
	}
	os.MkdirAll(filepath.Join(dir, "deps"), 0o755)
	makeFile.WriteString("\n")
	for i := range targets {
		fmt.Fprintf(&makeFile, "include src/%d.d\n", i)
	}
	touch("all", old.Add(90*time.Minute))
	os.WriteFile(filepath.Join(dir, "build.ninja"), ninjaFile.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "Makefile"), makeFile.Bytes(), 0o644)

	tool := func(bin string, args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		start := time.Now()
		out, err := cmd.CombinedOutput()
		t.Logf("%s %s: %.2fs", filepath.Base(bin), strings.Join(args, " "), time.Since(start).Seconds())
		return string(out), err
	}

	// Make: every file it considers is a file named, and all are there
	// and older than their targets.
	out, err := tool(makeBin, "-r", "-d", "-q", "all") // -r: no built-in rules to try on each name
	if err != nil {
		t.Fatalf("make -q: %v\n%s", err, tail(out))
	}
	considered := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)Considering target file '(.*)'\.`).FindAllStringSubmatch(out, -1) {
		considered[m[1]] = true
	}
	expect := map[string]bool{"all": true, "Makefile": true}
	for i, tg := range targets {
		expect[tg] = true
		expect[fmt.Sprintf("src/%d.d", i)] = true
	}
	for _, n := range names {
		expect[n] = true
	}
	if !reflect.DeepEqual(considered, expect) {
		t.Errorf("make read other files than the depfiles name:\nonly make: %q\nonly the depfiles: %q", minus(considered, expect), minus(expect, considered))
	}

	// Ninja: the deps it recorded are exactly the names, and a second
	// run finds everything up to date.
	if out, err := tool(ninjaBin); err != nil {
		t.Fatalf("ninja: %v\n%s", err, tail(out))
	}
	out, err = tool(ninjaBin, "-t", "deps")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	var cur string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "    "):
			got[cur] = append(got[cur], l[4:])
		case strings.Contains(l, ": #deps"):
			cur = l[:strings.LastIndex(l, ": #deps")]
		}
	}
	if !reflect.DeepEqual(got, want) {
		for tg := range want {
			if !reflect.DeepEqual(got[tg], want[tg]) {
				t.Errorf("ninja read the depfile of %q as %q, want %q", tg, got[tg], want[tg])
			}
		}
	}
	if out, err := tool(ninjaBin); err != nil || !strings.Contains(out, "no work to do") {
		t.Errorf("a second ninja did work: %v\n%s", err, tail(out))
	}
}

func minus(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

// FuzzDepfile: any target and inputs (split at NUL) are either refused
// on one line or written so that a reader parsing as Make does and one
// parsing as Ninja does both read back exactly that rule.
func FuzzDepfile(f *testing.F) {
	for _, n := range byteNames() {
		f.Add("out/world/main.world.json\x00" + n)
	}
	f.Add("out/world/main.world.json\x00a b\x00c#d\x00$x\x00.;touch${IFS}PWNED;.png")
	f.Fuzz(func(t *testing.T, s string) {
		parts := strings.Split(s, "\x00")
		target, inputs := parts[0], []string{}
		seen := map[string]bool{target: true}
		for _, p := range parts[1:] {
			if !seen[p] {
				seen[p] = true
				inputs = append(inputs, p)
			}
		}
		var b bytes.Buffer
		g := Graph{Scenes: []Scene{{Target: target, Inputs: inputs}}}
		if err := g.WriteDepfile(&b); err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("the refusal is more than one line: %q", err)
			}
			return
		}
		for name, read := range map[string]func(string) ([]rule, error){"make": readMake, "ninja": readNinja} {
			got, err := read(b.String())
			if err != nil || len(got) != 1 || got[0].target != target || !slices.Equal(got[0].inputs, inputs) {
				if errors.Is(err, errSpecial) || err == nil {
					t.Fatalf("%s reads %q (from %q, %q) as %q, %v", name, b.String(), target, inputs, got, err)
				}
				t.Fatalf("%s: %v", name, err)
			}
		}
	})
}
