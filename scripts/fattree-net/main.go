// Command fattree-net writes a 2-level fat tree as an ibsim net file on stdout, the
// large fabric of docs/fabrics.md's speed figures:
//
//	go run ./scripts/fattree-net -hosts 10000 -radix 144 > fattree-10000.net
//	wormcheck fabric --fabric fattree-10000.net --route minhop
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/wormcheck/wormcheck/model/fabric"
)

func main() {
	hosts := flag.Int("hosts", 10000, "number of hosts (CAs)")
	radix := flag.Int("radix", 144, "ports per switch (even); each leaf has radix/2 hosts and radix/2 spine links")
	flag.Parse()
	if err := fabric.WriteFatTree(os.Stdout, *hosts, *radix); err != nil {
		fmt.Fprintln(os.Stderr, "fattree-net:", err)
		os.Exit(2)
	}
}
