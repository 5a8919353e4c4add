package bytesize

import (
	"strconv"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		bad  bool
	}{
		{"0", 0, false},
		{"4096", 4096, false},
		{"16KiB", 16 << 10, false},
		{"16kib", 16 << 10, false},
		{"64MiB", 64 << 20, false},
		{"2GiB", 2 << 30, false},
		{"1TiB", 1 << 40, false},
		{"1.5GB", 1_500_000_000, false},
		{"1.5KiB", 1536, false},
		{"2 kB", 2000, false},
		{"2KB", 2000, false},
		{"7B", 7, false},
		{" 12 ", 12, false},
		{"-1", -1, false}, // the sign is the setting's rule to refuse, with its name
		{"-16KiB", -16 << 10, false},
		{"+3", 3, false},
		{".5KiB", 512, false},
		{"9223372036854775807", 1<<63 - 1, false},
		{"9223372036854775808", 0, true},
		{"8EiB", 0, true},
		{"9000000TiB", 0, true},
		{"1.5B", 0, true},
		{"0.1", 0, true},
		{"", 0, true},
		{"KiB", 0, true},
		{"lots", 0, true},
		{"16 KiBs", 0, true},
		{"1.2.3", 0, true},
		{"1e3", 0, true},
		{"0x10", 0, true},
		{"1/2", 0, true},
		{"--1", 0, true},
	} {
		got, err := Parse(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("Parse(%q) = %d, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Parse(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

// FuzzParseSize: never a panic, and a size it accepts reads back the same
// when written as plain bytes.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"16KiB", "1.5GB", "-3", "9223372036854775807", "0.5KiB", "1..2MB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := Parse(s)
		if err != nil {
			return
		}
		back, err := Parse(strconv.FormatInt(n, 10))
		if err != nil || back != n {
			t.Fatalf("%q = %d, which reads back as %d, %v", s, n, back, err)
		}
	})
}
