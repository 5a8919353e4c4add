package tune

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/internal/bytesize"
)

// maxValues bounds the values one dimension may list, so that a range
// with a tiny step is refused before it is spelled out.
const maxValues = 10000

// parseDistances reads a distance dimension (--cell-size and the radii):
// a comma list whose items are numbers, arithmetic ranges A..B/STEP or
// geometric ranges A..BxF. The values come back ascending without
// repeats; every one is finite and not negative.
//
// Range values are rounded to 12 significant digits, so that 0.5..2/0.1
// ends at 2 and not at 2.0000000000000004, which no one meant to author.
func parseDistances(s string) ([]float64, error) {
	var out []float64
	err := items(s, func(item string) error {
		vs, err := distanceValues.item(item)
		out = append(out, vs...)
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// distanceValues are the values of a distance dimension: finite numbers, the
// ranges' values rounded to 12 significant digits.
var distanceValues = dimension[float64]{
	value: distance,
	step: func(item, arg string, a, b float64) ([]float64, error) {
		step, err := number(arg)
		if err != nil {
			return nil, err
		}
		if step <= 0 {
			return nil, fmt.Errorf("%q: the step %s must be greater than 0", item, arg)
		}
		n := math.Floor((b-a)/step*(1+1e-12)) + 1
		if n > maxValues {
			return nil, fmt.Errorf("%q lists %s values, more than %d: use a larger step", item, count(n), maxValues)
		}
		var out []float64
		for k := 0; k < int(n); k++ {
			out = append(out, round12(a+float64(k)*step))
		}
		return out, nil
	},
	times: func(item string, a, b, f float64) ([]float64, error) {
		n := math.Floor(math.Log(b/a)/math.Log(f)*(1+1e-12)+1e-9) + 1
		if n > maxValues {
			return nil, fmt.Errorf("%q lists %s values, more than %d: use a larger factor", item, count(n), maxValues)
		}
		var out []float64
		v := a
		for k := 0; k < int(n); k++ {
			if r := round12(v); r <= b*(1+1e-12) {
				out = append(out, r)
			}
			v *= f
		}
		return out, nil
	},
}

// dimension reads one item of a dimension's list: a value, A..B/STEP or
// A..BxF, the same way for distances and byte sizes; value reads a value
// or a range's end, step and times spell out a range whose ends are in
// order (times: A above 0, F above 1).
type dimension[T int64 | float64] struct {
	value func(string) (T, error)
	step  func(item, arg string, a, b T) ([]T, error)
	times func(item string, a, b T, f float64) ([]T, error)
}

func (d dimension[T]) item(item string) ([]T, error) {
	lo, hi, op, arg, isRange, err := splitRange(item)
	if err != nil {
		return nil, err
	}
	if !isRange {
		v, err := d.value(item)
		if err != nil {
			return nil, err
		}
		return []T{v}, nil
	}
	a, err := d.value(lo)
	if err != nil {
		return nil, err
	}
	b, err := d.value(hi)
	if err != nil {
		return nil, err
	}
	if a > b {
		return nil, fmt.Errorf("%q: the range starts above its end (%s > %s)", item, lo, hi)
	}
	if op == '/' {
		return d.step(item, arg, a, b)
	}
	f, err := factor(item, arg)
	if err != nil {
		return nil, err
	}
	if a == 0 {
		return nil, fmt.Errorf("%q: a geometric range must start above 0", item)
	}
	return d.times(item, a, b, f)
}

// unsetValue is how a byte dimension lists "no budget" or "no cap" among its
// values.
const unsetValue = "none"

// parseSizes reads a byte dimension (--budget, --max-resident-bytes): as
// ParseDistances, with byte sizes (16KiB, 1.5MB: bytesize.Parse) for
// values, ends and steps, and Unset for the setting left unset. The values
// come back ascending, unset last, without repeats.
func parseSizes(s string) ([]*int64, error) {
	var out []int64
	unset := false
	err := items(s, func(item string) error {
		if strings.EqualFold(item, unsetValue) {
			unset = true
			return nil
		}
		vs, err := byteSizes.item(item)
		out = append(out, vs...)
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(out)
	out = slices.Compact(out)
	vals := make([]*int64, 0, len(out)+1)
	for i := range out {
		vals = append(vals, &out[i])
	}
	if unset {
		vals = append(vals, nil)
	}
	return vals, nil
}

// byteSizes are the values of a byte dimension: whole bytes.
var byteSizes = dimension[int64]{
	value: size,
	step: func(item, arg string, a, b int64) ([]int64, error) {
		step, err := bytesize.Parse(arg)
		if err != nil {
			return nil, fmt.Errorf("%q: the step %q is %v", item, arg, err)
		}
		if step <= 0 {
			return nil, fmt.Errorf("%q: the step %s must be greater than 0", item, arg)
		}
		if n := (b-a)/step + 1; n > maxValues {
			return nil, fmt.Errorf("%q lists %d values, more than %d: use a larger step", item, n, maxValues)
		}
		var out []int64
		for v := a; v <= b; v += step {
			out = append(out, v)
			if v > b-step {
				break // the next step would pass b, or wrap around
			}
		}
		return out, nil
	},
	// Each value is the previous one times F, rounded down, and at least
	// one more, so that a small factor on a small start still climbs.
	times: func(item string, a, b int64, f float64) ([]int64, error) {
		var out []int64
		for v, k := a, 0; v <= b; k++ {
			if k == maxValues {
				return nil, fmt.Errorf("%q lists more than %d values: use a larger factor", item, maxValues)
			}
			out = append(out, v)
			next := math.Floor(float64(v) * f)
			if next >= float64(b)+1 {
				break
			}
			v = max(int64(next), v+1)
		}
		return out, nil
	},
}

// items calls each for every comma-separated item, trimmed; an empty list
// or item is an error, since a dimension with no value has no candidate.
func items(s string, each func(string) error) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("no value: give a comma list, A..B/STEP or A..BxF")
	}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return fmt.Errorf("%q has an empty item: separate values by single commas", s)
		}
		if err := each(item); err != nil {
			return err
		}
	}
	return nil
}

// splitRange splits A..B/STEP or A..BxF; an item without ".." is a value.
func splitRange(item string) (lo, hi string, op byte, arg string, isRange bool, err error) {
	lo, rest, ok := strings.Cut(item, "..")
	if !ok {
		return "", "", 0, "", false, nil
	}
	i := strings.LastIndexAny(rest, "/xX×")
	if i < 0 {
		return "", "", 0, "", false, fmt.Errorf("%q: a range needs a step (A..B/STEP) or a factor (A..BxF)", item)
	}
	hi, arg = rest[:i], rest[i+1:]
	op = rest[i]
	if op != '/' {
		op = 'x'
		if strings.HasPrefix(rest[i:], "×") {
			arg = rest[i+len("×"):]
		}
	}
	lo, hi, arg = strings.TrimSpace(lo), strings.TrimSpace(hi), strings.TrimSpace(arg)
	if lo == "" || hi == "" || arg == "" {
		return "", "", 0, "", false, fmt.Errorf("%q: a range is A..B/STEP or A..BxF, each part given", item)
	}
	return lo, hi, op, arg, true, nil
}

// number reads a finite number.
func number(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	return v, nil
}

func distance(s string) (float64, error) {
	v, err := number(s)
	if err != nil {
		return 0, err
	}
	if v < 0 {
		return 0, fmt.Errorf("%s is negative: a distance is 0 or more", s)
	}
	return v, nil
}

func size(s string) (int64, error) {
	v, err := bytesize.Parse(s)
	if err != nil {
		return 0, fmt.Errorf("%q is %v", s, err)
	}
	if v < 0 {
		return 0, fmt.Errorf("%s is negative: a byte size is 0 or more", s)
	}
	return v, nil
}

func factor(item, arg string) (float64, error) {
	f, err := number(arg)
	if err != nil {
		return 0, err
	}
	if f <= 1 {
		return 0, fmt.Errorf("%q: the factor %s must be greater than 1", item, arg)
	}
	return f, nil
}

func round12(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	return r
}

// count renders a value count that may be far past int.
func count(n float64) string {
	if n < 1e15 {
		return strconv.FormatFloat(n, 'f', 0, 64)
	}
	return strconv.FormatFloat(n, 'g', 3, 64)
}
