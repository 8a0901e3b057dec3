// Command wormcheck checks routing and collective-communication algorithms on explicit
// network states; `wormcheck help` lists its commands.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "wormcheck: command line under construction")
	os.Exit(2)
}
