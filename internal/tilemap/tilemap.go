// Package tilemap decodes the tiles a scene's TilemapLayer keeps in its
// `chunks` field, as the engine's chunk codec does: base64 (URL-safe or
// standard alphabet, padding and white space ignored) of little-endian
// "ESTM" magic, a chunk count, then per chunk its chunk-grid x and y and
// 16×16 row-major u16 tiles (tile id in the low 13 bits, flip flags in
// the top 3).
package tilemap

import "encoding/binary"

// ChunkSize is the tiles along a chunk's side.
const ChunkSize = 16

const (
	chunkTiles = ChunkSize * ChunkSize
	magic      = 0x4d545345 // "ESTM"
	perChunk   = 8 + chunkTiles*2
	// IDMask keeps a tile's id and drops its flip flags.
	IDMask = 0x1fff
)

// Chunk is one decoded chunk: its chunk-grid coordinates (tiles X*16 to
// X*16+15 across, rows Y*16 down) and its tiles, row-major.
type Chunk struct {
	X, Y  int32
	Tiles [chunkTiles]uint16
}

// Tile is the raw tile at (x, y) of the chunk, flip flags included.
func (c *Chunk) Tile(x, y int) uint16 { return c.Tiles[y*ChunkSize+x] }

// Decode decodes a chunks blob. Like the engine it yields nothing for an
// empty blob or one without the magic, and stops at a chunk the bytes do
// not hold whole; truncated says that happened (the blob is damaged: the
// engine drops the rest of the chunks without a word).
func Decode(blob string) (chunks []Chunk, truncated bool) {
	b := decode64(blob)
	if len(b) < 8 || binary.LittleEndian.Uint32(b) != magic {
		return nil, false
	}
	count := binary.LittleEndian.Uint32(b[4:])
	off := 8
	// The count is a u32 from the file: only as many chunks as the bytes
	// hold are ever made.
	for i := uint32(0); i < count; i++ {
		if off+perChunk > len(b) {
			return chunks, true
		}
		c := Chunk{X: int32(binary.LittleEndian.Uint32(b[off:])), Y: int32(binary.LittleEndian.Uint32(b[off+4:]))}
		off += 8
		for t := range c.Tiles {
			c.Tiles[t] = binary.LittleEndian.Uint16(b[off:])
			off += 2
		}
		chunks = append(chunks, c)
	}
	return chunks, false
}

// Encode writes chunks as a blob the engine decodes (URL-safe base64
// without padding), for tests and tools.
func Encode(chunks []Chunk) string {
	b := make([]byte, 8, 8+len(chunks)*perChunk)
	binary.LittleEndian.PutUint32(b, magic)
	binary.LittleEndian.PutUint32(b[4:], uint32(len(chunks)))
	for i := range chunks {
		b = binary.LittleEndian.AppendUint32(b, uint32(chunks[i].X))
		b = binary.LittleEndian.AppendUint32(b, uint32(chunks[i].Y))
		for _, t := range chunks[i].Tiles {
			b = binary.LittleEndian.AppendUint16(b, t)
		}
	}
	return encode64(b)
}

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// decode64 is the engine's forgiving base64: every character outside both
// alphabets is skipped, and the bits left over at the end are dropped.
func decode64(s string) []byte {
	out := make([]byte, 0, len(s)*6/8)
	var acc uint32
	bits := 0
	for i := 0; i < len(s); i++ {
		v := value(s[i])
		if v < 0 {
			continue
		}
		acc = acc<<6 | uint32(v)
		bits += 6
		if bits >= 8 {
			bits -= 8
			out = append(out, byte(acc>>bits))
		}
	}
	return out
}

func value(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '+' || c == '-':
		return 62
	case c == '/' || c == '_':
		return 63
	}
	return -1
}

func encode64(b []byte) string {
	out := make([]byte, 0, (len(b)*8+5)/6)
	var acc uint32
	bits := 0
	for _, c := range b {
		acc = acc<<8 | uint32(c)
		bits += 8
		for bits >= 6 {
			bits -= 6
			out = append(out, alphabet[acc>>bits&63])
		}
	}
	if bits > 0 {
		out = append(out, alphabet[acc<<(6-bits)&63])
	}
	return string(out)
}
