package scene

import "testing"

func TestDigitsAllBytes(t *testing.T) {
	ref := func(b []byte, i int) int {
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		return i
	}
	buf := make([]byte, 20)
	for a := 0; a < 256; a++ {
		for pos := 0; pos < 12; pos++ {
			for k := range buf {
				buf[k] = '0' + byte(k%10)
			}
			buf[pos] = byte(a)
			for _, prev := range []byte{'5', 0xff, 0x00, '/', ':'} {
				if pos > 0 {
					buf[pos-1] = prev
				}
				for start := 0; start < 10; start++ {
					if got, want := digits(buf, start), ref(buf, start); got != want {
						t.Fatalf("digits(%q, %d) = %d, want %d", buf, start, got, want)
					}
				}
			}
		}
	}
}
