package osmtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/vct"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/creditloop"
)

// torusNet is an x-by-y torus of 8-port switches (ports 1..4: +x, -x, +y, -y), a host
// on port 5 of each.
func torusNet(t *testing.T, x, y int) *fabric.Fabric {
	var b strings.Builder
	sw := func(i, j int) string { return fmt.Sprintf("T%d_%d", (i+x)%x, (j+y)%y) }
	for i := range x {
		for j := range y {
			fmt.Fprintf(&b, "Switch 8 \"%s\"\n[1] \"%s\"[2]\n[2] \"%s\"[1]\n[3] \"%s\"[4]\n[4] \"%s\"[3]\n[5] \"H%d_%d\"[1]\n\n",
				sw(i, j), sw(i+1, j), sw(i-1, j), sw(i, j+1), sw(i, j-1), i, j)
		}
	}
	for i := range x {
		for j := range y {
			fmt.Fprintf(&b, "Hca 1 \"H%d_%d\"\n[1] \"%s\"[5]\n\n", i, j, sw(i, j))
		}
	}
	f, err := fabric.ParseNet("torus", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// guidOf is the GUID of the node called name.
func guidOf(f *fabric.Fabric, name string) uint64 {
	for _, n := range f.Nodes {
		if n.Desc == name {
			return n.GUID
		}
	}
	return 0
}

// row is one line of the table in docs/fabrics.md.
type row struct {
	fabric, file string
	engine       string
	roots        []string
	torus        func(f *fabric.Fabric) string
	slEngine     bool // the engine chooses SLs: QoS on, path SLs queried
	topo         func(t *testing.T) *fabric.Fabric
}

func matrixRows(t *testing.T) []row {
	file := func(name string) func(t *testing.T) *fabric.Fabric {
		return func(t *testing.T) *fabric.Fabric {
			f, _, err := fabric.Load(fabric.Files{Topology: shared(t, name)})
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	torus44 := func(f *fabric.Fabric) string {
		g := func(n string) uint64 { return guidOf(f, n) }
		return fmt.Sprintf("torus 4 4 1\nxp_link 0x%x 0x%x\nxm_link 0x%x 0x%x\nyp_link 0x%x 0x%x\nym_link 0x%x 0x%x\n",
			g("T0_0"), g("T1_0"), g("T0_0"), g("T3_0"), g("T0_0"), g("T0_1"), g("T0_0"), g("T0_3"))
	}
	torus := func(t *testing.T) *fabric.Fabric { return torusNet(t, 4, 4) }
	tops := []string{"SW_L0_1", "SW_L0_2", "SW_L0_3", "SW_L0_4"}
	var rows []row
	for _, e := range []string{"minhop", "updn", "dfsssp", "lash"} {
		r := row{fabric: "CreditLoopDemo.cables", file: "CreditLoopDemo.cables", engine: e, topo: file("CreditLoopDemo.cables"), slEngine: e == "dfsssp" || e == "lash"}
		if e == "updn" {
			r.roots = []string{"RD1"}
		}
		rows = append(rows, r)
	}
	for _, e := range []string{"minhop", "updn", "ftree", "dfsssp", "lash"} {
		r := row{fabric: "credit-loops.topo", file: "credit-loops.topo", engine: e, topo: file("credit-loops.topo"), slEngine: e == "dfsssp" || e == "lash"}
		if e == "updn" || e == "ftree" {
			r.roots = tops
		}
		rows = append(rows, r)
	}
	for _, name := range []string{"ibsim-net", "ibsim-net.2sw2path4hca"} {
		for _, e := range []string{"minhop", "updn", "dfsssp", "lash"} {
			r := row{fabric: name, file: name, engine: e, topo: file(name), slEngine: e == "dfsssp" || e == "lash"}
			if e == "updn" {
				r.roots = []string{"Switch1"}
			}
			rows = append(rows, r)
		}
	}
	for _, e := range []string{"minhop", "updn", "dfsssp", "lash", "torus-2QoS"} {
		r := row{fabric: "4x4 torus (generated)", engine: e, topo: torus, slEngine: e != "minhop" && e != "updn"}
		switch e {
		case "updn":
			r.roots = []string{"T0_0"}
		case "torus-2QoS":
			r.torus = torus44
		}
		rows = append(rows, r)
	}
	for _, e := range []string{"minhop", "updn", "dfsssp", "lash"} {
		r := row{fabric: "subnet.lst (62 switches)", file: "subnet.lst", engine: e, topo: file("subnet.lst"), slEngine: e == "dfsssp" || e == "lash"}
		if e == "updn" {
			r.fabric, r.roots = "subnet.lst (62 switches; updn roots: the 12 switches farthest from the CAs)", []string{farthest}
		}
		rows = append(rows, r)
	}
	return rows
}

// verdictWord is a verdict in the table's words.
func verdictWord(a *creditloop.Analysis) string {
	switch v := a.Verdict(); {
	case len(a.Loops) == 0:
		return "no loop"
	case v == props.Violated:
		if len(a.Loops) == 1 {
			return "deadlock (1 loop)"
		}
		return fmt.Sprintf("deadlock (%d loops)", len(a.Loops))
	case v == props.Holds:
		return fmt.Sprintf("%d loops, none fills", len(a.Loops))
	default:
		return fmt.Sprintf("%d loops, undecided", len(a.Loops))
	}
}

// TestOpenSMEngines routes the shared fabrics (and a 3x3 torus) with OpenSM's engines
// under ibsim, and judges each routing with wormcheck (with the path SLs and SL2VL
// tables where the engine uses them, and without) and with ibdmchk on the same dumps
// (without and with them). Every reachable deadlock replays. The table it builds is
// docs/fabrics.md's; WORMCHECK_UPDATE_DOCS=1 rewrites it there, otherwise it must equal
// what the file says.
func TestOpenSMEngines(t *testing.T) {
	need(t)
	if testing.Short() && os.Getenv("WORMCHECK_LONG") == "" {
		t.Skip("about a minute of OpenSM runs and SA queries: run without -short")
	}
	if err := IbdmchkAvailable(); err != nil {
		t.Skipf("the table sets ibdmchk beside wormcheck: %v", err)
	}
	var lines []string
	for _, r := range matrixRows(t) {
		topo := r.topo(t)
		req := Request{Fabric: topo, Engine: r.engine, QoS: r.slEngine, PathSLs: r.slEngine}
		req.Roots = simRoots(t, topo, r.roots)
		if r.torus != nil {
			req.TorusConf = r.torus(topo)
		}
		res, err := Route(context.Background(), t.TempDir(), req)
		if err != nil {
			t.Fatalf("%s %s: %v", r.fabric, r.engine, err)
		}
		files := res.Files()
		withSL, err := analyse(files)
		if err != nil {
			t.Fatalf("%s %s: %v", r.fabric, r.engine, err)
		}
		files.SL2VL, files.PathSL = "", ""
		plain, err := analyse(files)
		if err != nil {
			t.Fatalf("%s %s: %v", r.fabric, r.engine, err)
		}
		for _, a := range []*creditloop.Analysis{withSL, plain} {
			replayAll(t, r.fabric+" "+r.engine, a)
		}
		ibPlain, _, err := Ibdmchk(context.Background(), res, false, false)
		if err != nil {
			t.Fatalf("%s %s: %v", r.fabric, r.engine, err)
		}
		ibSL := ibPlain
		if r.slEngine {
			if ibSL, _, err = Ibdmchk(context.Background(), res, true, false); err != nil {
				t.Fatalf("%s %s: %v", r.fabric, r.engine, err)
			}
		}
		lines = append(lines, tableRow(r, res.Engine, withSL, plain, ibPlain, ibSL))
	}
	lines = append(lines, ownDumpRows(t)...)
	table := "| fabric | -R | OpenSM used | routes | wormcheck, SL 0 | wormcheck, path SLs + SL2VL | ibdmchk | ibdmchk -c -d | who is right |\n|---|---|---|---|---|---|---|---|---|\n" + strings.Join(lines, "\n") + "\n"
	checkDocsTable(t, table)
}

func analyse(files fabric.Files) (*creditloop.Analysis, error) {
	f, _, err := fabric.Load(files)
	if err != nil {
		return nil, err
	}
	return creditloop.Analyze(context.Background(), f, creditloop.Options{})
}

// replayAll replays every reachable deadlock of an analysis in the model.
func replayAll(t *testing.T, what string, a *creditloop.Analysis) {
	for i, l := range a.Loops {
		if l.Decision.Verdict != props.Violated {
			continue
		}
		m, _, err := l.Decision.Instance.Build()
		if err != nil {
			t.Fatalf("%s loop %d: %v", what, i, err)
		}
		tr, err := checker.Replay[vct.State](m, 0, l.Decision.Actions)
		if err != nil {
			t.Fatalf("%s loop %d: %v", what, i, err)
		}
		if len(m.LocalDeadlock(tr.Steps[len(tr.Steps)-1].State, nil)) == 0 {
			t.Fatalf("%s loop %d: the trace ends in no deadlock", what, i)
		}
	}
}

func tableRow(r row, used string, withSL, plain *creditloop.Analysis, ibPlain, ibSL bool) string {
	ib := func(loop bool) string {
		if loop {
			return "credit loop"
		}
		return "no loop"
	}
	slCol := "(no SLs: as SL 0)"
	if r.slEngine {
		slCol = verdictWord(withSL)
	}
	why := judge(r, plain, withSL, ibPlain, ibSL)
	routes := fmt.Sprintf("%d/%d", withSL.Pairs.Delivered, withSL.Pairs.Pairs)
	return fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %s |", r.fabric, r.engine, used, routes, verdictWord(plain), slCol, ib(ibPlain), ib(ibSL), why)
}

// judge says who is right where wormcheck and ibdmchk differ (and that they agree
// where they do): a trace that replays decides a deadlock, an acyclic graph or an
// exhaustive search its absence.
func judge(r row, plain, withSL *creditloop.Analysis, ibPlain, ibSL bool) string {
	final := withSL
	if !r.slEngine {
		final = plain
	}
	wcLoop := len(final.Loops) > 0
	ibFinal := ibPlain
	if r.slEngine {
		ibFinal = ibSL
	}
	switch {
	case final.Verdict() == props.Violated && ibFinal:
		return "agree: a real deadlock; the trace replays"
	case !wcLoop && !ibFinal && r.slEngine && ibPlain:
		return "wormcheck: the SLs put the loop's paths on different VLs (ibdmchk without them raises a false alarm)"
	case !wcLoop && !ibFinal:
		return "agree: no credit loop"
	case wcLoop && final.Verdict() == props.Holds && ibFinal:
		return "wormcheck: the loop exists but no run fills it"
	}
	return fmt.Sprintf("differ: wormcheck %s, ibdmchk %v", verdictWord(final), ibFinal)
}

// checkDocsTable compares the table with docs/fabrics.md's (between its markers), or
// writes it there with WORMCHECK_UPDATE_DOCS=1.
func checkDocsTable(t *testing.T, table string) {
	const begin, end = "<!-- BEGIN opensm table (props/creditloop/osmtest TestOpenSMEngines) -->\n", "<!-- END opensm table -->"
	path := filepath.Join("..", "..", "..", "docs", "fabrics.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no table markers", path)
	}
	if os.Getenv("WORMCHECK_UPDATE_DOCS") != "" {
		s = s[:i+len(begin)] + table + s[j:]
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote the table to %s", path)
		return
	}
	if got := s[i+len(begin) : j]; got != table {
		t.Fatalf("docs/fabrics.md's table is not what OpenSM and wormcheck give now (WORMCHECK_UPDATE_DOCS=1 rewrites it):\n%s", table)
	}
}

// ownDumpRows are the rows of the 62-switch cluster's own dump (subnet.lst and
// osm.fdbs as the cluster's OpenSM wrote them), between CAs and over every path (-a).
func ownDumpRows(t *testing.T) []string {
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	files := fabric.Files{Topology: abs(shared(t, "subnet.lst")), LFTs: abs(shared(t, "osm.fdbs"))}
	f, _, err := fabric.Load(files)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, all := range []bool{false, true} {
		a, err := creditloop.Analyze(context.Background(), f, creditloop.Options{All: all})
		if err != nil {
			t.Fatal(err)
		}
		replayAll(t, "subnet.lst", a)
		ib, _, err := IbdmchkFiles(context.Background(), t.TempDir(), files.Topology, files.LFTs, "", "", all)
		if err != nil {
			t.Fatal(err)
		}
		name, flag := "subnet.lst + osm.fdbs (its own dump)", "(dumped)"
		if all {
			name, flag = "subnet.lst + osm.fdbs, all paths (--all, ibdmchk -a)", "(dumped)"
		}
		r := row{fabric: name, engine: flag}
		out = append(out, tableRow(r, "", a, a, ib, ib))
	}
	return out
}
