package config

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/internal/report"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/route"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
	"github.com/worldcook/worldcook/validate"
)

// owned are the facts of settings that belong to the packages that use
// them: the limits they enforce for every caller, the values they accept,
// their defaults. A tag names one (max:"streaming.MaxFrameBudgetMS",
// enum:"manifest.Planes") instead of repeating it, so that each is written
// once, by its owner, and a setting accepts what its owner does. A name
// is the owner's identifier where there is one; the others are the
// owner's values gathered under the name they would have there.
var owned = map[string]any{
	"grid.MaxLevel": grid.MaxLevel,

	"manifest.Planes":  []string{manifest.PlaneXZ, manifest.PlaneXY},
	"manifest.PlaneXZ": manifest.PlaneXZ,

	"validate.Formats":    validate.Formats,
	"validate.FormatText": validate.FormatText,

	"report.Formats":     report.Formats,
	"report.FormatTable": report.FormatTable,

	"route.Kinds":       route.Kinds,
	"route.DefaultFPS":  float64(route.DefaultFPS),
	"route.DefaultHold": float64(route.DefaultHold),

	"simulate.Policies": policies(),
	"simulate.Budgeted": string(simulate.Budgeted),

	// centre is accepted for center, as streaming.ParseDistance does.
	"streaming.DistanceModes":  []string{streaming.DistanceBounds.String(), streaming.DistanceCenter.String() + "|centre"},
	"streaming.DistanceBounds": streaming.DistanceBounds.String(),
	"streaming.FailConditions": streaming.FailConditions,
	"streaming.MaxConcurrency": streaming.MaxConcurrency,
	// MaxFrameBudgetMS bounds --frame-budget-ms, which is in ms.
	"streaming.MaxFrameBudgetMS":           streaming.MaxFrameBudgetMS,
	"streaming.MaxFrameSetting":            streaming.MaxFrameSetting,
	"streaming.DefaultRetry.Retries":       streaming.DefaultRetry().Retries,
	"streaming.DefaultRetry.BackoffFrames": streaming.DefaultRetry().BackoffFrames,
	"streaming.DefaultRetry.TimeoutFrames": streaming.DefaultRetry().TimeoutFrames,
}

// policies are the names of the policies simulate runs, in its order;
// seed is the budgeted policy's former name, still accepted.
func policies() []string {
	var names []string
	for _, p := range simulate.Policies() {
		name := string(p)
		if p == simulate.Budgeted {
			name += "|seed"
		}
		names = append(names, name)
	}
	return names
}

// ownedName is how a tag names an owner's fact: package.Identifier, with
// an optional .Field. No literal value of a tag has that form.
var ownedName = regexp.MustCompile(`^[a-z]+\.[A-Z][A-Za-z0-9]*(\.[A-Z][A-Za-z0-9]*)?$`)

// ownedTag returns a tag's text, or the owner's fact it names, in the
// tag's syntax: a list joined by commas, a number as
// Go prints it. A name nobody registered in owned is a programming error.
func ownedTag(path, key, text string) string {
	if !ownedName.MatchString(text) {
		return text
	}
	v, ok := owned[text]
	if !ok {
		panic(fmt.Sprintf("config: %s: %s:%q names no fact of its owner (add it to owned)", path, key, text))
	}
	switch v := v.(type) {
	case []string:
		return strings.Join(v, ",")
	case string:
		return v
	case int:
		return strconv.Itoa(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	panic(fmt.Sprintf("config: %s: %s:%q is a %T", path, key, text, v))
}
