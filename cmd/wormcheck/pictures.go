package main

import (
	"context"

	"github.com/wormcheck/wormcheck/props/check"
	"github.com/wormcheck/wormcheck/props/render"
)

// This file draws saved files (`wormcheck render`) and builds their explorer scenes
// (`wormcheck explore`): the library reads the file and returns its report with the
// evidence (check.Saved: a trace replayed on its model, a schedule judged for its first
// contention); props/render draws it.

// picture draws the saved file named file, whose contents are data, as SVG.
func picture(ctx context.Context, file string, data []byte) ([]byte, error) {
	rep, err := check.Saved(ctx, file, data)
	if err != nil {
		return nil, err
	}
	pic, err := render.Picture(rep.Evidence)
	if err != nil {
		return nil, usagef("%s: %v", file, err)
	}
	if pic == nil {
		return nil, usagef("%s: algorithm %s has no picture for this file", file, rep.Instance.Algorithm)
	}
	return pic, nil
}

// exploreScene builds the trace explorer's data (render.Scene) for a saved file: a
// flit-level trace file (replayed on its model, one frame per step) or a schedule file
// (its first contention marked on a time slider over channel occupancy).
func exploreScene(ctx context.Context, data []byte, name string) (*render.Scene, error) {
	rep, err := check.Saved(ctx, name, data)
	if err != nil {
		return nil, err
	}
	sc, err := render.SceneOf(rep.Evidence)
	if err != nil {
		return nil, usagef("%s: %v", name, err)
	}
	return sc, nil
}
