package creditloop

import (
	"context"
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
// example clusters (fabric.WriteFatTree).
func fatTree(t testing.TB, hosts, radix int) *fabric.Fabric {
	var b strings.Builder
	if err := fabric.WriteFatTree(&b, hosts, radix); err != nil {
		t.Fatal(err)
	}
	f, err := fabric.ParseNet("fattree", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// cpuTime is the process's user and system time so far: the work done, whatever the
// load of the machine (wall time on shared cores is mostly waiting).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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
		start, cpu := time.Now(), cpuTime()
		a, err := Analyze(context.Background(), f, Options{All: all})
		if err != nil {
			t.Fatal(err)
		}
		d, c := time.Since(start), cpuTime()-cpu
		t.Logf("62 switches (all %v): %s, verdict %v, %v wall, %v CPU", all, a, a.Verdict(), d, c)
		if c > time.Second {
			t.Errorf("the 62-switch cluster took %v of CPU, more than a second", c)
		}
	}
	if os.Getenv("WORMCHECK_LONG") == "" {
		t.Log("the 10,000-host fat tree runs with WORMCHECK_LONG=1")
		return
	}
	var ms runtime.MemStats
	start, cpu := time.Now(), cpuTime()
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
	if c := cpuTime() - cpu; c > time.Minute {
		t.Errorf("the fat tree took %v of CPU, more than a minute", c)
	}
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
