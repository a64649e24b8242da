// Package ours runs schedplay's CLI ("ours") and decodes its contract JSON, for the
// commands that compare it with upstream's answers.
package ours

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// Runner runs one schedplay binary with a timeout per run.
type Runner struct {
	Bin      string
	BuildErr error // why Bin could not be built, if it could not
	Timeout  time.Duration
}

// Run executes ours and decodes its JSON into v. A non-zero exit is returned as
// *InputRejected (ours says the input is invalid) with its stderr.
func (r *Runner) Run(v any, args ...string) error {
	if r.Bin == "" {
		if r.BuildErr != nil {
			return fmt.Errorf("not built: %s", FirstLine(r.BuildErr.Error()))
		}
		return errors.New("no binary")
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.Bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return fmt.Errorf("timed out after %s", r.Timeout)
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return &InputRejected{Msg: FirstLine(stderr.String()), Stdout: stdout.Len()}
		}
		return err
	}
	if err := json.Unmarshal(stdout.Bytes(), v); err != nil {
		return fmt.Errorf("bad JSON on stdout: %v", err)
	}
	return nil
}

// InputRejected is a run of ours that exited non-zero: it refused the input.
type InputRejected struct {
	Msg    string // the first line of its stderr
	Stdout int    // bytes it printed on stdout (the contract says none)
}

func (e *InputRejected) Error() string { return "exit non-zero: " + e.Msg }

// FirstLine is s trimmed to its first line.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
