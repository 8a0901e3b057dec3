package fabric

import (
	"bufio"
	"fmt"
	"io"
)

// WriteFatTree writes a 2-level fat tree as an ibsim net file (ParseNet reads it), the
// shape of ibdm's example clusters: leaf switches "L0", "L1", ... of radix ports, each
// with radix/2 hosts "H0", "H1", ... on its lower ports and one link to each of radix/2
// spine switches "S0", "S1", ... on its upper ports; the last leaf takes the hosts that
// remain. It is how the speed figures' large fabrics are made.
func WriteFatTree(w io.Writer, hosts, radix int) error {
	if hosts < 1 || radix < 2 || radix%2 != 0 || radix > 254 {
		return fmt.Errorf("a fat tree needs at least one host and an even radix of 2..254 ports, not %d hosts and radix %d", hosts, radix)
	}
	down := radix / 2
	leaves := (hosts + down - 1) / down
	spines := radix / 2
	if leaves > radix {
		return fmt.Errorf("%d hosts need %d leaf switches; a spine of %d ports links at most %d", hosts, leaves, radix, radix)
	}
	b := bufio.NewWriter(w)
	for l := range leaves {
		fmt.Fprintf(b, "Switch %d \"L%d\"\n", radix, l)
		for p := 0; p < down && l*down+p < hosts; p++ {
			fmt.Fprintf(b, "[%d] \"H%d\"[1]\n", p+1, l*down+p)
		}
		for s := range spines {
			fmt.Fprintf(b, "[%d] \"S%d\"[%d]\n", down+s+1, s, l+1)
		}
		b.WriteString("\n")
	}
	for s := range spines {
		fmt.Fprintf(b, "Switch %d \"S%d\"\n\n", radix, s)
	}
	for h := range hosts {
		fmt.Fprintf(b, "Hca 1 \"H%d\"\n\n", h)
	}
	return b.Flush()
}
