//go:build !unix

package assets

const openNonBlock = 0
