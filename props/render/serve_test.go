package render_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// TestServeExplorerLoopbackOnlyAndStops serves the TM1 scene on a free loopback port,
// fetches the scene, and checks that ending the context stops the server; a
// non-loopback or malformed address is refused before anything listens.
func TestServeExplorerLoopbackOnlyAndStops(t *testing.T) {
	_, m, tr, _ := tm1(t)
	sc, err := render.FlitScene(&props.FlitEvidence{Model: m, Trace: tr, Title: "TM1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, addr := range []string{"0.0.0.0:0", "example.com:80", "no-port"} {
		err := render.ServeExplorer(context.Background(), sc, addr, func(net.Addr) { t.Errorf("%s: listened", addr) })
		if err == nil || !strings.HasPrefix(err.Error(), "--addr ") {
			t.Errorf("%s: %v; want an --addr error", addr, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	bound := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- render.ServeExplorer(ctx, sc, "127.0.0.1:0", func(a net.Addr) { bound <- a }) }()
	var a net.Addr
	select {
	case a = <-bound:
	case err := <-done:
		t.Fatalf("ended before listening: %v", err)
	}
	resp, err := http.Get("http://" + a.String() + "/scene.json")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "TM1") {
		t.Errorf("scene.json: %s\n%.200s", resp.Status, body)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("stopping: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop when the context ended")
	}
}
