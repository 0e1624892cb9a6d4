package testenv

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Descendants are the processes below pid: its children, theirs, and so on. It reads /proc,
// so it finds none where there is no /proc.
func Descendants(pid int) []int {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid := Parent(p); ppid > 0 {
			parent[p] = ppid
		}
	}
	var out []int
	for p := range parent {
		// The depth bound guards against a loop made of pids reused while /proc was read.
		for q, depth := parent[p], 0; q > 1 && depth < 64; q, depth = parent[q], depth+1 {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// Args are the command-line arguments of a process, nil when it is gone.
func Args(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

// Parent is the parent of a process, 0 when it is gone.
func Parent(pid int) int {
	f := stat(pid)
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// Alive says whether a process exists and is neither a zombie nor dead.
func Alive(pid int) bool {
	f := stat(pid)
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// stat is a process's /proc/PID/stat after its name: state, ppid, …; nil when it is gone. The
// name (comm) may hold spaces and parentheses, so the fields start after its last ')'.
func stat(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	return strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
}
