package render_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// TestFlitScene checks the explorer's data for the TM1 deadlock: one frame per state,
// the last with both blocked headers and the cycle m0 -> m1 -> m0.
func TestFlitScene(t *testing.T) {
	_, m, tr, _ := tm1(t)
	sc, err := render.FlitScene(&props.FlitEvidence{Model: m, Trace: tr, Title: "TM1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Frames) != len(tr.Steps) || sc.Frames[0].Label != "initial state" {
		t.Fatalf("%d frames for %d states", len(sc.Frames), len(tr.Steps))
	}
	lastF := sc.Frames[len(sc.Frames)-1]
	if len(lastF.Blocked) != 2 || len(lastF.Cycle) != 2 || !strings.Contains(lastF.Cycle[0].Text, "held by m1") {
		t.Fatalf("last frame %+v", lastF)
	}
	if len(sc.Frames[0].Holds) != 0 || len(sc.Frames[0].Cycle) != 0 {
		t.Errorf("the initial state holds %v", sc.Frames[0].Holds)
	}
	if _, err := json.Marshal(sc); err != nil {
		t.Fatal(err)
	}
}

// artifacts returns where the browser test keeps its screenshots: $WORMCHECK_ARTIFACTS
// (CI keeps it) or a temporary directory.
func artifacts(t *testing.T) string {
	if d := os.Getenv("WORMCHECK_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// browser starts Debian's chromium headless with a fresh profile and no network
// services, or skips the test in one line when it cannot start.
func browser(t *testing.T) context.Context {
	t.Helper()
	bin := "/usr/bin/chromium"
	if _, err := os.Stat(bin); err != nil {
		var lerr error
		if bin, lerr = exec.LookPath("chromium"); lerr != nil {
			t.Skip("chromium is not installed (apt-get install chromium); the explorer's browser test needs it")
		}
	}
	// A fresh profile, removed after the browser has exited (t.TempDir's own cleanup
	// can race with chromium's last writes).
	profile, err := os.MkdirTemp("", "wormcheck-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1400, 1000),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() {
		cancelT()
		cancelC()
		cancelA()
		for range 20 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	if err := chromedp.Run(ctx); err != nil {
		t.Skipf("chromium cannot start here: %v", err)
	}
	return ctx
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	var png []byte
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(artifacts(t), name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

// TestExplorerInBrowser loads the TM1 deadlock in a real headless chromium, steps to
// the end with the End key, and asserts that the wait-for cycle is drawn (two numbered
// discs) and listed in the model's words; steps back with ←, and opens a step from the
// URL. It keeps a screenshot of the last step.
func TestExplorerInBrowser(t *testing.T) {
	_, m, tr, tf := tm1(t)
	sc, err := render.FlitScene(props.TraceEvidence(tf, m, tr, tf.Violation))
	if err != nil {
		t.Fatal(err)
	}
	h, err := render.Explorer(sc)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := browser(t)
	last := len(sc.Frames) - 1
	var pos, discs, hash string
	var items []string
	err = chromedp.Run(ctx,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(`body[data-ready="true"]`, chromedp.ByQuery),
		chromedp.KeyEvent(kb.End),
		chromedp.WaitVisible(`#cycle li`, chromedp.ByQuery),
		chromedp.AttributeValue(`body`, "data-position", &pos, nil, chromedp.ByQuery),
		chromedp.Evaluate(`String(document.querySelectorAll("#map .cycle-num").length)`, &discs),
		chromedp.Evaluate(`Array.from(document.querySelectorAll("#cycle li")).map(e => e.textContent)`, &items),
		chromedp.Evaluate(`location.hash`, &hash),
	)
	if err != nil {
		t.Fatal(err)
	}
	if pos != itoa(last) || hash != "#step="+itoa(last) {
		t.Fatalf("after End: position %s, URL %q; want step %d", pos, hash, last)
	}
	if discs != "2" || len(items) != 2 || !strings.Contains(items[0], "m0.d2 at (1,0) waits for (1,0)->(2,0) vc0, held by m1") || !strings.Contains(items[1], "held by m0") {
		t.Fatalf("cycle: %s discs, items %q", discs, items)
	}
	screenshot(t, ctx, "explorer-tm1-last-step.png")
	var back, flits string
	err = chromedp.Run(ctx,
		chromedp.KeyEvent(kb.ArrowLeft),
		chromedp.AttributeValue(`body`, "data-position", &back, nil, chromedp.ByQuery),
		chromedp.Navigate(srv.URL+"/#step=3"),
		chromedp.WaitVisible(`body[data-ready="true"]`, chromedp.ByQuery),
		chromedp.AttributeValue(`body`, "data-position", &pos, nil, chromedp.ByQuery),
		chromedp.Evaluate(`String(document.querySelectorAll("#map .flit").length)`, &flits),
	)
	if err != nil {
		t.Fatal(err)
	}
	if back != itoa(last-1) || pos != "3" {
		t.Errorf("← gave position %s (want %d); #step=3 gave %s", back, last-1, pos)
	}
	want := 0
	for _, h := range sc.Frames[3].Holds {
		want += len(h.Flits)
	}
	if flits != itoa(want) {
		t.Errorf("step 3 draws %s flits; the frame has %d", flits, want)
	}
}

// TestExplorerScheduleInBrowser loads the stepwise-not-depth schedule with its timed
// witness, opens t=12 from the URL and asserts that the shared channel is drawn as
// contended and named.
func TestExplorerScheduleInBrowser(t *testing.T) {
	data, err := os.ReadFile("../../model/testdata/stepwise-not-depth.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := model.ParseSchedule(data)
	if err != nil {
		t.Fatal(err)
	}
	w := schedule.Depth(s, schedule.DepthOptions{}).ScheduleWitness()
	sc, err := render.ScheduleScene(&props.ScheduleEvidence{Schedule: s, Contention: w, Title: "stepwise-not-depth.json"})
	if err != nil {
		t.Fatal(err)
	}
	h, err := render.Explorer(sc)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := browser(t)
	var n string
	var items []string
	err = chromedp.Run(ctx,
		chromedp.Navigate(srv.URL+"/#t=12"),
		chromedp.WaitVisible(`body[data-ready="true"]`, chromedp.ByQuery),
		chromedp.Evaluate(`String(document.querySelectorAll("#map .contended").length)`, &n),
		chromedp.Evaluate(`Array.from(document.querySelectorAll("#cycle li")).map(e => e.textContent)`, &items),
	)
	if err != nil {
		t.Fatal(err)
	}
	if n != "2" || len(items) != 1 || items[0] != "(0,0)->(0,1) is held by #3 (0,0)->(0,3) and #4 (15,0)->(0,2)" {
		t.Fatalf("t=12: %s contended lanes, %q", n, items)
	}
	screenshot(t, ctx, "explorer-stepwise-not-depth-t12.png")
}

// TestExplorerLaidOutInBrowser opens the hypercube:3 deadlock in headless chromium (the
// explorer refused every network but 1-D and 2-D grids): at the last step the page draws
// the three numbered links of the wait-for cycle and every held lane, all on the page.
func TestExplorerLaidOutInBrowser(t *testing.T) {
	sc := hypercubeDeadlock(t)
	h, err := render.Explorer(sc)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := browser(t)
	var discs, holds, outside string
	err = chromedp.Run(ctx,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(`body[data-ready="true"]`, chromedp.ByQuery),
		chromedp.KeyEvent(kb.End),
		chromedp.WaitVisible(`#cycle li`, chromedp.ByQuery),
		chromedp.Evaluate(`String(document.querySelectorAll("#map .cycle-num").length)`, &discs),
		chromedp.Evaluate(`String(document.querySelectorAll("#map .hold").length)`, &holds),
		chromedp.Evaluate(`(() => { const svg = document.getElementById("map"); const W = +svg.getAttribute("width"), H = +svg.getAttribute("height");
			return String(Array.from(svg.querySelectorAll("circle")).filter(c => { const b = c.getBBox(); return b.x < 0 || b.y < 0 || b.x + b.width > W || b.y + b.height > H; }).length); })()`, &outside),
	)
	if err != nil {
		t.Fatal(err)
	}
	want := len(sc.Frames[len(sc.Frames)-1].Holds) // one line each: a laid-out network has no wrap stubs
	if discs != "3" || holds != itoa(want) || outside != "0" {
		t.Fatalf("last step: %s cycle discs (want 3), %s held lanes (want %d), %s circles off the page", discs, holds, want, outside)
	}
	screenshot(t, ctx, "explorer-hypercube3-last-step.png")
}
