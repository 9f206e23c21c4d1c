package ffmpeg_test

import (
	"os"
	"syscall"
	"time"
)

func accessTime(st os.FileInfo) time.Time {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return time.Unix(s.Atim.Sec, s.Atim.Nsec)
	}
	return time.Time{}
}
