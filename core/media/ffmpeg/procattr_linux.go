package ffmpeg

import (
	"os/exec"
	"syscall"
)

// setPdeathsig kills the child when the worker process dies (kill -9
// included), so an abandoned transcode never keeps the CPUs busy.
func setPdeathsig(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
