// Package fingerprint tells whether a scene's bytes changed since the
// last cook. A fingerprint is the 128-bit XXH3 of the file's length and
// of the XXH3-128s of its 64 KiB blocks.
//
// It is only ever compared with itself, so its definition is worldcook's
// own. It has no adversary to resist (whoever can write the scene can
// cook it), which is why it is not the blake3 the manifest uses: XXH3 is
// about four times as fast, and a cook pays for this hash on every byte
// of its input.
//
// Blocks are what make it cheap. A parse hashes each block right after
// reading it, on whichever core read it, while the bytes are still in
// cache; Sum hashes only the blocks no parse covered. A separate pass
// over a mapped gigabyte had cost a 1M-entity cook about 0.3 s of CPU:
// the hashing, and page faults on the mapping twice over (the pass
// released its pages, the parse mapped them again).
package fingerprint

import (
	"encoding/hex"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/zeebo/xxh3"

	"github.com/worldcook/worldcook/internal/mapped"
)

// Block is the size of the pieces hashed on their own.
const Block = 64 << 10

// Sums collects the block hashes of one file. Its methods are safe for
// concurrent use.
type Sums struct {
	src  []byte
	sums [][16]byte
	done []atomic.Bool
}

// New starts the fingerprint of src, with no block hashed yet.
func New(src []byte) *Sums {
	n := (len(src) + Block - 1) / Block
	return &Sums{src: src, sums: make([][16]byte, n), done: make([]atomic.Bool, n)}
}

// Cover hashes the blocks that lie wholly in src[from:to] and that no one
// has hashed yet, and returns the start of the first block after them:
// the from of the next call for a reader moving forward.
func (s *Sums) Cover(from, to int) int {
	k := (from + Block - 1) / Block
	for ; k < len(s.sums); k++ {
		end := min((k+1)*Block, len(s.src))
		if end > to {
			break
		}
		s.hash(k)
	}
	return k * Block
}

func (s *Sums) hash(k int) {
	if s.done[k].Load() || !s.done[k].CompareAndSwap(false, true) {
		return
	}
	s.sums[k] = xxh3.Hash128(s.src[k*Block : min((k+1)*Block, len(s.src))]).Bytes()
}

// Sum hashes the blocks not yet hashed, on every CPU, and returns the
// fingerprint. release, if set, is told of each range of src it has
// hashed, so that the pages of a mapped file can go. A file that shrank
// under its mapping gets a fingerprint that matches no record.
func (s *Sums) Sum(release func(from, to int)) string {
	// Work is handed out in steps of 128 blocks (8 MiB), each released
	// once hashed.
	const step = 128
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := min(len(s.sums)/step+1, runtime.GOMAXPROCS(0)); w > 0; w-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				first := int(next.Add(step)) - step
				if first >= len(s.sums) {
					return
				}
				last := min(first+step, len(s.sums))
				hashed := false
				_ = mapped.Guard(func() error {
					for k := first; k < last; k++ {
						if !s.done[k].Load() {
							s.hash(k)
							hashed = true
						}
					}
					return nil
				})
				if hashed && release != nil {
					release(first*Block, min(last*Block, len(s.src)))
				}
			}
		}()
	}
	wg.Wait()
	all := make([]byte, 0, 24+16*len(s.sums))
	all = strconv.AppendInt(all, int64(len(s.src)), 10)
	all = append(all, ':')
	for i := range s.sums {
		all = append(all, s.sums[i][:]...)
	}
	sum := xxh3.Hash128(all).Bytes()
	return "xxh3-128:" + hex.EncodeToString(sum[:])
}

// Of returns the fingerprint of src, hashing all of it.
func Of(src []byte, release func(from, to int)) string { return New(src).Sum(release) }

// Hashed returns how many of the file's blocks have been hashed, and how
// many it has.
func (s *Sums) Hashed() (hashed, blocks int) {
	for i := range s.done {
		if s.done[i].Load() {
			hashed++
		}
	}
	return hashed, len(s.done)
}
