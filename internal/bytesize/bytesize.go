// Package bytesize reads byte sizes as every setting and flag of worldcook
// writes them: a whole number of bytes or a number with an SI or IEC unit.
package bytesize

import (
	"errors"
	"math/big"
	"strings"
)

// sizeUnits are the byte-size suffixes a size may carry: SI (powers of
// 1000) and IEC (powers of 1024), matched without regard to case, so that
// 64MiB, 64mib and 64 MiB are the same size. A bare number is bytes.
var sizeUnits = map[string]int64{
	"":    1,
	"b":   1,
	"kb":  1000,
	"mb":  1000 * 1000,
	"gb":  1000 * 1000 * 1000,
	"tb":  1000 * 1000 * 1000 * 1000,
	"kib": 1 << 10,
	"mib": 1 << 20,
	"gib": 1 << 30,
	"tib": 1 << 40,
}

var errSize = errors.New("not a byte size: use a whole number of bytes or a number with a unit, such as 16KiB, 64MiB or 1.5GB")

// Parse reads a byte size: "4096", "16KiB", "64MiB", "1.5GB", "2 kB".
// A fraction is allowed when it names whole bytes (1.5KiB is 1536, 1.5B
// is refused). The sign is kept, so that a negative size can be refused
// by the setting's rule with a message that names the setting.
//
// It is written here rather than taken from a library because the common
// ones either read "MB" as 2^20 or round through float64, which turns
// large sizes into neighbouring ones; this one is exact (big.Rat).
func Parse(s string) (int64, error) {
	t := strings.TrimSpace(s)
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(strings.TrimPrefix(t, "-"), "+")
	end := 0
	for end < len(t) && (t[end] >= '0' && t[end] <= '9' || t[end] == '.') {
		end++
	}
	num, unit := t[:end], strings.ToLower(strings.TrimSpace(t[end:]))
	mult, ok := sizeUnits[unit]
	if !ok || num == "" || strings.Count(num, ".") > 1 || len(num) > 40 {
		return 0, errSize
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, errSize
	}
	r.Mul(r, new(big.Rat).SetInt64(mult))
	if !r.IsInt() {
		return 0, errors.New("not a whole number of bytes")
	}
	n := r.Num()
	if !n.IsInt64() {
		return 0, errors.New("too large: at most 8 EiB")
	}
	v := n.Int64()
	if neg {
		v = -v
	}
	return v, nil
}
