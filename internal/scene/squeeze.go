package scene

import (
	"bytes"
	"math/bits"
	"slices"
)

// Squeezing is the fast way through pretty-printed entity records. A
// kernel runs ahead of the parser over 64-byte blocks of the file and
// removes the white space outside strings (the compact form a cook
// writes), working out from bit masks, 64 bytes at a time, which bytes
// are inside strings. The validating parser then reads the compact text,
// which is less than half the size of an editor-saved scene and has no
// white space to skip or leave out of the copy.
//
// Per block the kernel also keeps two masks, the bytes it kept and the
// line breaks, so that positions in the compact text can be mapped back to
// offsets and lines in the file for Authored and for messages.
//
// Removing white space cannot make invalid JSON valid, with one exception
// the kernel checks for: white space between two bytes of number or
// literal tokens ("1 2" would read as 12, "tr ue" as true). A block that
// holds such a gap stops the kernel; the parser then reads what lies
// beyond with the byte-by-byte scanner, which reports the error with its
// line and column. Any other error in the compact text is also re-read
// that way, so messages are the same whichever path found them.

// lexState is what the kernel carries from one block to the next.
type lexState struct {
	// in is all ones while inside a string.
	in uint64
	// esc is 1 when the block's first byte is escaped by an odd run of
	// backslashes that ended the block before.
	esc uint64
	// gap is 1 while a run of white space that follows a token byte
	// continues from the block before; scalar is 1 when the block before
	// ended on a token byte. Both feed the merged-token check.
	gap    uint64
	scalar uint64
}

// squeezeBlocks compacts the whole 64-byte blocks of src into dst and
// writes each block's kept-byte and line-break masks to masks[2k] and
// masks[2k+1]. dst must have room for len(src)+64 bytes: vector kernels
// store whole blocks. It stops early at a block with white space between
// two token bytes (see above), leaving that block and st untouched, and
// returns the bytes written and the blocks done.
var squeezeBlocks = squeezeGeneric

// squeezeGeneric is the portable kernel: the one used where there is no
// vector kernel (in tests; the parse reads byte by byte there), and a
// readable statement of what the vector kernels compute. Tests hold both
// to a byte-at-a-time definition (squeezeBytes).
func squeezeGeneric(dst, src []byte, masks []uint64, st *lexState) (n, blocks int) {
	for k := 0; k+64 <= len(src); k += 64 {
		var q, bs, ws, nl, other uint64
		for j, c := range src[k : k+64] {
			bit := uint64(1) << j
			switch c {
			case '"':
				q |= bit
			case '\\':
				bs |= bit
			case '\n':
				nl |= bit
				ws |= bit
			case ' ', '\r', '\t':
				ws |= bit
			}
			switch c {
			case '{', '}', '[', ']', ':', ',':
				other |= bit
			}
		}
		keep, bad := lexBlock(q, bs, ws, other, st)
		if bad {
			return n, k / 64
		}
		masks[k/32], masks[k/32+1] = keep, nl
		for m := keep; m != 0; m &= m - 1 {
			dst[n] = src[k+bits.TrailingZeros64(m)]
			n++
		}
	}
	return n, len(src) / 64
}

// lexBlock works out, from the masks of a block's quotes, backslashes,
// white space and structural bytes, which bytes to keep, and whether
// white space sits between two token bytes. It updates st only when the
// block is good.
func lexBlock(q, bs, ws, structural uint64, st *lexState) (keep uint64, bad bool) {
	const even = 0x5555555555555555
	// Escaped bytes: every other byte of a run of backslashes, and the
	// byte after a run of odd length. Runs that start on an odd bit are
	// told apart from those that start on an even one by an addition.
	bs &^= st.esc
	follows := bs<<1 | st.esc
	oddStarts := bs &^ even &^ follows
	seq, esc := bits.Add64(oddStarts, bs, 0)
	escaped := (even ^ seq<<1) & follows
	// Inside strings: between an unescaped quote and the next, by a
	// prefix XOR (the opening quote counts as inside).
	in := q &^ escaped
	in ^= in << 1
	in ^= in << 2
	in ^= in << 4
	in ^= in << 8
	in ^= in << 16
	in ^= in << 32
	in ^= st.in
	tokens := ^(q | ws | structural) &^ in
	ws &^= in
	// A run of white space after a token byte: add a one at its bottom
	// and it carries to the bit after the run, bad if a token byte.
	starts := (tokens & (ws >> 1)) << 1
	cin := st.gap | st.scalar&ws&1
	sum, gap := bits.Add64(ws, starts, cin)
	if sum&^ws&tokens != 0 {
		return 0, true
	}
	st.in = uint64(int64(in) >> 63)
	st.esc, st.gap, st.scalar = esc, gap, tokens>>63
	return ^ws, false
}

// useSqueeze says whether entity records are read through the kernel:
// where the CPU has the vector kernel and it measures fast (see
// kernelFast). Without it the byte-by-byte scanner is faster; tests turn
// it on with the portable kernel to check the path on any machine.
var useSqueeze = false

// squeezeWindow is how much of the file one call of the kernel covers,
// and squeezeAhead how much compact text the parser keeps ahead of the
// record it reads, so that a record seldom runs past the end of it.
const (
	squeezeWindow = 64 << 10
	squeezeAhead  = 64 << 10
)

// squeezer runs the kernel over src ahead of the parser, and maps
// positions in the compact text back to the file.
type squeezer struct {
	src []byte
	// next is how far into src the kernel has got; stuck is set when it
	// stopped at a merged token.
	next  int
	stuck bool
	st    lexState
	// masks holds the kept-byte and line-break masks of the blocks from
	// the cursor's on. The cursor is the block at masks[2*head]: it starts
	// at base in src and at baseOut in the compact text, with baseLines
	// line breaks before it.
	masks                    []uint64
	head                     int
	base, baseOut, baseLines int
}

// reset starts the squeezer at offset at of the file, a position outside
// any string (a record's start), where the compact text is out bytes long
// and lines line breaks have been passed.
func (q *squeezer) reset(at, out, lines int) {
	q.next, q.stuck, q.st = at, false, lexState{}
	q.masks, q.head = q.masks[:0], 0
	q.base, q.baseOut, q.baseLines = at, out, lines
}

// fill appends compact text to out until it is at least want bytes long,
// the file ends or the kernel is stuck.
func (q *squeezer) fill(out []byte, want int) []byte {
	for len(out) < want && !q.stuck && q.next < len(q.src) {
		if q.head > 0 {
			q.masks = q.masks[:copy(q.masks, q.masks[2*q.head:])]
			q.head = 0
		}
		src := q.src[q.next:min(len(q.src), q.next+squeezeWindow)]
		whole := len(src) &^ 63
		if whole == 0 {
			// The file's last bytes: a block padded with spaces, whose
			// padding is cut from the masks.
			n := len(src)
			tail := [64]byte(bytes.Repeat([]byte{' '}, 64))
			copy(tail[:], src)
			var dst [128]byte
			var m [2]uint64
			st := q.st
			if _, done := squeezeGeneric(dst[:], tail[:], m[:], &st); done == 0 {
				q.stuck = true
				break
			}
			keep := m[0] & (1<<n - 1)
			out = append(out, dst[:bits.OnesCount64(keep)]...)
			q.masks = append(q.masks, keep, m[1])
			q.next += n
			break
		}
		out = slices.Grow(out, whole+64)
		blocks := whole / 64
		q.masks = slices.Grow(q.masks, 2*blocks)
		m := q.masks[len(q.masks) : len(q.masks)+2*blocks]
		n, done := squeezeBlocks(out[len(out):cap(out)], src[:whole], m, &q.st)
		out = out[:len(out)+n]
		q.masks = q.masks[:len(q.masks)+2*done]
		q.next += 64 * done
		if done < blocks {
			q.stuck = true
		}
	}
	return out
}

// offset returns the file offset of the byte at compact offset c. c must
// be a position in the compact text, at or after the previous c asked
// for: the cursor only moves forward.
func (q *squeezer) offset(c int) int {
	for {
		keep := q.masks[2*q.head]
		if n := bits.OnesCount64(keep); c >= q.baseOut+n {
			q.baseOut += n
			q.baseLines += bits.OnesCount64(q.masks[2*q.head+1])
			q.base += 64
			q.head++
			continue
		}
		return q.base + nthBit(keep, c-q.baseOut)
	}
}

// nthBit returns the position of the set bit of x with r set bits below
// it: halves, quarters and bytes are skipped by their counts, then at most
// seven bits are cleared one by one.
func nthBit(x uint64, r int) int {
	pos := 0
	if n := bits.OnesCount32(uint32(x)); r >= n {
		r, x, pos = r-n, x>>32, 32
	}
	if n := bits.OnesCount16(uint16(x)); r >= n {
		r, x, pos = r-n, x>>16, pos+16
	}
	if n := bits.OnesCount8(uint8(x)); r >= n {
		r, x, pos = r-n, x>>8, pos+8
	}
	for ; r > 0; r-- {
		x &= x - 1
	}
	return pos + bits.TrailingZeros64(x)
}

// linesBefore counts the line breaks before file offset at, which must lie
// in the block offset last returned a position of.
func (q *squeezer) linesBefore(at int) int {
	return q.baseLines + bits.OnesCount64(q.masks[2*q.head+1]&(1<<(at-q.base)-1))
}
