//go:build !unix

package regular

// nonBlock is 0 where named pipes do not block an open in this way.
const nonBlock = 0
