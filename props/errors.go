package props

import "fmt"

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
