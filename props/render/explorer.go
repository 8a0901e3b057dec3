// The trace explorer page: a handler that serves the embedded page and one Scene.

package render

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
)

//go:embed explorer
var explorerFiles embed.FS

// Explorer returns the HTTP handler of the trace explorer for sc: the page
// (index.html, explorer.js, explorer.css, all embedded: the page needs no network) and
// the scene as /scene.json. The page steps through the frames with buttons, a slider and
// the keys ←/→/Home/End/space, and names the current step in the URL (#step=N, or #t=N
// for a schedule's time slider).
func Explorer(sc *Scene) (http.Handler, error) {
	if sc == nil {
		return nil, fmt.Errorf("render: no scene to explore")
	}
	data, err := json.Marshal(sc)
	if err != nil {
		return nil, fmt.Errorf("render: scene: %v", err)
	}
	page, err := fs.Sub(explorerFiles, "explorer")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServerFS(page))
	mux.HandleFunc("/scene.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(data)
	})
	return mux, nil
}
