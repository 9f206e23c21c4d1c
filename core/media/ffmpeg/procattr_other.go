//go:build !linux

package ffmpeg

import "os/exec"

func setPdeathsig(*exec.Cmd) {}
