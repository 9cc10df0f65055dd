//go:build !linux

package render

import "os/exec"

// childCmd is chromedp's ModifyCmdFunc: the environment of restrictEnv.
func childCmd(cmd *exec.Cmd) { restrictEnv(cmd) }
