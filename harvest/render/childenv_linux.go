//go:build linux

package render

import (
	"os/exec"
	"syscall"
)

// childCmd is chromedp's ModifyCmdFunc: the environment of restrictEnv,
// and, as chromedp does by default on Linux, the browser killed when this
// process dies.
func childCmd(cmd *exec.Cmd) {
	restrictEnv(cmd)
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = new(syscall.SysProcAttr)
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
