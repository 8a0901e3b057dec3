package creditloop

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/fabric/sm"
	"github.com/wormcheck/wormcheck/props"
)

// fatTree is a 2-level fat tree of hosts CAs on switches of radix ports, as ibdm's
// example clusters: each leaf has radix/2 hosts and one link to each of radix/2 spines.
func fatTree(t testing.TB, hosts, radix int) *fabric.Fabric {
	down := radix / 2
	leaves := (hosts + down - 1) / down
	spines := radix / 2
	var b strings.Builder
	for l := range leaves {
		fmt.Fprintf(&b, "Switch %d \"L%d\"\n", radix, l)
		for p := 0; p < down && l*down+p < hosts; p++ {
			fmt.Fprintf(&b, "[%d] \"H%d\"[1]\n", p+1, l*down+p)
		}
		for s := range spines {
			fmt.Fprintf(&b, "[%d] \"S%d\"[%d]\n", down+s+1, s, l+1)
		}
		b.WriteString("\n")
	}
	for s := range spines {
		fmt.Fprintf(&b, "Switch %d \"S%d\"\n\n", radix, s)
	}
	for h := range hosts {
		fmt.Fprintf(&b, "Hca 1 \"H%d\"\n\n", h)
	}
	f, err := fabric.ParseNet("fattree", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// maxRSS is the process's peak resident set in MiB.
func maxRSS() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Maxrss) / 1024
}

// The speed figures of the issue: the real 62-switch cluster decided within a second,
// and a 2-level fat tree of 10,000 hosts on 144-port switches (routed by wormcheck as
// minhop) within a minute. The fat tree runs with WORMCHECK_LONG=1; both log time and
// memory.
func TestSpeed(t *testing.T) {
	f, _, err := fabric.Load(fabric.Files{Topology: shared(t, "subnet.lst"), LFTs: shared(t, "osm.fdbs")})
	if err != nil {
		t.Fatal(err)
	}
	for _, all := range []bool{false, true} {
		start := time.Now()
		a, err := Analyze(context.Background(), f, Options{All: all})
		if err != nil {
			t.Fatal(err)
		}
		d := time.Since(start)
		t.Logf("62 switches (all %v): %s, verdict %v, %v", all, a, a.Verdict(), d)
		if d > 10*time.Second {
			t.Errorf("the 62-switch cluster took %v", d)
		}
	}
	if os.Getenv("WORMCHECK_LONG") == "" {
		t.Log("the 10,000-host fat tree runs with WORMCHECK_LONG=1")
		return
	}
	var ms runtime.MemStats
	start := time.Now()
	ft := fatTree(t, 10000, 144)
	if err := sm.AssignLIDs(ft); err != nil {
		t.Fatal(err)
	}
	if err := sm.MinHop(ft); err != nil {
		t.Fatal(err)
	}
	routed := time.Since(start)
	a, err := Analyze(context.Background(), ft, Options{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&ms)
	t.Logf("fat tree, 10000 hosts, %d switches: built and routed in %v; %s, verdict %v, analysed in %v; heap %.0f MiB in use, %.0f MiB from the OS, peak RSS %.0f MiB",
		len(ft.Switches()), routed, a, a.Verdict(), time.Since(start)-routed, float64(ms.HeapInuse)/(1<<20), float64(ms.Sys)/(1<<20), maxRSS())
	if a.Verdict() != props.Holds || a.Pairs.Delivered != a.Pairs.Pairs {
		t.Fatalf("the fat tree under minhop: %v, %s", a.Verdict(), a)
	}
}

func BenchmarkAnalyze62(b *testing.B) {
	f, _, err := fabric.Load(fabric.Files{Topology: shared(b, "subnet.lst"), LFTs: shared(b, "osm.fdbs")})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Analyze(context.Background(), f, Options{All: true}); err != nil {
			b.Fatal(err)
		}
	}
}
