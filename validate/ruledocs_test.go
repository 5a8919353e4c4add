package validate

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestRuleList: every rule is whole, and is found where its phase says:
// a pass's rule by the pass, any other by a check of its own that run()
// reaches.
func TestRuleList(t *testing.T) {
	code := regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
	seen := map[string]bool{}
	for _, r := range ruleList {
		if !code.MatchString(r.ID) || seen[r.ID] {
			t.Errorf("rule %q: codes are unique lowercase words joined by hyphens", r.ID)
		}
		seen[r.ID] = true
		if r.Short == "" || r.Full == "" || r.Help == "" {
			t.Errorf("rule %s lacks a text: %+v", r.ID, r.Rule)
		}
		if r.Level != SeverityError && r.Level != SeverityWarning {
			t.Errorf("rule %s level %q", r.ID, r.Level)
		}
		switch r.phase {
		case phaseStructure, phasePartition, phaseReferences, phaseSources, phaseAssets:
			if r.check != nil || r.cellEntity != nil {
				t.Errorf("rule %s is found by a pass, which does not run its check", r.ID)
			}
		case phaseScene, phaseWorld:
			if r.check == nil || r.cellEntity != nil {
				t.Errorf("rule %s of phase %d needs a check and no cellEntity", r.ID, r.phase)
			}
		case phaseCells:
			if r.cellEntity == nil || r.mask == 0 || r.check != nil {
				t.Errorf("rule %s of phaseCells needs a cellEntity and a mask, and no check", r.ID)
			}
		default:
			t.Errorf("rule %s has unknown phase %d", r.ID, r.phase)
		}
	}
	if len(Rules) != len(ruleList) {
		t.Errorf("Rules has %d entries, ruleList %d", len(Rules), len(ruleList))
	}
}

// TestRulesDocumented: docs/validate.md lists every finding code in its
// table, with the rule's severity, and gives each a section of its own;
// it lists no code that is not a rule.
func TestRulesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/validate.md")
	if err != nil {
		t.Fatal(err)
	}
	_, codes, ok := strings.Cut(string(doc), "\n## Finding codes\n")
	if !ok {
		t.Fatal(`docs/validate.md has no "## Finding codes" section`)
	}
	if end := strings.Index(codes, "\n## "); end >= 0 {
		codes = codes[:end]
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\| ([a-z]+) \\|")
	table := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(codes, -1) {
		table[m[1]] = m[2]
	}
	heading := regexp.MustCompile("(?m)^### (.*)$")
	sections := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(codes, -1) {
		for _, c := range regexp.MustCompile("`([a-z-]+)`").FindAllStringSubmatch(m[1], -1) {
			sections[c[1]] = true
		}
	}
	for _, r := range ruleList {
		if lvl, ok := table[r.ID]; !ok {
			t.Errorf("docs/validate.md: the finding codes table has no row for %s", r.ID)
		} else if lvl != r.Level {
			t.Errorf("docs/validate.md: %s is a %s in the table, a %s in its rule", r.ID, lvl, r.Level)
		}
		if !sections[r.ID] {
			t.Errorf("docs/validate.md: no ### section names %s", r.ID)
		}
	}
	for c := range table {
		if _, ok := RuleByID(c); !ok {
			t.Errorf("docs/validate.md: the table lists %s, which is no rule", c)
		}
	}
	for c := range sections {
		if _, ok := RuleByID(c); !ok {
			t.Errorf("docs/validate.md: a section names %s, which is no rule", c)
		}
	}
}
