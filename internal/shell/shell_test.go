package shell

import (
	"os/exec"
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"levels/main.esscene", "levels/main.esscene"},
		{"--out=build/world", "--out=build/world"},
		{"", "''"},
		{"my level.esscene", "'my level.esscene'"},
		{"it's", `'it'\''s'`},
		{"$HOME", "'$HOME'"},
		{"a*b", "'a*b'"},
		{"-", "-"},
		{"~/x", "'~/x'"},
		{"é", "'é'"},
	} {
		if got := Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestCommandReadsBack: sh reads each quoted word back as written.
func TestCommandReadsBack(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on this machine")
	}
	words := []string{"a b", "it's", `back\slash`, "$HOME", "`x`", "*", "", "tab\there", "new\nline", "!", "ü", "--x=y z"}
	out, err := exec.Command(sh, "-c", `for w in `+Command(words...)+`; do printf '%s\0' "$w"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if strings.Join(got, "|") != strings.Join(words, "|") {
		t.Errorf("sh read %q, want %q", got, words)
	}
}
