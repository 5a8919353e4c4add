package config

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/golden"
)

const (
	docsFile   = "../../docs/config.md"
	tableStart = "<!-- settings table: generated from the declarations by go test ./config -update -->"
	tableEnd   = "<!-- end of settings table -->"
)

// settingsTable is docs/config.md's table of every setting, made from the
// declarations so that the documentation cannot drift from them.
func settingsTable() string {
	var b strings.Builder
	for _, section := range append([]string{""}, Sections()...) {
		title := "Global settings (any command)"
		if section != "" {
			title = "`" + section + "`"
		}
		fmt.Fprintf(&b, "\n### %s\n\n", title)
		b.WriteString("| worldcook.yaml | flag | environment | unit | default | what |\n|---|---|---|---|---|---|\n")
		for _, s := range Declared(section) {
			flag := "`--" + s.Flag + "`"
			if s.Short != "" {
				flag += ", `-" + s.Short + "`"
			}
			def := s.Default
			switch {
			case def != "":
				def = "`" + def + "`"
			case s.Optional:
				def = "not set"
			case !s.List() && s.typ.Kind() != reflect.String:
				def = fmt.Sprintf("`%v`", reflect.Zero(s.typ).Interface())
			}
			unit := s.Unit
			switch {
			case len(s.Values) > 0:
				unit = strings.Join(s.Values, ", ")
			case s.typ.Kind() == reflect.Bool:
				unit = "boolean"
			case s.List():
				unit = "list of " + unit + "s"
			}
			fmt.Fprintf(&b, "| `%s` | %s | `%s` | %s | %s | %s |\n", s.Path(), flag, s.Env, unit, def, strings.ReplaceAll(s.Help, "|", "\\|"))
		}
	}
	return b.String()
}

func TestDocsListEverySetting(t *testing.T) {
	data, err := os.ReadFile(docsFile)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, tableStart), strings.Index(doc, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the settings table markers", docsFile)
	}
	got, want := doc[i+len(tableStart):j], settingsTable()+"\n"
	if got == want {
		return
	}
	if golden.Updating() {
		if err := os.WriteFile(docsFile, []byte(doc[:i+len(tableStart)]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's settings table is not the declared settings (go test ./config -update rewrites it):\n%s", docsFile, golden.FirstDiff(got, want))
}
