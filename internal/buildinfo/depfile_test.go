package buildinfo

import "testing"

// TestEscape: paths are spelled as gcc -MMD spells them, which Make and
// Ninja read back (TestBuildTools runs both on a real depfile).
func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"levels/main.esscene", "levels/main.esscene"},
		{"my levels/a b.esscene", `my\ levels/a\ b.esscene`},
		{"cost$1/x", "cost$$1/x"},
		{"#1/x", `\#1/x`},
		{"a:b/x", `a\:b/x`},
		{`a\ b`, `a\\\ b`},
		{"tab\there", "tab\\\there"},
	} {
		got, err := escape(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("escape(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := escape("a\nb"); err == nil {
		t.Error("a line break was written into a depfile")
	}
}
