package e2e

import (
	"os/exec"
	"syscall"
)

// dieWithTests has the kernel kill the server when the test binary dies (a timeout's panic), so
// that no server outlives its tests.
func dieWithTests(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
