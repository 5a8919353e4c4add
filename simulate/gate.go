package simulate

import (
	"fmt"
	"strings"
)

// Verdict is the gate's conclusion over a run's policies: it failed when
// a --fail-on condition held under any of them.
type Verdict struct {
	Failed bool
	// FailedPolicies are the policies whose gate failed, in run order.
	FailedPolicies []Policy
	// Message is the verdict in one line, for the exit status's error:
	// the settings that set the gate, then each condition that held, with
	// its first frames and cells (under Compare, per policy, named).
	Message string
}

// verdict concludes the gate over a result's runs (nil when the gate has
// no conditions).
func verdict(res *Result) *Verdict {
	v := &Verdict{}
	var parts []string
	for _, run := range res.Runs {
		g := run.Summary.Gate
		if g == nil {
			return nil
		}
		if !g.Failed {
			continue
		}
		v.Failed = true
		v.FailedPolicies = append(v.FailedPolicies, run.Policy)
		if res.Compare {
			parts = append(parts, fmt.Sprintf("%s: %s", run.Policy, g.Message()))
		} else {
			parts = append(parts, g.Message())
		}
	}
	switch {
	case res.Compare:
		v.Message = "--compare --fail-on: "
	case len(res.Runs) == 1 && res.Runs[0].Policy == Estella:
		v.Message = "--policy estella --fail-on: "
	default:
		v.Message = "--fail-on: "
	}
	if !v.Failed {
		v.Message += "no --fail-on condition held"
	} else {
		v.Message += strings.Join(parts, "; ")
	}
	return v
}
