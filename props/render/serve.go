package render

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// ServeExplorer serves the explorer page of sc (Explorer) on addr until ctx ends, then
// returns nil. The address must be a loopback one (127.0.0.1, ::1 or localhost; port 0
// picks a free port): the page shows a user's witness and is meant for their own browser.
// listening is called with the address actually bound, before the first request is
// served, so that the caller can print the URL. Address errors name --addr.
func ServeExplorer(ctx context.Context, sc *Scene, addr string, listening func(net.Addr)) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %v", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--addr %q: the explorer listens on a loopback address only (127.0.0.1)", addr)
	}
	h, err := Explorer(sc)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("explorer: %v", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	listening(ln.Addr())
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			srv.Close()
		case <-done:
		}
	}()
	err = srv.Serve(ln)
	close(done)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
