package fingerprint

import (
	"math/rand/v2"
	"sync"
	"testing"
)

func TestFingerprint(t *testing.T) {
	big := make([]byte, 3*Block+10)
	a := Of(big, nil)
	big[len(big)-1] = 1 // a change in the last, short block
	if b := Of(big, nil); a == b {
		t.Fatal("a change in the last block kept the fingerprint")
	}
	if Of(big, nil) != Of(append([]byte(nil), big...), nil) {
		t.Fatal("fingerprint is not a function of the bytes")
	}
	if Of(nil, nil) == Of([]byte{0}, nil) || Of(big[:10], nil) == Of(big[:11], nil) {
		t.Fatal("lengths are not told apart")
	}
}

// TestCoverThenSum: blocks hashed by readers as they go, in any order and
// from several goroutines at once, give the fingerprint a single pass
// gives; Sum hashes exactly what they left, and releases only that.
func TestCoverThenSum(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	src := make([]byte, 300*Block+12345)
	for i := range src {
		src[i] = byte(r.Uint32())
	}
	want := Of(src, nil)
	for trial := range 20 {
		s := New(src)
		var wg sync.WaitGroup
		for range 4 {
			from := r.IntN(len(src))
			to := min(len(src), from+r.IntN(len(src)-from+1))
			r := rand.New(rand.NewPCG(uint64(from), uint64(to)))
			wg.Add(1)
			go func() {
				defer wg.Done()
				// A reader moving forward a little at a time.
				at := from
				for p := from; p < to; p = min(to, p+1+r.IntN(3*Block)) {
					at = s.Cover(at, p)
				}
				s.Cover(at, to)
			}()
		}
		wg.Wait()
		var released [][2]int
		var mu sync.Mutex
		got := s.Sum(func(from, to int) {
			mu.Lock()
			released = append(released, [2]int{from, to})
			mu.Unlock()
		})
		if got != want {
			t.Fatalf("trial %d: fingerprint %s after readers, want %s", trial, got, want)
		}
		for _, rg := range released {
			if rg[0]%Block != 0 || rg[1] <= rg[0] || rg[1] > len(src) {
				t.Fatalf("released %v", rg)
			}
		}
	}
}

func TestCoverReturnsNextBlockStart(t *testing.T) {
	s := New(make([]byte, 5*Block))
	for _, c := range []struct{ from, to, want int }{
		{0, Block - 1, 0},
		{0, Block, Block},
		{10, 3*Block + 5, 3 * Block},
		{3*Block + 7, 3*Block + 9, 4 * Block}, // block 3 began before from
		{4 * Block, 5 * Block, 5 * Block},
	} {
		if got := s.Cover(c.from, c.to); got != c.want {
			t.Errorf("Cover(%d, %d) = %d, want %d", c.from, c.to, got, c.want)
		}
	}
}
