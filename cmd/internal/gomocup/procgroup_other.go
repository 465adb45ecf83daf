//go:build !unix

package gomocup

import "os/exec"

// ownGroup does nothing where there are no process groups.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills cmd's process (its children are not followed here).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
