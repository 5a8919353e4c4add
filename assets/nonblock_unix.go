//go:build unix

package assets

import "syscall"

// openNonBlock keeps an open from waiting for a writer when a FIFO takes a
// regular file's place between the check and the open; on a regular file
// it changes nothing.
const openNonBlock = syscall.O_NONBLOCK
