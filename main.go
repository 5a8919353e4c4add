// Command worldcook cooks authored Estella scenes into streamed worlds,
// validates their residency rules and simulates how they stream.
package main

import (
	"os"

	"github.com/worldcook/worldcook/cmd"
)

func main() {
	os.Exit(cmd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
