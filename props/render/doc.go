// Package render draws wormcheck's witnesses so that a person can understand them: SVG
// pictures of flit-level states and wait-for cycles (DrawFlit), of unicast schedules and
// their contending pairs (Schedule), and the data of the browser trace explorer.
//
// Pictures take model-level inputs (model.Grid, model.Schedule, flit states, props.Witness)
// and never an algorithm's types, so every algorithm's witnesses are drawn the same way;
// algos do not import render. Output is a pure function of the input: no clock, no map
// iteration, fixed number formatting, so pictures can be golden-tested and diffed
// (go test ./props/render -update rewrites testdata).
package render
