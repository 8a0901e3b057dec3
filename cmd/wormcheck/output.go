package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// marshalIndent encodes v as indented JSON without HTML escaping (traces say "->").
func marshalIndent(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding JSON: %v", err)
	}
	return buf.Bytes(), nil
}

func writeJSON(w io.Writer, v any) error {
	b, err := marshalIndent(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
