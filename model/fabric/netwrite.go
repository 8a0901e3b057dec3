package fabric

import (
	"fmt"
	"io"
	"strings"
)

// WriteNet writes f as an ibsim net file (ParseNet reads it back): a record per node,
// switches first (ibsim runs the subnet manager on the first node of the file, here a
// switch's management port), then CAs and routers, each with its linked ports. Nodes are named by their description where
// it is unique and usable as an id, else by "S-GUID" or "H-GUID" as ibnetdiscover names
// them.
func WriteNet(w io.Writer, f *Fabric) error {
	count := map[string]int{}
	for _, n := range f.Nodes {
		count[n.Desc]++
	}
	id := func(i int32) string {
		n := &f.Nodes[i]
		if count[n.Desc] == 1 && n.Desc != "" && !strings.ContainsAny(n.Desc, "\"#[]@") {
			return n.Desc
		}
		if n.Kind == Switch {
			return fmt.Sprintf("S-%016x", n.GUID)
		}
		return fmt.Sprintf("H-%016x", n.GUID)
	}
	var order []int32
	for _, pass := range []bool{true, false} {
		for i, n := range f.Nodes {
			if (n.Kind == Switch) == pass {
				order = append(order, int32(i))
			}
		}
	}
	for _, i := range order {
		n := &f.Nodes[i]
		typ := "Hca"
		switch n.Kind {
		case Switch:
			typ = "Switch"
		case Router:
			typ = "Rt"
		}
		if _, err := fmt.Fprintf(w, "%s\t%d \"%s\"\n", typ, n.NumPorts(), id(i)); err != nil {
			return err
		}
		for p := 1; p < len(n.Ports); p++ {
			if r := n.Ports[p].Remote; r.Valid() {
				if _, err := fmt.Fprintf(w, "[%d]\t\"%s\"[%d]\n", p, id(r.Node), r.Port); err != nil {
					return err
				}
			}
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	return nil
}
