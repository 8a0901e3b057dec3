package props

import (
	"fmt"
	"regexp"
	"strings"
)

// ErrBadInput marks errors caused by the caller's input (an unknown algorithm, a
// malformed parameter, an instance that cannot be built): errors.Is(err, ErrBadInput)
// holds for them, and the message is one line naming the field. Any other error is
// internal. It is a constant, so no caller can replace it; props/check re-exports it.
const ErrBadInput = sentinel("bad input")

// sentinel is an error that is a constant.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// inputError is a one-line bad-input message that matches ErrBadInput.
type inputError struct{ msg string }

func (e *inputError) Error() string        { return e.msg }
func (e *inputError) Is(target error) bool { return target == ErrBadInput }

// BadInputf returns a bad-input error (it matches ErrBadInput) with a formatted one-line
// message that names the field.
func BadInputf(format string, args ...any) error {
	return &inputError{msg: fmt.Sprintf(format, args...)}
}

// FieldError is bad input (it matches ErrBadInput) whose message names what the caller
// gave: fields of its options ("Options.Rate") or an argument ("Relation"). Error names
// them as a Go caller writes them, Named as another caller knows them (a command its
// flags), so that a library speaks in its own terms and a command still answers in the
// words its user typed.
type FieldError struct {
	// Fields are the fields the message names, in its order; the first is at fault.
	Fields []string
	// text is the message cut at the fields: text[i] precedes Fields[i], and text has
	// one piece more than Fields.
	text []string
}

// fieldMark is a field's name in a FieldErrorf format: {Options.Rate}.
var fieldMark = regexp.MustCompile(`\{((?:[a-z]\w*\.)?[A-Z]\w*(?:\.[A-Z]\w*)*)\}`)

// FieldErrorf returns a *FieldError whose message is format with args, where each
// {Name} of format names a field: an exported identifier or selector, which a package
// may qualify ({Options.Rate}, {topology.WithFaults}).
func FieldErrorf(format string, args ...any) error {
	const cut = "\x00"
	msg := fmt.Sprintf(fieldMark.ReplaceAllString(format, cut+"${1}"+cut), args...)
	parts := strings.Split(msg, cut)
	e := &FieldError{}
	for i, p := range parts {
		if i%2 == 0 {
			e.text = append(e.text, p)
		} else {
			e.Fields = append(e.Fields, p)
		}
	}
	return e
}

// Error is the message with the fields' Go names.
func (e *FieldError) Error() string { return e.Named(func(f string) string { return f }) }

// Named is the message with each field written as name gives it.
func (e *FieldError) Named(name func(field string) string) string {
	var b strings.Builder
	for i, t := range e.text {
		b.WriteString(t)
		if i < len(e.Fields) {
			b.WriteString(name(e.Fields[i]))
		}
	}
	return b.String()
}

func (e *FieldError) Is(target error) bool { return target == ErrBadInput }
