package main

import (
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/props/check"
)

// TestWriteAlgorithmsListsTheRegistry checks that every algorithm is listed with its
// properties and their semantics.
func TestWriteAlgorithmsListsTheRegistry(t *testing.T) {
	var b strings.Builder
	writeAlgorithms(&b)
	for _, a := range check.Algorithms() {
		if !strings.Contains(b.String(), "  "+a.Name+" ") {
			t.Errorf("%s is not listed", a.Name)
		}
		for _, p := range a.Properties {
			if !strings.Contains(b.String(), string(p.Property)+" ("+p.Semantics+")") {
				t.Errorf("%s: property %s (%s) is not listed", a.Name, p.Property, p.Semantics)
			}
		}
	}
}

// TestRegistryCommandsAreCommands checks that every command of the library's registry
// (check.Commands) is a command of the command line, documented by its usage, with
// nothing of its own in cmd: what lets a new command plug in without touching dispatch.
func TestRegistryCommandsAreCommands(t *testing.T) {
	for _, a := range check.Commands() {
		c, ok := commands[a.Command.Name]
		if !ok {
			t.Errorf("registry command %s is not a command", a.Command.Name)
			continue
		}
		if c.Help != a.Command.Usage || c.Summary != a.Summary {
			t.Errorf("%s: help or summary is not the registry's", a.Command.Name)
		}
		code, out, _ := runCLI(t, a.Command.Name, "--help")
		if code != exitHolds || !strings.HasPrefix(out, a.Command.Usage) {
			t.Errorf("%s --help: exit %d, output does not start with its usage", a.Command.Name, code)
		}
	}
}
