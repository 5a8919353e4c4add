package cmd

import (
	"regexp"
	"strconv"
	"testing"
)

// TestSimulateRetryFlags: the retry policy comes from the flags. With
// every load failing, no retries give each cell up at once; with two, each
// cell is tried twice more first.
func TestSimulateRetryFlags(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := run(t, "--config", "../testdata/demo/worldcook.yaml", "cook", "../testdata/demo/main.esscene", "--out", out); code != 0 {
		t.Fatalf("cook: %s", stderr)
	}
	loads := regexp.MustCompile(`requests\s+\d+ started \(\d+ prefetch(?:es)?, (\d+) retr(?:y|ies)`)
	givenUp := regexp.MustCompile(`failures\s+\d+ \(\d+ timeouts, (\d+) cells given up\)`)
	count := func(re *regexp.Regexp, s string) int {
		m := re.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("summary lacks %s:\n%s", re, s)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	simulate := func(retries string) string {
		code, stdout, stderr := run(t, "--config", "../testdata/demo/worldcook.yaml", "simulate", "--path", "../testdata/demo/route.csv", out,
			"--fail-rate", "1", "--retries", retries, "--retry-backoff", "1")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return stdout
	}
	none, two := simulate("0"), simulate("2")
	if r := count(loads, none); r != 0 {
		t.Errorf("--retries 0 retried %d times", r)
	}
	cells := count(givenUp, none)
	if cells == 0 {
		t.Fatal("no cell was given up although every load fails")
	}
	if r := count(loads, two); r < 2*cells {
		t.Errorf("--retries 2 retried %d times for %d cells", r, cells)
	}
	if code, _, stderr := run(t, "simulate", "--path", "../testdata/demo/route.csv", out, "--retry-timeout", "-1"); code != 2 || stderr == "" {
		t.Fatalf("negative --retry-timeout: exit %d", code)
	}
}
